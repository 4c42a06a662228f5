#pragma once
// PoolingParams.verify(model) (spec section 2): fills task defaults from the
// pooler config and rejects parameters the task does not support. Idempotent.
#include "core/error.hpp"
#include "core/model.hpp"
#include "core/pooling_params.hpp"

namespace poolcheck {

// Returns the verified copy; `params` itself is not modified.
Result<PoolingParams> verify_params(const PoolingParams& params, const ModelConfig& model);

}  // namespace poolcheck
