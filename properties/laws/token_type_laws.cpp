#include "properties/laws/token_type_laws.hpp"

#include <algorithm>

#include "core/json.hpp"
#include "core/output_json.hpp"
#include "properties/laws/error_laws.hpp"

namespace poolcheck::laws {
namespace {

std::string show(std::span<const std::int64_t> values) {
  return dump_json(Json(std::vector<std::int64_t>(values.begin(), values.end())));
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

Violations batch_law(std::span<const BatchRequest> batch) {
  Violations out;
  auto got = batch_token_types(batch);
  if (!got) return out;  // rejections are judged by the error laws
  std::int64_t total = 0;
  bool any_key = false;
  for (const auto& request : batch) {
    // Accepted, so each seq_len is >= 0; kept from overflowing past the bound.
    total = std::min(total + std::min(request.seq_len, kMaxTotalTokens + 1), kMaxTotalTokens + 1);
    const auto& extras = request.params ? request.params->extra_kwargs : nullptr;
    any_key = any_key || (extras && extras->contains(kCompressedTokenTypeIds) &&
                          !(*extras)[std::string(kCompressedTokenTypeIds)].is_null());
  }
  if (total > kMaxTotalTokens)
    out.push_back({"batch", "a batch of more than " + std::to_string(kMaxTotalTokens) +
                                " tokens in total was accepted; it must be refused (spec 10.15)"});
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
    const auto& extras = batch[i].params ? batch[i].params->extra_kwargs : nullptr;
    const Json* k = (extras && extras->contains(kCompressedTokenTypeIds)) ? &(*extras)[std::string(kCompressedTokenTypeIds)] : nullptr;
    // Independent of reconstruct: zeros before the boundary, ones from it.
    const std::int64_t boundary = (k && !k->is_null()) ? k->get<std::int64_t>() : static_cast<std::int64_t>(len);
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
  if (!types) return error_law(types.error());
  Violations out = batch_law(batch);
  if (types->has_value()) append(out, packing_law(ids, **types));
  return out;
}

}  // namespace poolcheck::laws
