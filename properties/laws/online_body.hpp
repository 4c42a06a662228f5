#pragma once
// The request body of an online envelope, found once for every law that judges
// online requests alone (LLM.score takes Python values as they are, so the
// online laws of spec 6, 10.2 and 11 do not hold for it).
#include <optional>

#include "core/json.hpp"
#include "core/request.hpp"

namespace poolcheck::laws {

struct OnlineBody {
  const Json* body;   // an object; points into the envelope
  Endpoint endpoint;  // Score or Rerank
};

// The body of `envelope` when its endpoint is "score" or "rerank" and its
// request is an object; nullopt for any other value.
std::optional<OnlineBody> online_body(const Json& envelope);

}  // namespace poolcheck::laws
