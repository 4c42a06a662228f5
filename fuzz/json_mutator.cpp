#include "fuzz/json_mutator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/json_input.hpp"
#include "properties/suites/generators.hpp"

namespace poolcheck::fuzz {
namespace {

// One level past the parser's limit: 64 passes and 65 is rejected, and both
// sides of that edge are worth reaching; anything deeper is rejected the same
// way and only makes inputs bigger.
constexpr int kDepthCap = kMaxNestingDepth + 1;

// Draws from splitmix64 seeded with the engine's seed.
class Rng {
 public:
  explicit Rng(unsigned int seed) : state_(seed) {}
  std::uint64_t next() { return splitmix64(state_); }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
  bool one_in(std::size_t n) { return below(n) == 0; }
  template <class T, std::size_t N>
  const T& pick(const std::array<T, N>& items) { return items[below(N)]; }

 private:
  std::uint64_t state_;
};

// Every key the spec gives a meaning to: the envelope, the score / rerank /
// LLM.score bodies, ScoreInput parts, the model (tokenizer, pooler) and
// PoolingParams (late interaction, extras). Keep in step with request.dict.
constexpr std::array<std::string_view, 76> kFieldNames = {
    "endpoint", "model", "request", "pooling_params",
    "queries", "documents", "items", "data_1", "data_2", "text_1", "text_2", "query", "top_n",
    "user", "request_id", "truncate_prompt_tokens", "truncation_side", "padding", "priority",
    "mm_processor_kwargs", "cache_salt", "use_activation", "max_tokens_per_query", "max_tokens_per_doc",
    "instruction", "chat_template_kwargs", "chat_template", "tools", "tokenize", "normalize",
    "content", "type", "text", "image_url", "url",
    "name", "architecture", "max_model_len", "vocab_size", "is_multimodal", "tokenizer",
    "returns_token_type_ids", "use_sep_token", "pad_token_id", "pooler", "pooling_type", "dimensions",
    "step_tag_id", "returned_token_ids", "is_matryoshka", "matryoshka_dimensions", "embedding_size",
    "task", "requires_token_ids", "skip_reading_prefix_cache", "late_interaction_params", "mode",
    "query_key", "query_uses", "extra_kwargs", "output_kind", "compressed_token_type_ids",
    "num_crops", "size", "custom", "seq_len", "multi_modal_data", "image", "prompt", "prompt_token_ids",
    "caller_pooling_params", "error", "message", "param", "code", "outputs",
};

// String values the spec gives a meaning to: endpoints, enum literals, tasks,
// pooler types, the architectures of the three tokenizer styles.
constexpr std::array<std::string_view, 40> kLiterals = {
    "score", "rerank", "llm.score", "left", "right", "max_length", "do_not_pad",
    "FINAL_ONLY", "DELTA", "CUMULATIVE", "embed", "classify", "token_embed", "token_classify",
    "plugin", "embed&token_classify", "encode", "cache_query", "score_doc", "text", "image_url",
    "STEP", "CLS", "MEAN", "LAST", "BertForSequenceClassification",
    "XLMRobertaForSequenceClassification", "Qwen3ForSequenceClassification", "JinaVLForRanking",
    "cross-encoder/ms-marco-MiniLM-L-6-v2", "some/other-model", "compressed_token_type_ids",
    "https://example.com/a.png", "chat_template", "tools", "tokenize", "null", "true", "0", "-1",
};

// Short strings that hit the tokenizer's and the validators' edges: case,
// Unicode whitespace, non-ASCII code points, cache_salt's forbidden characters.
constexpr std::array<std::string_view, 18> kStringPieces = {
    " ", "a", "Z9", "@", "/", "\\", std::string_view("\0", 1), "\t", "\xC2\xA0" /* NBSP */,
    "\xE2\x80\xA8" /* LINE SEPARATOR */, "\xC3\xA9" /* e acute */, "\xE6\x97\xA5" /* CJK */,
    "\xF0\x9F\x98\x80" /* emoji */, ".", "hello world", "[SEP]", "\"", "x y z",
};

// Replacement values: the integer boundaries of the spec (signs, 128/129,
// 2^30 for packing, 2^31, 2^63 on both sides of int64), floats that are not
// integers though they look like one, the empty and the long string, and one
// of each JSON type.
const std::vector<Json>& boundary_values() {
  static const std::vector<Json> values = [] {
    constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
    std::vector<Json> v;
    for (std::int64_t n : {std::int64_t{-2}, std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, std::int64_t{2},
                           std::int64_t{3}, std::int64_t{8}, std::int64_t{101}, std::int64_t{102},
                           std::int64_t{103}, std::int64_t{127}, std::int64_t{128}, std::int64_t{129},
                           std::int64_t{255}, std::int64_t{256}, std::int64_t{384}, std::int64_t{511},
                           std::int64_t{512}, std::int64_t{513}, std::int64_t{1000}, std::int64_t{1001},
                           std::int64_t{30522}, std::int64_t{65536}, std::int64_t{1} << 24,
                           (std::int64_t{1} << 30) - 1, std::int64_t{1} << 30, (std::int64_t{1} << 30) + 1,
                           (std::int64_t{1} << 31) - 1, std::int64_t{1} << 31, -(std::int64_t{1} << 31),
                           std::int64_t{1} << 32, kInt64Max - 1, kInt64Max, kInt64Min + 1, kInt64Min})
      v.emplace_back(n);
    v.emplace_back(std::uint64_t{1} << 63);  // 2^63: one past int64
    v.emplace_back(std::numeric_limits<std::uint64_t>::max());
    for (double d : {0.5, 1.0, 2.0, -0.0, 1e308, -1e308}) v.emplace_back(d);
    for (const char* s : {"", " ", "a", "@", "\\"}) v.emplace_back(s);
    v.emplace_back(std::string(1, '\0'));
    v.emplace_back(std::string(128, 's'));  // cache_salt: 128 passes
    v.emplace_back(std::string(129, 's'));  // 129 does not
    v.emplace_back(nullptr);
    v.emplace_back(true);
    v.emplace_back(false);
    v.emplace_back(Json::array());
    v.emplace_back(Json::object());
    return v;
  }();
  return values;
}

// A float as the integer a type change gives it: truncated and clamped to
// +-1e18; NaN (which the parser reads) becomes 0, since no cast of it is defined.
std::int64_t as_integer(double value) {
  if (std::isnan(value)) return 0;
  return static_cast<std::int64_t>(std::clamp(value, -1e18, 1e18));
}

// A value of the tree with what a mutation needs to know about its place:
// `depth` counts the containers around it (the root has 0).
struct Node {
  Json* value;
  Json* parent;
  int depth;
};

// Nesting levels a value adds: 0 for a scalar, 1 for an empty container.
int height(const Json& value) {
  if (!value.is_structured()) return 0;
  int deepest = 0;
  for (const auto& child : value) deepest = std::max(deepest, height(child));
  return deepest + 1;
}

void collect(Json& value, Json* parent, int depth, std::vector<Node>& out) {
  out.push_back({&value, parent, depth});
  if (value.is_structured())
    for (auto& child : value) collect(child, &value, depth + 1, out);
}

class Mutation {
 public:
  Mutation(Json& root, Rng& rng, ByteMutator bytes) : rng_(rng), bytes_(bytes) { collect(root, nullptr, 0, nodes_); }

  // One mutation; false when the one drawn did not apply (the caller draws again).
  bool apply() {
    switch (rng_.below(12)) {
      case 0:
      case 1: return replace_with(any_node(), boundary());
      case 2: return replace_with(any_node(), Json(std::string(rng_.pick(kLiterals))));
      case 3: return rename_key();
      case 4: return drop_member();
      case 5: return duplicate_member();
      case 6: return add_member();
      case 7: return nest();
      case 8: return change_type();
      case 9: return copy_subtree();
      case 10: return tweak_number();
      default: return tweak_string();
    }
  }

 private:
  Node& any_node() { return nodes_[rng_.below(nodes_.size())]; }

  template <class Pred>
  Node* node_where(Pred pred) {
    std::vector<Node*> matching;
    for (auto& node : nodes_)
      if (pred(*node.value)) matching.push_back(&node);
    return matching.empty() ? nullptr : matching[rng_.below(matching.size())];
  }

  const Json& boundary() { return boundary_values()[rng_.below(boundary_values().size())]; }
  std::string field_name() { return std::string(rng_.pick(kFieldNames)); }

  // A value to put somewhere: a boundary, a spec literal, or a copy of a
  // subtree of the same document (which keeps a request's own shapes around).
  Json fresh_value() {
    switch (rng_.below(3)) {
      case 0: return boundary();
      case 1: return Json(std::string(rng_.pick(kLiterals)));
      default: return *any_node().value;
    }
  }

  // Writes `value` at `node` unless that would nest deeper than the cap.
  bool replace_with(Node& node, Json value) {
    if (node.depth + height(value) > kDepthCap) return false;
    *node.value = std::move(value);
    return true;
  }

  static std::string key_at(const Json& object, std::size_t index) {
    auto it = object.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(index));
    return it.key();
  }

  // Swaps one key for a spec field name, in place. When the name is already
  // there the later member wins at the earlier place, as the parser does with
  // duplicate keys.
  bool rename_key() {
    Node* node = node_where([](const Json& v) { return v.is_object() && !v.empty(); });
    if (node == nullptr) return false;
    const std::size_t index = rng_.below(node->value->size());
    const std::string name = field_name();
    Json renamed = Json::object();
    std::size_t i = 0;
    for (auto& member : node->value->items()) renamed[i++ == index ? name : member.key()] = std::move(member.value());
    *node->value = std::move(renamed);
    return true;
  }

  bool drop_member() {
    Node* node = node_where([](const Json& v) { return v.is_structured() && !v.empty(); });
    if (node == nullptr) return false;
    Json& container = *node->value;
    const std::size_t index = rng_.below(container.size());
    if (container.is_object()) container.erase(key_at(container, index));
    else container.erase(index);
    return true;
  }

  // An array element twice in a row (1:N and N:N pairing, repeated parts), or
  // an object member's value under a second spec name.
  bool duplicate_member() {
    Node* node = node_where([](const Json& v) { return v.is_structured() && !v.empty(); });
    if (node == nullptr) return false;
    Json& container = *node->value;
    const std::size_t index = rng_.below(container.size());
    if (container.is_array()) {
      Json copy = container[index];
      container.insert(container.begin() + static_cast<std::ptrdiff_t>(index), std::move(copy));
    } else {
      Json copy = container[key_at(container, index)];
      container[field_name()] = std::move(copy);
    }
    return true;
  }

  bool add_member() {
    Node* node = node_where([](const Json& v) { return v.is_structured(); });
    if (node == nullptr) return false;
    Json value = fresh_value();
    if (node->depth + 1 + height(value) > kDepthCap) return false;
    if (node->value->is_object()) (*node->value)[field_name()] = std::move(value);
    else node->value->push_back(std::move(value));
    return true;
  }

  // One level more around a value: a list, an object under a spec name, or a
  // multimodal text part.
  bool nest() {
    Node& node = any_node();
    const std::size_t kind = rng_.below(3);
    const int added = kind == 2 ? 3 : 1;
    if (node.depth + height(*node.value) + added > kDepthCap) return false;
    Json inner = std::move(*node.value);
    switch (kind) {
      case 0: *node.value = Json::array({std::move(inner)}); break;
      case 1: *node.value = Json::object({{field_name(), std::move(inner)}}); break;
      default: *node.value = Json{{"content", Json::array({Json{{"type", "text"}, {"text", std::move(inner)}}})}};
    }
    return true;
  }

  // The same content as another JSON type: 2 as 2.0 or "2", a string as a
  // number or a list, a list as an object with spec keys, and so on.
  bool change_type() {
    Node& node = any_node();
    const Json& v = *node.value;
    Json changed;
    switch (rng_.below(7)) {
      case 0: changed = nullptr; break;
      case 1:
        changed = v.is_boolean() ? !v.get<bool>()
                  : v.is_number() ? v != Json(0)
                  : v.is_string() || v.is_structured() ? !v.empty()
                  : true;
        break;
      case 2:
        if (v.is_number_float()) changed = as_integer(v.get<double>());
        else if (v.is_boolean()) changed = v.get<bool>() ? 1 : 0;
        else if (v.is_string()) changed = v.get_ref<const std::string&>().size();
        else if (v.is_structured()) changed = v.size();
        else changed = 0;
        break;
      case 3:
        changed = v.is_number() ? Json(v.get<double>()) : Json(1.0);
        break;
      case 4: changed = v.is_string() ? Json(v.get<std::string>() + "0") : Json(props::input_json(v)); break;
      case 5:
        if (v.is_object()) {
          changed = Json::array();
          for (const auto& member : v) changed.push_back(member);
        } else {
          changed = Json::array({v});
        }
        break;
      default:
        if (v.is_array()) {
          changed = Json::object();
          for (const auto& element : v) changed[field_name()] = element;
        } else {
          changed = Json::object({{field_name(), v}});
        }
    }
    return replace_with(node, std::move(changed));
  }

  // A subtree copied over another node, or a container replaced by one of its
  // children (one level less).
  bool copy_subtree() {
    Node& target = any_node();
    if (rng_.one_in(2) && target.value->is_structured() && !target.value->empty()) {
      Json child = *target.value->begin();
      *target.value = std::move(child);
      return true;
    }
    return replace_with(target, Json(*any_node().value));
  }

  bool tweak_number() {
    Node* node = node_where([](const Json& v) { return v.is_number(); });
    if (node == nullptr) return false;
    Json& v = *node->value;
    if (v.is_number_float()) {
      const double d = v.get<double>();
      const std::array<double, 4> options = {d * 2, -d, d + 0.5, d - 1};
      v = rng_.pick(options);
      return true;
    }
    // Wrapping arithmetic in uint64_t: overflow is the point, not UB.
    const std::uint64_t u = v.is_number_unsigned() ? v.get<std::uint64_t>()
                                                   : static_cast<std::uint64_t>(v.get<std::int64_t>());
    const std::array<std::uint64_t, 6> options = {u + 1, u - 1, ~u + 1, u << 1, u >> 1, u ^ (std::uint64_t{1} << rng_.below(64))};
    const std::uint64_t result = rng_.pick(options);
    // Mostly signed (what the core's integers are); sometimes as unsigned, to
    // cross 2^63 from below.
    if (rng_.one_in(8)) v = result;
    else v = static_cast<std::int64_t>(result);
    return true;
  }

  bool tweak_string() {
    Node* node = node_where([](const Json& v) { return v.is_string(); });
    if (node == nullptr) return false;
    std::string s = node->value->get<std::string>();
    switch (rng_.below(6)) {
      case 0: s.insert(rng_.below(s.size() + 1), rng_.pick(kStringPieces)); break;
      case 1: s.resize(rng_.below(s.size() + 1)); break;
      case 2:
        for (char& c : s)
          if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        break;
      case 3:
        if (s.size() < 256) s += s + " " + s;  // longer sides for truncation
        break;
      case 4: s = field_name(); break;
      default:
        if (bytes_ != nullptr) {
          s.resize(s.size() + 16);
          const std::size_t n = bytes_(reinterpret_cast<std::uint8_t*>(s.data()), s.size() - 16, s.size());
          s.resize(n);
        } else {
          s += rng_.pick(kStringPieces);
        }
    }
    *node->value = std::move(s);
    return true;
  }

  Rng& rng_;
  ByteMutator bytes_;
  std::vector<Node> nodes_;
};

// Without libFuzzer (replay drivers, tests): one flipped bit, or a `{` into
// an empty input.
std::size_t flip_one_bit(std::uint8_t* data, std::size_t size, std::size_t max_size, Rng& rng) {
  if (size == 0) {
    if (max_size == 0) return 0;
    data[0] = '{';
    return 1;
  }
  data[rng.below(size)] ^= static_cast<std::uint8_t>(1u << rng.below(8));
  return size;
}

std::size_t mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size, Rng& rng, ByteMutator bytes) {
  return bytes != nullptr ? bytes(data, size, max_size) : flip_one_bit(data, size, max_size, rng);
}

}  // namespace

std::size_t mutate_json(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed,
                        ByteMutator bytes) {
  Rng rng(seed);
  // One call in ten stays at the byte level even for valid JSON: syntax
  // errors, escapes and number spellings the tree cannot express.
  if (rng.one_in(10)) return mutate_bytes(data, size, max_size, rng, bytes);
  try {
    auto parsed = parse_bounded_json(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!parsed) return mutate_bytes(data, size, max_size, rng, bytes);
    Json root = std::move(*parsed);
    // One mutation, sometimes two or three stacked; each on a fresh view of
    // the tree, since a mutation moves values around.
    const std::size_t rounds = 1 + (rng.one_in(3) ? 1 + rng.below(2) : 0);
    for (std::size_t round = 0; round < rounds; ++round) {
      Mutation mutation(root, rng, bytes);
      for (int attempt = 0; attempt < 8 && !mutation.apply(); ++attempt) {
      }
    }
    // Mostly compact; sometimes spread out, the whitespace the parser must skip.
    // Written as the core writes JSON, so NaN and integers beyond 64 bits survive.
    std::string out = props::input_json(root);
    if (rng.one_in(8)) out = props::spread_json(out);
    if (out.size() > max_size) return mutate_bytes(data, size, max_size, rng, bytes);
    std::memcpy(data, out.data(), out.size());
    return out.size();
  } catch (const std::exception&) {
    // nlohmann throws on a few operations (e.g. conversions); never on the
    // fuzzer's time.
    return mutate_bytes(data, size, max_size, rng, bytes);
  }
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::size_t mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed,
                         ByteMutator bytes) {
  Rng rng(seed);
  return mutate_bytes(data, size, max_size, rng, bytes);
}

}  // namespace poolcheck::fuzz
