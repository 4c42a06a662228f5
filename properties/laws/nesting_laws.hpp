#pragma once
// The nesting limit of the JSON door (core/json_input.hpp, spec 10.1):
// exactly kMaxNestingDepth nested containers pass, one more is refused. The
// core decides it with a scan that runs before, and apart from, parsing; the
// law reads the depth again, its own way, of a text known to be JSON, so a
// slip in the core's scan or an off-by-one at the limit shows as a
// disagreement.
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// The containers on the deepest path of the JSON text `text`, as written: 0
// for a scalar, 1 for [] or {}, 2 for [[1]]. Counted on the text, not on a
// parsed tree, where a repeated key keeps only its last value (a deep value
// written first and replaced still counts, as the door counts it).
int written_depth(std::string_view text);

// Law "nesting-limit": `parsed` is what parse_bounded_json(bytes) gave. A
// document it accepted is written at most kMaxNestingDepth containers deep;
// one it refused as too deep, and that parses with twice the limit (so it is
// JSON), is written deeper than kMaxNestingDepth. A text deeper than twice the
// limit is not judged: the limit is not in question there.
Violations nesting_limit_exact(std::string_view bytes, const Result<Json>& parsed);

}  // namespace poolcheck::laws
