#include "core/msgpack.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/integer.hpp"
#include "core/json_input.hpp"

namespace poolcheck {
namespace {

// ---------------------------------------------------------------- encoding

void put_be(std::string& out, std::uint64_t value, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((value >> shift) & 0xff));
}

void put_tagged(std::string& out, std::uint8_t tag, std::uint64_t value, int bytes) {
  out.push_back(static_cast<char>(tag));
  put_be(out, value, bytes);
}

// Mirrors msgspec's mpack_encode_long (msgspec/_core.c): a non-negative int
// always takes the unsigned family (positive fixint, then uint8/16/32/64; so
// 2^32..INT64_MAX is uint64, never int64), a negative one the signed family
// (negative fixint, then int8/16/32/64).
void put_uint(std::string& out, std::uint64_t v) {
  if (v < 0x80)
    out.push_back(static_cast<char>(v));
  else if (v <= 0xff)
    put_tagged(out, 0xcc, v, 1);
  else if (v <= 0xffff)
    put_tagged(out, 0xcd, v, 2);
  else if (v <= 0xffffffff)
    put_tagged(out, 0xce, v, 4);
  else
    put_tagged(out, 0xcf, v, 8);
}

void put_int(std::string& out, std::int64_t v) {
  if (v >= 0) return put_uint(out, static_cast<std::uint64_t>(v));
  // Two's complement: the low bytes of the 64-bit pattern are the narrow value.
  const auto bits = static_cast<std::uint64_t>(v);
  if (v >= -32)
    out.push_back(static_cast<char>(bits & 0xff));
  else if (v >= INT8_MIN)
    put_tagged(out, 0xd0, bits, 1);
  else if (v >= INT16_MIN)
    put_tagged(out, 0xd1, bits, 2);
  else if (v >= INT32_MIN)
    put_tagged(out, 0xd2, bits, 4);
  else
    put_tagged(out, 0xd3, bits, 8);
}

// msgspec writes every float as float64, even when float32 would be lossless.
void put_float(std::string& out, double v) {
  put_tagged(out, 0xcb, std::bit_cast<std::uint64_t>(v), 8);
}

// The header forms of one length-prefixed family, shortest first.
struct HeaderForms {
  std::uint8_t fix;                   // fix form: tag | length
  std::size_t fix_limit;              // lengths below this use the fix form (0: none)
  std::optional<std::uint8_t> form8;  // arrays and maps have no 8-bit form
  std::uint8_t form16;
  std::uint8_t form32;
};

constexpr HeaderForms kStrForms{0xa0, 32, 0xd9, 0xda, 0xdb};
constexpr HeaderForms kBinForms{0, 0, 0xc4, 0xc5, 0xc6};
constexpr HeaderForms kArrayForms{0x90, 16, std::nullopt, 0xdc, 0xdd};
constexpr HeaderForms kMapForms{0x80, 16, std::nullopt, 0xde, 0xdf};

// Lengths of 2^32 or more cannot be written; the core never builds them (its
// inputs are bounded to 8 MiB), so they are not checked here.
void put_header(std::string& out, const HeaderForms& forms, std::size_t length) {
  if (length < forms.fix_limit)
    out.push_back(static_cast<char>(forms.fix | length));
  else if (forms.form8 && length <= 0xff)
    put_tagged(out, *forms.form8, length, 1);
  else if (length <= 0xffff)
    put_tagged(out, forms.form16, length, 2);
  else
    put_tagged(out, forms.form32, length, 4);
}

void put_bytes(std::string& out, const HeaderForms& forms, std::string_view bytes) {
  put_header(out, forms, bytes.size());
  out.append(bytes);
}

// msgspec raises OverflowError for a Python int outside [-2**63, 2**64 - 1];
// here that is an error value (spec 11.2, docs/decisions.md).
Error integer_out_of_range(const Json& value) {
  const auto n = json_integer(value);
  return Error::bad_request("Cannot encode the integer " + (n ? n->to_string() : std::string("?")) +
                            " as MessagePack: msgspec raises OverflowError for ints below -2**63 or "
                            "above 2**64 - 1.");
}

// Recursive: the core's JSON values come from its bounded parsers, at most
// kMaxNestingDepth deep.
MaybeError put_value(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
    // A discarded value only exists inside a parser callback; nil is its nearest form.
    case Json::value_t::discarded:
      out.push_back(static_cast<char>(0xc0));
      return std::nullopt;
    case Json::value_t::boolean:
      out.push_back(static_cast<char>(value.get<bool>() ? 0xc3 : 0xc2));
      return std::nullopt;
    case Json::value_t::number_integer:
      put_int(out, value.get<std::int64_t>());
      return std::nullopt;
    case Json::value_t::number_unsigned:
      put_uint(out, value.get<std::uint64_t>());
      return std::nullopt;
    case Json::value_t::number_float:
      put_float(out, value.get<double>());
      return std::nullopt;
    case Json::value_t::string:
      put_bytes(out, kStrForms, value.get_ref<const std::string&>());
      return std::nullopt;
    case Json::value_t::binary: {
      // The core's only binary values are integers beyond 64 bits (core/integer.hpp).
      if (is_big_integer(value)) return integer_out_of_range(value);
      const auto& bin = value.get_binary();
      put_bytes(out, kBinForms, std::string_view(reinterpret_cast<const char*>(bin.data()), bin.size()));
      return std::nullopt;
    }
    case Json::value_t::array:
      put_header(out, kArrayForms, value.size());
      for (const auto& item : value)
        if (auto e = put_value(out, item)) return e;
      return std::nullopt;
    case Json::value_t::object:
      put_header(out, kMapForms, value.size());
      for (const auto& [key, item] : value.items()) {
        put_bytes(out, kStrForms, key);
        if (auto e = put_value(out, item)) return e;
      }
      return std::nullopt;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- decoding

// Offset of the first UTF-8 sequence in `s` that is not well formed (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF), or npos.
std::size_t invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<std::uint8_t>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    std::uint8_t lo = 0x80, hi = 0xbf;  // range of the second byte
    if (c >= 0xc2 && c <= 0xdf)
      length = 2;
    else if (c == 0xe0)
      length = 3, lo = 0xa0;
    else if (c == 0xed)
      length = 3, hi = 0x9f;
    else if (c >= 0xe1 && c <= 0xef)
      length = 3;
    else if (c == 0xf0)
      length = 4, lo = 0x90;
    else if (c == 0xf4)
      length = 4, hi = 0x8f;
    else if (c >= 0xf1 && c <= 0xf3)
      length = 4;
    else
      return i;
    if (s.size() - i < length) return i;
    const auto second = static_cast<std::uint8_t>(s[i + 1]);
    if (second < lo || second > hi) return i;
    for (std::size_t k = 2; k < length; ++k)
      if ((static_cast<std::uint8_t>(s[i + k]) & 0xc0) != 0x80) return i;
    i += length;
  }
  return std::string_view::npos;
}

bool is_str_tag(std::uint8_t tag) {
  return (tag >= 0xa0 && tag <= 0xbf) || (tag >= 0xd9 && tag <= 0xdb);
}

// The MessagePack name of a type byte in 0xc0..0xdf.
std::string_view format_name(std::uint8_t tag) {
  static constexpr std::string_view kNames[] = {
      "nil",      "(never used)", "false",   "true",    "bin8",    "bin16",   "bin32",   "ext8",
      "ext16",    "ext32",        "float32", "float64", "uint8",   "uint16",  "uint32",  "uint64",
      "int8",     "int16",        "int32",   "int64",   "fixext1", "fixext2", "fixext4", "fixext8",
      "fixext16", "str8",         "str16",   "str32",   "array16", "array32", "map16",   "map32"};
  return kNames[tag - 0xc0];
}

// Why a type byte in 0xc0..0xdf that the decoder does not take is refused.
std::string unsupported_reason(std::uint8_t tag) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string hex = std::string("0x") + kHex[tag >> 4] + kHex[tag & 15];
  if (tag == 0xc1) return "reserved type byte " + hex;
  return "unsupported type " + std::string(format_name(tag)) + " (" + hex + ")";
}

enum class Container { Array, Map };

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : bytes_(bytes) {}
  Result<Json> decode();

 private:
  // A container still being filled.
  struct Frame {
    Json value;
    std::uint64_t remaining;  // items (map entries) still to read
    bool awaiting_key = false;
    std::string key;  // maps: the key of the value being read
    // Maps: the position of each key. ordered_json finds keys by linear
    // search, which makes a large untrusted map quadratic to build.
    std::unordered_map<std::string, std::size_t> positions;
  };

  using Item = Result<std::optional<Json>>;  // nullopt: a container was opened

  Error fail(const std::string& reason, std::size_t at) const {
    return Error::bad_request("Invalid MessagePack: " + reason + " at byte " + std::to_string(at));
  }
  std::size_t left() const { return bytes_.size() - pos_; }

  MaybeError check_key_type() const;
  Item read_item();
  Item read_tagged(std::uint8_t tag, std::size_t start);
  Result<std::uint64_t> read_be(int bytes, std::size_t start, std::uint8_t tag);
  Item read_unsigned(int bytes, std::size_t start, std::uint8_t tag);
  Item read_signed(int bytes, std::size_t start, std::uint8_t tag);
  Item read_float(int bytes, std::size_t start, std::uint8_t tag);
  Item read_str(std::uint64_t length, std::size_t start);
  Item read_str_sized(int bytes, std::size_t start, std::uint8_t tag);
  Item open(Container kind, std::uint64_t count, std::size_t start);
  Item open_sized(Container kind, int bytes, std::size_t start, std::uint8_t tag);
  bool add_to_top(Json& value);
  void put_entry(Frame& map, Json value);

  std::string_view bytes_;
  std::size_t pos_ = 0;
  std::vector<Frame> stack_;
};

// Iterative, so that the depth bound, not the C++ stack, limits nesting.
Result<Json> Decoder::decode() {
  for (;;) {
    if (auto e = check_key_type()) return *e;
    Item item = read_item();
    if (!item) return item.error();
    if (!*item) continue;
    Json value = std::move(**item);
    bool closed = true;  // `value` is complete and not yet stored
    while (closed && !stack_.empty()) closed = add_to_top(value);
    if (!closed) continue;
    if (pos_ != bytes_.size()) return fail("trailing data after the value", pos_);
    return value;
  }
}

MaybeError Decoder::check_key_type() const {
  if (stack_.empty() || !stack_.back().awaiting_key || left() == 0) return std::nullopt;
  if (is_str_tag(static_cast<std::uint8_t>(bytes_[pos_]))) return std::nullopt;
  return fail("map key is not a string", pos_);
}

Decoder::Item Decoder::read_item() {
  const std::size_t start = pos_;
  if (left() == 0) return fail("unexpected end of input, a value was expected", start);
  const auto tag = static_cast<std::uint8_t>(bytes_[pos_++]);
  if (tag <= 0x7f) return std::optional<Json>(std::uint64_t{tag});
  if (tag >= 0xe0) return std::optional<Json>(std::int64_t{static_cast<std::int8_t>(tag)});
  if (tag <= 0x8f) return open(Container::Map, tag & 0x0f, start);
  if (tag <= 0x9f) return open(Container::Array, tag & 0x0f, start);
  if (tag <= 0xbf) return read_str(tag & 0x1f, start);
  return read_tagged(tag, start);
}

// Type bytes 0xc0..0xdf.
Decoder::Item Decoder::read_tagged(std::uint8_t tag, std::size_t start) {
  switch (tag) {
    case 0xc0:
      return std::optional<Json>(nullptr);
    case 0xc2:
      return std::optional<Json>(false);
    case 0xc3:
      return std::optional<Json>(true);
    case 0xca:
      return read_float(4, start, tag);
    case 0xcb:
      return read_float(8, start, tag);
    case 0xcc:
      return read_unsigned(1, start, tag);
    case 0xcd:
      return read_unsigned(2, start, tag);
    case 0xce:
      return read_unsigned(4, start, tag);
    case 0xcf:
      return read_unsigned(8, start, tag);
    case 0xd0:
      return read_signed(1, start, tag);
    case 0xd1:
      return read_signed(2, start, tag);
    case 0xd2:
      return read_signed(4, start, tag);
    case 0xd3:
      return read_signed(8, start, tag);
    case 0xd9:
      return read_str_sized(1, start, tag);
    case 0xda:
      return read_str_sized(2, start, tag);
    case 0xdb:
      return read_str_sized(4, start, tag);
    case 0xdc:
      return open_sized(Container::Array, 2, start, tag);
    case 0xdd:
      return open_sized(Container::Array, 4, start, tag);
    case 0xde:
      return open_sized(Container::Map, 2, start, tag);
    case 0xdf:
      return open_sized(Container::Map, 4, start, tag);
    default:
      return fail(unsupported_reason(tag), start);  // 0xc1, bin, ext
  }
}

// A big-endian field of the item that starts at `start` with `tag`.
Result<std::uint64_t> Decoder::read_be(int bytes, std::size_t start, std::uint8_t tag) {
  if (left() < static_cast<std::size_t>(bytes))
    return fail("truncated " + std::string(format_name(tag)), start);
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = (value << 8) | static_cast<std::uint8_t>(bytes_[pos_++]);
  return value;
}

// Non-negative integers are unsigned in nlohmann, as its JSON parser makes
// them; above INT64_MAX they stay numbers so that field checks reject them.
Decoder::Item Decoder::read_unsigned(int bytes, std::size_t start, std::uint8_t tag) {
  auto value = read_be(bytes, start, tag);
  if (!value) return value.error();
  return std::optional<Json>(*value);
}

Decoder::Item Decoder::read_signed(int bytes, std::size_t start, std::uint8_t tag) {
  auto raw = read_be(bytes, start, tag);
  if (!raw) return raw.error();
  // Sign-extend from `bytes` wide.
  const int unused = 64 - 8 * bytes;
  const std::int64_t value = static_cast<std::int64_t>(*raw << unused) >> unused;
  if (value >= 0) return std::optional<Json>(static_cast<std::uint64_t>(value));
  return std::optional<Json>(value);
}

Decoder::Item Decoder::read_float(int bytes, std::size_t start, std::uint8_t tag) {
  auto raw = read_be(bytes, start, tag);
  if (!raw) return raw.error();
  const double value = bytes == 4 ? std::bit_cast<float>(static_cast<std::uint32_t>(*raw))
                                  : std::bit_cast<double>(*raw);
  return std::optional<Json>(value);
}

Decoder::Item Decoder::read_str_sized(int bytes, std::size_t start, std::uint8_t tag) {
  auto length = read_be(bytes, start, tag);
  if (!length) return length.error();
  return read_str(*length, start);
}

Decoder::Item Decoder::read_str(std::uint64_t length, std::size_t start) {
  if (length > left())
    return fail("string of " + std::to_string(length) + " bytes runs past the end of input", start);
  const std::string_view text = bytes_.substr(pos_, length);
  if (auto bad = invalid_utf8_at(text); bad != std::string_view::npos)
    return fail("invalid UTF-8 in string", pos_ + bad);
  pos_ += length;
  return std::optional<Json>(std::string(text));
}

Decoder::Item Decoder::open_sized(Container kind, int bytes, std::size_t start, std::uint8_t tag) {
  auto count = read_be(bytes, start, tag);
  if (!count) return count.error();
  return open(kind, *count, start);
}

Decoder::Item Decoder::open(Container kind, std::uint64_t count, std::size_t start) {
  if (stack_.size() >= static_cast<std::size_t>(kMaxNestingDepth))
    return fail("containers nested more than " + std::to_string(kMaxNestingDepth) + " deep", start);
  // Every item takes at least one byte (a map entry, two): a larger count is
  // refused here, before anything is allocated for it.
  const bool map = kind == Container::Map;
  if (count > left() / (map ? 2 : 1)) {
    const bool one = left() == 1;
    return fail(std::string(map ? "map" : "array") + " declares " + std::to_string(count) +
                    (map ? " entries" : " items") + " but only " + std::to_string(left()) +
                    (one ? " byte follows" : " bytes follow"),
                start);
  }
  Json value = map ? Json::object() : Json::array();
  if (count == 0) return std::optional<Json>(std::move(value));
  stack_.push_back(Frame{std::move(value), count, map, {}, {}});
  return std::optional<Json>();
}

// Stores a complete `value` in the innermost open container. When that fills
// it, the container is popped and becomes `value`, and true is returned.
bool Decoder::add_to_top(Json& value) {
  Frame& top = stack_.back();
  if (top.awaiting_key) {
    top.key = std::move(value.get_ref<std::string&>());  // check_key_type made it a string
    top.awaiting_key = false;
    return false;
  }
  if (top.value.is_object()) {
    put_entry(top, std::move(value));
    top.awaiting_key = true;
  } else {
    top.value.push_back(std::move(value));
  }
  if (--top.remaining > 0) return false;
  value = std::move(top.value);
  stack_.pop_back();
  return true;
}

// A duplicate key keeps its first position and takes the last value, as
// Python's dict (and the JSON parser, spec 10.4) do.
void Decoder::put_entry(Frame& map, Json value) {
  auto& entries = map.value.get_ref<Json::object_t&>();
  auto [where, fresh] = map.positions.try_emplace(map.key, entries.size());
  if (fresh)
    entries.emplace_back(std::move(map.key), std::move(value));
  else
    (entries.begin() + static_cast<std::ptrdiff_t>(where->second))->second = std::move(value);
}

}  // namespace

Result<std::string> to_msgpack(const Json& value) {
  std::string out;
  if (auto e = put_value(out, value)) return *e;
  return out;
}

Result<Json> from_msgpack(std::string_view bytes) { return Decoder(bytes).decode(); }

}  // namespace poolcheck
