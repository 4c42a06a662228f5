#pragma once
// cache_salt's rules (spec 6; vLLM #46966 and #51444), judged both ways on
// every online envelope: a salt the rules refuse is refused with the rule's
// own message, and one they take is taken. The error laws judge only a
// message's shape, so a core that refused a good salt (automatic mutant
// auto-request-72-int-literal-1 counted one code point too many and refused
// every salt of exactly 128) passed them.
#include <optional>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Law "cache-salt-rules": `envelope` is the parsed document of a `score` or
// `rerank` envelope (any other is not judged), `refusal` the error its request
// got while its fields were read, or nullptr when they were all taken. With a
// body `cache_salt` that is present and not null:
//   not a string, or ""                          `Parameter 'cache_salt' must be a non-empty string if provided.`
//   more than 128 code points, or '@', '/', '\'  `Parameter 'cache_salt' must be at most 128 characters and
//   or NUL in it                                  must not contain '@', '/', '\\', or NUL.`
//   any other string                              taken: neither message
// A refusal for another field is not judged here (first-failure-wins orders
// them); a salt message is, whatever else the body holds.
Violations cache_salt_rules(const Json& envelope, const Error* refusal);

}  // namespace poolcheck::laws
