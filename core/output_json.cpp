#include "core/output_json.hpp"

namespace poolcheck {
namespace {

Json prompt_to_json(const EnginePrompt& prompt) {
  Json out = Json::object();
  out["prompt_token_ids"] = prompt.prompt_token_ids;
  if (!prompt.image_urls.empty()) out["multi_modal_data"] = Json{{"image", prompt.image_urls}};
  if (prompt.extras.cache_salt) out["cache_salt"] = *prompt.extras.cache_salt;
  if (prompt.extras.mm_processor_kwargs) out["mm_processor_kwargs"] = *prompt.extras.mm_processor_kwargs;
  return out;
}

}  // namespace

Json error_body(const Error& error) {
  return Json{{"error",
               {{"message", error.message},
                {"type", error.type},
                {"param", error.param ? Json(*error.param) : Json(nullptr)},
                {"code", error.code}}}};
}

Json preprocess_output_to_json(const PreprocessOutput& output, const ScoringRequest& request) {
  Json outputs = Json::array();
  for (const auto& pair : output.outputs) {
    outputs.push_back(Json{{"request_id", pair.request_id},
                           {"prompt", prompt_to_json(pair.prompt)},
                           {"pooling_params", params_to_object(pair.pooling_params)}});
  }
  Json out{{"outputs", std::move(outputs)}};
  if (request.endpoint == Endpoint::LlmScore)
    out["caller_pooling_params"] =
        request.caller_params ? params_to_object(*request.caller_params) : Json(nullptr);
  return out;
}

std::string dump_json(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace poolcheck
