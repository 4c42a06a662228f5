#pragma once
// The request target's work budget. Padding to max_length makes every pair
// max_model_len tokens long, and the spec lets a request output up to 2^24
// token ids (10.15): a 200-byte input then pre-processes, renders and checks 16M tokens (twice,
// for the determinism law), up to libFuzzer's timeout under ASan.
// That is correct behaviour, not a hang, so a campaign that reports it as a
// `timeout-` finding only adds noise. The fuzz target skips such inputs
// (LLVMFuzzerTestOneInput returns -1: libFuzzer keeps them out of the corpus);
// `poolcheck repro` and the properties still check them in full.
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "core/envelope.hpp"

namespace poolcheck::fuzz {

// 2^18 tokens: under ASan a 2^18-token input checks in about 1/80 of the time
// of a 2^24-token one (`poolcheck repro`, one run each), which had reached the
// 10 s timeout on a loaded machine.
inline constexpr std::int64_t kPaddedTokenBudget = std::int64_t{1} << 18;

// Whether the padded prompts of `bytes` exceed the budget. Unpadded prompts
// are bounded by the input's own size (libFuzzer's max_len), so only padding counts.
inline bool over_work_budget(std::string_view bytes) {
  const auto envelope = parse_envelope(bytes);
  if (!envelope || !envelope->request.pad_to_max_length) return false;
  const auto pairs = static_cast<std::int64_t>(
      std::max(envelope->request.queries.size(), envelope->request.documents.size()));
  // Divided, not multiplied: max_model_len has no upper bound of its own
  // (the core bounds the total output, spec 10.15), so the product could overflow.
  return pairs > 0 && envelope->model.max_model_len > kPaddedTokenBudget / pairs;
}

}  // namespace poolcheck::fuzz
