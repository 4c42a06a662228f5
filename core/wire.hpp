#pragma once
// The wire form of PoolingParams (spec section 2): msgspec's array_like,
// omit_defaults struct. A positional array in field order, the trailing run of
// default-valued fields left off, output_kind as the integer 2.
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/pooling_params.hpp"

namespace poolcheck {

// The canonical JSON view of the wire array.
Json encode_wire(const PoolingParams& params);
// Accepts 0..10 elements (missing trailing ones take defaults); element errors
// name their position, `$[i]`, as param.
Result<PoolingParams> decode_wire(const Json& array);

// Fails only when extra_kwargs holds an integer MessagePack cannot (spec 11.2);
// the JSON view above still shows it, digit for digit.
Result<std::string> encode_wire_msgpack(const PoolingParams& params);
Result<PoolingParams> decode_wire_msgpack(std::string_view bytes);

}  // namespace poolcheck
