#pragma once
// Laws of PoolingParams.verify (spec section 2): it leaves its input alone,
// shares nothing with it, is idempotent, and rejects only with exact errors.
#include "core/model.hpp"
#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// verify on `params`, with its laws, and what it answered (the fuzz target's
// outcome, so verify runs twice per input, not three times).
struct VerifyRun {
  Violations violations;
  Result<PoolingParams> verified;
};
VerifyRun verify_with_laws(const ModelConfig& model, const PoolingParams& params);
Violations verify_law(const ModelConfig& model, const PoolingParams& params);

// Accepted dimensions are valid for the model (spec 2 step 7, judged apart
// from core/verify's check). Law id "verify-dimensions"; part of verify_law.
Violations accepted_dimensions_valid(const ModelConfig& model, const PoolingParams& verified);
// An "only supports [...] parameters, does not support [...] parameters"
// rejection names only parameters the request itself set: the model's
// defaults fill only what the task takes (part of verify_law).
Violations verify_rejection_blames_request(const PoolingParams& params, const Error& error);
// An "only supports" rejection prints the task as vLLM does: bare in the
// step-pooling message, quoted in the valid-parameters one (spec 11.4).
Violations unsupported_message_task(const PoolingParams& params, const Error& error);

}  // namespace poolcheck::laws
