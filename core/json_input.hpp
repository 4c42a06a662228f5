#pragma once
// The one door for untrusted JSON bytes: size and nesting are bounded before
// nlohmann's parser (which recurses when building and destroying values) runs.
#include <cstddef>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck {

inline constexpr std::size_t kMaxInputBytes = std::size_t{8} << 20;  // exactly 8 MiB passes
inline constexpr int kMaxNestingDepth = 64;                         // exactly 64 passes

// Parses one JSON document as Python's json.loads does (spec 11.3): NaN,
// Infinity and -Infinity are floats, numbers beyond double range are infinite,
// integers keep every digit (beyond 64 bits as core/integer.hpp says). A
// leading UTF-8 BOM is skipped, duplicate keys keep the last value (at the
// first key's place); lone surrogate escapes, raw control characters, invalid
// UTF-8, integers of more than 4300 digits and trailing data are rejected
// (spec 10.4). Errors have `param: null` and Python's JSONDecodeError wording.
// `max_depth` is for the harness's own files (corpus entries wrap inputs that
// nest past the limit); what the core reads always takes the default.
Result<Json> parse_bounded_json(std::string_view bytes, int max_depth = kMaxNestingDepth);

// The deepest container nesting of `bytes` read as JSON, stopping early once it
// exceeds `limit`; strings are skipped so brackets inside them do not count.
int nesting_depth(std::string_view bytes, int limit);

}  // namespace poolcheck
