#pragma once
// Pre-processing (spec section 7): a validated request and a model in, one
// engine request per pair out.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/model.hpp"
#include "core/pooling_params.hpp"
#include "core/request.hpp"

namespace poolcheck {

struct EnginePrompt {
  std::vector<std::int64_t> prompt_token_ids;
  std::vector<std::string> image_urls;  // multi_modal_data.image, when not empty
  PromptExtras extras;                  // exactly the non-null cache_salt and mm_processor_kwargs
};

struct PairOutput {
  std::string request_id;
  EnginePrompt prompt;
  PoolingParams pooling_params;
  // The post-tokenisation token types the boundary was computed from (BERT-like
  // models only). Not part of the engine request; kept so the laws can check
  // the boundary against them.
  std::optional<std::vector<std::int64_t>> token_type_ids;
};

struct PreprocessOutput {
  std::vector<PairOutput> outputs;
  // The params every pair started from, as they are afterwards.
  PoolingParams base_params;
};

// Runs the model-dependent checks of spec 10.2 (404, truncation target,
// pairing, offline task conflict, token limits) and then each pair in order.
// `request.caller_params` is the caller's object; it is never modified.
Result<PreprocessOutput> preprocess(const ModelConfig& model, const ScoringRequest& request);

// What preprocess decides before it builds a token: its error, or each pair's
// prompt length (after truncation and padding), in pair order. The same
// checks, run by the same code; a padded request of 2^24 tokens is decided in
// microseconds, where building it takes seconds (the fuzz targets' work budget).
Result<std::vector<std::int64_t>> plan_prompt_lengths(const ModelConfig& model, const ScoringRequest& request);

}  // namespace poolcheck
