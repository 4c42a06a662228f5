#include "core/pooling_params.hpp"

#include "core/fields.hpp"
#include "core/json_equality.hpp"
#include "core/output_json.hpp"

namespace poolcheck {

PoolingParams PoolingParams::clone() const {
  PoolingParams copy = *this;
  if (extra_kwargs) copy.extra_kwargs = std::make_shared<Json>(*extra_kwargs);
  return copy;
}

bool deep_equal(const PoolingParams& a, const PoolingParams& b) {
  const bool extras_equal = (a.extra_kwargs == nullptr || b.extra_kwargs == nullptr)
                                ? a.extra_kwargs == b.extra_kwargs
                                : json_equal(*a.extra_kwargs, *b.extra_kwargs);
  return extras_equal && a.use_activation == b.use_activation && a.dimensions == b.dimensions &&
         a.step_tag_id == b.step_tag_id && a.returned_token_ids == b.returned_token_ids &&
         a.task == b.task && a.requires_token_ids == b.requires_token_ids &&
         a.skip_reading_prefix_cache == b.skip_reading_prefix_cache &&
         a.late_interaction_params == b.late_interaction_params;
}

MaybeError check_task_name(const std::string& task, std::string_view param) {
  if (task == "score")
    return Error::bad_request("`score` task was removed; use `classify` instead.", std::string(param));
  if (task == "encode")
    return Error::bad_request(
        "`encode` task was removed; use `token_embed` or `token_classify` instead.",
        std::string(param));
  return std::nullopt;
}

std::string output_kind_message(const Json& kind) {
  static constexpr std::string_view kNames[] = {"CUMULATIVE", "DELTA", "FINAL_ONLY"};
  std::string shown = dump_json(kind);
  for (std::int64_t value = 0; value < 3; ++value) {
    const auto name = kNames[value];
    if ((kind.is_string() && kind.get_ref<const std::string&>() == name) ||
        (kind.is_number_integer() && kind.get<std::int64_t>() == value))
      shown = "<RequestOutputKind." + std::string(name) + ": " + std::to_string(value) + ">";
  }
  return "For pooling output_kind has to be FINAL_ONLY, got " + shown;
}

namespace {

template <class T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json late_interaction_to_object(const std::optional<LateInteractionParams>& late) {
  if (!late) return nullptr;
  return Json{{"mode", late->mode}, {"query_key", late->query_key}, {"query_uses", or_null(late->query_uses)}};
}

Result<std::optional<LateInteractionParams>> late_interaction_from_object(const Fields& fields) {
  auto object = fields.object("late_interaction_params", Null::IsAbsent);
  if (!object) return object.error();
  if (!*object) return std::optional<LateInteractionParams>();
  Fields late(**object, fields.path("late_interaction_params") + ".");
  LateInteractionParams out;
  auto mode = late.literal("mode", Null::IsError, {"cache_query", "score_doc"});
  if (!mode) return mode.error();
  if (!*mode) return missing_error(late.path("mode"));
  out.mode = **mode;
  auto key = late.string("query_key", Null::IsError);
  if (!key) return key.error();
  if (!*key) return missing_error(late.path("query_key"));
  out.query_key = **key;
  auto uses = late.integer("query_uses", Null::IsAbsent);
  if (!uses) return uses.error();
  out.query_uses = *uses;
  return std::optional<LateInteractionParams>(std::move(out));
}

}  // namespace

Json params_to_object(const PoolingParams& p) {
  Json out = Json::object();
  // Room for all ten keys: a growing ordered_json object copies its keys and values.
  out.get_ref<Json::object_t&>().reserve(10);
  out["use_activation"] = or_null(p.use_activation);
  out["dimensions"] = or_null(p.dimensions);
  out["step_tag_id"] = or_null(p.step_tag_id);
  out["returned_token_ids"] = or_null(p.returned_token_ids);
  out["task"] = or_null(p.task);
  out["requires_token_ids"] = p.requires_token_ids;
  out["skip_reading_prefix_cache"] = or_null(p.skip_reading_prefix_cache);
  out["late_interaction_params"] = late_interaction_to_object(p.late_interaction_params);
  out["extra_kwargs"] = p.extra_kwargs ? *p.extra_kwargs : Json(nullptr);
  out["output_kind"] = "FINAL_ONLY";
  return out;
}

Result<PoolingParams> params_from_object(const Json& object, std::string_view path) {
  const std::string prefix = std::string(path) + ".";
  if (!object.is_object()) return type_error(path, "object");
  Fields fields(object, prefix);
  PoolingParams p;

  auto use_activation = fields.boolean("use_activation", Null::IsAbsent);
  if (!use_activation) return use_activation.error();
  p.use_activation = *use_activation;

  auto dimensions = fields.integer("dimensions", Null::IsAbsent);
  if (!dimensions) return dimensions.error();
  p.dimensions = *dimensions;

  auto step_tag_id = fields.integer("step_tag_id", Null::IsAbsent);
  if (!step_tag_id) return step_tag_id.error();
  p.step_tag_id = *step_tag_id;

  auto returned = fields.int_list("returned_token_ids", Null::IsAbsent);
  if (!returned) return returned.error();
  p.returned_token_ids = *returned;

  auto task = fields.string("task", Null::IsAbsent);
  if (!task) return task.error();
  if (*task) {
    if (auto e = check_task_name(**task, fields.path("task"))) return *e;
  }
  p.task = *task;

  auto requires_ids = fields.boolean("requires_token_ids", Null::IsError);
  if (!requires_ids) return requires_ids.error();
  p.requires_token_ids = requires_ids->value_or(false);

  auto skip = fields.boolean("skip_reading_prefix_cache", Null::IsAbsent);
  if (!skip) return skip.error();
  p.skip_reading_prefix_cache = *skip;

  auto late = late_interaction_from_object(fields);
  if (!late) return late.error();
  p.late_interaction_params = std::move(*late);

  auto extra = fields.object("extra_kwargs", Null::IsAbsent);
  if (!extra) return extra.error();
  if (*extra) p.extra_kwargs = std::make_shared<Json>(std::move(**extra));

  if (const Json* kind = fields.find("output_kind")) {
    if (!kind->is_string()) return type_error(fields.path("output_kind"), "string");
    if (kind->get_ref<const std::string&>() != "FINAL_ONLY")
      return Error::bad_request(output_kind_message(*kind), fields.path("output_kind"));
  }
  return p;
}

}  // namespace poolcheck
