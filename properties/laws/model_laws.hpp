#pragma once
// Law "model-read-as-written": an accepted input's model config holds what the
// input's `model` object wrote (spec 4). Laws that judge truncation, padding,
// token types or Matryoshka sizes take the model from the core's reading; a
// slip in that reading moves the law with the core (automatic mutant
// auto-model-39-equality-1 read a tokenizer's "left" as right, and every
// truncation law agreed). Only values written plainly are judged: a string, a
// boolean, an int64 integer, a list of them; null and any other spelling are
// left to the refusal laws.
#include "core/json.hpp"
#include "core/model.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// `document` is the whole input (its `model` member, when there is one);
// `model` what the core read from it.
Violations model_read_as_written(const Json& document, const ModelConfig& model);

}  // namespace poolcheck::laws
