#include "properties/suites/generators.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "core/integer.hpp"
#include "core/unicode.hpp"
#include "properties/laws/word_laws.hpp"

namespace poolcheck::props {
namespace {

constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();

std::string utf8(const std::vector<std::uint32_t>& code_points) {
  std::string out;
  for (std::uint32_t c : code_points) append_utf8(out, c);
  return out;
}

rc::Gen<std::uint32_t> gen_code_point() {
  using rc::gen::inRange;
  return rc::gen::weightedOneOf<std::uint32_t>({
      {12, inRange<std::uint32_t>('a', 'z' + 1)},
      {3, inRange<std::uint32_t>(0x20, 0x7F)},
      {1, rc::gen::element<std::uint32_t>(0, '\t', '\n', 0x7F, '"', '\\', '@', '/')},
      {2, inRange<std::uint32_t>(0xA0, 0x800)},
      // The Latin-1 code points Python's repr() escapes as \xNN: the C1 controls,
      // NO-BREAK SPACE and SOFT HYPHEN (automatic mutant auto-python-repr-41-int-literal-1
      // printed them as they are).
      {1, inRange<std::uint32_t>(0x80, 0xA1)},
      {1, rc::gen::just<std::uint32_t>(0xAD)},
      {1, rc::gen::element<std::uint32_t>(0xFEFF, 0x200B)},
      // Where UTF-8's sequence forms change: lengths 1/2/3/4, the lead bytes
      // E0, ED (surrogates excluded), F0 and F4 with their own second-byte ranges.
      {1, rc::gen::element<std::uint32_t>(0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xE000,
                                          0xFFFD, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000, 0x10FFFF)},
      // Every White_Space code point and the neighbours of each range: the
      // word split's edges (laws::words_split judges them).
      {2, rc::gen::map(rc::gen::inRange<std::size_t>(0, laws::white_space_edges().size()),
                       [](std::size_t i) { return static_cast<std::uint32_t>(laws::white_space_edges()[i]); })},
      {2, inRange<std::uint32_t>(0x4E00, 0x4F00)},
      {1, inRange<std::uint32_t>(0x1F600, 0x1F650)},
      {1, inRange<std::uint32_t>(0xE000, 0xF900)},
  });
}

rc::Gen<double> gen_double() {
  // NaN and the infinities too: Python's json.loads reads them (spec 11.3).
  return rc::gen::element(0.5, -0.0, 1.0, -2.5, 1e300, -1e-300, 3.141592653589793, 1e16, 2.5e-8,
                          std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity());
}

}  // namespace

bool chance(int percent) {
  const auto coin = rc::gen::weightedElement<bool>(
      {{static_cast<std::size_t>(100 - percent), false}, {static_cast<std::size_t>(percent), true}});
  return *rc::gen::shrink(coin, [](bool value) { return value ? rc::seq::just(false) : rc::Seq<bool>(); });
}

namespace {

// The kinds of byte after which a JSON text promises more (gen_json_cut), or
// kNoPromise. `before` is the byte before `c`, which tells an exponent's `e`
// (after a digit) from a letter.
constexpr std::size_t kPromiseKinds = 7;
constexpr std::size_t kNoPromise = kPromiseKinds;
std::size_t promise_kind(unsigned char before, unsigned char c) {
  const auto digit = [](unsigned char b) { return b >= '0' && b <= '9'; };
  if (c == '-') return 0;
  if (c == '.' || c == '+' || ((c == 'e' || c == 'E') && digit(before))) return 1;
  if (c == '\\') return 2;
  if (c >= 0x80) return 3;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return 4;
  if (digit(c)) return 5;
  if (c == '"' || c == ':' || c == ',' || c == '[' || c == '{') return 6;
  return kNoPromise;
}

}  // namespace

rc::Gen<std::size_t> gen_json_cut(std::string text) {
  return rc::gen::exec([text] {
    if (text.empty()) return std::size_t{0};
    std::array<std::vector<std::size_t>, kPromiseKinds> after;
    for (std::size_t at = 1; at < text.size(); ++at) {
      const auto before = static_cast<unsigned char>(at >= 2 ? text[at - 2] : 0);
      const std::size_t kind = promise_kind(before, static_cast<unsigned char>(text[at - 1]));
      if (kind != kNoPromise) after[kind].push_back(at);
    }
    std::vector<const std::vector<std::size_t>*> kinds;
    for (const auto& positions : after)
      if (!positions.empty()) kinds.push_back(&positions);
    if (kinds.empty() || chance(20)) return *rc::gen::inRange<std::size_t>(0, text.size());
    const auto& positions = *kinds[*rc::gen::inRange<std::size_t>(0, kinds.size())];
    return positions[*rc::gen::inRange<std::size_t>(0, positions.size())];
  });
}

rc::Gen<std::string> gen_unicode_string(int max_length) {
  return rc::gen::map(rc::gen::resize(max_length, rc::gen::container<std::vector<std::uint32_t>>(gen_code_point())),
                      utf8);
}

namespace {

std::vector<std::string> utf8_each(const std::vector<char32_t>& code_points) {
  std::vector<std::string> out;
  for (const char32_t c : code_points) out.push_back(utf8({static_cast<std::uint32_t>(c)}));
  return out;
}

}  // namespace

rc::Gen<std::string> gen_white_space() {
  static const std::vector<std::string> pool = utf8_each(laws::white_space_code_points());
  return rc::gen::elementOf(pool);
}

rc::Gen<std::string> gen_white_space_neighbour() {
  static const std::vector<std::string> pool = utf8_each(laws::white_space_neighbours());
  return rc::gen::elementOf(pool);
}

const std::vector<std::string>& broken_utf8_sequences() {
  static const std::vector<std::string> sequences = [] {
    std::vector<std::string> all{
        "\xc3" "A", "\xe4\xb8" "A", "\xe4" "A" "\xad", "\xf0\x9f\x98" "A", "\xf0\x9f" "A" "\x80", "\xc3", "\xc0\x80",
        "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\x80",
        "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf4\xbf\xbf\xbf", "\xf5\x80\x80\x80", "\xf8\x88\x80\x80\x80",
        "\xff", "\x80", "\xbf"};
    // A well-formed sequence of each lead byte class with one of its
    // continuation bytes just outside 0x80..0xBF, 0x7F or 0xC0 (automatic
    // mutants auto-json-input-111-int-literal-2 and -112-int-literal-1 moved
    // the edges of the second byte's range).
    for (const std::string well_formed : {"\xc3\xa9", "\xe0\xa0\x80", "\xe4\xb8\xad", "\xed\x9f\xbf",
                                          "\xf0\x90\x80\x80", "\xf1\x80\x80\x80", "\xf4\x8f\xbf\xbf"})
      for (std::size_t at = 1; at < well_formed.size(); ++at)
        for (const char outside : {'\x7f', '\xc0'}) {
          std::string broken = well_formed;
          broken[at] = outside;
          all.push_back(broken);
        }
    return all;
  }();
  return sequences;
}

rc::Gen<std::string> gen_broken_utf8() { return rc::gen::elementOf(broken_utf8_sequences()); }

std::string ascii_escaped(std::string_view json_text, bool upper_case) {
  const char* const kHex = upper_case ? "0123456789ABCDEF" : "0123456789abcdef";
  const auto escape = [&](std::string& out, char32_t unit) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
  };
  std::string out;
  for (std::size_t i = 0; i < json_text.size();) {
    if (static_cast<unsigned char>(json_text[i]) < 0x80) {
      out += json_text[i++];
      continue;
    }
    char32_t cp = 0;
    i += decode_utf8(json_text, i, cp);
    if (cp < 0x10000) {
      escape(out, cp);
    } else {
      escape(out, 0xD800 + ((cp - 0x10000) >> 10));
      escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FF));
    }
  }
  return out;
}

rc::Gen<std::string> gen_key() {
  return rc::gen::weightedOneOf<std::string>({
      {4, rc::gen::element<std::string>("a", "b", "custom", "trace-id")},
      {4, rc::gen::element<std::string>("compressed_token_type_ids", "cache_salt", "mm_processor_kwargs",
                                        "max_tokens_per_query", "max_tokens_per_doc", "chat_template_kwargs",
                                        "task", "extra_kwargs")},
      {1, rc::gen::just(std::string())},
      {2, gen_unicode_string(6)},
      // The last fixstr and the first str8 length: a wire map key on each side of
      // MessagePack's header edge (automatic mutant auto-msgpack-196-int-literal-4
      // refused a 31-byte key).
      {1, rc::gen::element(std::string(31, 'k'), std::string(32, 'k'))},
  });
}

rc::Gen<std::int64_t> gen_int() {
  return rc::gen::weightedOneOf<std::int64_t>({
      {6, rc::gen::inRange<std::int64_t>(0, 10)},
      {2, rc::gen::inRange<std::int64_t>(-5, 0)},
      {1, rc::gen::element(kMin64 + 0, kMax64, std::int64_t{1} << 30, (std::int64_t{1} << 30) - 1,
                                         std::int64_t{1} << 31, (std::int64_t{1} << 53) + 1)},
      {1, rc::gen::arbitrary<std::int64_t>()},
      // Where MessagePack's integer forms change (laws::shortest_forms).
      {1, rc::gen::element<std::int64_t>(127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, -32, -33, -128,
                                         -129, -32768, -32769, -2147483648, -2147483649)},
  });
}

rc::Gen<Json> gen_json(int depth) {
  using rc::gen::map;
  const auto leaf = rc::gen::weightedOneOf<Json>({
      {2, rc::gen::just(Json(nullptr))},
      {2, map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); })},
      {4, map(gen_int(), [](std::int64_t i) { return Json(i); })},
      {1, map(rc::gen::element<std::uint64_t>(std::uint64_t{1} << 63, std::numeric_limits<std::uint64_t>::max()),
              [](std::uint64_t u) { return Json(u); })},
      {2, map(gen_double(), [](double d) { return Json(d); })},
      {4, map(gen_unicode_string(8), [](std::string s) { return Json(std::move(s)); })},
  });
  if (depth <= 0) return leaf;
  const auto array = map(rc::gen::resize(4, rc::gen::container<std::vector<Json>>(gen_json(depth - 1))),
                         [](std::vector<Json> items) { return Json(std::move(items)); });
  return rc::gen::weightedOneOf<Json>({{6, leaf}, {1, array}, {1, gen_object(depth - 1)}});
}

rc::Gen<Json> gen_object(int depth) {
  using Member = std::pair<std::string, Json>;
  return rc::gen::map(rc::gen::resize(4, rc::gen::container<std::vector<Member>>(rc::gen::pair(gen_key(), gen_json(depth)))),
                      [](const std::vector<Member>& members) {
                        Json object = Json::object();
                        for (const auto& [key, value] : members) object[key] = value;
                        return object;
                      });
}

std::int64_t gen_token_limit(std::int64_t max_model_len) {
  const std::int64_t small = std::min<std::int64_t>(max_model_len, 6);
  return *rc::gen::inRange<std::int64_t>(0, chance(50) ? small : max_model_len);
}

rc::Gen<Json> gen_extra_kwargs(std::int64_t max_model_len) {
  return rc::gen::exec([max_model_len] {
    Json extras = *gen_object(2);
    // The keys the core reads, more often than gen_key alone would put them.
    if (chance(25)) extras["compressed_token_type_ids"] = *gen_json(1);
    if (chance(20)) extras["cache_salt"] = *gen_json(0);
    if (chance(20)) extras["mm_processor_kwargs"] = *gen_json(2);
    for (const char* limit : {"max_tokens_per_query", "max_tokens_per_doc"}) {
      if (chance(15)) extras[limit] = nullptr;
      // null means 0; a number must be a valid limit.
      if (extras.contains(limit))
        extras[limit] = chance(60) ? Json(gen_token_limit(max_model_len)) : Json(nullptr);
    }
    return extras;
  });
}

namespace {

// A few code points where Python's repr() changes its mind: each side of the
// edges of str.isprintable() (DEL, the C1 controls, NO-BREAK SPACE, SOFT
// HYPHEN, the first unassigned code point, the line separator, a private-use
// and a tag character), U+FFFF (the last four-digit escape) beside U+10000,
// the quotes and the backslash (automatic mutant
// auto-python-repr-17-int-literal-3 printed DEL as it is, and a task drew it
// too rarely to be found within a minute; auto-python-repr-21-relational-3
// gave U+FFFF eight digits, and nothing drew it).
rc::Gen<std::string> gen_repr_edge_string() {
  const auto edge =
      rc::gen::element<std::uint32_t>(0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xA1, 0xAC, 0xAD, 0xAE, 0xFF, 0x100,
                                      0x377, 0x378, 0x2027, 0x2028, 0xE000, 0xFFFF, 0x10000, 0xE0001, '\'', '"', '\\', 'a');
  return rc::gen::map(rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<std::vector<std::uint32_t>>(edge))),
                      utf8);
}

}  // namespace

rc::Gen<std::string> gen_task() {
  return rc::gen::weightedOneOf<std::string>({
      {6, rc::gen::element<std::string>("classify", "embed", "token_embed", "token_classify", "plugin",
                                        "embed&token_classify")},
      {1, rc::gen::map(gen_unicode_string(8), [](std::string task) {
         return task == "score" || task == "encode" ? task + "_" : task;
       })},
      {1, gen_repr_edge_string()},
  });
}

rc::Gen<Json> gen_length_edge_value() {
  return rc::gen::exec([] {
    // Containers at the fix forms' edge, and one time in twenty at array16's and map16's upper
    // edge (automatic mutants auto-msgpack-78-int-literal-7, -79-int-literal-7/8).
    const std::size_t items = chance(5) ? *rc::gen::element<std::size_t>(65535, 65536)
                                        : *rc::gen::element<std::size_t>(15, 16);
    switch (*rc::gen::inRange(0, 3)) {
      case 0: return Json(std::string(*rc::gen::element<std::size_t>(31, 32, 255, 256, 65535, 65536), 'x'));
      case 1: return Json(std::vector<int>(items, 7));
      default: {
        Json object = Json::object();
        // Appended, not looked up (ordered_json's operator[] searches linearly): the keys are distinct.
        auto& entries = object.get_ref<Json::object_t&>();
        for (std::size_t i = items; i > 0; --i) entries.emplace_back("k" + std::to_string(i), i);
        return object;
      }
    }
  });
}

rc::Gen<PoolingParams> gen_pooling_params() {
  return rc::gen::exec([] {
    PoolingParams p;
    p.use_activation = *optional_of(rc::gen::arbitrary<bool>());
    p.dimensions = *optional_of(gen_int(), 25);
    p.step_tag_id = *optional_of(gen_int(), 20);
    p.returned_token_ids =
        *optional_of(rc::gen::resize(4, rc::gen::container<std::vector<std::int64_t>>(gen_int())), 20);
    p.task = *optional_of(gen_task(), 60);
    p.requires_token_ids = chance(30);
    p.skip_reading_prefix_cache = *optional_of(rc::gen::arbitrary<bool>(), 30);
    if (chance(25))
      p.late_interaction_params = LateInteractionParams{*rc::gen::element<std::string>("cache_query", "score_doc"),
                                                        *gen_unicode_string(6), *optional_of(gen_int())};
    if (chance(60)) p.extra_kwargs = std::make_shared<Json>(*gen_object(2));
    if (chance(8)) {
      if (!p.extra_kwargs) p.extra_kwargs = std::make_shared<Json>(Json::object());
      (*p.extra_kwargs)["sized"] = *gen_length_edge_value();
    }
    return p;
  });
}

rc::Gen<Json> gen_params_object(const PoolingParams& params) {
  return rc::gen::exec([params] {
    const Json full = params_to_object(params);
    Json object = Json::object();
    for (const auto& [key, value] : full.items()) {
      const bool is_default = value.is_null() || (key == "requires_token_ids" && value == false) ||
                              (key == "output_kind" && value == "FINAL_ONLY");
      if (!is_default || chance(50)) object[key] = value;
    }
    return object;
  });
}

rc::Gen<ModelCase> gen_model(Modality modality) {
  return rc::gen::exec([modality] {
    ModelCase m;
    m.style = *pick<TokenizerStyle>({TokenizerStyle::Bert, TokenizerStyle::XlmR, TokenizerStyle::Llm});
    m.multimodal = modality == Modality::Multimodal || (modality == Modality::Any && chance(20));
    m.name = "cross-encoder/ms-marco-MiniLM-L-6-v2";
    if (m.style == TokenizerStyle::Bert && !m.multimodal && chance(10)) return m;  // every default

    Json json = Json::object();
    if (chance(30)) {
      m.name = *rc::gen::element<std::string>("BAAI/bge-reranker-v2-m3", "Qwen/Qwen3-Reranker-0.6B", "");
      json["name"] = m.name;
    }
    if (chance(20))
      json["architecture"] = *rc::gen::element<std::string>("XLMRobertaForSequenceClassification",
                                                             "Qwen3ForSequenceClassification", "JinaVLForRanking");
    m.max_model_len = *rc::gen::weightedOneOf<std::int64_t>({{8, rc::gen::inRange<std::int64_t>(2, 33)},
                                                              {1, rc::gen::just<std::int64_t>(1)},
                                                              {1, rc::gen::just<std::int64_t>(512)}});
    json["max_model_len"] = m.max_model_len;
    if (chance(20)) json["vocab_size"] = *rc::gen::element<std::int64_t>(1001, 1003, 151669, std::int64_t{1} << 30);
    if (m.multimodal || chance(10)) json["is_multimodal"] = m.multimodal;

    Json tokenizer = Json::object();
    tokenizer["use_sep_token"] = m.style != TokenizerStyle::Llm;
    // Without a sep token there are never token types, whatever this says.
    tokenizer["returns_token_type_ids"] = m.style == TokenizerStyle::Bert || (m.style == TokenizerStyle::Llm && chance(50));
    if (chance(40)) tokenizer["truncation_side"] = *rc::gen::element<std::string>("right", "left");
    if (chance(20)) tokenizer["pad_token_id"] = *rc::gen::element<std::int64_t>(0, 1, 101, 102, 103, 5000);
    json["tokenizer"] = tokenizer;
    if (chance(5)) json["x-" + *gen_key()] = *gen_json(1);  // unknown keys are ignored
    m.json = json;
    return m;
  });
}

rc::Gen<std::string> gen_mutated(std::string original) {
  return rc::gen::exec([original] {
    std::string bytes = original;
    const int edits = *rc::gen::inRange(1, 4);
    for (int e = 0; e < edits; ++e) {
      const auto at = *rc::gen::inRange<std::size_t>(0, bytes.size() + 1);
      switch (*rc::gen::element(0, 1, 2, 3)) {
        case 0: bytes.resize(at); break;
        case 1: bytes.insert(at, 1, *rc::gen::arbitrary<char>()); break;
        case 2: if (at < bytes.size()) bytes.erase(at, *rc::gen::inRange<std::size_t>(1, 5)); break;
        case 3: if (at < bytes.size()) bytes[at] = static_cast<char>(bytes[at] ^ (1 << *rc::gen::inRange(0, 8))); break;
      }
    }
    return bytes;
  });
}

std::string style_name(TokenizerStyle style) {
  switch (style) {
    case TokenizerStyle::Bert: return "bert";
    case TokenizerStyle::XlmR: return "xlmr";
    case TokenizerStyle::Llm: return "llm";
  }
  return "?";
}

std::string printable(const std::string& bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    // A complete multi-byte UTF-8 sequence is kept as it is.
    const std::size_t extra = (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 0;
    bool sequence = extra > 0 && i + extra < bytes.size();
    for (std::size_t k = 1; sequence && k <= extra; ++k)
      sequence = (static_cast<unsigned char>(bytes[i + k]) >> 6) == 2;
    if (sequence) {
      out.append(bytes, i, extra + 1);
      i += extra;
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  return out;
}

namespace {

void write_input_json(std::string& out, const Json& value) {
  const auto scalar = [&out](const Json& v) { out += v.dump(-1, ' ', false, Json::error_handler_t::replace); };
  if (value.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out += ',';
      write_input_json(out, value[i]);
    }
    out += ']';
  } else if (value.is_object()) {
    out += '{';
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it != value.begin()) out += ',';
      scalar(Json(it.key()));
      out += ':';
      write_input_json(out, *it);
    }
    out += '}';
  } else if (value.is_number_float() && !std::isfinite(value.get<double>())) {
    const double d = value.get<double>();
    out += std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
  } else if (const auto big = value.is_binary() ? json_integer(value) : std::nullopt) {
    out += big->to_string();
  } else {
    scalar(value);
  }
}

}  // namespace

std::string input_json(const Json& value) {
  std::string out;
  write_input_json(out, value);
  return out;
}

std::string spread_json(const std::string& compact) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < compact.size(); ++i) {
    const char c = compact[i];
    out += c;
    if (in_string) {
      if (c == '\\' && i + 1 < compact.size()) out += compact[++i];
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{' || c == ',') {
      out += "\n ";
    }
  }
  return out;
}

}  // namespace poolcheck::props
