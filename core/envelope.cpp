#include "core/envelope.hpp"

#include "core/fields.hpp"
#include "core/json_input.hpp"

namespace poolcheck {

Result<Envelope> envelope_from_json(const Json& document) {
  if (!document.is_object()) return type_error("envelope", "object");
  Fields fields(document);
  auto endpoint = fields.literal("endpoint", Null::IsError, {"score", "rerank", "llm.score"});
  if (!endpoint) return endpoint.error();
  if (!*endpoint) return missing_error("endpoint");
  auto model = model_from_json(fields.find("model"));
  if (!model) return model.error();

  const Json* body = fields.find("request");
  if (body == nullptr) return missing_error("request");
  auto request = **endpoint == "llm.score"
                     ? parse_offline_call(*body)
                     : parse_online_request(*body, **endpoint == "rerank" ? Endpoint::Rerank
                                                                           : Endpoint::Score);
  if (!request) return request.error();
  return Envelope{std::move(*model), std::move(*request)};
}

Result<Envelope> parse_envelope(std::string_view bytes) {
  auto document = parse_bounded_json(bytes);
  if (!document) return document.error();
  return envelope_from_json(*document);
}

}  // namespace poolcheck
