#pragma once
// The nesting limit of the JSON door (core/json_input.hpp, spec 10.1):
// exactly kMaxNestingDepth nested containers pass, one more is refused. The
// core decides it by scanning the bytes before parsing; the law decides it
// from the parsed tree, so a slip in the scan or an off-by-one at the limit
// shows as a disagreement.
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// The containers on the deepest path of `value`, itself included: 0 for a
// scalar, 1 for [] or {}, 2 for [[1]].
int tree_depth(const Json& value);

// Law "nesting-limit": `parsed` is what parse_bounded_json(bytes) gave. A
// document it accepted nests at most kMaxNestingDepth containers; one it
// refused as too deep, read again with twice the limit, nests more than
// kMaxNestingDepth. (A document deeper than twice the limit is not read
// again: the scan and the tree cannot disagree about it at the limit.)
Violations nesting_limit_exact(std::string_view bytes, const Result<Json>& parsed);

}  // namespace poolcheck::laws
