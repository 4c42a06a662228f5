// The defect catalogue: each entry makes exactly one thing wrong in a request
// and names the message family that defect calls for. Applied to a request the
// core accepted, the first failure (spec 10.2) can then only be that defect.
#include <limits>
#include <ostream>

#include "properties/laws/coercion_laws.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/suites/request_generators.hpp"

namespace poolcheck::props {
namespace {

constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();

enum Endpoints : unsigned { kScore = 1, kRerank = 2, kOffline = 4, kOnline = kScore | kRerank, kAll = 7 };

unsigned endpoint_bit(const std::string& endpoint) {
  return endpoint == "score" ? kScore : endpoint == "rerank" ? kRerank : kOffline;
}

struct Defect {
  const char* name;
  const char* family;
  unsigned endpoints;
  Modality modality;
  // Edits c.envelope, drawing what it needs with `*gen`. Each step looks its
  // JSON up again: inserting a key moves an ordered_json object's members.
  void (*apply)(RequestCase& c);
};

Json& body(RequestCase& c) { return c.envelope["request"]; }

Json& model_object(RequestCase& c) {
  Json& model = c.envelope["model"];
  if (!model.is_object()) model = Json::object();
  return model;
}

Json& params_object(RequestCase& c) {
  Json& params = body(c)["pooling_params"];
  if (!params.is_object()) params = Json::object();
  return params;
}

Json& extras_object(RequestCase& c) {
  Json& extras = params_object(c)["extra_kwargs"];
  if (!extras.is_object()) extras = Json::object();
  return extras;
}

// The first input of a side: the side itself when it is a single input.
Json& first_item(Json& side) {
  if (!side.is_array()) return side;
  if (side.empty()) side.push_back("x");
  return side[0];
}

Json image_content(const std::string& url) {
  return Json{{"content", {{{"type", "image_url"}, {"image_url", {{"url", url}}}}}}};
}

// A score body's side keys other than its own shape's (spec 11.5: the union
// would fall back on another complete shape).
void drop_other_shapes(RequestCase& c) {
  if (c.endpoint != "score") return;
  for (const char* side : {"queries", "documents", "items", "data_1", "data_2", "text_1", "text_2"})
    if (side != c.first_side && side != c.second_side) body(c).erase(side);
}

std::string token_limit() { return *rc::gen::element<std::string>("max_tokens_per_query", "max_tokens_per_doc"); }

// Where a token limit is written: the body online, the caller's extra_kwargs
// for LLM.score (spec 10.9).
Json& token_limit_at(RequestCase& c) {
  const std::string limit = token_limit();
  return c.endpoint == "llm.score" ? extras_object(c)[limit] : body(c)[limit];
}

// The int and bool fields coerce (spec 11.1): only values pydantic takes for
// no number at all are plain type errors there; the others are in
// coercion_rejected.
void wrong_type_online(RequestCase& c) {
  static const std::vector<std::pair<std::string, Json>> wrong{
      {"model", 5}, {"user", Json::array()}, {"request_id", nullptr}, {"request_id", 7},
      {"truncate_prompt_tokens", Json::array()}, {"truncate_prompt_tokens", Json::object()},
      {"priority", nullptr}, {"priority", Json::array({1})}, {"mm_processor_kwargs", Json::array()},
      {"use_activation", Json::object()}, {"use_activation", Json::array()}, {"max_tokens_per_query", nullptr},
      {"max_tokens_per_doc", Json::object()}, {"instruction", 5}, {"chat_template_kwargs", "x"}};
  const int where = *rc::gen::element(0, 1, 2);
  if (where == 0) {
    const auto& [field, value] = *rc::gen::elementOf(wrong);
    body(c)[field] = value;
  } else if (where == 1) {
    // Not null: a null side of a score body counts as absent (a shape error).
    drop_other_shapes(c);  // a later shape of the union would be scored instead
    body(c)[chance(50) ? c.first_side : c.second_side] = *rc::gen::element(Json(5), Json(true));
  } else if (c.endpoint == "rerank") {
    body(c)["top_n"] = *rc::gen::element(Json(nullptr), Json::array(), Json::object());
  } else {
    body(c)["priority"] = Json::object();
  }
}

// A typed field spelled as pydantic refuses it (spec 11.1): the message is
// "<field>: <pydantic's msg>", so the family follows from the spelling drawn.
void coercion_rejected(RequestCase& c, bool boolean) {
  std::vector<std::string> fields;
  for (const auto& field : laws::typed_fields())
    if (field.is_bool == boolean && field.applies_to(c.endpoint == "rerank")) fields.emplace_back(field.name);
  const std::string field = *rc::gen::elementOf(fields);
  const auto& spelling = *rc::gen::elementOf(boolean ? laws::rejected_bool_spellings() : laws::rejected_int_spellings());
  body(c)[field] = spelling.value;
  c.expected_family = laws::message_family(field + ": " + spelling.msg);
}

void wrong_type_offline(RequestCase& c) {
  static const std::vector<std::pair<std::string, Json>> top{
      {"pooling_params", "x"}, {"data_1", 5}, {"data_2", true}, {"truncate_prompt_tokens", "1"}};
  static const std::vector<std::pair<std::string, Json>> params{
      {"requires_token_ids", nullptr}, {"dimensions", "1"}, {"use_activation", 1}, {"extra_kwargs", Json::array()},
      {"task", 5}, {"late_interaction_params", "x"}, {"returned_token_ids", "1"}};
  switch (*rc::gen::element(0, 1, 2)) {
    case 0: {
      const auto& [field, value] = *rc::gen::elementOf(top);
      body(c)[field] = value;
      break;
    }
    case 1: {
      const auto& [field, value] = *rc::gen::elementOf(params);
      params_object(c)[field] = value;
      break;
    }
    case 2:
      extras_object(c)[token_limit()] = *rc::gen::element(Json("1"), Json(1.5), Json(true));
      break;
  }
}

void too_long_without_truncation(RequestCase& c) {
  body(c).erase("truncate_prompt_tokens");
  body(c).erase("max_tokens_per_doc");
  if (c.endpoint == "llm.score") extras_object(c).erase("max_tokens_per_doc");
  first_item(body(c)[c.second_side]) = words_text(c.model.max_model_len + *rc::gen::inRange(1, 4));
}

const std::vector<Defect>& catalogue() {
  using M = Modality;
  static const std::vector<Defect> defects{
      {"max_model_len below 1", "lower-bound", kAll, M::Any,
       [](RequestCase& c) { model_object(c)["max_model_len"] = *rc::gen::element<std::int64_t>(0, -1, kMin64); }},
      {"vocab_size below 1001", "lower-bound", kAll, M::Any,
       [](RequestCase& c) { model_object(c)["vocab_size"] = *rc::gen::element<std::int64_t>(1000, 0, -7); }},
      {"vocab_size above 2^30", "upper-bound", kAll, M::Any,
       [](RequestCase& c) {
         model_object(c)["vocab_size"] = *rc::gen::element<std::int64_t>((std::int64_t{1} << 30) + 1, std::int64_t{1} << 31,
                                                                          std::numeric_limits<std::int64_t>::max());
       }},
      {"broken string", "invalid-json", kAll, M::Any,
       [](RequestCase& c) { body(c)["x-broken"] = std::string(kBrokenStringMarker); }},
      {"unknown endpoint", "literal", kAll, M::Any,
       [](RequestCase& c) { c.envelope["endpoint"] = *rc::gen::element<std::string>("embed", "SCORE", ""); }},
      {"normalize given", "normalize-removed", kOnline, M::Any,
       [](RequestCase& c) { body(c)["normalize"] = *gen_json(0); }},
      {"cache_salt empty", "cache-salt-empty", kOnline, M::Any, [](RequestCase& c) { body(c)["cache_salt"] = ""; }},
      {"cache_salt not a string", "cache-salt-empty", kOnline, M::Any,
       [](RequestCase& c) {
         body(c)["cache_salt"] = *rc::gen::element(Json(5), Json(true), Json::array(), Json::object(), Json(1.5));
       }},
      {"cache_salt with a forbidden character", "cache-salt-chars", kOnline, M::Any,
       [](RequestCase& c) {
         std::string salt = *gen_unicode_string(6);
         const auto at = *rc::gen::inRange<std::size_t>(0, salt.size() + 1);
         salt.insert(at, *rc::gen::element<std::string>("@", "/", "\\", std::string(1, '\0')));
         body(c)["cache_salt"] = salt;
       }},
      {"cache_salt longer than 128", "cache-salt-chars", kOnline, M::Any,
       [](RequestCase& c) {
         const auto length = *rc::gen::inRange<std::size_t>(129, 140);
         std::string salt;
         for (std::size_t i = 0; i < length; ++i) salt += i % 2 ? "\u00e9" : "a";
         body(c)["cache_salt"] = salt;
       }},
      {"reserved chat_template_kwargs key", "reserved-chat-keys", kOnline, M::Any,
       [](RequestCase& c) {
         Json kwargs = *gen_object(1);
         for (const char* key : {"chat_template", "tools", "tokenize"})
           if (chance(40)) kwargs[key] = *gen_json(0);
         kwargs[*rc::gen::element<std::string>("chat_template", "tools", "tokenize")] = *gen_json(0);
         body(c)["chat_template_kwargs"] = kwargs;
       }},
      {"unknown model", "model-not-found", kOnline, M::Any,
       [](RequestCase& c) { body(c)["model"] = c.model.name + *rc::gen::nonEmpty(gen_unicode_string(4)); }},
      {"truncation target above max_model_len", "truncation-target", kAll, M::Any,
       [](RequestCase& c) { body(c)["truncate_prompt_tokens"] = c.model.max_model_len + *rc::gen::inRange(1, 4); }},
      {"truncation target below -1", "lower-bound", kAll, M::Any,
       [](RequestCase& c) { body(c)["truncate_prompt_tokens"] = *rc::gen::element<std::int64_t>(-2, -3, kMin64); }},
      {"negative top_n", "lower-bound", kRerank, M::Any,
       [](RequestCase& c) { body(c)["top_n"] = *rc::gen::element<std::int64_t>(-1, -2, kMin64); }},
      {"field of the wrong type", "type", kOnline, M::Any, wrong_type_online},
      // The family is the spelling's, set by coercion_rejected.
      {"int field spelled as pydantic refuses", "coercion", kOnline, M::Any,
       [](RequestCase& c) { coercion_rejected(c, false); }},
      {"bool field spelled as pydantic refuses", "coercion", kOnline, M::Any,
       [](RequestCase& c) { coercion_rejected(c, true); }},
      {"negative token limit", "token-limit-negative", kAll, M::Any,
       [](RequestCase& c) { token_limit_at(c) = *rc::gen::element<std::int64_t>(-1, kMin64); }},
      {"token limit at max_model_len", "token-limit-too-large", kAll, M::Any,
       [](RequestCase& c) { token_limit_at(c) = c.model.max_model_len + *rc::gen::inRange(0, 3); }},
      {"truncation_side neither left nor right", "literal", kAll, M::Any,
       [](RequestCase& c) { body(c)["truncation_side"] = *rc::gen::element<std::string>("middle", "LEFT", ""); }},
      {"padding not a padding strategy", "literal", kOnline, M::Any,
       [](RequestCase& c) { body(c)["padding"] = *rc::gen::element<std::string>("longest", "MAX_LENGTH"); }},
      {"side lengths M:N", "pair-lengths", kScore | kOffline, M::Any,
       [](RequestCase& c) { body(c)[c.first_side] = Json(std::vector<std::string>(c.documents + 1, "q")); }},
      {"no queries", "no-text", kScore | kOffline, M::Any,
       [](RequestCase& c) { body(c)[c.first_side] = Json::array(); }},
      {"no documents", "no-text-pair", kAll, M::Any,
       [](RequestCase& c) {
         if (c.endpoint != "rerank") body(c)[c.first_side] = "q";
         body(c)[c.second_side] = Json::array();
       }},
      {"no score shape", "score-shape", kScore, M::Any,
       [](RequestCase& c) {
         // Another shape's side would be type-checked first.
         drop_other_shapes(c);
         body(c).erase(c.second_side);
       }},
      {"required side missing", "missing", kRerank | kOffline, M::Any,
       [](RequestCase& c) { body(c).erase(c.second_side); }},
      {"late_interaction_params without mode or query_key", "missing", kOffline, M::Any,
       [](RequestCase& c) {
         Json late{{"mode", *rc::gen::element<std::string>("cache_query", "score_doc")}, {"query_key", "k"}};
         late.erase(*rc::gen::element<std::string>("mode", "query_key"));
         params_object(c)["late_interaction_params"] = std::move(late);
       }},
      {"content part without a required field", "missing", kAll, M::Multimodal,
       [](RequestCase& c) {
         drop_other_shapes(c);  // a complete shape before this one would be scored instead
         const bool text = *rc::gen::arbitrary<bool>();
         Json part = text ? Json{{"type", "text"}, {"text", "x"}}
                          : Json{{"type", "image_url"}, {"image_url", {{"url", "https://example.com/p.png"}}}};
         const std::string required = text ? *rc::gen::element<std::string>("type", "text")
                                           : *rc::gen::element<std::string>("type", "image_url", "url");
         if (required == "url") part["image_url"].erase("url");
         else part.erase(required);
         first_item(body(c)[c.second_side]) = Json{{"content", Json::array({Json{{"type", "text"}, {"text", "y"}}, part})}};
       }},
      {"content object on a text-only model", "multimodal-unsupported", kAll, M::TextOnly,
       [](RequestCase& c) {
         first_item(body(c)[c.second_side]) = Json{{"content", {{{"type", "text"}, {"text", "x"}}}}};
       }},
      {"two images in one pair", "multimodal-one-item", kAll, M::Multimodal,
       [](RequestCase& c) {
         first_item(body(c)[c.first_side]) = image_content("https://example.com/q.png");
         first_item(body(c)[c.second_side]) = image_content("https://example.com/d.png");
       }},
      {"pair longer than max_model_len, no truncation", "context-length", kAll, M::Any, too_long_without_truncation},
      {"caller task other than classify", "task-overwrite", kOffline, M::Any,
       [](RequestCase& c) {
         params_object(c)["task"] = *rc::gen::element<std::string>("embed", "token_embed", "token_classify", "plugin",
                                                                   "embed&token_classify", "reward");
       }},
      {"caller task score", "task-score-removed", kOffline, M::Any,
       [](RequestCase& c) { params_object(c)["task"] = "score"; }},
      {"caller task encode", "task-encode-removed", kOffline, M::Any,
       [](RequestCase& c) { params_object(c)["task"] = "encode"; }},
      {"caller output_kind not FINAL_ONLY", "output-kind", kOffline, M::Any,
       [](RequestCase& c) {
         params_object(c)["output_kind"] = *rc::gen::element<std::string>("DELTA", "CUMULATIVE", "final_only");
       }},
      {"caller field of the wrong type", "type", kOffline, M::Any, wrong_type_offline},
      {"negative token limit in caller extras", "token-limit-negative", kOffline, M::Any,
       [](RequestCase& c) { extras_object(c)[token_limit()] = *rc::gen::element<std::int64_t>(-1, kMin64); }},
      {"token limit in caller extras at max_model_len", "token-limit-too-large", kOffline, M::Any,
       [](RequestCase& c) { extras_object(c)[token_limit()] = c.model.max_model_len + *rc::gen::inRange(0, 3); }},
  };
  return defects;
}

bool applies(const Defect& defect, const RequestCase& base) {
  if ((defect.endpoints & endpoint_bit(base.endpoint)) == 0) return false;
  if (defect.modality == Modality::TextOnly) return !base.model.multimodal;
  if (defect.modality == Modality::Multimodal) return base.model.multimodal;
  return true;
}

RequestCase with_defect(RequestCase c, const Defect& defect) {
  c.kind = InputKind::NearValid;
  c.defect = defect.name;
  c.expected_family = defect.family;
  defect.apply(c);
  refresh_bytes(c);
  return c;
}

}  // namespace

void showValue(const DefectKind& kind, std::ostream& os) { os << kind.name << " (calls for " << kind.family << ")"; }

rc::Gen<DefectKind> gen_defect_kind() {
  std::vector<std::size_t> indices(catalogue().size());
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  return rc::gen::map(rc::gen::elementOf(indices), [](std::size_t index) {
    const Defect& defect = catalogue()[index];
    RequestShape base;
    base.endpoints.clear();
    for (const char* endpoint : {"score", "rerank", "llm.score"})
      if (defect.endpoints & endpoint_bit(endpoint)) base.endpoints.push_back(endpoint);
    base.modality = defect.modality;
    base.truncation_percent = 90;  // no pair too long: the base is accepted
    return DefectKind{index, defect.name, defect.family, base};
  });
}

std::vector<std::string> defect_names() {
  std::vector<std::string> names;
  for (const auto& defect : catalogue()) names.push_back(defect.name);
  return names;
}

rc::Gen<RequestCase> gen_with_defect(const RequestCase& base, const DefectKind& kind) {
  return rc::gen::exec([base, kind] { return with_defect(base, catalogue()[kind.index]); });
}

rc::Gen<RequestCase> gen_near_valid(const RequestCase& base) {
  return rc::gen::exec([base] {
    std::vector<std::size_t> usable;
    for (std::size_t i = 0; i < catalogue().size(); ++i)
      if (applies(catalogue()[i], base)) usable.push_back(i);
    return with_defect(base, catalogue()[*rc::gen::elementOf(usable)]);
  });
}

}  // namespace poolcheck::props
