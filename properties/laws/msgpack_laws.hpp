#pragma once
// msgspec's MessagePack is the shortest MessagePack: every length and every
// integer takes the narrowest form that holds it, and every float is float64.
// The wire laws compare decoded values, so a header one size too wide (a
// 65,535-byte string as str32) would decode the same and pass them; this law
// reads the bytes themselves, with its own reader (not core/msgpack).
#include <string_view>

#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Walks one MessagePack document and reports the first element not in
// msgspec's form: fix forms below 32 (str) or 16 (array, map) items, then the
// 8-bit form (str, bin) up to 255, 16-bit up to 65,535, else 32-bit; a
// non-negative integer as positive fixint below 128, then uint8/16/32/64; a
// negative one as negative fixint from -32, then int8/16/32/64; floats as
// float64. Law id "shortest-form". Bytes that are not one whole document are
// reported too (the encoder wrote them).
Violations shortest_forms(std::string_view msgpack);

}  // namespace poolcheck::laws
