#include "core/output_json.hpp"

namespace poolcheck {
namespace {

// An empty object with room for `keys` keys. An ordered_json object is a vector
// of pair<const string, Json>, which cannot be moved: every time it grows it
// deep-copies the values already in it (a whole token id list, or every output).
Json object_with_room(std::size_t keys) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(keys);
  return out;
}

Json prompt_to_json(const EnginePrompt& prompt) {
  Json out = object_with_room(4);
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
  outputs.get_ref<Json::array_t&>().reserve(output.outputs.size());
  for (const auto& pair : output.outputs) {
    Json entry = object_with_room(3);
    entry["request_id"] = pair.request_id;
    entry["prompt"] = prompt_to_json(pair.prompt);
    entry["pooling_params"] = params_to_object(pair.pooling_params);
    outputs.push_back(std::move(entry));
  }
  Json out = object_with_room(2);
  out["outputs"] = std::move(outputs);
  if (request.endpoint == Endpoint::LlmScore)
    out["caller_pooling_params"] =
        request.caller_params ? params_to_object(*request.caller_params) : Json(nullptr);
  return out;
}

std::string dump_json(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace poolcheck
