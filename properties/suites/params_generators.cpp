#include "properties/suites/params_generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <ostream>
#include <utility>
#include <vector>

#include "core/json_input.hpp"
#include "core/msgpack.hpp"
#include "core/output_json.hpp"
#include "core/wire.hpp"

namespace poolcheck::props {
namespace {

constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();

// The wire default of position i (spec section 2 table): what padding a short
// array up to i leaves valid.
Json wire_default(std::size_t i) {
  if (i == 5) return false;
  if (i == 9) return 2;
  return nullptr;
}

// A value of the wrong type for wire position i (0..8).
Json wrong_wire_value(std::size_t i) {
  switch (i) {
    case 0: case 6: return *rc::gen::element(Json("x"), Json(1));
    case 1: case 2: return *rc::gen::element(Json("1"), Json(1.5), Json(true));
    case 3: return *rc::gen::element(Json(5), Json::array({"a"}), Json::array({1.5}));
    case 4: return *rc::gen::element(Json(5), Json::array());
    case 5: return *rc::gen::element(Json(nullptr), Json(1), Json("false"));
    case 7: return *rc::gen::element(Json(5), Json("x"), Json::object());
    default: return *rc::gen::element(Json::array(), Json(5), Json("x"));
  }
}

// `width` bytes of `value`, big-endian, after `tag`.
void put(std::string& out, std::uint8_t tag, std::uint64_t value, int width) {
  out += static_cast<char>(tag);
  for (int shift = 8 * (width - 1); shift >= 0; shift -= 8) out += static_cast<char>((value >> shift) & 0xff);
}

// A length header for `length` items, in a form drawn from those that hold it:
// the fix form (tags fix_tag | length, below fix_limit), then the 8-, 16- and
// 32-bit forms (tag 0: the family has no such form). MessagePack's own table,
// written here apart from core/msgpack.cpp.
void put_length(std::string& out, std::uint64_t length, std::uint8_t fix_tag, std::uint64_t fix_limit,
                std::uint8_t tag8, std::uint8_t tag16, std::uint8_t tag32) {
  std::vector<int> widths;
  if (length < fix_limit) widths.push_back(0);
  if (tag8 != 0 && length <= 0xff) widths.push_back(1);
  if (length <= 0xffff) widths.push_back(2);
  widths.push_back(4);
  const int width = *rc::gen::elementOf(widths);
  if (width == 0) out += static_cast<char>(fix_tag | length);
  else put(out, width == 1 ? tag8 : width == 2 ? tag16 : tag32, length, width);
}

void put_integer(std::string& out, const Json& value) {
  if (value.is_number_unsigned() || value.get<std::int64_t>() >= 0) {
    const auto v = value.get<std::uint64_t>();
    std::vector<int> widths;
    if (v < 0x80) widths.push_back(0);
    for (int width : {1, 2, 4, 8})
      if (width == 8 || v >> (8 * width) == 0) widths.push_back(width);
    const int width = *rc::gen::elementOf(widths);
    if (width == 0) out += static_cast<char>(v);
    else put(out, width == 1 ? 0xcc : width == 2 ? 0xcd : width == 4 ? 0xce : 0xcf, v, width);
    return;
  }
  const auto v = value.get<std::int64_t>();
  std::vector<int> widths;
  if (v >= -32) widths.push_back(0);
  for (int width : {1, 2, 4, 8})
    if (width == 8 || v >= -(std::int64_t{1} << (8 * width - 1))) widths.push_back(width);
  const int width = *rc::gen::elementOf(widths);
  if (width == 0) out += static_cast<char>(v);
  else put(out, width == 1 ? 0xd0 : width == 2 ? 0xd1 : width == 4 ? 0xd2 : 0xd3, static_cast<std::uint64_t>(v), width);
}

void put_string(std::string& out, const std::string& text) {
  put_length(out, text.size(), 0xa0, 32, 0xd9, 0xda, 0xdb);
  out += text;
}

// Whether float32 holds `d` exactly: the infinities, and a NaN, whose payload
// no law compares, too.
bool float32_holds(double d) {
  if (!std::isfinite(d)) return true;
  // Out of float's range the conversion is undefined, not merely inexact.
  return std::fabs(d) <= std::numeric_limits<float>::max() && static_cast<double>(static_cast<float>(d)) == d;
}

// A float as float64, msgspec's only float form, or as float32 where that holds
// it: msgspec reads both.
void put_float(std::string& out, double d) {
  if (float32_holds(d) && chance(50)) {
    const auto narrow = static_cast<float>(d);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &narrow, sizeof bits);
    put(out, 0xca, bits, 4);
    return;
  }
  std::uint64_t bits = 0;
  std::memcpy(&bits, &d, sizeof bits);
  put(out, 0xcb, bits, 8);
}

// `value` as MessagePack with every length, integer and float in a form drawn
// from those that hold it, the shortest or a wider one (put_float). Values the
// wire cannot hold (big integers) are not given.
void put_value(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: out += '\xc0'; return;
    case Json::value_t::boolean: out += value.get<bool>() ? '\xc3' : '\xc2'; return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: put_integer(out, value); return;
    case Json::value_t::number_float: put_float(out, value.get<double>()); return;
    case Json::value_t::string: put_string(out, value.get_ref<const std::string&>()); return;
    case Json::value_t::array:
      put_length(out, value.size(), 0x90, 16, 0, 0xdc, 0xdd);
      for (const auto& item : value) put_value(out, item);
      return;
    case Json::value_t::object:
      put_length(out, value.size(), 0x80, 16, 0, 0xde, 0xdf);
      for (auto it = value.begin(); it != value.end(); ++it) {
        put_string(out, it.key());
        put_value(out, *it);
      }
      return;
    default: return;
  }
}

bool holds_container(const Json& object) {
  return std::any_of(object.begin(), object.end(), [](const Json& v) { return v.is_structured(); });
}

}  // namespace

void showValue(const WireCase& input, std::ostream& os) {
  os << input.kind << " wire bytes " << printable(input.bytes);
  auto decoded = from_msgpack(input.bytes);
  if (decoded) os << " = " << dump_json(*decoded);
}

rc::Gen<WireCase> gen_wire_case(const PoolingParams& params) {
  return rc::gen::exec([params] {
    WireCase c;
    c.bytes = encode_wire_msgpack(params).value();  // generated integers fit 64 bits
    c.encoded_length = encode_wire(params).size();
    c.nested_extras = params.extra_kwargs && holds_container(*params.extra_kwargs);
    c.late_interaction = params.late_interaction_params.has_value();
    c.kind = "encoded";
    if (chance(30)) {
      c.kind = "mutated bytes";
      c.bytes = *gen_mutated(c.bytes);
    } else if (chance(25)) {
      c.kind = "wider forms";
      c.bytes.clear();
      put_value(c.bytes, encode_wire(params));
    }
    return c;
  });
}

rc::Gen<WireCase> gen_wire_defect() {
  return rc::gen::exec([] {
    Json wire = encode_wire(*gen_pooling_params());
    const auto pad_to = [&wire](std::size_t n) {
      while (wire.size() < n) wire.push_back(wire_default(wire.size()));
    };
    // The wire's bytes with extra_kwargs set to `extras`, and the offset of the
    // string `marked` in them: where the byte-level defects below write.
    const auto bytes_with_extras = [&](Json extras, const std::string& marked) {
      pad_to(9);
      wire[8] = std::move(extras);
      std::string bytes = to_msgpack(wire).value();
      const std::size_t start = bytes.rfind(marked);
      return std::pair{std::move(bytes), start};
    };
    // A string value of extra_kwargs that nothing else in the wire holds: where a defect writes.
    const std::string value_marker = "\x01poolcheck-value";
    WireCase c;
    switch (*rc::gen::element(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)) {
      case 0: {
        const auto at = *rc::gen::inRange<std::size_t>(0, 9);
        pad_to(at + 1);
        wire[at] = wrong_wire_value(at);
        c.kind = "element " + std::to_string(at) + " of the wrong type";
        c.expected_family = "type";
        break;
      }
      case 1:
        pad_to(10 + *rc::gen::inRange<std::size_t>(1, 4));
        c.kind = "more than 10 elements";
        c.expected_family = "wire-length";
        break;
      case 2:
        pad_to(10);
        wire[9] = *rc::gen::element<std::int64_t>(0, 1, 3, -1, 100);
        c.kind = "output_kind not FINAL_ONLY";
        c.expected_family = "output-kind";
        break;
      case 3: {
        const std::string task = *rc::gen::element<std::string>("score", "encode");
        pad_to(5);
        wire[4] = task;
        c.kind = "task " + task;
        c.expected_family = "task-" + task + "-removed";
        break;
      }
      case 4: {
        const std::string bytes = to_msgpack(wire).value();
        c.bytes = bytes.substr(0, *rc::gen::inRange<std::size_t>(0, bytes.size()));
        c.kind = "bytes cut short";
        c.expected_family = "invalid-msgpack";
        return c;
      }
      case 6: {  // a string of extra_kwargs whose UTF-8 breaks at one byte of a sequence
        const std::string sequence = *rc::gen::element<std::string>("\xc3\xa9", "\xe4\xb8\xad", "\xed\x9f\xbf",
                                                                    "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf");
        auto [bytes, start] = bytes_with_extras({{"k", "a" + sequence + "b"}}, sequence);
        const std::size_t at = start + *rc::gen::inRange<std::size_t>(1, sequence.size());
        bytes[at] = *rc::gen::element<char>('A', '\xc0', '\xff');
        c.bytes = bytes;
        c.kind = "invalid UTF-8 in a string";
        c.expected_family = "invalid-msgpack";
        return c;
      }
      case 7: {  // a key of extra_kwargs written as another type: the type bytes either side of str's
        const std::string marker = "\x01poolcheck-key";
        auto [bytes, start] = bytes_with_extras({{marker, 1}}, marker);
        const std::size_t at = start - 1;  // the key's fixstr header
        bytes.replace(at, marker.size() + 1, 1, *rc::gen::element<char>('\x00', '\x7f', '\x9f', '\xc0', '\xc4', '\xc7',
                                                                          '\xd8', '\xdc', '\xdf', '\xe0'));
        c.bytes = bytes;
        c.kind = "map key not a string";
        c.expected_family = "invalid-msgpack";
        c.expected_message = "Invalid MessagePack: map key is not a string at byte " + std::to_string(at);
        return c;
      }
      case 9: {  // a string of extra_kwargs holding UTF-8 that is not well formed, refused at its first byte
        const std::string broken = *gen_broken_utf8();
        const std::string stand_in = "a" + std::string(broken.size(), 'x') + "b";  // same length: same header
        auto [bytes, start] = bytes_with_extras({{"k", stand_in}}, stand_in);
        const std::size_t at = start + 1;  // past the "a"
        bytes.replace(at, broken.size(), broken);
        c.bytes = bytes;
        c.kind = "invalid UTF-8 in a string";
        c.expected_family = "invalid-msgpack";
        c.expected_message = "Invalid MessagePack: invalid UTF-8 in string at byte " + std::to_string(at);
        return c;
      }
      case 10: {  // a value of extra_kwargs written as a type the decoder does not take, named in the message
        struct Refused {
          char tag;
          const char* reason;  // the MessagePack spec's name of the format
        };
        static constexpr Refused kRefused[] = {
            {'\xc1', "reserved type byte 0xc1"},    {'\xc4', "unsupported type bin8 (0xc4)"},
            {'\xc5', "unsupported type bin16 (0xc5)"}, {'\xc6', "unsupported type bin32 (0xc6)"},
            {'\xc7', "unsupported type ext8 (0xc7)"},  {'\xc8', "unsupported type ext16 (0xc8)"},
            {'\xc9', "unsupported type ext32 (0xc9)"}, {'\xd4', "unsupported type fixext1 (0xd4)"},
            {'\xd5', "unsupported type fixext2 (0xd5)"}, {'\xd6', "unsupported type fixext4 (0xd6)"},
            {'\xd7', "unsupported type fixext8 (0xd7)"}, {'\xd8', "unsupported type fixext16 (0xd8)"}};
        const Refused& refused = kRefused[*rc::gen::inRange<std::size_t>(0, std::size(kRefused))];
        auto [bytes, start] = bytes_with_extras({{"k", value_marker}}, value_marker);
        const std::size_t at = start - 1;  // the value's fixstr header
        bytes.replace(at, value_marker.size() + 1, 1, refused.tag);
        c.bytes = bytes;
        c.kind = "a type the decoder does not take";
        c.expected_family = "invalid-msgpack";
        c.expected_message = "Invalid MessagePack: " + std::string(refused.reason) + " at byte " + std::to_string(at);
        return c;
      }
      case 11: {  // cut inside extra_kwargs where a key or a value is due: the end, where an item was expected
        auto [bytes, start] = bytes_with_extras({{"k", value_marker}, {"z", 1}}, value_marker);
        // After the first key's value a key is due, after the second key its value.
        const std::size_t cut = start + value_marker.size() + (chance(50) ? 0 : 2);
        c.bytes = bytes.substr(0, cut);
        c.kind = "bytes cut where an item is due";
        c.expected_family = "invalid-msgpack";
        c.expected_message = "Invalid MessagePack: unexpected end of input, a value was expected at byte " +
                             std::to_string(cut);
        return c;
      }
      case 12: {  // extra_kwargs' header declares more items than the bytes left could hold
        auto [bytes, start] = bytes_with_extras({{"k", value_marker}}, value_marker);
        const std::size_t header = start - 4;  // fixmap, then the key's fixstr "k", then the value's header
        const bool map = chance(50);
        // At most 13 bytes left: every declared count below fits the fix form.
        const auto left = *rc::gen::inRange<std::size_t>(0, 14);
        // Each item takes a byte at least, each map entry two: one more than that is the least refused.
        const std::size_t count = (map ? left / 2 : left) + *rc::gen::inRange<std::size_t>(1, 3);
        bytes.resize(header + 1 + left);
        bytes[header] = static_cast<char>((map ? 0x80 : 0x90) | count);
        c.bytes = bytes;
        c.kind = "a count past the bytes left";
        c.expected_family = "invalid-msgpack";
        c.expected_message = "Invalid MessagePack: " + std::string(map ? "map" : "array") + " declares " +
                             std::to_string(count) + (map ? " entries" : " items") + " but only " +
                             std::to_string(left) + (left == 1 ? " byte follows" : " bytes follow") +
                             " at byte " + std::to_string(header);
        return c;
      }
      case 13: {  // extra_kwargs nested one container past the limit: refused where that container opens
        // The wire array and the map of extra_kwargs are levels 1 and 2; arrays make levels 3 to limit + 1.
        Json deep = Json::array();
        for (int level = 4; level <= kMaxNestingDepth + 1; ++level) deep = Json::array({std::move(deep)});
        const std::string key = "\x01poolcheck-deep";
        auto [bytes, start] = bytes_with_extras({{key, std::move(deep)}}, key);
        // Each array's header is one byte (fixarray), the first right after the key.
        const std::size_t at = start + key.size() + static_cast<std::size_t>(kMaxNestingDepth + 1 - 3);
        c.bytes = bytes;
        c.kind = "containers nested past the limit";
        c.expected_family = "invalid-msgpack";
        c.expected_message = "Invalid MessagePack: containers nested more than " +
                             std::to_string(kMaxNestingDepth) + " deep at byte " + std::to_string(at);
        return c;
      }
      case 8: {  // one item of late_interaction_params wrong: the error names that item's own path
        pad_to(8);
        // Or too few or too many items: 2 and 3 are the only lengths (automatic
        // mutants auto-wire-83-* took 1, 4 or any).
        if (chance(40)) {
          const auto items = *rc::gen::element<std::size_t>(0, 1, 4, 5);
          wire[7] = Json::array();
          for (std::size_t i = 0; i < items; ++i) wire[7].push_back(i == 0 ? Json("cache_query") : Json("k"));
          c.kind = "late_interaction_params of " + std::to_string(items) + " items";
          c.expected_family = "wire-length";
          c.expected_message = "$[7]: Input should have 2 or 3 items, got " + std::to_string(items);
          break;
        }
        const auto item = *rc::gen::inRange<std::size_t>(0, 3);
        Json late = Json::array({"cache_query", "k", 1});
        late[item] = item == 2 ? Json("x") : Json(5);
        wire[7] = late;
        static const char* const kItemErrors[] = {"Input should be 'cache_query' or 'score_doc'",
                                                  "Input should be a valid string", "Input should be a valid integer"};
        c.kind = "late_interaction_params item " + std::to_string(item) + " wrong";
        c.expected_family = item == 0 ? "literal" : "type";
        c.expected_message = "$[7][" + std::to_string(item) + "]: " + kItemErrors[item];
        break;
      }
      case 5:
        wire = *rc::gen::element(Json::object(), Json(5), Json("x"), Json(nullptr));
        c.kind = "not an array";
        c.expected_family = "type";
        break;
    }
    c.bytes = to_msgpack(wire).value();
    return c;
  });
}

void showValue(const VerifyCase& input, std::ostream& os) {
  if (!input.defect.empty()) os << input.defect << " (calls for " << input.expected_family << "): ";
  os << printable(input.bytes);
}

rc::Gen<VerifyCase> gen_verify_case() {
  return rc::gen::exec([] {
    VerifyCase c;
    const std::int64_t embedding = *rc::gen::element<std::int64_t>(8, 64, 384);
    c.pooling_type = *rc::gen::weightedElement<std::string>({{4, "CLS"}, {2, "MEAN"}, {2, "STEP"}, {1, "LAST"}});
    Json pooler{{"pooling_type", c.pooling_type}};
    if (chance(20)) pooler["use_activation"] = *rc::gen::arbitrary<bool>();
    if (chance(20)) pooler["dimensions"] = *rc::gen::inRange<std::int64_t>(1, embedding + 1);
    if (chance(20)) pooler["step_tag_id"] = *gen_int();
    if (chance(20)) pooler["returned_token_ids"] = *rc::gen::resize(3, rc::gen::container<std::vector<std::int64_t>>(gen_int()));
    Json model{{"pooler", pooler}, {"embedding_size", embedding}};
    // vLLM's is_matryoshka: the flag, or a non-empty list of sizes without it
    // (automatic mutant auto-verify-87-drop-not-1 read the list the wrong way).
    const bool flag = chance(40);
    model["is_matryoshka"] = flag;
    std::vector<std::int64_t> listed;
    if (chance(flag ? 50 : 15)) {
      listed = *rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<std::vector<std::int64_t>>(
                                       rc::gen::inRange<std::int64_t>(1, embedding + 1))));
      model["matryoshka_dimensions"] = listed;
    } else if (chance(10)) {
      model["matryoshka_dimensions"] = Json::array();
    }
    c.matryoshka = flag || !listed.empty();
    if (chance(20)) model["name"] = *gen_unicode_string(8);

    PoolingParams params = *gen_pooling_params();
    params.task = *rc::gen::weightedOneOf<std::optional<std::string>>(
        {{2, rc::gen::just(std::optional<std::string>())},
         {10, rc::gen::map(gen_task(), [](std::string task) { return std::optional<std::string>(task); })}});
    params.dimensions = *rc::gen::weightedOneOf<std::optional<std::int64_t>>(
        {{4, rc::gen::just(std::optional<std::int64_t>())},
         {3, rc::gen::map(rc::gen::inRange<std::int64_t>(1, embedding + 1), [](std::int64_t d) { return std::optional(d); })},
         {1, rc::gen::map(rc::gen::element<std::int64_t>(0, -1, embedding + 1, kMin64), [](std::int64_t d) { return std::optional(d); })}});
    if (!listed.empty() && chance(30)) params.dimensions = *rc::gen::elementOf(listed);
    c.task = params.task.value_or("null");
    c.bytes = input_json(Json{{"model", model}, {"pooling_params", *gen_params_object(params)}});
    return c;
  });
}

rc::Gen<VerifyCase> gen_verify_defect() {
  return rc::gen::exec([] {
    VerifyCase c;
    const std::int64_t embedding = *rc::gen::element<std::int64_t>(8, 64, 384);
    c.pooling_type = "CLS";
    Json model{{"pooler", {{"pooling_type", "CLS"}}}, {"embedding_size", embedding}};
    Json params = Json::object();
    const auto embed_task = [] { return *rc::gen::element<std::string>("embed", "token_embed"); };
    switch (*rc::gen::element(0, 1, 2, 3, 4, 5, 6, 7, 8)) {
      case 0:
        c.defect = "dimensions on a classify task";
        c.expected_family = "unsupported-parameters";
        params["task"] = *rc::gen::element<std::string>("classify", "token_classify");
        params["dimensions"] = *rc::gen::inRange<std::int64_t>(1, embedding + 1);
        break;
      case 1:
        c.defect = "step parameters on a pooler that is not STEP";
        c.expected_family = "unsupported-parameters";
        c.pooling_type = *rc::gen::element<std::string>("CLS", "MEAN", "LAST");
        model["pooler"]["pooling_type"] = c.pooling_type;
        params["task"] = *rc::gen::element<std::string>("embed", "classify", "token_embed", "token_classify");
        if (chance(50)) params["step_tag_id"] = *gen_int();
        else params["returned_token_ids"] = Json::array({*gen_int()});
        break;
      case 2:
        c.defect = "dimensions on a model that is not Matryoshka";
        c.expected_family = "matryoshka-unsupported";
        params["task"] = embed_task();
        params["dimensions"] = *gen_int();
        break;
      case 3:
        c.defect = "dimensions outside [1, embedding_size]";
        c.expected_family = "matryoshka-range";
        model["is_matryoshka"] = c.matryoshka = true;
        params["task"] = embed_task();
        params["dimensions"] = *rc::gen::element<std::int64_t>(0, -1, embedding + 1, embedding + 100, kMin64);
        break;
      case 4: {
        c.defect = "dimensions not among the Matryoshka dimensions";
        c.expected_family = "matryoshka-list";
        model["is_matryoshka"] = c.matryoshka = true;
        const auto listed = *rc::gen::resize(4, rc::gen::nonEmpty(rc::gen::container<std::vector<std::int64_t>>(
                                                    rc::gen::inRange<std::int64_t>(1, embedding + 1))));
        model["matryoshka_dimensions"] = listed;
        std::int64_t d = *rc::gen::inRange<std::int64_t>(1, embedding + 1);
        while (std::find(listed.begin(), listed.end(), d) != listed.end()) d = d % embedding + 1;
        params["task"] = embed_task();
        params["dimensions"] = d;
        break;
      }
      case 5:
      case 6: {
        const std::string task = *rc::gen::element<std::string>("score", "encode");
        c.defect = "task " + task;
        c.expected_family = "task-" + task + "-removed";
        params["task"] = task;
        break;
      }
      case 7:
        c.defect = "output_kind not FINAL_ONLY";
        c.expected_family = "output-kind";
        // Member names get the enum's repr, any other string its JSON.
        params["output_kind"] = *rc::gen::element<std::string>("DELTA", "CUMULATIVE", "final_only", "x", "");
        break;
      case 8:
        c.defect = "field of the wrong type";
        c.expected_family = "type";
        if (chance(50)) params["use_activation"] = "yes";
        else model["embedding_size"] = "x";
        break;
    }
    c.task = params.contains("task") ? params["task"].get<std::string>() : "null";
    c.bytes = input_json(Json{{"model", model}, {"pooling_params", params}});
    return c;
  });
}

}  // namespace poolcheck::props
