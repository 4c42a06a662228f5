#pragma once
// Typed, validated requests (spec section 6): the online score and rerank
// bodies and the offline LLM.score call. Everything here is checked without
// the model; the checks that need it (404, truncation target, pairing, token
// limits) run in preprocess, in the order of spec 10.2.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/integer.hpp"
#include "core/json.hpp"
#include "core/model.hpp"
#include "core/pooling_params.hpp"

namespace poolcheck {

enum class Endpoint { Score, Rerank, LlmScore };

struct ContentPart {
  enum class Kind { Text, ImageUrl } kind = Kind::Text;
  std::string value;  // the text, or the image URL
  bool operator==(const ContentPart&) const = default;
};

// A string, or a `{"content": [parts]}` object (multimodal models only).
struct ScoreInput {
  bool is_object = false;
  std::string text;                // when !is_object
  std::vector<ContentPart> parts;  // when is_object
  bool operator==(const ScoreInput&) const = default;
};

// The prompt extras as they will reach the engine prompt. Online they are
// validated request fields; offline they are whatever non-null values the
// caller put in extra_kwargs (spec 10.9), so they are kept as JSON.
struct PromptExtras {
  std::optional<Json> cache_salt;
  std::optional<Json> mm_processor_kwargs;
};

struct ScoringRequest {
  Endpoint endpoint = Endpoint::Score;
  // Each side as given, a single input already wrapped in a list.
  std::vector<ScoreInput> queries;
  std::vector<ScoreInput> documents;

  std::optional<std::string> model;  // online only; null means absent
  std::string request_id = "0";
  std::optional<Integer> truncate_prompt_tokens;  // any size: checked against the model in preprocess
  std::optional<Side> truncation_side;
  bool pad_to_max_length = false;
  std::optional<bool> use_activation;
  PromptExtras extras;                 // online; offline they come from the caller's params
  std::optional<Json> chat_template_kwargs;  // validated, instruction folded in; never reaches the prompt

  // Online: validated request fields. Offline: unset here, read from the
  // caller's extra_kwargs when the token limits are checked (spec 10.2).
  Integer max_tokens_per_query = 0;
  Integer max_tokens_per_doc = 0;

  // Offline only: the caller's own params object, null when none were given.
  // Held by reference, as Python holds it: the core must leave it untouched,
  // and the harness checks that it did.
  std::shared_ptr<PoolingParams> caller_params;
};

// An online `/score` or `/rerank` body.
Result<ScoringRequest> parse_online_request(const Json& body, Endpoint endpoint);

// An offline `LLM.score` call: {data_1, data_2, pooling_params?,
// truncate_prompt_tokens?, truncation_side?}.
Result<ScoringRequest> parse_offline_call(const Json& call);

}  // namespace poolcheck
