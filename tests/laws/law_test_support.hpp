#pragma once
// What every test of the law library uses: whether a law fired, the two
// expectations, and an envelope as `poolcheck preprocess` reads it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

inline bool fired(const Violations& violations, const std::string& law) {
  return std::any_of(violations.begin(), violations.end(), [&](const Violation& v) { return v.law == law; });
}

#define EXPECT_HOLDS(violations) EXPECT_TRUE((violations).empty()) << describe(violations)
#define EXPECT_FIRES(violations, law) \
  EXPECT_TRUE(fired((violations), (law))) << "expected a '" << (law) << "' violation, got:\n" << describe(violations)

inline Json envelope(const std::string& endpoint, const Json& request, const Json& model = nullptr) {
  Json e = Json::object();
  e["endpoint"] = endpoint;
  if (!model.is_null()) e["model"] = model;
  e["request"] = request;
  return e;
}

}  // namespace poolcheck::laws
