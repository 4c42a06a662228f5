#include "properties/laws/msgpack_laws.hpp"

#include <cstdint>
#include <optional>
#include <string>

#include "properties/laws/msgpack_items.hpp"

namespace poolcheck::laws {
namespace {

constexpr const char* kLaw = "shortest-form";

using Kind = MsgpackItem::Kind;

// A length-prefixed family: what its length counts, its fix form's limit (0:
// none), and whether it has an 8-bit length form.
struct Family {
  const char* name;
  const char* unit;
  std::uint64_t fix_limit;
  bool has_8bit_form;
};

std::optional<Family> family_of(Kind kind) {
  switch (kind) {
    case Kind::Str: return Family{"str", "bytes", 32, true};
    case Kind::Bin: return Family{"bin", "bytes", 0, true};
    case Kind::Array: return Family{"array", "items", 16, false};
    case Kind::Map: return Family{"map", "entries", 16, false};
    default: return std::nullopt;
  }
}

// The length bytes msgspec writes for `length` items of `family` (0: fix form).
std::size_t shortest_width(const Family& family, std::uint64_t length) {
  if (length < family.fix_limit) return 0;
  if (family.has_8bit_form && length <= 0xff) return 1;
  return length <= 0xffff ? 2 : 4;
}

std::size_t unsigned_width(std::uint64_t v) {
  return v < 0x80 ? 0 : v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffff ? 4 : 8;
}

std::size_t signed_width(std::int64_t v) {
  return v >= -32 ? 0 : v >= INT8_MIN ? 1 : v >= INT16_MIN ? 2 : v >= INT32_MIN ? 4 : 8;
}

std::string at(std::size_t offset) { return "at byte " + std::to_string(offset) + ": "; }

// The complaint about one item's form, or nothing when msgspec writes it so.
// The item's header bytes are what lies between its tag and its payload (for
// a length) or its end (for an integer's value).
std::optional<std::string> form_complaint(const MsgpackItem& item, std::uint8_t tag, std::size_t start) {
  if (item.kind == Kind::Nil || item.kind == Kind::Bool || (item.kind == Kind::Float && tag == 0xcb))
    return std::nullopt;
  if (item.kind == Kind::Int) {
    const std::size_t width = item.end - start - 1;
    if (width == 0) return std::nullopt;  // a fixint
    const std::string what = at(start) + "the integer " + item.value.dump();
    const bool negative = !item.value.is_number_unsigned() && item.value.get<std::int64_t>() < 0;
    if (tag >= 0xd0 && !negative)
      return what + " in the signed family (" + msgpack_tag_hex(tag) +
             "); msgspec writes a non-negative int unsigned";
    const std::size_t shortest =
        negative ? signed_width(item.value.get<std::int64_t>()) : unsigned_width(item.value.get<std::uint64_t>());
    if (shortest == width) return std::nullopt;
    return what + " has " + std::to_string(width) + " value bytes (" + msgpack_tag_hex(tag) +
           "); msgspec writes " + std::to_string(shortest);
  }
  const auto family = family_of(item.kind);
  if (!family)
    return at(start) + "tag " + msgpack_tag_hex(tag) + ", which msgspec never writes here (float32 or ext)";
  const std::size_t width = item.payload - start - 1;
  if (shortest_width(*family, item.length) == width) return std::nullopt;
  return at(start) + "the " + family->name + " of " + std::to_string(item.length) + " " + family->unit + " has " +
         std::to_string(width) + " length bytes (" + msgpack_tag_hex(tag) + "); msgspec writes " +
         std::to_string(shortest_width(*family, item.length));
}

// The first complaint about the document, item by item in pre-order;
// iterative, so any depth.
std::optional<std::string> first_complaint(std::string_view bytes) {
  std::size_t offset = 0;
  for (std::uint64_t pending = 1; pending > 0; --pending) {
    const auto item = read_msgpack_item(bytes, offset);
    if (!item) {
      if (offset < bytes.size() && static_cast<std::uint8_t>(bytes[offset]) == 0xc1)
        return at(offset) + "tag 0xc1, which MessagePack never uses";
      return at(offset) + "the document ends inside an item";
    }
    if (auto complaint = form_complaint(*item, static_cast<std::uint8_t>(bytes[offset]), offset)) return complaint;
    pending += msgpack_children(*item);
    offset = item->end;
  }
  if (offset != bytes.size()) return at(offset) + std::to_string(bytes.size() - offset) + " bytes after the document";
  return std::nullopt;
}

}  // namespace

Violations shortest_forms(std::string_view msgpack) {
  if (auto complaint = first_complaint(msgpack)) return {{kLaw, *complaint}};
  return {};
}

}  // namespace poolcheck::laws
