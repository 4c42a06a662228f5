#pragma once
// The configs an input writes, read as written: laws "model-read-as-written"
// (spec 4) and "params-read-as-written" (spec 2). Laws that judge truncation,
// padding, token types, Matryoshka sizes or the merge take the model and the
// caller's params from the core's reading; a slip in that reading moves the
// law with the core (automatic mutant auto-model-39-equality-1 read a
// tokenizer's "left" as right, and every truncation law agreed;
// auto-pooling-params-111-delete-statement-1 dropped the `dimensions` an
// llm.score caller wrote, and every law judged the params without it). Only
// values written plainly are judged: a string, a boolean, an int64 integer, a
// list of them, an object where the field is one; null and any other spelling
// are left to the refusal laws.
#include "core/json.hpp"
#include "core/model.hpp"
#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// `document` is the whole input (its `model` member, when there is one);
// `model` what the core read from it.
Violations model_read_as_written(const Json& document, const ModelConfig& model);

// `written` is a `pooling_params` member as the input wrote it (an llm.score
// call's or a verify input's: both name it so); `params` what the core read
// from it, null when it read none. Nothing is judged unless `written` is an
// object.
Violations params_read_as_written(const Json& written, const PoolingParams* params);

// Law "model-name" (spec 1, 10.2): an online body that names a model other
// than the one served, as a string (null means absent), is refused with the
// one 404, ``The model `<name>` does not exist.``, first of the checks after
// the body is read; a body that names none, or the served one, never gets that
// 404. `body` is the request as written, `model` the served model as read (the
// law above judges that reading), `refusal` the run's error after the body was
// read, or null when the request was accepted. Without it, a check that took
// the right name for the wrong one or was skipped online (automatic mutants
// auto-preprocess-16-equality-1, auto-preprocess-158-equality-1) went
// unseen: the 404 is a message the error laws allow, and an accepted wrong
// name is a run like any other.
Violations model_name_rule(const Json& body, const ModelConfig& model, const Error* refusal);

}  // namespace poolcheck::laws
