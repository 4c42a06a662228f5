#pragma once
// Coercion (spec 11.1, 11.6): vLLM validates the typed fields of /score and
// /rerank with pydantic 2 in lax mode, so one value has many spellings. The
// spellings are written here once: the coercion-invariance law respells a
// field with them, the property generators draw from them, and the defect
// catalogue takes the rejected ones with the message pydantic gives.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/integer.hpp"
#include "core/json.hpp"
#include "core/request.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// An `int` or `bool` field of the online requests, with the value an absent
// one stands for (nullopt where absent means None, which has no spellings).
struct TypedField {
  std::string_view name;
  bool is_bool;
  bool rerank_only;
  std::optional<std::int64_t> absent_value;
  // The spec's `ge` bound of an int field (section 6), where it has one.
  std::optional<std::int64_t> lower_bound = std::nullopt;
  // Whether a request of this endpoint has the field at all: a rerank-only
  // field (top_n, return_documents) is no field of /score.
  bool applies_to(bool rerank) const { return rerank || !rerank_only; }
};
const std::vector<TypedField>& typed_fields();

// Spellings pydantic coerces to exactly `value`: the value itself first, then
// floats (only where a double holds it exactly), numeric strings with
// whitespace, signs, leading zeros, underscores and zero fractions, and
// true/false for 1 and 0.
std::vector<Json> int_spellings(const Integer& value);
std::vector<Json> bool_spellings(bool value);

// Values pydantic rejects on an int or bool field, each with pydantic's msg
// (the field's error message is "<field>: <msg>").
struct RejectedSpelling {
  Json value;
  std::string msg;
};
const std::vector<RejectedSpelling>& rejected_int_spellings();
const std::vector<RejectedSpelling>& rejected_bool_spellings();

// The envelope with one typed field of its online request respelled, chosen
// by `choice` (any number: the same choice gives the same respelling). Only
// a field whose value is a plain JSON integer or boolean, or absent with an
// absent_value, is respelled; nullopt when the envelope has none, is offline,
// or is no envelope at all. `what` says which field became which spelling.
struct Respelling {
  Json envelope;
  std::string what;
};
std::optional<Respelling> respell_one_field(const Json& envelope, std::uint64_t choice);

// The bounds law, both ways, for the online typed int fields given as JSON
// integers (of any size, spec 11.2). bounds_kept: an accepted request holds no
// field below its lower bound (#46119: a negative top_n accepted, silently
// meaning "all") and, given the model's max_model_len, no
// truncate_prompt_tokens above it and no non-zero token limit at or above it.
// bounds_refusal: a refusal that cites one of those bounds for a field
// (pydantic's "greater than or equal to", "must be a non-negative integer",
// "(V) must be less than max_model_len (M).", "greater than max_model_len")
// names a value the body wrote and that breaks it; `envelope` is the
// document, read by the law itself. Like salt-valid, they let fuzzing, which
// knows no defect, judge where a bound was drawn. Compared with
// compare_decimal, never with the core's Integer.
Violations bounds_kept(const Json& body, bool rerank, std::optional<std::int64_t> max_model_len = std::nullopt);
Violations bounds_refusal(const Json& envelope, const Error& error);

// Compares two canonical decimal integers ("-12", "0", "340282366920938463463374607431768211456"):
// negative, zero or positive, as a is below, equal to or above b.
int compare_decimal(std::string_view a, std::string_view b);

// The fields-taken law: an accepted request holds the values its body wrote,
// read from the body by the law: truncate_prompt_tokens and truncation_side
// (every endpoint, LLM.score's keywords included), and online padding,
// use_activation and max_tokens_per_* (absent or null: their defaults). An
// int field is read from a JSON integer (online also from a boolean and an
// integral float), use_activation from one of bool_spellings; a string
// spelling of an int is left to the coercion laws. The other laws read the
// typed request the core built, so a parse that drops or misreads one of
// these fields leaves them blind (automatic mutant
// auto-request-279-delete-statement-1 dropped LLM.score's truncation_side).
Violations typed_fields_taken(const Json& body, const ScoringRequest& request);

// The typed-values law: a refused online envelope (as `poolcheck preprocess`
// reads it) whose error names a typed field given a value of the field's own
// JSON type (an integer of any size, spec 11.2; a boolean) was not refused
// for that value's type: no "valid integer", "exceeded maximum size", "finite
// number" or "valid boolean" message. Like bounds, it lets fuzzing judge a
// refusal without knowing the defect.
Violations typed_values_taken(const Json& envelope, const Error& error);

// The other way, law "spellings-refused": an online envelope whose typed field
// holds one of the spellings pydantic rejects (rejected_int_spellings,
// rejected_bool_spellings: the same JSON type and value) is never taken, and
// a refusal naming that field carries the spelling's message. `refusal` is
// the envelope's error, or null when the envelope was read (automatic mutant
// auto-fields-132-int-literal-3 read "+-5" as -5: the coercion laws respell
// only spellings pydantic takes).
Violations rejected_spellings_refused(const Json& envelope, const Error* refusal);

// The coercion-invariance law: the respelled envelope's outcome is the same,
// byte for byte, as the original's.
Violations coercion_invariance(const std::string& original_outcome, const std::string& respelled_outcome,
                               const std::string& what);

}  // namespace poolcheck::laws
