#pragma once
// The JSON door takes only well-formed UTF-8 (spec 10.4, docs/decisions.md):
// a text it accepts is well formed from its first byte to its last, and a
// text it refuses as `Invalid UTF-8 byte` is refused at the first byte of its
// first ill-formed sequence, that byte's position counted in characters as
// Python counts a JSONDecodeError's. The law finds that sequence its own way:
// it decodes each sequence and judges the code point it spells (shortest
// form, no surrogate, at most U+10FFFF), where the core compares each byte
// with RFC 3629's table of ranges.
#include <cstddef>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Whether byte `c` of well-formed UTF-8 starts a character: every byte but a
// continuation byte 10xxxxxx does. Counting them counts code points, as
// Python's len() and a JSONDecodeError's (char N) do.
constexpr bool starts_character(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

// The well-formed sequence that starts at s[i] (i < s.size()), decoded as
// this law decodes it; nullopt when it is ill formed.
struct CodePoint {
  char32_t value;
  std::size_t length;  // its bytes, 1 to 4
};
std::optional<CodePoint> code_point_at(std::string_view s, std::size_t i);

// Whether every sequence of `text` is well-formed UTF-8, judged as this law judges.
bool well_formed_utf8(std::string_view text);

// Law "utf8-refusal": `parsed` is what parse_bounded_json(bytes) gave.
Violations utf8_refusal_exact(std::string_view bytes, const Result<Json>& parsed);

// The same law at the MessagePack door: `decoded` is what from_msgpack(bytes)
// gave. Accepted: every string, keys included, is well formed. Refused as
// `invalid UTF-8 in string at byte N`: N is where the first ill-formed sequence
// of a string's own bytes starts, that string found by the law's own walk of
// the items (automatic mutant auto-msgpack-169-int-literal-1 refused every
// string holding U+0080 to U+00BF, and no law of the params_wire target saw it).
Violations msgpack_utf8_refusal_exact(std::string_view bytes, const Result<Json>& decoded);

}  // namespace poolcheck::laws
