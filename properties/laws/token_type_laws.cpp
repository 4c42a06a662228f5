#include "properties/laws/token_type_laws.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "core/json.hpp"
#include "core/output_json.hpp"
#include "properties/laws/error_laws.hpp"

namespace poolcheck::laws {
namespace {

std::string show(std::span<const std::int64_t> values) {
  return dump_json(Json(std::vector<std::int64_t>(values.begin(), values.end())));
}

// The request's boundary: its extras' key when present and not null.
const Json* boundary_of(const BatchRequest& request) {
  const auto& extras = request.params ? request.params->extra_kwargs : nullptr;
  if (!extras || !extras->is_object()) return nullptr;
  const auto key = extras->find(kCompressedTokenTypeIds);
  return key == extras->end() || key->is_null() ? nullptr : &*key;
}

bool is_int64(const Json& value) {
  return value.is_number_integer() &&
         (!value.is_number_unsigned() || value.get<std::uint64_t>() <= std::uint64_t{INT64_MAX});
}

// Why the spec refuses a batch, read in request order as the worker does: the
// first negative seq_len, the first request that takes the total past
// kMaxTotalTokens (spec 10.15), or the first boundary that is not an integer.
// The field refused, and the exact message where the law knows it.
struct Refusal {
  std::optional<std::string> param;
  std::string message;  // empty: any message (the field's type message)
  std::string reason() const { return message.empty() ? *param : message; }
};

std::optional<Refusal> batch_refusal(std::span<const BatchRequest> batch) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::string at = "$[" + std::to_string(i) + "]";
    const std::int64_t len = batch[i].seq_len;
    if (len < 0) return Refusal{at + ".seq_len", at + ".seq_len: Input should be greater than or equal to 0"};
    if (len > kMaxTotalTokens - total)
      return Refusal{std::nullopt, "The batch has more than " + std::to_string(kMaxTotalTokens) + " tokens in total."};
    total += len;
    if (const Json* k = boundary_of(batch[i]); k && !is_int64(*k))
      return Refusal{at + ".pooling_params.extra_kwargs." + std::string(kCompressedTokenTypeIds), ""};
  }
  return std::nullopt;
}

}  // namespace

Violations compression_law(std::span<const std::int64_t> types) {
  return compression_law(types, compress_token_types(types));
}

Violations compression_law(std::span<const std::int64_t> types, const Result<std::int64_t>& got) {
  Violations out;
  const auto first_one = std::find(types.begin(), types.end(), 1);
  const auto k = static_cast<std::int64_t>(first_one - types.begin());
  const bool above_one = std::any_of(types.begin(), types.end(), [](std::int64_t t) { return t > 1; });
  const bool zero_after_one = std::find(first_one, types.end(), 0) != types.end();
  const bool should_fail = above_one || zero_after_one;
  if (should_fail) {
    if (got) out.push_back({"compression", "compress(" + show(types) + ") accepted it as " + std::to_string(*got)});
    else if (got.error().message != kTokenTypeOrderMessage || got.error().code != 400)
      out.push_back({"compression", "compress(" + show(types) + ") failed with '" + got.error().message + "'"});
    return out;
  }
  if (!got) {
    out.push_back({"compression", "compress(" + show(types) + ") rejected it: " + got.error().message});
    return out;
  }
  if (*got != k)
    out.push_back({"compression", "compress(" + show(types) + ") = " + std::to_string(*got) + ", expected " + std::to_string(k)});
  const bool binary = std::all_of(types.begin(), types.end(), [](std::int64_t t) { return t == 0 || t == 1; });
  if (binary) {
    const auto rebuilt = reconstruct_token_types(*got, static_cast<std::int64_t>(types.size()));
    if (!std::equal(rebuilt.begin(), rebuilt.end(), types.begin(), types.end()))
      out.push_back({"compression", "reconstruct(compress(t), len(t)) = " + show(rebuilt) + " for t = " + show(types)});
  }
  return out;
}

Violations batch_law(std::span<const BatchRequest> batch) { return batch_law(batch, batch_token_types(batch)); }

Violations batch_law(std::span<const BatchRequest> batch, const BatchTypes& got) {
  Violations out;
  const auto refusal = batch_refusal(batch);
  if (!got) {
    if (!refusal)
      out.push_back({"batch", "a batch the spec accepts was refused: " + got.error().message});
    else if (got.error().param != refusal->param || (!refusal->message.empty() && got.error().message != refusal->message))
      out.push_back({"batch", "the batch was refused with '" + got.error().message + "'; the spec refuses it for " +
                                  refusal->reason()});
    return out;
  }
  if (refusal) {
    out.push_back({"batch", "a batch the spec refuses for " + refusal->reason() + " was accepted"});
    return out;
  }
  std::int64_t total = 0;
  bool any_key = false;
  for (const auto& request : batch) {
    total += request.seq_len;  // accepted: each >= 0, at most kMaxTotalTokens in all
    any_key = any_key || boundary_of(request) != nullptr;
  }
  if (!any_key) {
    if (got->has_value()) out.push_back({"batch", "no request carries a boundary, yet a token-type list was built"});
    return out;
  }
  if (!got->has_value()) {
    out.push_back({"batch", "a request carries a boundary, yet no token-type list was built"});
    return out;
  }
  const auto& types = **got;
  if (static_cast<std::int64_t>(types.size()) != total) {
    out.push_back({"batch", std::to_string(types.size()) + " token types for " + std::to_string(total) + " tokens"});
    return out;
  }
  std::size_t offset = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const auto len = static_cast<std::size_t>(batch[i].seq_len);
    const auto slice = std::span(types).subspan(offset, len);
    const Json* k = boundary_of(batch[i]);
    // Independent of reconstruct: zeros before the boundary, ones from it.
    const std::int64_t boundary = k ? k->get<std::int64_t>() : static_cast<std::int64_t>(len);
    for (std::size_t j = 0; j < len; ++j) {
      const std::int64_t want = static_cast<std::int64_t>(j) >= boundary ? 1 : 0;
      if (slice[j] != want) {
        out.push_back({"batch", "request " + std::to_string(i) + " position " + std::to_string(j) + " has type " +
                                    std::to_string(slice[j]) + ", expected " + std::to_string(want)});
        break;
      }
    }
    offset += len;
  }
  return out;
}

Violations packing_law(std::span<const std::int64_t> ids, std::span<const std::int64_t> types) {
  Violations out;
  auto packed = pack_token_types(ids, types);
  if (types.size() > ids.size()) {
    if (packed || packed.error().code != 500)
      out.push_back({"packing", "types longer than ids were not an internal error"});
    return out;
  }
  // Spec 3: ids in [0, 2^30) with types in {0, 1} always pack; anything else
  // is an internal error (500), never a silent result.
  const auto id_in_range = [](std::int64_t id) { return id >= 0 && id < (std::int64_t{1} << 30); };
  const auto bit = [](std::int64_t type) { return type == 0 || type == 1; };
  const bool packable = std::all_of(ids.begin(), ids.end(), id_in_range) && std::all_of(types.begin(), types.end(), bit);
  if (packable != packed.ok())
    out.push_back({"packing", packable ? "packing refused ids " + show(ids) + " with types " + show(types) +
                                             ", all in range: " + packed.error().message
                                       : "packing accepted ids " + show(ids) + " with types " + show(types) +
                                             ", not all in range"});
  if (!packed) {
    if (packed.error().code != 500) out.push_back({"packing", "an unpackable input was not an internal error"});
    return out;
  }
  const auto unpacked = unpack_token_types(*packed);
  if (!std::equal(unpacked.ids.begin(), unpacked.ids.end(), ids.begin(), ids.end()))
    out.push_back({"packing", "unpack(pack(ids)) changed the ids " + show(ids) + " into " + show(unpacked.ids)});
  if (unpacked.types.size() != ids.size()) {
    out.push_back({"packing", "unpack(pack(ids)) gave " + std::to_string(unpacked.types.size()) + " types for " +
                                  std::to_string(ids.size()) + " ids"});
    return out;
  }
  for (std::size_t i = 0; i < unpacked.types.size(); ++i) {
    const std::int64_t want = i < types.size() ? types[i] : 0;
    if (unpacked.types[i] != want) {
      out.push_back({"packing", "position " + std::to_string(i) + " unpacked to type " +
                                    std::to_string(unpacked.types[i]) + ", expected " + std::to_string(want)});
      break;
    }
  }
  return out;
}

Violations worker_batch_law(std::span<const BatchRequest> batch, std::span<const std::int64_t> ids) {
  auto types = batch_token_types(batch);
  Violations out = batch_law(batch, types);
  if (!types) {
    append(out, error_law(types.error()));
    return out;
  }
  if (types->has_value()) append(out, packing_law(ids, **types));
  return out;
}

}  // namespace poolcheck::laws
