#pragma once
// Shrinking a failing input while a predicate (in practice: "has the same
// failure signature") keeps holding. Two passes:
// - a tree pass for JSON inputs: drop members and elements, empty or hoist
//   containers, shorten strings and numbers; every candidate is valid JSON
//   (re-serialised compactly), so the input keeps reaching the laws behind
//   the parser;
// - delta debugging over bytes (Zeller's ddmin, removal of chunks down to
//   single bytes), for any input.
// Both accept a candidate only when it is shorter, or as long and
// lexicographically smaller, so they terminate; a budget caps the number of
// predicate evaluations.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace poolcheck::harness {

using Predicate = std::function<bool(std::string_view candidate)>;

struct MinimiseStats {
  std::size_t evaluations = 0;
  std::size_t budget = 20000;
  bool budget_exhausted() const { return evaluations >= budget; }
};

std::string ddmin_bytes(std::string input, const Predicate& keeps, MinimiseStats& stats);
// `input` unchanged when it is not JSON or its compact form loses the property.
std::string shrink_json_tree(std::string input, const Predicate& keeps, MinimiseStats& stats);
// Tree and byte passes alternated (tree only when `json`) until neither helps.
std::string minimise(std::string input, bool json, const Predicate& keeps, MinimiseStats& stats);

}  // namespace poolcheck::harness
