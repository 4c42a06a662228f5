#include "properties/laws/params_laws.hpp"

#include "core/integer.hpp"
#include "core/json_equality.hpp"
#include "core/msgpack.hpp"
#include "core/output_json.hpp"
#include "core/wire.hpp"
#include "properties/laws/msgpack_laws.hpp"

namespace poolcheck::laws {
namespace {

// An integer beyond MessagePack's 64 bits anywhere in `value` (recursive: bounded depth).
bool holds_big_integer(const Json& value) {
  if (is_big_integer(value)) return true;
  if (!value.is_structured()) return false;
  for (const auto& item : value)
    if (holds_big_integer(item)) return true;
  return false;
}

constexpr const char* kLaw = "wire-round-trip";

std::string show(const PoolingParams& params) { return dump_json(params_to_object(params)); }

// The wire default of position i (spec section 2 table).
Json wire_default(std::size_t i) {
  if (i == 5) return false;
  if (i == 9) return kOutputKindFinalOnly;
  return nullptr;
}

void expect_same(Violations& out, const char* path, const PoolingParams& want,
                 const Result<PoolingParams>& got) {
  if (!got) {
    out.push_back({kLaw, std::string(path) + " rejected " + show(want) + ": " + got.error().message});
  } else if (!deep_equal(want, *got)) {
    out.push_back({kLaw, std::string(path) + " changed " + show(want) + " into " + show(*got)});
  }
}

// The wire array as msgspec would write the same struct: a trailing null of
// late_interaction_params dropped, then the trailing defaults.
Json canonical_array(Json array) {
  if (array.size() > 7 && array[7].is_array() && array[7].size() == 3 && array[7][2].is_null()) array[7].erase(2);
  while (!array.empty() && array.back() == wire_default(array.size() - 1)) array.erase(array.size() - 1);
  return array;
}

}  // namespace

// What decode kept of the bytes: encoding the decoded params gives back every
// element the bytes held (up to msgspec's omitted defaults). A decoder that
// drops or changes a field is seen here even when its own round trip holds.
Violations decode_keeps_every_field(std::string_view msgpack, const PoolingParams& decoded) {
  auto raw = from_msgpack(msgpack);
  if (!raw || !raw->is_array()) return {};
  const Json want = canonical_array(*raw);
  const Json got = encode_wire(decoded);
  if (json_equal(got, want)) return {};  // a NaN element is kept when it is still a NaN
  return {{kLaw, "decode kept " + dump_json(got) + " of the wire array " + dump_json(*raw) + " (expected " +
                     dump_json(want) + ")"}};
}

Violations params_round_trip(const PoolingParams& params) {
  Violations out;
  const Json wire = encode_wire(params);
  if (!wire.is_array() || wire.size() > 10) {
    out.push_back({kLaw, "encode gave " + dump_json(wire) + ", not an array of at most 10 items"});
    return out;
  }
  if (!wire.empty() && wire.back() == wire_default(wire.size() - 1))
    out.push_back({kLaw, "encode is not canonical: " + dump_json(wire) + " ends in a default value"});
  // The MessagePack path is the JSON view's (encode_wire, decode_wire) with
  // the byte codec in between, so when it holds the JSON view holds too (short
  // of a byte codec that undoes a bug of the view exactly). The view alone is
  // checked when the bytes cannot be written.
  auto bytes = encode_wire_msgpack(params);
  if (bytes) {
    expect_same(out, "MessagePack decode(encode(p))", params, decode_wire_msgpack(*bytes));
    append(out, shortest_forms(*bytes));
  } else {
    expect_same(out, "JSON view decode(encode(p))", params, decode_wire(wire));
    if (!params.extra_kwargs || !holds_big_integer(*params.extra_kwargs))  // msgspec's OverflowError
      out.push_back({kLaw, "MessagePack encode failed on " + show(params) + ": " + bytes.error().message});
  }
  expect_same(out, "object form", params, params_from_object(params_to_object(params), "pooling_params"));
  return out;
}

Violations wire_bytes_fixed_point(std::string_view msgpack) {
  Violations out;
  auto decoded = decode_wire_msgpack(msgpack);
  if (!decoded) return out;  // rejection is judged by the error laws
  // Decoded MessagePack holds no integer beyond 64 bits, so it always encodes.
  auto encoded = encode_wire_msgpack(*decoded);
  if (!encoded) {
    out.push_back({kLaw, "MessagePack encode failed on decoded " + show(*decoded) + ": " + encoded.error().message});
    return out;
  }
  const std::string& canonical = *encoded;
  append(out, shortest_forms(canonical));
  expect_same(out, "MessagePack decode(encode(decode(b)))", *decoded, decode_wire_msgpack(canonical));
  auto again = decode_wire_msgpack(canonical);
  auto again_bytes = again ? encode_wire_msgpack(*again) : Result<std::string>(again.error());
  if (again && (!again_bytes || *again_bytes != canonical))
    out.push_back({kLaw, "encode(decode(e)) != e for the canonical encoding of " + show(*decoded)});
  append(out, decode_keeps_every_field(msgpack, *decoded));
  append(out, params_round_trip(*decoded));
  return out;
}

}  // namespace poolcheck::laws
