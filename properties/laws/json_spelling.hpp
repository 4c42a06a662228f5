#pragma once
// Another JSON spelling of one document. json.loads reads a string the same
// whether a character is written as itself, as a \u escape (a surrogate pair
// above U+FFFF, either case of hex digit) or as its short escape, a float the
// same in any decimal spelling that rounds to it (0.001 or 1e-3), it skips
// white space between tokens, and it decodes bytes as utf-8-sig (a leading
// byte order mark is dropped). So a document written in any such
// spelling must be pre-processed to the same outcome, byte for byte (the
// spelling-invariance law, run beside coercion invariance in check.cpp).
//
// The text is written here, not by the core's printer (which escapes only
// what it must), so the reader's escape and white-space paths meet forms no
// code of the core wrote: automatic mutant auto-json-input-114-relational-2
// refused every \u escape holding a digit 1 to 9, and -149-int-literal-6
// dropped two bytes of the byte order mark, not three, and -274-relational-2
// refused every exponent with a sign; no law of the fuzz
// targets could tell, as none knew the refused text was valid JSON.
#include <cstdint>
#include <string>

#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// `document` spelled anew: about one character of three of each string and
// key escaped, half the finite floats in exponent form (either case of e, a
// plus sign or none), white space around some structural characters, and one
// text in four opened with the byte order mark. `choice`
// decides which (the same choice, the same text). Numbers, literals, the
// order of keys and the structure are those of the core's printer.
std::string respelled_json(const Json& document, std::uint64_t choice);

// The spelling-invariance law: the outcome of the document spelled anew is
// the original's, byte for byte.
Violations spelling_invariance(const std::string& original_outcome, const std::string& respelled_outcome);

}  // namespace poolcheck::laws
