#pragma once
// The error law (spec section 8): a rejected input yields exactly one error
// body, 400 (or the one 404), whose message is one the spec quotes or one of
// the core's documented forms, with the param the spec gives it.
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/request.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

Violations error_law(const Error& error);

// The catalogue entry a message matches, or "" when it matches none. Used by
// the property suites to show that every spec message is reachable.
std::string message_family(const std::string& message);

// Every family of the catalogue that the spec quotes, by name.
const std::vector<std::string>& spec_message_families();

// A defect is reported as itself: an input that differs from an accepted one
// by exactly one defect must be rejected (`outcome` an error body, as the
// check entry points give it) with a message of the family that defect calls
// for, since the first failure wins (spec 10.2).
Violations rejected_for(const Json& outcome, std::string_view family);

// An output_kind rejection shows the rejected value as vLLM prints it
// (`{self.output_kind!r}`, docs/decisions.md): `<RequestOutputKind.NAME: v>`
// when the value names a member (by name as a string, by value as an
// integer), else the value's JSON. `kind` is the input's output_kind; null
// when the input has none where the checker looked, and then nothing is judged.
// Law id "output-kind-shown".
Violations output_kind_shown(const Json* kind, const Error& error);

// A token limit's refusal (its two messages of spec section 7) names as its
// param the field the limit was read from: `max_tokens_per_query` in an online
// body, `pooling_params.extra_kwargs.max_tokens_per_query` for LLM.score, whose
// limits travel in the caller's extra_kwargs (spec 10.9, docs/decisions.md).
// Law id "errors-exact".
Violations token_limit_param(const Error& refusal, bool offline);

// The first failure wins (spec 10.2), judged from one input: when an online
// request (`envelope` as `poolcheck preprocess` reads it) is refused for a
// common field P, the same request without P must not be refused for a common
// field checked before P. Each common field is checked on its own value, so
// such a field would have failed first. Law id "first-failure-wins".
Violations first_failure_wins(const Json& envelope);
// The same law over another parser of online bodies (the law's own tests
// hand it one that checks in the wrong order).
using OnlineParser = Result<ScoringRequest> (*)(const Json& body, Endpoint endpoint);
Violations first_failure_wins(const Json& envelope, OnlineParser parse);

// Type refusals are due: a refusal `<path>: Input should be a valid object`
// (or `list`, `string`) names a value that is not one. `path` is dotted keys
// read from the envelope itself and from its request body (`$`, `envelope`
// and `body` name those two); where both hold a value at the path (`model`:
// the model's config, or the body's model name), every value found must be of
// the kind for the refusal to be undue. Law id "type-refusals-due". The error
// law judges only the message's form, so a check with its test turned round
// refused every model config as not an object, and no law of the fuzz
// targets saw it (automatic mutant auto-model-95-drop-not-1). The lax kinds
// (integer, boolean) are typed-values-taken's; paths with an index are not
// judged.
Violations type_refusals_due(const Json& envelope, const Error& error);

// Missing refusals name a required field: a refusal `<path>: Field required`
// names, as its last step, a field the spec or vLLM requires somewhere
// (kRequiredFields in error_laws.cpp, spelled apart from the core), and no
// value but null is at that path where the refusal means it (the envelope's
// own fields, `endpoint`, `request` and `model`, in the envelope; every other
// one in its body, or in the document that has none, as verify's input). The error law judges only the message's form, so a
// required key misspelled in the core's refusal, `...late_interaction_params.
// uery_key: Field required`, passed every law (automatic mutant
// auto-pooling-params-72-string-literal-1). Law id "missing-field-named".
Violations missing_field_named(const Json& envelope, const Error& error);
// The same for a document with no body (verify's input, `body` null: every
// field in the document itself) or with the one given.
Violations missing_field_named(const Json& document, const Json* body, const Error& error);

// A type or missing refusal names a place of the input: the value a type
// refusal `<path>: Input should be a valid <kind>` refused, or the object a
// `<path>: Field required` refusal found the field missing from, is at that
// path (dotted keys with `[i]` indexes) in the envelope or its body. Paths
// built wrong (`queries0].content...`, automatic mutant
// auto-request-11-string-literal-1) name nothing there. Law id
// "refusal-names-a-place".
Violations refusal_names_a_place(const Json& envelope, const Error& error);

}  // namespace poolcheck::laws
