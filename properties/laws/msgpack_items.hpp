#pragma once
// MessagePack items as the laws read them, from the MessagePack spec and
// apart from core/msgpack, so that a slip in the core's decoder does not move
// the laws' reading with it. A document is its items in pre-order: a
// container's header is followed by its children, so a flat walk of headers
// and payloads visits every item.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

struct MsgpackItem {
  enum class Kind { Nil, Bool, Int, Float, Str, Bin, Ext, Array, Map };
  Kind kind = Kind::Nil;
  std::size_t payload = 0;  // where a str's, bin's or ext's bytes start
  std::uint64_t length = 0;  // str, bin, ext: bytes; array: items; map: entries
  std::size_t end = 0;       // just past the item's own bytes (a container's children follow)
  Json value;                // Nil, Bool, Int (signed or unsigned as the tag says), Float (float32 widened)
};

// The item whose tag is at `at`, or nullopt when its bytes run past the end
// or the tag is 0xc1 (never used).
std::optional<MsgpackItem> read_msgpack_item(std::string_view bytes, std::size_t at);

// A type byte as the laws' messages show it: "0xd9".
std::string msgpack_tag_hex(std::uint8_t tag);

// How many items follow `item` as its children: an array's items, a map's
// keys and values; none for a scalar.
std::uint64_t msgpack_children(const MsgpackItem& item);

// Where the `count` items from `at` end, each with all its children, or
// nullopt when the bytes end first.
std::optional<std::size_t> skip_msgpack_items(std::string_view bytes, std::size_t at, std::uint64_t count);

// The law "msgpack-values-exact": every value of a document the core decoded
// (`decoded`, from_msgpack(bytes)) is the one its bytes hold, read item by item
// with read_msgpack_item: nil, booleans, integers with their sign (int8..64
// sign-extended, uint8..64 not), floats bit for bit (NaN as NaN), strings
// byte for byte, arrays and maps with their counts and keys in order. The wire
// laws compare the decoder with itself (decode, encode, decode), so a misread
// that both decodes share passed them (automatic mutant
// auto-msgpack-367-relational-2 read every negative int8..64 as an unsigned
// number near 2^64). A map with a repeated key is judged by its count only,
// and the walk goes on past its entries.
Violations msgpack_values_exact(std::string_view bytes, const Json& decoded);

}  // namespace poolcheck::laws
