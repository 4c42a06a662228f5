#pragma once
// PoolingParams.verify(model) (spec section 2): fills task defaults from the
// pooler config and rejects parameters the task does not support. Idempotent.
#include <string_view>

#include "core/error.hpp"
#include "core/model.hpp"
#include "core/pooling_params.hpp"

namespace poolcheck {

// Returns the verified copy; `params` itself is not modified.
Result<PoolingParams> verify_params(const PoolingParams& params, const ModelConfig& model);

// The input of `poolcheck verify` and of the `verify` fuzz target:
// {"model": {...}?, "pooling_params": {...}} as bytes, bounded-parsed.
struct VerifyInput {
  ModelConfig model;
  PoolingParams params;
};
Result<VerifyInput> parse_verify_input(std::string_view bytes);
// The same input from its parsed document: a caller that keeps the document
// (the laws read a rejected output_kind from it) parses once.
Result<VerifyInput> verify_input_from_document(const Json& document);

}  // namespace poolcheck
