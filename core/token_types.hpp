#pragma once
// Token-type compression (spec section 3): the front end sends the index of the
// first 1 instead of the list; the worker rebuilds the list for a whole batch
// and, for BERT-style models, packs it into bit 30 of the ids.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "core/pooling_params.hpp"

namespace poolcheck {

// No request may make the core produce more token ids than this (spec 10.15).
inline constexpr std::int64_t kMaxTotalTokens = std::int64_t{1} << 24;
inline constexpr int kTokenTypeShift = 30;

inline constexpr const char* kTokenTypeOrderMessage =
    "Token type ids are expected to be a sequence of zeros followed by a sequence of ones";

// The index of the first 1, or the length when there is none. Negative values
// and 1s after the first pass silently (vLLM quirk).
Result<std::int64_t> compress_token_types(std::span<const std::int64_t> types);

// type[j] = 1 if j >= k else 0, for j in [0, len); a negative k gives all ones.
// Requires 0 <= len <= kMaxTotalTokens.
std::vector<std::int64_t> reconstruct_token_types(std::int64_t k, std::int64_t len);

// One request of a worker batch: its params (none for a request without
// pooling params) and its sequence length.
struct BatchRequest {
  std::optional<PoolingParams> params;
  std::int64_t seq_len = 0;
};

// The batch's concatenated token types, or nullopt when no request carries
// extra_kwargs.compressed_token_type_ids (a null value counts as absent).
// Rejects a non-integer boundary, seq_len < 0 and totals above kMaxTotalTokens.
Result<std::optional<std::vector<std::int64_t>>> batch_token_types(
    std::span<const BatchRequest> batch);

// id | (type << 30) for the first len(types) ids. Types longer than the ids
// are an internal error (500), as are ids outside [0, 2^30) and types outside {0, 1}.
Result<std::vector<std::int64_t>> pack_token_types(std::span<const std::int64_t> ids,
                                                   std::span<const std::int64_t> types);

struct UnpackedTokens {
  std::vector<std::int64_t> ids;
  std::vector<std::int64_t> types;
};
// type = (id >> 30) & 1, id & ~(1 << 30).
UnpackedTokens unpack_token_types(std::span<const std::int64_t> packed);

}  // namespace poolcheck
