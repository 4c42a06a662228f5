#include "properties/laws/nesting_laws.hpp"

#include <algorithm>
#include <string>

#include "core/json_input.hpp"

namespace poolcheck::laws {
namespace {

constexpr std::string_view kTooDeep = "Input nests JSON containers more than ";

bool refused_as_too_deep(const Error& error) { return error.message.rfind(kTooDeep, 0) == 0; }

// An upper bound of the nesting, from the bytes alone: every container opens
// with one of these two bytes (inside strings too, hence only a bound).
std::size_t openings(std::string_view bytes) {
  return static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '[') +
                                  std::count(bytes.begin(), bytes.end(), '{'));
}

}  // namespace

// Recursive: the trees it is given came from parse_bounded_json, at most twice
// kMaxNestingDepth deep.
int tree_depth(const Json& value) {
  if (!value.is_structured()) return 0;
  int deepest = 0;
  for (const auto& item : value) deepest = std::max(deepest, tree_depth(item));
  return deepest + 1;
}

Violations nesting_limit_exact(std::string_view bytes, const Result<Json>& parsed) {
  const std::string limit = std::to_string(kMaxNestingDepth);
  if (parsed) {
    // Fewer openings than the limit cannot nest past it: no walk needed.
    if (openings(bytes) <= static_cast<std::size_t>(kMaxNestingDepth)) return {};
    const int depth = tree_depth(*parsed);
    if (depth <= kMaxNestingDepth) return {};
    return {{"nesting-limit", "a document nesting " + std::to_string(depth) +
                                  " containers was accepted; the limit is " + limit}};
  }
  if (!refused_as_too_deep(parsed.error())) return {};
  const auto again = parse_bounded_json(bytes, 2 * kMaxNestingDepth);
  if (!again) return {};
  const int depth = tree_depth(*again);
  if (depth > kMaxNestingDepth) return {};
  return {{"nesting-limit", "a document nesting " + std::to_string(depth) + " containers was refused with '" +
                                parsed.error().message + "'; up to " + limit + " pass"}};
}

}  // namespace poolcheck::laws
