#pragma once
// Value equality of JSON documents, as Python's `==` on what json.loads gave,
// except that a NaN equals itself: the laws compare values a request passed
// through (a NaN in extra_kwargs stays the same object in Python, and
// `[nan] == [nan]` holds there by identity), so a NaN must never look changed.
// Objects compare in key order, as nlohmann's ordered_json does: the order is
// observable on the wire (msgspec writes maps in insertion order).
#include "core/json.hpp"

namespace poolcheck {

bool json_equal(const Json& a, const Json& b);

}  // namespace poolcheck
