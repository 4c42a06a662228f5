#include "core/token_types.hpp"

#include <algorithm>

#include "core/fields.hpp"

namespace poolcheck {

// Rejected: any value > 1, or a 0 after the first 1. Two plain loops instead of
// one with a state, so that both run at memory speed on long lists: up to the
// first value >= 1, then a branch-free (vectorisable) check of the rest.
Result<std::int64_t> compress_token_types(std::span<const std::int64_t> types) {
  const std::size_t length = types.size();
  std::size_t first = 0;
  while (first < length && types[first] < 1) ++first;
  if (first == length) return static_cast<std::int64_t>(length);
  if (types[first] != 1) return Error::bad_request(kTokenTypeOrderMessage);
  // After the first 1 only 1s and negative values may follow. x = t ^ 1 is 0
  // for a 1 and has its sign bit set exactly when t < 0; keeping x only when
  // that bit is clear leaves a non-zero value for every 0 and every t > 1.
  std::uint64_t rejected = 0;
  for (std::size_t i = first + 1; i < length; ++i) {
    const std::uint64_t x = static_cast<std::uint64_t>(types[i]) ^ 1u;
    rejected |= x & ((x >> 63) - 1u);
  }
  if (rejected != 0) return Error::bad_request(kTokenTypeOrderMessage);
  return static_cast<std::int64_t>(first);
}

std::vector<std::int64_t> reconstruct_token_types(std::int64_t k, std::int64_t len) {
  std::vector<std::int64_t> types(static_cast<std::size_t>(len), 1);
  const std::int64_t zeros = k < 0 ? 0 : (k < len ? k : len);
  std::fill_n(types.begin(), zeros, 0);
  return types;
}

namespace {

// The boundary a request carries, or nullopt when it carries none.
Result<std::optional<std::int64_t>> batch_boundary(const BatchRequest& request, std::size_t index) {
  if (!request.params || !request.params->extra_kwargs) return std::optional<std::int64_t>();
  Fields extras(*request.params->extra_kwargs,
                "$[" + std::to_string(index) + "].pooling_params.extra_kwargs.");
  return extras.integer(kCompressedTokenTypeIds, Null::IsAbsent);
}

}  // namespace

Result<std::optional<std::vector<std::int64_t>>> batch_token_types(
    std::span<const BatchRequest> batch) {
  std::vector<std::optional<std::int64_t>> boundaries;
  bool any = false;
  std::int64_t total = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::int64_t len = batch[i].seq_len;
    if (len < 0) return lower_bound_error("$[" + std::to_string(i) + "].seq_len", 0);
    if (len > kMaxTotalTokens - total)
      return Error::bad_request("The batch has more than " + std::to_string(kMaxTotalTokens) +
                                " tokens in total.");
    total += len;
    auto boundary = batch_boundary(batch[i], i);
    if (!boundary) return boundary.error();
    any = any || boundary->has_value();
    boundaries.push_back(*boundary);
  }
  if (!any) return std::optional<std::vector<std::int64_t>>();

  std::vector<std::int64_t> types;
  types.reserve(static_cast<std::size_t>(total));
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::int64_t len = batch[i].seq_len;
    // Requests without the key contribute all zeros: a boundary at their end.
    auto part = reconstruct_token_types(boundaries[i].value_or(len), len);
    types.insert(types.end(), part.begin(), part.end());
  }
  return std::optional<std::vector<std::int64_t>>(std::move(types));
}

Result<std::vector<std::int64_t>> pack_token_types(std::span<const std::int64_t> ids,
                                                   std::span<const std::int64_t> types) {
  if (types.size() > ids.size())
    return Error::internal("Token types (" + std::to_string(types.size()) +
                           ") are longer than the token ids (" + std::to_string(ids.size()) + ").");
  std::vector<std::int64_t> packed(ids.begin(), ids.end());
  for (std::size_t i = 0; i < packed.size(); ++i) {
    if (packed[i] < 0 || packed[i] >= (std::int64_t{1} << kTokenTypeShift))
      return Error::internal("Token id " + std::to_string(packed[i]) + " at " + std::to_string(i) +
                             " does not fit below 2^30.");
    if (i < types.size()) {
      if (types[i] != 0 && types[i] != 1)
        return Error::internal("Token type " + std::to_string(types[i]) + " at " +
                               std::to_string(i) + " cannot be packed into one bit.");
      packed[i] |= types[i] << kTokenTypeShift;
    }
  }
  return packed;
}

UnpackedTokens unpack_token_types(std::span<const std::int64_t> packed) {
  UnpackedTokens out;
  out.ids.reserve(packed.size());
  out.types.reserve(packed.size());
  constexpr std::int64_t kTypeBit = std::int64_t{1} << kTokenTypeShift;
  for (std::int64_t id : packed) {
    out.types.push_back((id >> kTokenTypeShift) & 1);
    out.ids.push_back(id & ~kTypeBit);
  }
  return out;
}

}  // namespace poolcheck
