#pragma once
// MessagePack as msgspec writes it (spec 10.11): shortest integer forms,
// floats always float64, maps in insertion order. The decoder takes untrusted
// bytes: it bounds nesting and never reads past the end.
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck {

// Fails only on an integer beyond MessagePack's range (below -2^63 or above
// 2^64 - 1), where msgspec raises OverflowError (spec 11.2).
Result<std::string> to_msgpack(const Json& value);

// Accepts nil, bool, int, float32/64, str (valid UTF-8), array, and maps with
// string keys (the last duplicate wins), nested at most kMaxNestingDepth deep,
// with no trailing bytes. Rejects bin and ext; NaN and infinities are floats,
// as msgspec decodes them.
Result<Json> from_msgpack(std::string_view bytes);

}  // namespace poolcheck
