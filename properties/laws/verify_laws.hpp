#pragma once
// Laws of PoolingParams.verify (spec section 2): it leaves its input alone,
// shares nothing with it, is idempotent, and rejects only with exact errors.
#include "core/model.hpp"
#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// verify on `params`, with its laws, and what it answered (the fuzz target's
// outcome, so verify runs twice per input, not three times). All but the wire
// round trip of the verified params, which the caller adds: the `verify`
// target gives it to its full check (laws::CheckDepth).
struct VerifyRun {
  Violations violations;
  Result<PoolingParams> verified;
};
VerifyRun verify_with_laws(const ModelConfig& model, const PoolingParams& params);
// Every law of verify, the round trip included.
Violations verify_law(const ModelConfig& model, const PoolingParams& params);

// Accepted dimensions are valid for the model (spec 2 step 7, judged apart
// from core/verify's check). Law id "verify-dimensions"; part of verify_law.
Violations accepted_dimensions_valid(const ModelConfig& model, const PoolingParams& verified);
// And the other way: a Matryoshka refusal names dimensions the spec refuses
// (automatic mutant auto-verify-87-drop-not-1 took a listed model for none),
// and is byte for byte the spec's message for them, the model's name quoted by
// the law's own repr() (laws::python_str_repr; automatic mutants of
// core/python_repr.cpp quoted names wrongly and only the family was judged).
Violations refused_dimensions_invalid(const ModelConfig& model, const PoolingParams& params, const Error& error);
// Each field an accepted verify fills is the request's when the request set
// it, otherwise the default vLLM's _merge_default_parameters and
// _set_default_parameters give (spec 2, stated here apart from core/verify):
// skip_reading_prefix_cache true for token tasks and plugins, use_activation
// the pooler's or true, dimensions the pooler's for embed tasks only, the step
// fields the pooler's under a STEP pooler. A task verify leaves alone (none,
// or one it does not know) changes nothing. Law id "verify-defaults"; part of
// verify_law.
Violations verify_defaults(const ModelConfig& model, const PoolingParams& params, const PoolingParams& verified);
// An "only supports [...] parameters, does not support [...] parameters"
// rejection names only parameters the request itself set: the model's
// defaults fill only what the task takes (part of verify_law).
Violations verify_rejection_blames_request(const PoolingParams& params, const Error& error);
// An "only supports" rejection prints the task as vLLM does: bare in the
// step-pooling message, quoted in the valid-parameters one (spec 11.4); and
// it lists the task's valid parameters whole, in vLLM's order.
Violations unsupported_message_task(const PoolingParams& params, const Error& error);

}  // namespace poolcheck::laws
