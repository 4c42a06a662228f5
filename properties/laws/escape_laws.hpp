#pragma once
// The JSON door refuses a string's escape with CPython's messages (spec 10.4,
// docs/decisions.md), at the character CPython names. This law reads the
// escape at that character itself and judges whether it is one of the kind
// the message names. The error laws judge only a message's form, and a
// refused text has no document for the rerun laws to respell, so a door that
// refused a good escape passed every law (automatic mutant
// auto-json-input-357-plus-minus-2 read a surrogate pair's second half two
// bytes too early and refused every escaped character above U+FFFF).
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Law "escape-refusal": `parsed` is what parse_bounded_json(bytes) gave. A
// refusal `Invalid JSON: <reason>: line L column C (char N)` for an escape
// names, at character N (counted after a byte order mark, as CPython counts):
//   Invalid \escape        a backslash whose next character is none of " \ / b f n r t u
//   Invalid \uXXXX escape  the `u` of a `\u` whose next four characters are not all hex digits
//   Lone surrogate escape  a `\uXXXX` of a low surrogate (DC00..DFFF), or of a high one
//   (rejected, spec 10.4)  (D800..DBFF) not followed by `\u` and a low surrogate's four digits
// Other refusals, and acceptances, are not judged here.
Violations escape_refusal_exact(std::string_view bytes, const Result<Json>& parsed);

}  // namespace poolcheck::laws
