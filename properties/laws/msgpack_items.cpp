#include "properties/laws/msgpack_items.hpp"

#include <bit>
#include <cmath>
#include <string>

namespace poolcheck::laws {
namespace {

std::optional<std::uint64_t> big_endian(std::string_view bytes, std::size_t from, std::size_t width) {
  if (from > bytes.size() || bytes.size() - from < width) return std::nullopt;
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<std::uint8_t>(bytes[from + i]);
  return v;
}

using Kind = MsgpackItem::Kind;

// An item of `kind` whose `width`-byte length follows the tag at `at`;
// `extra` header bytes follow the length (an ext's type byte).
std::optional<MsgpackItem> sized(std::string_view bytes, std::size_t at, Kind kind, std::size_t width,
                                 std::size_t extra = 0) {
  const auto length = big_endian(bytes, at + 1, width);
  if (!length) return std::nullopt;
  MsgpackItem item{kind, at + 1 + width + extra, *length, 0, nullptr};
  const bool has_payload = kind == Kind::Str || kind == Kind::Bin || kind == Kind::Ext;
  if (item.payload > bytes.size() || (has_payload && bytes.size() - item.payload < *length)) return std::nullopt;
  item.end = item.payload + (has_payload ? *length : 0);
  return item;
}

// A scalar whose `width` value bytes follow the tag at `at`, made into a value by `make`.
template <typename Make>
std::optional<MsgpackItem> scalar(std::string_view bytes, std::size_t at, Kind kind, std::size_t width, Make make) {
  const auto raw = big_endian(bytes, at + 1, width);
  if (!raw) return std::nullopt;
  return MsgpackItem{kind, at + 1, 0, at + 1 + width, make(*raw)};
}

Json signed_value(std::uint64_t raw, std::size_t width) {
  const int unused = 64 - 8 * static_cast<int>(width);
  return Json(static_cast<std::int64_t>(raw << unused) >> unused);
}

}  // namespace

std::optional<MsgpackItem> read_msgpack_item(std::string_view bytes, std::size_t at) {
  if (at >= bytes.size()) return std::nullopt;
  const auto tag = static_cast<std::uint8_t>(bytes[at]);
  const auto one = [&](Kind kind, Json value) { return MsgpackItem{kind, at + 1, 0, at + 1, std::move(value)}; };
  if (tag <= 0x7f) return one(Kind::Int, Json(std::uint64_t{tag}));
  if (tag >= 0xe0) return one(Kind::Int, Json(static_cast<std::int64_t>(tag) - 0x100));
  if (tag <= 0x8f) return MsgpackItem{Kind::Map, at + 1, tag & 0x0fu, at + 1, nullptr};
  if (tag <= 0x9f) return MsgpackItem{Kind::Array, at + 1, tag & 0x0fu, at + 1, nullptr};
  if (tag <= 0xbf) {
    const std::uint64_t length = tag & 0x1fu;
    if (bytes.size() - (at + 1) < length) return std::nullopt;
    return MsgpackItem{Kind::Str, at + 1, length, at + 1 + length, nullptr};
  }
  switch (tag) {
    case 0xc0: return one(Kind::Nil, nullptr);
    case 0xc2: return one(Kind::Bool, false);
    case 0xc3: return one(Kind::Bool, true);
    case 0xc4: case 0xc5: case 0xc6: return sized(bytes, at, Kind::Bin, std::size_t{1} << (tag - 0xc4));
    case 0xc7: case 0xc8: case 0xc9: return sized(bytes, at, Kind::Ext, std::size_t{1} << (tag - 0xc7), 1);
    case 0xca:
      return scalar(bytes, at, Kind::Float, 4, [](std::uint64_t raw) {
        return Json(static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw))));
      });
    case 0xcb: return scalar(bytes, at, Kind::Float, 8, [](std::uint64_t raw) { return Json(std::bit_cast<double>(raw)); });
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
      return scalar(bytes, at, Kind::Int, std::size_t{1} << (tag - 0xcc), [](std::uint64_t raw) { return Json(raw); });
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
      const std::size_t width = std::size_t{1} << (tag - 0xd0);
      return scalar(bytes, at, Kind::Int, width, [&](std::uint64_t raw) { return signed_value(raw, width); });
    }
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: {  // fixext: a type byte, then 1 to 16 bytes
      const std::size_t data = std::size_t{1} << (tag - 0xd4);
      if (bytes.size() - (at + 1) < 1 + data) return std::nullopt;
      return MsgpackItem{Kind::Ext, at + 2, data, at + 2 + data, nullptr};
    }
    case 0xd9: case 0xda: case 0xdb: return sized(bytes, at, Kind::Str, std::size_t{1} << (tag - 0xd9));
    case 0xdc: case 0xdd: return sized(bytes, at, Kind::Array, tag == 0xdc ? 2 : 4);
    case 0xde: case 0xdf: return sized(bytes, at, Kind::Map, tag == 0xde ? 2 : 4);
    default: return std::nullopt;  // 0xc1
  }
}

std::string msgpack_tag_hex(std::uint8_t tag) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[tag >> 4] + digits[tag & 0xf];
}

std::uint64_t msgpack_children(const MsgpackItem& item) {
  if (item.kind == Kind::Array) return item.length;
  return item.kind == Kind::Map ? 2 * item.length : 0;
}

std::optional<std::size_t> skip_msgpack_items(std::string_view bytes, std::size_t at, std::uint64_t count) {
  for (; count > 0; --count) {
    const auto item = read_msgpack_item(bytes, at);
    if (!item) return std::nullopt;
    count += msgpack_children(*item);
    at = item->end;
  }
  return at;
}

namespace {

// An integer's sign and digits, whatever nlohmann type holds it: its own
// operator== takes int -5 and unsigned 2^64 - 5 for equal.
bool same_integer(const Json& got, const Json& want) {
  if (!got.is_number_integer()) return false;
  const auto negative = [](const Json& v) { return !v.is_number_unsigned() && v.get<std::int64_t>() < 0; };
  if (negative(got) != negative(want)) return false;
  return negative(got) ? got.get<std::int64_t>() == want.get<std::int64_t>()
                       : got.get<std::uint64_t>() == want.get<std::uint64_t>();
}

bool same_float(const Json& got, const Json& want) {
  if (!got.is_number_float()) return false;
  const double a = got.get<double>(), b = want.get<double>();
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

class ValueMatch {
 public:
  explicit ValueMatch(std::string_view bytes) : bytes_(bytes) {}

  // Whether the item at the walk's position, and its children, hold `value`; `path` names it.
  std::optional<std::string> match(const Json& value, const std::string& path) {
    const auto item = read_msgpack_item(bytes_, at_);
    if (!item) return path + ": no item at byte " + std::to_string(at_);
    const std::size_t start = at_;
    at_ = item->end;
    const auto differs = [&](const std::string& what) -> std::optional<std::string> {
      return path + " (byte " + std::to_string(start) + "): the bytes hold " + what + ", the decoder gave " +
             value.dump();
    };
    const auto judged = [&](bool same, const std::string& what) { return same ? std::nullopt : differs(what); };
    switch (item->kind) {
      case Kind::Nil: return judged(value.is_null(), "nil");
      case Kind::Bool: return judged(value == item->value, item->value.dump());
      case Kind::Int: return judged(same_integer(value, item->value), item->value.dump());
      case Kind::Float: return judged(same_float(value, item->value), "a float");
      case Kind::Str:
        return judged(value.is_string() &&
                          value.get_ref<const std::string&>() == bytes_.substr(item->payload, item->length),
                      "a string");
      case Kind::Array: return array(value, *item, path, differs);
      case Kind::Map: return map(value, *item, path, differs);
      default: return std::nullopt;  // bin, ext: refused by the decoder; nothing to compare
    }
  }

 private:
  template <typename Differs>
  std::optional<std::string> array(const Json& value, const MsgpackItem& item, const std::string& path,
                                   const Differs& differs) {
    if (!value.is_array() || value.size() != item.length)
      return differs("an array of " + std::to_string(item.length) + " items");
    for (std::size_t i = 0; i < item.length; ++i)
      if (auto complaint = match(value[i], path + "[" + std::to_string(i) + "]")) return complaint;
    return std::nullopt;
  }

  // Keys in order; with a repeated key (the decoder keeps one) only the
  // count is judged, and the walk skips the entries to the map's next sibling.
  template <typename Differs>
  std::optional<std::string> map(const Json& value, const MsgpackItem& item, const std::string& path,
                                 const Differs& differs) {
    if (!value.is_object() || value.size() > item.length)
      return differs("a map of " + std::to_string(item.length) + " entries");
    if (value.size() != item.length) {
      const auto end = skip_msgpack_items(bytes_, at_, msgpack_children(item));
      if (!end) return path + ": the bytes end inside the map's entries";
      at_ = *end;
      return std::nullopt;
    }
    auto member = value.begin();
    for (std::size_t i = 0; i < item.length; ++i, ++member) {
      if (auto complaint = match(Json(member.key()), path + " key " + std::to_string(i))) return complaint;
      if (auto complaint = match(member.value(), path + "." + member.key())) return complaint;
    }
    return std::nullopt;
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace

Violations msgpack_values_exact(std::string_view bytes, const Json& decoded) {
  if (auto complaint = ValueMatch(bytes).match(decoded, "$")) return {{"msgpack-values-exact", *complaint}};
  return {};
}

}  // namespace poolcheck::laws
