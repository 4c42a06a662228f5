#pragma once
// Laws of PoolingParams' two encodings (spec section 2, section 8 "Wire
// round-trip"): object form and wire form give back what went in, and the
// wire form is canonical.
#include <cstddef>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// decode(encode(p)) == p through the JSON view and through MessagePack; the
// array ends in a non-default value (trailing defaults omitted, nothing else);
// the bytes are msgspec's shortest forms (laws::shortest_forms); the object
// form reads back to p.
Violations params_round_trip(const PoolingParams& params);
// A MessagePack encode of `params` refused with the message `refusal` (part of
// params_round_trip): only msgspec's OverflowError may refuse, for the first
// integer of extra_kwargs beyond 64 bits in the encoder's order, quoted digit
// for digit.
Violations encode_refusal_exact(const PoolingParams& params, const std::string& refusal);

// The comparator the laws lean on (core's deep_equal) holds `params` equal to
// its deep copy and unequal to a copy with any one field changed. A
// comparator blind to a field blinds every law that compares params while
// the core's outputs stay right, so no other law sees it (issue 13). On the
// full check of `params_wire` and `request` (laws::CheckDepth) and in the
// params property.
Violations comparator_sees_each_field(const PoolingParams& params);
// The same for the JSON comparator (core's json_equal, which deep_equal and
// the laws use for extras, prompts and outcomes): `value` equals its copy,
// and differs from each copy with one of its first 32 leaves changed (a
// number, string, boolean, null or empty container replaced by another of
// the same type). A comparator blind to array items passed every law
// (automatic mutant auto-json-equality-14-int-literal-2).
Violations json_comparator_sees_each_value(const Json& value);

// For bytes that decode: encode(decode(b)) decodes to the same params, is in
// the shortest forms and is itself a fixed point of decode-then-encode, and
// decode kept every field; with it, params_round_trip of decode(b).
Violations wire_bytes_fixed_point(std::string_view msgpack);
// The same for bytes already decoded: `raw` is from_msgpack(b), `decoded`
// decode_wire(raw) (the two steps of decode_wire_msgpack).
Violations wire_bytes_fixed_point(const Json& raw, const PoolingParams& decoded);

// `decoded` (decode_wire(raw)) encodes back to every element of the wire
// array `raw`, up to the defaults msgspec leaves off (part of
// wire_bytes_fixed_point).
Violations decode_keeps_every_field(const Json& raw, const PoolingParams& decoded);

// The wire array's length: spec 2's ten fields.
inline constexpr std::size_t kWireLength = 10;

// Law "wire-length": `decoded` is decode_wire(raw). An accepted wire array
// has at most ten items. A refusal `<path>: Input should have <expected>
// items, got N` names a list at that path of exactly N items, and N is one
// the expected count forbids (`at most M`: N > M, and M is ten at `$`; `A or
// B`: neither). No other law judged the count (automatic mutant
// auto-wire-170-relational-1 refused every wire array of exactly ten items).
Violations wire_lengths_due(const Json& raw, const Result<PoolingParams>& decoded);

// Law "type-refusals-due" at the wire door (error_laws.hpp has it for the
// envelope): a refusal `<$path>: Input should be a valid string` (`list`,
// `object`, `boolean`; `integer`: an int64) names a value at that path that
// is not one, and `<$path>: Input should be 'a' or 'b'` a value that is none
// of the options (auto-wire-91-int-literal-4 read a late-interaction
// query_uses from the key before it, and refused every three-item form). No law judged a
// wire refusal's path (automatic mutant auto-wire-88-int-literal-4 blamed a
// late-interaction key's refusal on the mode before it). A path that leads to
// no value fires too: a type refusal is about a value that is there
// (auto-wire-85-int-literal-4 put a mode's refusal at $[7][2^64 - 1]).
Violations wire_type_refusals_due(const Json& raw, const Result<PoolingParams>& decoded);

}  // namespace poolcheck::laws
