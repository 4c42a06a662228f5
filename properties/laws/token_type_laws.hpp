#pragma once
// Laws of token-type compression, worker batches and packing (spec section 3),
// stated independently of the core's scan.
#include <cstdint>
#include <span>

#include "core/token_types.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// compress(t) fails exactly when t holds a value above 1 or a 0 after the
// first 1 (negatives pass: a vLLM quirk), with the spec's message; otherwise
// it is the index of the first 1 (or the length), and for t over {0, 1}
// reconstruct(compress(t), len(t)) == t.
Violations compression_law(std::span<const std::int64_t> types);
// The same, judging `got`: compress(types) as the caller already made it.
Violations compression_law(std::span<const std::int64_t> types, const Result<std::int64_t>& got);

// A batch is refused exactly for its first negative seq_len, its first request
// past 2^24 tokens in total, or its first boundary that is not an integer, with
// that field (and message). Accepted: no key anywhere, no tensor; otherwise one
// list of sum(seq_len) types, each request's slice reconstruct(k, len) (all
// zeros without the key).
Violations batch_law(std::span<const BatchRequest> batch);
// The same, judging `got`: batch_token_types(batch) as the caller already made it.
using BatchTypes = Result<std::optional<std::vector<std::int64_t>>>;
Violations batch_law(std::span<const BatchRequest> batch, const BatchTypes& got);

// unpack(pack(ids, types)) gives the ids back, and the types for the first
// len(types) positions (0 after); types longer than ids are an internal error.
Violations packing_law(std::span<const std::int64_t> ids, std::span<const std::int64_t> types);

// A worker batch end to end: it obeys batch_law; a rejected one the error law
// too, and the token types of an accepted one, packed into `ids`, obey
// packing_law.
Violations worker_batch_law(std::span<const BatchRequest> batch, std::span<const std::int64_t> ids);

}  // namespace poolcheck::laws
