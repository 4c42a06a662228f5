#include "core/json_equality.hpp"

#include <cmath>

namespace poolcheck {

// Recursive: the core's JSON values come from its bounded parsers, at most
// kMaxNestingDepth deep.
bool json_equal(const Json& a, const Json& b) {
  if (a.is_number_float() && b.is_number_float() && std::isnan(a.get<double>()) && std::isnan(b.get<double>()))
    return true;
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!json_equal(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
      if (x.key() != y.key() || !json_equal(*x, *y)) return false;
    return true;
  }
  return a == b;
}

}  // namespace poolcheck
