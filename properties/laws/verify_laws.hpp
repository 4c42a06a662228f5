#pragma once
// Laws of PoolingParams.verify (spec section 2): it leaves its input alone,
// shares nothing with it, is idempotent, and rejects only with exact errors.
#include "core/model.hpp"
#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

Violations verify_law(const ModelConfig& model, const PoolingParams& params);

}  // namespace poolcheck::laws
