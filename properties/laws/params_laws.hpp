#pragma once
// Laws of PoolingParams' two encodings (spec section 2, section 8 "Wire
// round-trip"): object form and wire form give back what went in, and the
// wire form is canonical.
#include <string_view>

#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// decode(encode(p)) == p through the JSON view and through MessagePack; the
// array ends in a non-default value (trailing defaults omitted, nothing else);
// the bytes are msgspec's shortest forms (laws::shortest_forms); the object
// form reads back to p.
Violations params_round_trip(const PoolingParams& params);

// For bytes that decode: encode(decode(b)) decodes to the same params, is in
// the shortest forms and is itself a fixed point of decode-then-encode, and
// decode kept every field.
Violations wire_bytes_fixed_point(std::string_view msgpack);

// `decoded` (the bytes' decode) encodes back to every element the bytes held,
// up to the defaults msgspec leaves off (part of wire_bytes_fixed_point).
Violations decode_keeps_every_field(std::string_view msgpack, const PoolingParams& decoded);

}  // namespace poolcheck::laws
