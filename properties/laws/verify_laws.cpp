#include "properties/laws/verify_laws.hpp"

#include <algorithm>

#include "core/output_json.hpp"
#include "core/python_repr.hpp"
#include "core/verify.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/params_laws.hpp"

namespace poolcheck::laws {
namespace {

std::string show(const PoolingParams& params) { return dump_json(params_to_object(params)); }

bool sets(const PoolingParams& params, std::string_view name) {
  if (name == "dimensions") return params.dimensions.has_value();
  if (name == "use_activation") return params.use_activation.has_value();
  if (name == "step_tag_id") return params.step_tag_id.has_value();
  if (name == "returned_token_ids") return params.returned_token_ids.has_value();
  return false;
}

}  // namespace

// vLLM's _merge_default_parameters iterates valid_parameters only, so a
// default can never be what a task does not support.
Violations verify_rejection_blames_request(const PoolingParams& params, const Error& error) {
  static constexpr std::string_view kMarker = "does not support [";
  const auto at = error.message.find(kMarker);
  if (at == std::string::npos) return {};
  const auto end = error.message.find(']', at);
  Violations out;
  std::string_view list = std::string_view(error.message).substr(at + kMarker.size(), end - at - kMarker.size());
  while (!list.empty()) {
    const auto comma = list.find(", ");
    std::string_view name = list.substr(0, comma);
    if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'') name = name.substr(1, name.size() - 2);
    if (!sets(params, name))
      out.push_back({"verify", "rejected for '" + std::string(name) + "', which the request did not set: " +
                                   error.message + " (input " + show(params) + ")"});
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 2);
  }
  return out;
}

// Spec 11.4: vLLM's step-pooling message formats the task bare ({self.task}),
// the valid-parameters one quoted ({self.task!r}).
Violations unsupported_message_task(const PoolingParams& params, const Error& error) {
  static constexpr std::string_view kMarker = "does not support [";
  const auto at = error.message.find(kMarker);
  if (!params.task || at == std::string::npos) return {};
  const std::string_view blamed = std::string_view(error.message).substr(at);
  const bool step = blamed.find("'step_tag_id'") != std::string_view::npos ||
                    blamed.find("'returned_token_ids'") != std::string_view::npos;
  const std::string want = "Task " + (step ? *params.task : python_repr(*params.task)) + " only supports ";
  if (error.message.rfind(want, 0) == 0) return {};
  return {{"verify", std::string(step ? "the step-parameter message prints the task bare"
                                      : "the valid-parameters message quotes the task") +
                         ": expected it to start with \"" + want + "\", got: " + error.message}};
}

// Spec 2 step 7, read on its own: accepted dimensions of an embed task belong
// to a Matryoshka model, lie in [1, embedding_size], and are among the
// model's listed sizes when it lists any.
Violations accepted_dimensions_valid(const ModelConfig& model, const PoolingParams& verified) {
  const bool embed = verified.task == "embed" || verified.task == "token_embed";
  if (!embed || !verified.dimensions) return {};
  const std::int64_t d = *verified.dimensions;
  const auto& listed = model.matryoshka_dimensions;
  const bool has_list = listed && !listed->empty();
  const std::string shown = "dimensions=" + std::to_string(d) + " was accepted";
  if (!model.is_matryoshka && !has_list) return {{"verify-dimensions", shown + " on a model that is not Matryoshka"}};
  if (d < 1 || d > model.embedding_size)
    return {{"verify-dimensions", shown + ", outside [1, " + std::to_string(model.embedding_size) + "]"}};
  if (has_list && std::find(listed->begin(), listed->end(), d) == listed->end())
    return {{"verify-dimensions", shown + ", not among the model's Matryoshka dimensions " + dump_json(Json(*listed))}};
  return {};
}

VerifyRun verify_with_laws(const ModelConfig& model, const PoolingParams& params) {
  const PoolingParams before = params.clone();
  VerifyRun run{{}, verify_params(params, model)};
  Violations& out = run.violations;
  const auto& verified = run.verified;
  if (!deep_equal(before, params))
    out.push_back({"verify", "verify modified its input from " + show(before) + " to " + show(params)});
  if (!verified) {
    append(out, error_law(verified.error()));
    append(out, verify_rejection_blames_request(params, verified.error()));
    append(out, unsupported_message_task(params, verified.error()));
    return run;
  }
  if (verified->extra_kwargs && verified->extra_kwargs == params.extra_kwargs)
    out.push_back({"verify", "the verified params share extra_kwargs with the input"});
  auto again = verify_params(*verified, model);
  if (!again)
    out.push_back({"verify", "verify is not idempotent: a second call rejected " + show(*verified) + ": " +
                                 again.error().message});
  else if (!deep_equal(*again, *verified))
    out.push_back({"verify", "verify is not idempotent: " + show(*verified) + " became " + show(*again)});
  append(out, accepted_dimensions_valid(model, *verified));
  append(out, params_round_trip(*verified));
  return run;
}

Violations verify_law(const ModelConfig& model, const PoolingParams& params) {
  return verify_with_laws(model, params).violations;
}

}  // namespace poolcheck::laws
