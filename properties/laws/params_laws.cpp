#include "properties/laws/params_laws.hpp"

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "core/integer.hpp"
#include "core/json_equality.hpp"
#include "core/msgpack.hpp"
#include "core/output_json.hpp"
#include "core/wire.hpp"
#include "properties/laws/msgpack_laws.hpp"

namespace poolcheck::laws {
namespace {

// The first integer beyond MessagePack's 64 bits in `value`, as its decimal
// digits (the bytes the core keeps it as), in the order the encoder writes:
// depth first, an object's values in their order (recursive: bounded depth).
std::optional<std::string> first_big_integer(const Json& value) {
  if (is_big_integer(value)) return std::string(value.get_binary().begin(), value.get_binary().end());
  if (!value.is_structured()) return std::nullopt;
  for (const auto& item : value)
    if (auto digits = first_big_integer(item)) return digits;
  return std::nullopt;
}

// msgspec's OverflowError for the first such integer, as the core words it
// (spec 11.2, docs/decisions.md), spelled here apart from the core's.
std::string overflow_message(const std::string& digits) {
  return "Cannot encode the integer " + digits +
         " as MessagePack: msgspec raises OverflowError for ints below -2**63 or above 2**64 - 1.";
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
Violations decode_keeps_every_field(const Json& raw, const PoolingParams& decoded) {
  if (!raw.is_array()) return {};
  const Json want = canonical_array(raw);
  const Json got = encode_wire(decoded);
  if (json_equal(got, want)) return {};  // a NaN element is kept when it is still a NaN
  return {{kLaw, "decode kept " + dump_json(got) + " of the wire array " + dump_json(raw) + " (expected " +
                     dump_json(want) + ")"}};
}

namespace {

// `params` with one field changed, for each field: a value that differs from
// the field's own whatever it holds (set when absent, changed when present).
// Plain copies, which share extra_kwargs (deep_equal compares it by value):
// only its own change writes to a clone of it.
std::vector<std::pair<const char*, PoolingParams>> one_field_changed(const PoolingParams& params) {
  std::vector<std::pair<const char*, PoolingParams>> out;
  out.reserve(9);
  const auto changed = [&](const char* field, auto edit) {
    PoolingParams copy = params;
    edit(copy);
    out.emplace_back(field, std::move(copy));
  };
  const auto other_int = [](const std::optional<std::int64_t>& v) { return v == 1 ? 2 : 1; };
  changed("use_activation", [](PoolingParams& p) { p.use_activation = !p.use_activation.value_or(false); });
  changed("dimensions", [&](PoolingParams& p) { p.dimensions = other_int(p.dimensions); });
  changed("step_tag_id", [&](PoolingParams& p) { p.step_tag_id = other_int(p.step_tag_id); });
  changed("returned_token_ids", [](PoolingParams& p) {
    if (p.returned_token_ids) p.returned_token_ids->push_back(0);
    else p.returned_token_ids.emplace();
  });
  changed("task", [](PoolingParams& p) { p.task = p.task ? *p.task + "_" : "embed"; });
  changed("requires_token_ids", [](PoolingParams& p) { p.requires_token_ids = !p.requires_token_ids; });
  changed("skip_reading_prefix_cache",
          [](PoolingParams& p) { p.skip_reading_prefix_cache = !p.skip_reading_prefix_cache.value_or(false); });
  changed("late_interaction_params", [](PoolingParams& p) {
    if (p.late_interaction_params) p.late_interaction_params->query_key += "_";
    else p.late_interaction_params = LateInteractionParams{"cache_query", "k", std::nullopt};
  });
  changed("extra_kwargs", [](PoolingParams& p) {
    constexpr const char* kKey = "poolcheck-comparator";
    p = p.clone();
    if (!p.extra_kwargs) p.extra_kwargs = std::make_shared<Json>(Json::object());
    else if (p.extra_kwargs->contains(kKey)) p.extra_kwargs->erase(kKey);
    else (*p.extra_kwargs)[kKey] = nullptr;
  });
  return out;
}

}  // namespace

Violations comparator_sees_each_field(const PoolingParams& params) {
  Violations out;
  if (!deep_equal(params, params.clone()))
    out.push_back({"comparator-sees-each-field", "deep_equal told " + show(params) + " from its own deep copy"});
  for (const auto& [field, changed] : one_field_changed(params))
    if (deep_equal(params, changed) || deep_equal(changed, params))
      out.push_back({"comparator-sees-each-field",
                     "deep_equal found " + show(params) + " equal to a copy whose " + field + " differs: " + show(changed)});
  return out;
}

namespace {

// Up to `limit` leaves of `value` (scalars, empty arrays and objects), depth first.
void collect_leaves(Json& value, std::vector<Json*>& out, std::size_t limit) {
  if (out.size() >= limit) return;
  if (value.is_structured() && !value.empty()) {
    for (auto& child : value) collect_leaves(child, out, limit);
    return;
  }
  out.push_back(&value);
}

// A value of the same JSON type as `leaf` that differs from it.
Json another(const Json& leaf) {
  if (leaf.is_boolean()) return !leaf.get<bool>();
  if (leaf.is_string()) return leaf.get<std::string>() + "x";
  if (leaf.is_number_unsigned()) return leaf.get<std::uint64_t>() ^ 1u;
  if (leaf.is_number_integer()) return leaf.get<std::int64_t>() ^ 1;
  if (leaf.is_number_float()) {
    const double d = leaf.get<double>();
    return std::isnan(d) ? 0.0 : d == 0.0 ? 1.0 : -d;
  }
  if (leaf.is_array()) return Json::array({nullptr});
  if (leaf.is_object()) return Json{{"x", nullptr}};
  return false;  // null
}

}  // namespace

Violations json_comparator_sees_each_value(const Json& value) {
  constexpr std::size_t kLeaves = 32;
  Json copy = value;
  if (!json_equal(value, copy))
    return {{"comparator-sees-each-field", "json_equal told " + dump_json(value).substr(0, 200) + " from its copy"}};
  std::vector<Json*> leaves;
  collect_leaves(copy, leaves, kLeaves);
  for (Json* leaf : leaves) {
    Json kept = std::move(*leaf);
    *leaf = another(kept);
    const bool blind = json_equal(value, copy) || json_equal(copy, value);
    std::swap(*leaf, kept);
    if (blind)
      return {{"comparator-sees-each-field", "json_equal found " + dump_json(value).substr(0, 200) +
                                                 " equal to a copy with one value changed to " + dump_json(kept)}};
  }
  return {};
}

namespace {

// The round trip of `params`, given its MessagePack bytes (`encoded`) and
// those bytes decoded (`decoded_again`): the caller computes both once, so
// the fixed point of wire bytes and the round trip of their params share them
// instead of encoding and decoding the same params again (the core is pure:
// a second call on the same value could only give the same answer).
Violations round_trip_through(const PoolingParams& params, const Result<std::string>& encoded,
                              const Result<PoolingParams>& decoded_again) {
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
  if (encoded) {
    expect_same(out, "MessagePack decode(encode(p))", params, decoded_again);
    append(out, shortest_forms(*encoded));
  } else {
    expect_same(out, "JSON view decode(encode(p))", params, decode_wire(wire));
    append(out, encode_refusal_exact(params, encoded.error().message));
  }
  expect_same(out, "object form", params, params_from_object(params_to_object(params), "pooling_params"));
  return out;
}

}  // namespace

Violations encode_refusal_exact(const PoolingParams& params, const std::string& refusal) {
  const auto big = params.extra_kwargs ? first_big_integer(*params.extra_kwargs) : std::nullopt;
  if (!big) return {{kLaw, "MessagePack encode failed on " + show(params) + ": " + refusal}};
  if (refusal == overflow_message(*big)) return {};
  return {{kLaw, "MessagePack encode of " + show(params) + " was refused with \"" + refusal +
                     "\", not msgspec's OverflowError for its first integer beyond 64 bits: \"" +
                     overflow_message(*big) + "\""}};
}

Violations params_round_trip(const PoolingParams& params) {
  const auto encoded = encode_wire_msgpack(params);
  return round_trip_through(params, encoded,
                            encoded ? decode_wire_msgpack(*encoded) : Result<PoolingParams>(encoded.error()));
}

Violations wire_bytes_fixed_point(const Json& raw, const PoolingParams& decoded) {
  // Decoded MessagePack holds no integer beyond 64 bits, so it always encodes.
  const auto encoded = encode_wire_msgpack(decoded);
  if (!encoded) return {{kLaw, "MessagePack encode failed on decoded " + show(decoded) + ": " + encoded.error().message}};
  const auto again = decode_wire_msgpack(*encoded);
  Violations out = round_trip_through(decoded, encoded, again);
  auto again_bytes = again ? encode_wire_msgpack(*again) : Result<std::string>(again.error());
  if (again && (!again_bytes || *again_bytes != *encoded))
    out.push_back({kLaw, "encode(decode(e)) != e for the canonical encoding of " + show(decoded)});
  append(out, decode_keeps_every_field(raw, decoded));
  return out;
}

Violations wire_bytes_fixed_point(std::string_view msgpack) {
  const auto raw = from_msgpack(msgpack);
  const auto decoded = raw ? decode_wire(*raw) : Result<PoolingParams>(raw.error());
  if (!decoded) return {};  // rejection is judged by the error laws
  return wire_bytes_fixed_point(*raw, *decoded);
}

namespace {

// The value at a wire path, `$` then `[i]` for each step down, or nullptr.
const Json* at_wire_path(const Json& raw, const std::string& path) {
  const Json* value = &raw;
  for (std::size_t at = 1; at < path.size();) {
    const std::size_t close = path.find(']', at);
    if (path[at] != '[' || close == std::string::npos || !value->is_array()) return nullptr;
    const std::size_t i = std::strtoull(path.c_str() + at + 1, nullptr, 10);
    if (i >= value->size()) return nullptr;
    value = &(*value)[i];
    at = close + 1;
  }
  return value;
}

// An integer the wire's int fields take: MessagePack's unsigned ints past
// int64 are integers too, but no field holds one.
bool is_int64(const Json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>() <= std::uint64_t{INT64_MAX};
  return value.is_number_integer();
}

}  // namespace

Violations wire_type_refusals_due(const Json& raw, const Result<PoolingParams>& decoded) {
  if (decoded) return {};
  const std::string& message = decoded.error().message;
  // Most refusals are of other kinds: a substring test spares them the regex (the hot path).
  if (message.rfind("$", 0) != 0 || message.find(": Input should be ") == std::string::npos) return {};
  static const std::regex kRefusal(
      R"(^(\$(?:\[\d+\])*): Input should be (a valid (string|list|object|integer|boolean)|'.*')$)");
  std::smatch m;
  if (!std::regex_match(message, m, kRefusal)) return {};
  const Json* value = at_wire_path(raw, m[1].str());
  if (value == nullptr)
    return {{"type-refusals-due", "'" + message + "', but the wire array holds no value at " + m[1].str()}};
  bool due = true;
  if (m[3].matched) {
    const std::string kind = m[3].str();
    due = kind == "string"    ? !value->is_string()
          : kind == "list"    ? !value->is_array()
          : kind == "object"  ? !value->is_object()
          : kind == "boolean" ? !value->is_boolean()
                              : !is_int64(*value);
  } else if (value->is_string()) {
    static const std::regex kOption("'([^']*)'");
    const std::string options = m[2].str();
    for (auto it = std::sregex_iterator(options.begin(), options.end(), kOption); it != std::sregex_iterator(); ++it)
      due = due && (*it)[1].str() != value->get_ref<const std::string&>();
  }
  if (due) return {};
  return {{"type-refusals-due", "'" + message + "', but the value at " + m[1].str() + " is " +
                                    dump_json(*value).substr(0, 200)}};
}

Violations wire_lengths_due(const Json& raw, const Result<PoolingParams>& decoded) {
  if (decoded) {
    if (!raw.is_array() || raw.size() <= kWireLength) return {};
    return {{"wire-length", "a wire array of " + std::to_string(raw.size()) + " items was accepted; it has " +
                                std::to_string(kWireLength) + " fields"}};
  }
  const std::string& message = decoded.error().message;
  if (message.find(" items, got ") == std::string::npos) return {};
  static const std::regex kLength(R"(^(\$(?:\[\d+\])*): Input should have (?:at most (\d+)|(\d+) or (\d+)) items, got (\d+)$)");
  std::smatch m;
  if (!std::regex_match(message, m, kLength)) return {};
  const Json* value = at_wire_path(raw, m[1].str());
  const std::size_t got = std::strtoull(m[5].str().c_str(), nullptr, 10);
  if (value == nullptr || !value->is_array() || value->size() != got)
    return {{"wire-length", "'" + message + "', but the value at " + m[1].str() + " is " +
                                (value && value->is_array() ? "a list of " + std::to_string(value->size()) + " items"
                                                            : "no list")}};
  const auto number = [&](int i) { return std::strtoull(m[i].str().c_str(), nullptr, 10); };
  const bool allowed = m[2].matched ? got <= number(2) : got == number(3) || got == number(4);
  if (m[1].str() == "$" && m[2].matched && number(2) != kWireLength)
    return {{"wire-length", "'" + message + "', but the wire array has " + std::to_string(kWireLength) + " fields"}};
  if (!allowed) return {};
  return {{"wire-length", "'" + message + "', but " + std::to_string(got) + " items are allowed there"}};
}

}  // namespace poolcheck::laws
