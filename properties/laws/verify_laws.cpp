#include "properties/laws/verify_laws.hpp"

#include <algorithm>

#include "core/output_json.hpp"
#include "core/verify.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/laws/repr_laws.hpp"

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

// Python's str() of a list of int: "[256, 512]", "[]".
std::string python_int_list(const std::vector<std::int64_t>& values) {
  std::string out;
  for (const std::int64_t v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return "[" + out + "]";
}

// Spec 2 step 7, read on its own: the message the spec refuses dimensions `d`
// for `model` with ("" when it takes them), the model named by `name` (its
// repr). A model is Matryoshka when it says so or lists sizes (an empty list
// is none: bool([]) is false); then d lies in [1, embedding_size], and among
// the listed sizes when a list is there, even an empty one (`mds is not None`;
// docs/decisions-verify-model.md, 8 and 10).
std::string dimensions_refusal(const ModelConfig& model, std::int64_t d, const std::string& name) {
  const auto& listed = model.matryoshka_dimensions;
  const std::string range = "[1, " + std::to_string(model.embedding_size) + "]";
  const std::string model_name = "Model " + name;
  const bool outside = d < 1 || d > model.embedding_size;
  if (!model.is_matryoshka && !(listed && !listed->empty()))
    return model_name + " does not support Matryoshka embeddings; dimensions must be unset. " +
           (outside ? "Received dimensions=" + std::to_string(d) + ", outside valid numeric range " + range + "."
                    : "Numeric dimensions are valid only for Matryoshka models in range " + range + ".");
  const std::string got = ", got " + std::to_string(d) + ".";
  if (outside) return model_name + " only supports dimensions in range " + range + got;
  if (listed && std::find(listed->begin(), listed->end(), d) == listed->end())
    return model_name + " only supports Matryoshka dimensions " + python_int_list(*listed) + got;
  return "";
}

// The refusal the spec gives, the model's name quoted by the law's repr (a
// stand-in when the name is not UTF-8, which no JSON input holds).
std::string dimensions_refusal(const ModelConfig& model, std::int64_t d) {
  return dimensions_refusal(model, d, python_str_repr(model.name).value_or("<not UTF-8>"));
}

bool embed_task(const std::optional<std::string>& task) { return task == "embed" || task == "token_embed"; }
bool classify_task(const std::optional<std::string>& task) { return task == "classify" || task == "token_classify"; }

// vLLM's `valid_parameters` table as Python prints it, written here apart from
// core/verify's (pooling_params.py: all_parameters for the embed tasks,
// use_activation alone for the classify ones); empty for a task it lacks.
std::string_view valid_parameters_shown(const std::optional<std::string>& task) {
  if (embed_task(task)) return "['dimensions', 'use_activation']";
  if (classify_task(task)) return "['use_activation']";
  return {};
}

template <class T>
std::string shown(const std::optional<T>& value) {
  return value ? dump_json(Json(*value)) : "unset";
}

// `field` of the verified params is `want`.
template <class T>
void expect_field(Violations& out, std::string_view field, const std::optional<T>& got, const std::optional<T>& want,
                  const PoolingParams& params) {
  if (got == want) return;
  out.push_back({"verify-defaults", std::string(field) + " was verified to " + shown(got) + " where the spec gives " +
                                        shown(want) + " (input " + show(params) + ")"});
}

// The request's value, or the default when it left the field unset.
template <class T>
std::optional<T> or_default(const std::optional<T>& set, const std::optional<T>& fallback) {
  return set ? set : fallback;
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
// the valid-parameters one quoted ({self.task!r}). Both list the task's valid
// parameters whole.
Violations unsupported_message_task(const PoolingParams& params, const Error& error) {
  static constexpr std::string_view kMarker = "does not support [";
  const auto at = error.message.find(kMarker);
  if (!params.task || at == std::string::npos) return {};
  const std::string_view blamed = std::string_view(error.message).substr(at);
  const bool step = blamed.find("'step_tag_id'") != std::string_view::npos ||
                    blamed.find("'returned_token_ids'") != std::string_view::npos;
  const auto quoted = step ? params.task : python_str_repr(*params.task);
  if (!quoted) return {};
  std::string want = "Task " + *quoted + " only supports ";
  if (const auto valid = valid_parameters_shown(params.task); !valid.empty())
    want += std::string(valid) + " parameters, " + std::string(kMarker);
  if (error.message.rfind(want, 0) == 0) return {};
  return {{"verify", std::string(step ? "the step-parameter message prints the task bare"
                                      : "the valid-parameters message quotes the task") +
                         " and lists its valid parameters whole: expected it to start with \"" + want +
                         "\", got: " + error.message}};
}

Violations accepted_dimensions_valid(const ModelConfig& model, const PoolingParams& verified) {
  if (!embed_task(verified.task) || !verified.dimensions) return {};
  const std::string refusal = dimensions_refusal(model, *verified.dimensions);
  if (refusal.empty()) return {};
  return {{"verify-dimensions",
           "dimensions=" + std::to_string(*verified.dimensions) + " was accepted; the spec refuses it: " + refusal}};
}

Violations refused_dimensions_invalid(const ModelConfig& model, const PoolingParams& params, const Error& error) {
  const std::string family = message_family(error.message);
  if (family.rfind("matryoshka-", 0) != 0 || !embed_task(params.task)) return {};
  // The dimensions verify checks: the request's, or the pooler's default.
  const std::optional<std::int64_t> d = or_default(params.dimensions, model.pooler.dimensions);
  if (!d) return {};
  const std::string want = dimensions_refusal(model, *d);
  if (want.empty())
    return {{"verify-dimensions", "dimensions=" + std::to_string(*d) + ", which the spec takes for this model, was "
                                  "refused: " + error.message}};
  if (error.message == want || !python_str_repr(model.name)) return {};
  return {{"verify-dimensions", "dimensions=" + std::to_string(*d) + " was refused with '" + error.message +
                                    "'; the spec's message is '" + want + "'"}};
}

Violations verify_defaults(const ModelConfig& model, const PoolingParams& params, const PoolingParams& verified) {
  Violations out;
  const std::string task = params.task.value_or("");
  const bool embed = embed_task(params.task);
  const bool classify = classify_task(params.task);
  const bool token = task == "token_embed" || task == "token_classify";
  const bool plugin = task == "plugin";
  const PoolerConfig& pooler = model.pooler;
  const bool step = pooler.pooling_type == "STEP";
  const bool known = embed || classify;
  std::optional<bool> skip;  // verify leaves it alone for other tasks
  if (known || plugin) skip = token || plugin;
  expect_field(out, "skip_reading_prefix_cache", verified.skip_reading_prefix_cache,
               or_default(params.skip_reading_prefix_cache, skip), params);
  std::optional<bool> activation;
  if (known) activation = pooler.use_activation.value_or(true);
  expect_field(out, "use_activation", verified.use_activation, or_default(params.use_activation, activation),
               params);
  expect_field(out, "dimensions", verified.dimensions,
               or_default(params.dimensions, embed ? pooler.dimensions : std::nullopt), params);
  expect_field(out, "step_tag_id", verified.step_tag_id,
               or_default(params.step_tag_id, known && step ? pooler.step_tag_id : std::nullopt), params);
  expect_field(out, "returned_token_ids", verified.returned_token_ids,
               or_default(params.returned_token_ids, known && step ? pooler.returned_token_ids : std::nullopt),
               params);
  return out;
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
    append(out, refused_dimensions_invalid(model, params, verified.error()));
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
  append(out, verify_defaults(model, params, *verified));
  return run;
}

Violations verify_law(const ModelConfig& model, const PoolingParams& params) {
  auto run = verify_with_laws(model, params);
  if (run.verified) append(run.violations, params_round_trip(*run.verified));
  return std::move(run.violations);
}

}  // namespace poolcheck::laws
