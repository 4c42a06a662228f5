#include "core/output_json.hpp"

#include <cmath>
#include <memory>

#include "core/integer.hpp"

namespace poolcheck {
namespace {

using Serializer = nlohmann::detail::serializer<Json>;

// Containers here; scalars through nlohmann's serializer, except what it
// cannot write as Python's json.dumps does (spec 11.3): NaN, Infinity and
// -Infinity (nlohmann writes null), integers beyond 64 bits (their digits).
// Recursive: the core's JSON values come from its bounded parsers.
void write_json(std::string& out, Serializer& scalars, const Json& value) {
  switch (value.type()) {
    case Json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value) {
        if (!std::exchange(first, false)) out += ',';
        write_json(out, scalars, item);
      }
      out += ']';
      return;
    }
    case Json::value_t::object: {
      out += '{';
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!std::exchange(first, false)) out += ',';
        scalars.dump(Json(it.key()), false, false, 0);
        out += ':';
        write_json(out, scalars, *it);
      }
      out += '}';
      return;
    }
    case Json::value_t::number_float: {
      const double v = value.get<double>();
      if (std::isnan(v)) out += "NaN";
      else if (std::isinf(v)) out += v > 0 ? "Infinity" : "-Infinity";
      else scalars.dump(value, false, false, 0);
      return;
    }
    case Json::value_t::binary:
      if (auto n = json_integer(value)) {
        out += n->to_string();
        return;
      }
      break;
    default:
      break;
  }
  scalars.dump(value, false, false, 0);
}

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

// Built member by member: nlohmann's initializer lists copy every value
// twice, and every rejection a law checks is rendered here.
Json error_body(const Error& error) {
  Json inner = object_with_room(4);
  inner["message"] = error.message;
  inner["type"] = error.type;
  inner["param"] = error.param ? Json(*error.param) : Json(nullptr);
  inner["code"] = error.code;
  Json body = object_with_room(1);
  body["error"] = std::move(inner);
  return body;
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
  std::string out;
  Serializer scalars(std::make_shared<nlohmann::detail::output_string_adapter<char>>(out), ' ',
                     Json::error_handler_t::replace);
  write_json(out, scalars, value);
  return out;
}

}  // namespace poolcheck
