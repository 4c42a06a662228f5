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

int written_depth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped byte cannot end the string
      in_string = c != '"';
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[': case '{': deepest = std::max(deepest, ++depth); break;
      case ']': case '}': --depth; break;
      default: break;
    }
  }
  return deepest;
}

Violations nesting_limit_exact(std::string_view bytes, const Result<Json>& parsed) {
  const std::string limit = std::to_string(kMaxNestingDepth);
  if (parsed) {
    // Fewer openings than the limit cannot nest past it: no scan needed.
    if (openings(bytes) <= static_cast<std::size_t>(kMaxNestingDepth)) return {};
    const int depth = written_depth(bytes);
    if (depth <= kMaxNestingDepth) return {};
    return {{"nesting-limit", "a document nesting " + std::to_string(depth) +
                                  " containers was accepted; the limit is " + limit}};
  }
  if (!refused_as_too_deep(parsed.error())) return {};
  if (!parse_bounded_json(bytes, 2 * kMaxNestingDepth)) return {};
  const int depth = written_depth(bytes);
  if (depth > kMaxNestingDepth) return {};
  return {{"nesting-limit", "a document nesting " + std::to_string(depth) + " containers was refused with '" +
                                parsed.error().message + "'; up to " + limit + " pass"}};
}

}  // namespace poolcheck::laws
