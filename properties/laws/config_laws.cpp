#include "properties/laws/config_laws.hpp"

#include <limits>
#include <string>
#include <string_view>

#include "core/json_equality.hpp"
#include "core/output_json.hpp"

namespace poolcheck::laws {
namespace {

// A written value as the config holds it, when it is written plainly; else null.
Json plain(const Json& value) {
  if (value.is_string() || value.is_boolean()) return value;
  if (value.is_number_integer() && !value.is_number_unsigned()) return value;
  if (value.is_number_unsigned() && value.get<std::uint64_t>() <= std::numeric_limits<std::int64_t>::max())
    return Json(value.get<std::int64_t>());
  if (!value.is_array()) return nullptr;
  Json list = Json::array();
  for (const Json& item : value) {
    Json read = plain(item);
    if (!read.is_number_integer()) return nullptr;
    list.push_back(std::move(read));
  }
  return list;
}

template <class T>
Json held(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// Each key of the config object at `path`, with what the config holds for it.
struct Held {
  const char* key;
  Json value;
};

std::vector<Held> model_fields(const ModelConfig& m) {
  return {{"name", m.name},
          {"architecture", m.architecture},
          {"max_model_len", m.max_model_len},
          {"vocab_size", m.vocab_size},
          {"is_multimodal", m.is_multimodal},
          {"is_matryoshka", m.is_matryoshka},
          {"matryoshka_dimensions", held(m.matryoshka_dimensions)},
          {"embedding_size", m.embedding_size}};
}

std::vector<Held> tokenizer_fields(const TokenizerConfig& t) {
  return {{"returns_token_type_ids", t.returns_token_type_ids},
          {"use_sep_token", t.use_sep_token},
          {"truncation_side", t.truncation_side == Side::Left ? "left" : "right"},
          {"pad_token_id", t.pad_token_id}};
}

std::vector<Held> params_fields(const PoolingParams& p) {
  return {{"use_activation", held(p.use_activation)},
          {"dimensions", held(p.dimensions)},
          {"step_tag_id", held(p.step_tag_id)},
          {"returned_token_ids", held(p.returned_token_ids)},
          {"task", held(p.task)},
          {"requires_token_ids", p.requires_token_ids},
          {"skip_reading_prefix_cache", held(p.skip_reading_prefix_cache)}};
}

std::vector<Held> late_interaction_fields(const LateInteractionParams& late) {
  return {{"mode", late.mode}, {"query_key", late.query_key}, {"query_uses", held(late.query_uses)}};
}

std::vector<Held> pooler_fields(const PoolerConfig& p) {
  return {{"pooling_type", p.pooling_type},
          {"use_activation", held(p.use_activation)},
          {"dimensions", held(p.dimensions)},
          {"step_tag_id", held(p.step_tag_id)},
          {"returned_token_ids", held(p.returned_token_ids)}};
}

// What the law names the reading in its message: "the model config", "the params".
struct Reading {
  const char* law;
  const char* holder;
};
constexpr Reading kModel{"model-read-as-written", "the model config"};
constexpr Reading kParams{"params-read-as-written", "the params"};

void mismatch(const Reading& reading, const std::string& field, const Json& written, const Json& value,
              Violations& out) {
  out.push_back({reading.law, field + " was written " + dump_json(written).substr(0, 80) + ", but " +
                                  reading.holder + " holds " + dump_json(value).substr(0, 80)});
}

void compare(const Json& object, const std::string& path, const std::vector<Held>& fields, const Reading& reading,
             Violations& out) {
  if (!object.is_object()) return;
  for (const auto& [key, value] : fields) {
    const auto written = object.find(key);
    if (written == object.end()) continue;
    const Json want = plain(*written);
    // A value of another kind was coerced (true for an int) or refused: not judged here.
    if (want.is_null() || (!value.is_null() && want.type() != value.type()) || want == value) continue;
    mismatch(reading, path + key, *written, value, out);
  }
}

// An object-valued member (`extra_kwargs`, `late_interaction_params`) written
// as an object must be held: the read has no other spelling of it to take.
const Json* written_object(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace

Violations model_read_as_written(const Json& document, const ModelConfig& model) {
  Violations out;
  if (!document.is_object()) return out;
  const auto object = document.find("model");
  if (object == document.end()) return out;
  compare(*object, "model.", model_fields(model), kModel, out);
  if (!object->is_object()) return out;
  if (const auto tokenizer = object->find("tokenizer"); tokenizer != object->end())
    compare(*tokenizer, "model.tokenizer.", tokenizer_fields(model.tokenizer), kModel, out);
  if (const auto pooler = object->find("pooler"); pooler != object->end())
    compare(*pooler, "model.pooler.", pooler_fields(model.pooler), kModel, out);
  return out;
}

Violations params_read_as_written(const Json& written, const PoolingParams* params) {
  Violations out;
  if (!written.is_object()) return out;
  if (params == nullptr) {
    mismatch(kParams, "pooling_params", written, nullptr, out);
    return out;
  }
  compare(written, "pooling_params.", params_fields(*params), kParams, out);
  if (const Json* extra = written_object(written, "extra_kwargs");
      extra && !(params->extra_kwargs && json_equal(*params->extra_kwargs, *extra)))
    mismatch(kParams, "pooling_params.extra_kwargs", *extra, params->extra_kwargs ? *params->extra_kwargs : Json(),
             out);
  if (const Json* late = written_object(written, "late_interaction_params")) {
    if (!params->late_interaction_params)
      mismatch(kParams, "pooling_params.late_interaction_params", *late, nullptr, out);
    else
      compare(*late, "pooling_params.late_interaction_params.",
              late_interaction_fields(*params->late_interaction_params), kParams, out);
  }
  return out;
}

Violations model_name_rule(const Json& body, const ModelConfig& model, const Error* refusal) {
  constexpr std::string_view kLaw = "model-name";
  const auto given = body.is_object() ? body.find("model") : body.end();
  const std::string* named = given != body.end() && given->is_string() ? &given->get_ref<const std::string&>() : nullptr;
  const bool not_found = refusal != nullptr && refusal->code == 404;
  if (named == nullptr || *named == model.name) {
    if (!not_found) return {};
    return {{std::string(kLaw), "the body names " + (named ? "the served model '" + model.name + "'" : std::string("no model")) +
                                    ", but it was refused with the 404: " + refusal->message}};
  }
  const std::string want = "The model `" + *named + "` does not exist.";
  if (not_found && refusal->message == want) return {};
  return {{std::string(kLaw), "the body names the model '" + *named + "', not the served '" + model.name + "', but " +
                                  (refusal ? "it was refused with '" + refusal->message + "'" : std::string("it was accepted")) +
                                  "; expected the 404 '" + want + "'"}};
}

}  // namespace poolcheck::laws
