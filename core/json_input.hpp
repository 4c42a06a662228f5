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

// Parses one JSON document under the rules of spec 10.4: a leading UTF-8 BOM
// is skipped, duplicate keys keep the last value (at the first key's place),
// and NaN/Infinity, numbers beyond double range, lone surrogates, raw control
// characters, invalid UTF-8 and trailing data are rejected. Errors have
// `param: null`.
Result<Json> parse_bounded_json(std::string_view bytes);

// The deepest container nesting of `bytes` read as JSON, stopping early once it
// exceeds `limit`; strings are skipped so brackets inside them do not count.
int nesting_depth(std::string_view bytes, int limit);

}  // namespace poolcheck
