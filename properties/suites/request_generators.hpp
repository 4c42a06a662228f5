#pragma once
// Generators of request envelopes (spec section 6): what a user sends to
// /score or /rerank, or passes to LLM.score, wrapped the way
// `poolcheck preprocess` (and the fuzz target `request`) reads it. Properties
// hand `bytes` to laws::check_request_input, the same JSON path a body takes.
#include <iosfwd>
#include <string>
#include <vector>

#include "properties/suites/generators.hpp"

namespace poolcheck::props {

enum class InputKind { Valid, NearValid, Junk };
std::string kind_name(InputKind kind);

struct RequestCase {
  std::string bytes;  // exactly what check_request_input reads
  Json envelope;      // the envelope as built; null when the bytes are no JSON object
  ModelCase model;
  std::string endpoint;     // "score", "rerank" or "llm.score"
  std::string first_side;   // the request keys of the two sides, e.g. "queries" and "items",
  std::string second_side;  // "query" and "documents", "data_1" and "data_2"
  InputKind kind = InputKind::Valid;
  std::string defect;           // near-valid: what was made wrong
  std::string expected_family;  // near-valid: the message family that defect calls for
  std::size_t queries = 0;      // side lengths as generated
  std::size_t documents = 0;
  bool truncation = false;      // a truncation target is given
  std::string truncation_side;  // as given: "", "left" or "right"
  bool padding = false;         // padding: max_length
  bool caller_params = false;   // LLM.score with pooling_params
  bool caller_extras = false;   // ... whose extra_kwargs has keys
  bool content_objects = false; // some input is a {"content": [...]} object
  bool coerced = false;         // a typed field holds a spelling pydantic coerces (spec 11.1)
  // When `bytes` are ASCII-escaped (\uXXXX, surrogate pairs): the same
  // envelope written plainly, for escapes-read-alike; empty otherwise.
  std::string unescaped;
};
void showValue(const RequestCase& request, std::ostream& os);

// Knobs for the focused properties; the defaults give the mixed population.
struct RequestShape {
  std::vector<std::string> endpoints{"score", "rerank", "llm.score"};
  Modality modality = Modality::Any;
  int truncation_percent = 40;
  int padding_percent = 25;
  int caller_params_percent = 75;
  bool any_cardinality = false;  // side lengths 0..4 each, legal or not
  int max_words = 8;             // per text
};

// A Python int beyond 64 bits (spec 11.2), either sign, 2^63 and 2^64 among them.
rc::Gen<Json> gen_big_integer();
// A value Python's json.loads reads and strict JSON has not (spec 11.3): NaN,
// Infinity, -Infinity, or an integer beyond 64 bits.
rc::Gen<Json> gen_python_only_value();

// Well-formed requests: every field of the right type and in range. The core
// may still reject some (a pair longer than max_model_len, say).
rc::Gen<RequestCase> gen_valid_request(const RequestShape& shape = {});
rc::Gen<RequestCase> gen_junk_request();
// Valid, near-valid (a valid request with one defect) and junk, mixed.
rc::Gen<RequestCase> gen_request(const RequestShape& shape = {});

// The defect catalogue (request_defects.cpp): each entry makes exactly one
// thing wrong and names the message family that calls for.
struct DefectKind {
  std::size_t index = 0;  // in the catalogue
  std::string name;
  std::string family;
  RequestShape base;  // requests it applies to, generated to be accepted as they are
};
void showValue(const DefectKind& kind, std::ostream& os);
rc::Gen<DefectKind> gen_defect_kind();
// Every catalogue entry's name.
std::vector<std::string> defect_names();
// `base` with the defect applied (`kind` must apply to it).
rc::Gen<RequestCase> gen_with_defect(const RequestCase& base, const DefectKind& kind);
// `base` with one of the defects that apply to it.
rc::Gen<RequestCase> gen_near_valid(const RequestCase& base);

// A string value that refresh_bytes writes broken: a surrogate escape that
// pairs with nothing, or UTF-8 that is not well formed. No JSON value can hold
// either: the parser must refuse it (spec 10.4).
inline constexpr std::string_view kBrokenStringMarker = "\x01poolcheck-broken-string\x01";
// For the defect catalogue: the envelope re-serialised after an edit
// (dump_json, sometimes ASCII-escaped).
void refresh_bytes(RequestCase& request);
// What a JSON string may not hold, as it stands between the quotes: a lone
// surrogate escape, \u with a non-hex character, a raw control character, and
// each of broken_utf8_sequences.
const std::vector<std::string>& broken_json_strings();
// Replaces the string kBrokenStringMarker in a JSON text written by input_json
// with "a<broken>b", <broken> drawn from broken_json_strings. False when the
// text holds no marker. The defect catalogue and the fuzz targets' spec
// mutator both break strings with it.
bool break_marked_string(std::string& bytes);
// A text of exactly `words` one-token words.
std::string words_text(std::int64_t words);

}  // namespace poolcheck::props
