#pragma once
// The core's JSON value. Ordered, because vLLM's dicts keep insertion order and
// msgspec writes maps in that order (spec 10.11): `compressed_token_type_ids`,
// added last, must come out last.
#include <nlohmann/json.hpp>

namespace poolcheck {
using Json = nlohmann::ordered_json;
}  // namespace poolcheck
