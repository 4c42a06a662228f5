#include "core/request.hpp"

#include <array>

#include "core/fields.hpp"

namespace poolcheck {
namespace {

std::string indexed(std::string_view path, std::size_t i) {
  return std::string(path) + "[" + std::to_string(i) + "]";
}

Result<ContentPart> parse_content_part(const Json& part, const std::string& path) {
  if (!part.is_object()) return type_error(path, "object");
  Fields fields(part, path + ".");
  auto type = fields.literal("type", Null::IsError, {"text", "image_url"});
  if (!type) return type.error();
  if (!*type) return missing_error(fields.path("type"));
  if (**type == "text") {
    auto text = fields.string("text", Null::IsError);
    if (!text) return text.error();
    if (!*text) return missing_error(fields.path("text"));
    return ContentPart{ContentPart::Kind::Text, std::move(**text)};
  }
  auto image = fields.object("image_url", Null::IsError);
  if (!image) return image.error();
  if (!*image) return missing_error(fields.path("image_url"));
  Fields image_fields(**image, fields.path("image_url") + ".");
  auto url = image_fields.string("url", Null::IsError);
  if (!url) return url.error();
  if (!*url) return missing_error(image_fields.path("url"));
  return ContentPart{ContentPart::Kind::ImageUrl, std::move(**url)};
}

// A string, or an object with a `content` list of valid parts (spec 10.5).
Result<ScoreInput> parse_score_input(const Json& value, const std::string& path) {
  if (value.is_string()) return ScoreInput{false, value.get<std::string>(), {}};
  if (!value.is_object()) return type_error(path, "string");
  Fields fields(value, path + ".");
  const Json* content = fields.find("content");
  if (content == nullptr) return missing_error(fields.path("content"));
  if (!content->is_array()) return type_error(fields.path("content"), "list");
  ScoreInput input{true, {}, {}};
  for (std::size_t i = 0; i < content->size(); ++i) {
    auto part = parse_content_part((*content)[i], indexed(fields.path("content"), i));
    if (!part) return part.error();
    input.parts.push_back(std::move(*part));
  }
  return input;
}

// One ScoreInput or a list of them; a single input is wrapped in a list.
Result<std::vector<ScoreInput>> parse_side(const Json& value, const std::string& path) {
  std::vector<ScoreInput> side;
  if (!value.is_array()) {
    auto input = parse_score_input(value, path);
    if (!input) return input.error();
    side.push_back(std::move(*input));
    return side;
  }
  side.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto input = parse_score_input(value[i], indexed(path, i));
    if (!input) return input.error();
    side.push_back(std::move(*input));
  }
  return side;
}

std::size_t code_points(const std::string& utf8) {
  std::size_t count = 0;
  for (unsigned char c : utf8)
    if ((c & 0xC0) != 0x80) ++count;
  return count;
}

MaybeError check_cache_salt(const Fields& fields, PromptExtras& extras) {
  const Json* salt = fields.find("cache_salt");
  if (salt == nullptr || salt->is_null()) return std::nullopt;
  if (!salt->is_string() || salt->get_ref<const std::string&>().empty())
    return Error::bad_request("Parameter 'cache_salt' must be a non-empty string if provided.",
                              "cache_salt");
  const auto& text = salt->get_ref<const std::string&>();
  if (code_points(text) > 128 || text.find_first_of(std::string_view("@/\\\0", 4)) != std::string::npos)
    return Error::bad_request(
        "Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', "
        "'\\\\', or NUL.",
        "cache_salt");
  extras.cache_salt = *salt;
  return std::nullopt;
}

// chat_template_kwargs may not set what the scorer fixes itself.
MaybeError check_reserved_chat_keys(const Json& kwargs) {
  static constexpr std::array<std::string_view, 3> kReserved{"chat_template", "tools", "tokenize"};
  std::string found;
  for (std::string_view key : kReserved) {
    if (!kwargs.contains(key)) continue;
    found += (found.empty() ? "'" : ", '") + std::string(key) + "'";
  }
  if (found.empty()) return std::nullopt;
  return Error::bad_request(
      "chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: {" +
          found + "}",
      "chat_template_kwargs");
}

Result<std::optional<Side>> parse_side_literal(const Fields& fields, std::string_view key) {
  auto side = fields.literal(key, Null::IsAbsent, {"left", "right"});
  if (!side) return side.error();
  if (!*side) return std::optional<Side>();
  return std::optional<Side>(**side == "left" ? Side::Left : Side::Right);
}

// truncate_prompt_tokens (at least -1) then truncation_side, as both doors
// read them; `integer` reads the first: Fields::coerced_integer online
// (pydantic's lax int), Fields::exact_integer for a Python call.
using IntegerReader = Result<std::optional<Integer>> (Fields::*)(std::string_view, Null) const;
MaybeError parse_truncation_fields(const Fields& fields, IntegerReader integer, ScoringRequest& out) {
  auto truncate = (fields.*integer)("truncate_prompt_tokens", Null::IsAbsent);
  if (!truncate) return truncate.error();
  if (*truncate && **truncate < -1) return lower_bound_error("truncate_prompt_tokens", -1);
  out.truncate_prompt_tokens = *truncate;
  auto side = parse_side_literal(fields, "truncation_side");
  if (!side) return side.error();
  out.truncation_side = *side;
  return {};
}

// The common fields after `normalize` and `cache_salt`, in the order of spec section 6.
MaybeError parse_common_fields(const Fields& fields, ScoringRequest& out) {
  auto model = fields.string("model", Null::IsAbsent);
  if (!model) return model.error();
  out.model = *model;
  auto user = fields.string("user", Null::IsAbsent);
  if (!user) return user.error();
  auto request_id = fields.string("request_id", Null::IsError);
  if (!request_id) return request_id.error();
  out.request_id = request_id->value_or("0");

  if (auto e = parse_truncation_fields(fields, &Fields::coerced_integer, out)) return *e;
  auto padding = fields.literal("padding", Null::IsAbsent, {"max_length", "do_not_pad"});
  if (!padding) return padding.error();
  out.pad_to_max_length = *padding == "max_length";

  auto priority = fields.coerced_integer("priority", Null::IsError);  // validated, then unused
  if (!priority) return priority.error();
  auto mm_kwargs = fields.object("mm_processor_kwargs", Null::IsAbsent);
  if (!mm_kwargs) return mm_kwargs.error();
  out.extras.mm_processor_kwargs = *mm_kwargs;
  auto use_activation = fields.coerced_boolean("use_activation", Null::IsAbsent);
  if (!use_activation) return use_activation.error();
  out.use_activation = *use_activation;

  auto per_query = fields.coerced_integer("max_tokens_per_query", Null::IsError);
  if (!per_query) return per_query.error();
  out.max_tokens_per_query = per_query->value_or(0);
  auto per_doc = fields.coerced_integer("max_tokens_per_doc", Null::IsError);
  if (!per_doc) return per_doc.error();
  out.max_tokens_per_doc = per_doc->value_or(0);

  auto instruction = fields.string("instruction", Null::IsAbsent);
  if (!instruction) return instruction.error();
  auto chat_kwargs = fields.object("chat_template_kwargs", Null::IsAbsent);
  if (!chat_kwargs) return chat_kwargs.error();
  if (*chat_kwargs) {
    if (auto e = check_reserved_chat_keys(**chat_kwargs)) return e;
  }
  if (*instruction) {
    // Folded in unless the caller already set it in chat_template_kwargs.
    if (!*chat_kwargs) *chat_kwargs = Json::object();
    if (!(*chat_kwargs)->contains("instruction")) (**chat_kwargs)["instruction"] = **instruction;
  }
  out.chat_template_kwargs = std::move(*chat_kwargs);
  return std::nullopt;
}

MaybeError parse_rerank_fields(const Fields& fields, ScoringRequest& out) {
  const Json* query = fields.find("query");
  if (query == nullptr) return missing_error("query");
  auto query_input = parse_score_input(*query, "query");
  if (!query_input) return query_input.error();
  out.queries = {std::move(*query_input)};

  const Json* documents = fields.find("documents");
  if (documents == nullptr) return missing_error("documents");
  auto docs = parse_side(*documents, "documents");
  if (!docs) return docs.error();
  out.documents = std::move(*docs);

  auto top_n = fields.coerced_integer("top_n", Null::IsError);  // validated, then unused
  if (!top_n) return top_n.error();
  if (*top_n && **top_n < 0) return lower_bound_error("top_n", 0);
  return std::nullopt;
}

struct ScoreShape {
  std::string_view first;
  std::string_view second;
};
// vLLM's score request is a pydantic union of these classes, in this order.
constexpr std::array<ScoreShape, 4> kScoreShapes{{
    {"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"}, {"text_1", "text_2"}}};
constexpr std::array<std::string_view, 7> kScoreSideFields{
    "queries", "documents", "items", "data_1", "data_2", "text_1", "text_2"};

bool present(const Fields& fields, std::string_view key) {
  const Json* value = fields.find(key);
  return value != nullptr && !value->is_null();
}

// The union's choice (spec 11.5): the first shape, in union order, whose two
// sides are present and validate; the other shapes' keys are then unknown keys,
// ignored. When complete shapes exist but none validates, the first one's own
// field error; when there is none, the shape error.
MaybeError parse_score_fields(const Fields& fields, ScoringRequest& out) {
  MaybeError first_failure;
  for (const auto& shape : kScoreShapes) {
    if (!present(fields, shape.first) || !present(fields, shape.second)) continue;
    auto queries = parse_side(*fields.find(shape.first), std::string(shape.first));
    auto documents = queries ? parse_side(*fields.find(shape.second), std::string(shape.second))
                             : Result<std::vector<ScoreInput>>(queries.error());
    if (queries && documents) {
      out.queries = std::move(*queries);
      out.documents = std::move(*documents);
      return std::nullopt;
    }
    if (!first_failure) first_failure = documents.error();
  }
  if (first_failure) return first_failure;
  // No complete shape: a present side's own error first, as before (spec 10.2).
  for (std::string_view key : kScoreSideFields) {
    if (!present(fields, key)) continue;
    auto side = parse_side(*fields.find(key), std::string(key));
    if (!side) return side.error();
  }
  return Error::bad_request(
      "Exactly one of the input shapes {queries, documents}, {queries, items}, {data_1, data_2} or "
      "{text_1, text_2} must be given; got none.");
}

}  // namespace

Result<ScoringRequest> parse_online_request(const Json& body, Endpoint endpoint) {
  if (!body.is_object()) return type_error("body", "object");
  Fields fields(body);
  ScoringRequest out;
  out.endpoint = endpoint;
  if (fields.has("normalize"))
    return Error::bad_request("Parameter `normalize` was removed; use `use_activation` instead.",
                              "normalize");
  if (auto e = check_cache_salt(fields, out.extras)) return *e;
  if (auto e = parse_common_fields(fields, out)) return *e;
  auto endpoint_error = endpoint == Endpoint::Rerank ? parse_rerank_fields(fields, out)
                                                     : parse_score_fields(fields, out);
  if (endpoint_error) return *endpoint_error;
  return out;
}

Result<ScoringRequest> parse_offline_call(const Json& call) {
  if (!call.is_object()) return type_error("request", "object");
  Fields fields(call);
  ScoringRequest out;
  out.endpoint = Endpoint::LlmScore;
  for (std::string_view key : {"data_1", "data_2"})
    if (!present(fields, key)) return missing_error(key);
  auto data_1 = parse_side(*fields.find("data_1"), "data_1");
  if (!data_1) return data_1.error();
  out.queries = std::move(*data_1);
  auto data_2 = parse_side(*fields.find("data_2"), "data_2");
  if (!data_2) return data_2.error();
  out.documents = std::move(*data_2);

  const Json* params = fields.find("pooling_params");
  if (params != nullptr && !params->is_null()) {
    auto parsed = params_from_object(*params, "pooling_params");
    if (!parsed) return parsed.error();
    out.caller_params = std::make_shared<PoolingParams>(std::move(*parsed));
  }
  // A Python call: its ints are exact, of any size, and never coerced.
  if (auto e = parse_truncation_fields(fields, &Fields::exact_integer, out)) return *e;
  return out;
}

}  // namespace poolcheck
