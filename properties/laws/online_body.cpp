#include "properties/laws/online_body.hpp"

namespace poolcheck::laws {

std::optional<OnlineBody> online_body(const Json& envelope) {
  // find(), never a const operator[]: the envelope may lack either key (nlohmann asserts).
  if (!envelope.is_object()) return std::nullopt;
  const auto endpoint = envelope.find("endpoint");
  const auto body = envelope.find("request");
  if (endpoint == envelope.end() || body == envelope.end() || !body->is_object()) return std::nullopt;
  if (*endpoint == "score") return OnlineBody{&*body, Endpoint::Score};
  if (*endpoint == "rerank") return OnlineBody{&*body, Endpoint::Rerank};
  return std::nullopt;
}

}  // namespace poolcheck::laws
