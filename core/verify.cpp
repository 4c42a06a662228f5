// Models vLLM's `PoolingParams.verify(model_config)` and its helpers
// `_merge_default_parameters`, `_verify_step_pooling`, `_set_default_parameters`
// and `_verify_valid_parameters` (vllm/pooling_params.py), in vLLM's order.
// docs/decisions-verify-model.md records where the spec left a choice.
#include "core/verify.hpp"

#include "core/fields.hpp"
#include "core/json_input.hpp"
#include "core/python_repr.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace poolcheck {

namespace {

using Names = std::vector<std::string_view>;

// vLLM's `all_parameters`, also the embed tasks' valid ones.
const Names kAllParameters = {"dimensions", "use_activation"};
const Names kEmbedParameters = kAllParameters;
const Names kClassifyParameters = {"use_activation"};

bool contains(const Names& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_set(const PoolingParams& params, std::string_view name) {
  return name == "dimensions" ? params.dimensions.has_value() : params.use_activation.has_value();
}

// vLLM's `valid_parameters` table; nullptr for a task verify leaves alone.
const Names* valid_parameters(const std::string& task) {
  if (task == "embed" || task == "token_embed") return &kEmbedParameters;
  if (task == "classify" || task == "token_classify") return &kClassifyParameters;
  return nullptr;
}

bool is_embed_task(const std::string& task) { return task == "embed" || task == "token_embed"; }

// vLLM's step-pooling and valid-parameters message. `shown_task` is the task
// as vLLM formats it: bare in _verify_step_pooling (`{self.task}`), quoted in
// _verify_valid_parameters (`{self.task!r}`) (spec 11.4).
Error unsupported_parameters(const std::string& shown_task, const Names& valid, const Names& invalid) {
  return Error::bad_request("Task " + shown_task + " only supports " + python_list(valid) +
                            " parameters, does not support " + python_list(invalid) + " parameters");
}

// Fills `field` from the config's value when the request left it unset.
template <class T>
void default_from(std::optional<T>& field, const std::optional<T>& config_value) {
  if (!field) field = config_value;
}

// _merge_default_parameters, up to (not including) its _verify_step_pooling call.
// Only the task's valid parameters are copied: a classify request never takes
// the pooler's `dimensions`.
void merge_pooler_defaults(PoolingParams& params, const PoolerConfig& pooler, const Names& valid) {
  if (contains(valid, "dimensions")) default_from(params.dimensions, pooler.dimensions);
  default_from(params.use_activation, pooler.use_activation);
  // Token-wise pooling may return fewer outputs than prompt tokens after a
  // prefix-cache hit, so token tasks skip reading the cache.
  const bool token_task = *params.task == "token_embed" || *params.task == "token_classify";
  if (!params.skip_reading_prefix_cache) params.skip_reading_prefix_cache = token_task;
}

// _verify_step_pooling: step parameters belong to a STEP pooler, which also
// supplies them when the request leaves them unset (spec 10.7).
MaybeError verify_step_pooling(PoolingParams& params, const PoolerConfig& pooler, const Names& valid) {
  if (pooler.pooling_type == "STEP") {
    default_from(params.step_tag_id, pooler.step_tag_id);
    default_from(params.returned_token_ids, pooler.returned_token_ids);
    return std::nullopt;
  }
  Names invalid;
  if (params.step_tag_id) invalid.push_back("step_tag_id");
  if (params.returned_token_ids) invalid.push_back("returned_token_ids");
  if (invalid.empty()) return std::nullopt;
  return unsupported_parameters(*params.task, valid, invalid);  // bare, as vLLM prints it
}

// vLLM's ModelConfig.is_matryoshka: a non-empty dimension list implies it.
bool is_matryoshka(const ModelConfig& model) {
  const bool has_dimensions = model.matryoshka_dimensions && !model.matryoshka_dimensions->empty();
  return has_dimensions || model.is_matryoshka;
}

// The Matryoshka checks of _set_default_parameters (spec 2 step 7): the range
// is checked before list membership.
MaybeError check_dimensions(std::int64_t dimensions, const ModelConfig& model) {
  const std::string name = "Model " + python_repr(model.name);
  const std::string range = "[1, " + std::to_string(model.embedding_size) + "]";
  const std::string shown = std::to_string(dimensions);
  const bool in_range = dimensions >= 1 && dimensions <= model.embedding_size;
  if (!is_matryoshka(model)) {
    const std::string detail = in_range
        ? " Numeric dimensions are valid only for Matryoshka models in range " + range + "."
        : " Received dimensions=" + shown + ", outside valid numeric range " + range + ".";
    return Error::bad_request(name + " does not support Matryoshka embeddings; dimensions must be unset." +
                              detail);
  }
  if (!in_range)
    return Error::bad_request(name + " only supports dimensions in range " + range + ", got " + shown + ".");
  const auto& listed = model.matryoshka_dimensions;
  if (listed && std::find(listed->begin(), listed->end(), dimensions) == listed->end())
    return Error::bad_request(name + " only supports Matryoshka dimensions " + python_list(*listed) +
                              ", got " + shown + ".");
  return std::nullopt;
}

// _set_default_parameters: every verified task activates by default.
MaybeError set_default_parameters(PoolingParams& params, const ModelConfig& model) {
  if (!params.use_activation) params.use_activation = true;
  if (is_embed_task(*params.task) && params.dimensions) return check_dimensions(*params.dimensions, model);
  return std::nullopt;
}

// _verify_valid_parameters: a set parameter the task does not take (in
// practice `dimensions` on a classify task).
MaybeError verify_valid_parameters(const PoolingParams& params, const Names& valid) {
  Names invalid;
  for (std::string_view name : kAllParameters)
    if (is_set(params, name) && !contains(valid, name)) invalid.push_back(name);
  if (invalid.empty()) return std::nullopt;
  return unsupported_parameters(python_repr(*params.task), valid, invalid);
}

}  // namespace

Result<PoolingParams> verify_params(const PoolingParams& params, const ModelConfig& model) {
  PoolingParams out = params.clone();
  if (!out.task) return out;
  // Plugins validate their own inputs (io_processor.parse_request).
  if (*out.task == "plugin") {
    if (!out.skip_reading_prefix_cache) out.skip_reading_prefix_cache = true;
    return out;
  }
  const Names* valid = valid_parameters(*out.task);
  if (valid == nullptr) return out;  // "let plugins configure and validate pooling params"
  merge_pooler_defaults(out, model.pooler, *valid);
  if (auto e = verify_step_pooling(out, model.pooler, *valid)) return *e;
  if (auto e = set_default_parameters(out, model)) return *e;
  if (auto e = verify_valid_parameters(out, *valid)) return *e;
  return out;
}

Result<VerifyInput> parse_verify_input(std::string_view bytes) {
  auto document = parse_bounded_json(bytes);
  if (!document) return document.error();
  return verify_input_from_document(*document);
}

Result<VerifyInput> verify_input_from_document(const Json& document) {
  if (!document.is_object()) return type_error("$", "object");
  Fields fields(document);
  auto model = model_from_json(fields.find("model"));
  if (!model) return model.error();
  const Json* params_json = fields.find("pooling_params");
  if (params_json == nullptr) return missing_error("pooling_params");
  auto params = params_from_object(*params_json, "pooling_params");
  if (!params) return params.error();
  return VerifyInput{std::move(*model), std::move(*params)};
}

}  // namespace poolcheck
