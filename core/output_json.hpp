#pragma once
// The JSON the command line prints: error bodies and pre-processing outputs.
#include <string>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/preprocess.hpp"

namespace poolcheck {

// {"error": {"message", "type", "param", "code"}}
Json error_body(const Error& error);

// {"outputs": [{"request_id", "prompt", "pooling_params"}, ...]} plus, offline,
// "caller_pooling_params" (null when the caller gave none).
Json preprocess_output_to_json(const PreprocessOutput& output, const ScoringRequest& request);

// Compact, deterministic, and valid UTF-8 whatever the strings held. Floats
// that JSON cannot spell are written as Python's json.dumps writes them (NaN,
// Infinity, -Infinity), integers beyond 64 bits with all their digits.
std::string dump_json(const Json& value);

}  // namespace poolcheck
