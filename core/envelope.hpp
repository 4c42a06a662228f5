#pragma once
// The input of `poolcheck preprocess`, of the fuzz target `request` and of a
// corpus entry: {"endpoint": "score"|"rerank"|"llm.score", "model": {...}?,
// "request": {...}} as bytes.
#include <string_view>

#include "core/error.hpp"
#include "core/model.hpp"
#include "core/request.hpp"

namespace poolcheck {

struct Envelope {
  ModelConfig model;
  ScoringRequest request;
};

// Bounded parse of the whole input (the limits count the envelope too), then
// the endpoint, the model, and the request's own field checks.
Result<Envelope> parse_envelope(std::string_view bytes);

// Same, from an already parsed document.
Result<Envelope> envelope_from_json(const Json& document);

}  // namespace poolcheck
