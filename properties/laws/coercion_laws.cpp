#include "properties/laws/coercion_laws.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <span>
#include <limits>

#include "core/output_json.hpp"
#include "core/unicode.hpp"
#include "properties/laws/online_body.hpp"
#include "properties/laws/word_laws.hpp"

namespace poolcheck::laws {
namespace {

constexpr std::string_view kIntParsing = "Input should be a valid integer, unable to parse string as an integer";
constexpr std::string_view kIntFromFloat = "Input should be a valid integer, got a number with a fractional part";
constexpr std::string_view kIntParsingSize = "Unable to parse input string as an integer, exceeded maximum size";
constexpr std::string_view kFiniteNumber = "Input should be a finite number";
constexpr std::string_view kIntType = "Input should be a valid integer";
constexpr std::string_view kBoolParsing = "Input should be a valid boolean, unable to interpret input";
constexpr std::string_view kBoolType = "Input should be a valid boolean";

// A double holds every integer up to 2^53 exactly; pydantic takes integral floats inside int64.
constexpr std::int64_t kExactInDouble = std::int64_t{1} << 53;

// Leading-zero and underscore forms need the digits apart from the sign.
struct SignedDigits {
  std::string sign;
  std::string digits;
};

SignedDigits split_sign(const std::string& decimal) {
  if (!decimal.empty() && decimal.front() == '-') return {"-", decimal.substr(1)};
  return {"", decimal};
}

// Every White_Space code point once, in order: pydantic strips them all
// around a numeric string (Rust's str::trim), so a spelling padded with this
// run puts each one to the test.
const std::string& all_white_space() {
  static const std::string run = [] {
    std::string out;
    for (const char32_t c : white_space_code_points()) append_utf8(out, c);
    return out;
  }();
  return run;
}

// The integer a JSON value spells, read from its digits. Not with json_integer:
// that is the reader the core applies to these fields, and a law reading with
// it shares its slips (automatic mutant auto-integer-63-relational-2 read 2^63
// as -2^63 in the core and in the law alike).
std::optional<Integer> spelled_integer(const Json& value) {
  if (!value.is_number_integer() && !is_big_integer(value)) return std::nullopt;
  return Integer::from_decimal(dump_json(value));
}

}  // namespace

const std::vector<TypedField>& typed_fields() {
  static const std::vector<TypedField> fields{
      {"truncate_prompt_tokens", false, false, std::nullopt, -1},
      {"priority", false, false, 0},
      {"use_activation", true, false, std::nullopt},
      {"max_tokens_per_query", false, false, 0, 0},
      {"max_tokens_per_doc", false, false, 0, 0},
      {"top_n", false, true, 0, 0},
  };
  return fields;
}

std::vector<Json> int_spellings(const Integer& value) {
  std::vector<Json> out{value.to_json()};
  const auto small = value.to_int64();
  if (small && *small > -kExactInDouble && *small < kExactInDouble) out.push_back(static_cast<double>(*small));
  if (value == 0) out.push_back(false);
  if (value == 1) out.push_back(true);
  const std::string decimal = value.to_string();
  // pydantic-core reads a string first as a JSON integer literal of at most
  // 4300 characters, the sign counted; longer digit runs are "exceeded maximum
  // size" whatever follows. So a long value is spelled only as itself, up to
  // that edge (automatic mutants auto-fields-93-*: 4,300 refused), and after a
  // space, which fails that first reading and is trimmed by the second.
  if (decimal.size() > 4000) {
    if (decimal.size() <= 4300) out.insert(out.end(), {decimal, " " + decimal});
    return out;
  }
  const auto [sign, digits] = split_sign(decimal);
  const std::string underscored = digits.size() > 1 ? digits.substr(0, 1) + "_" + digits.substr(1) : digits;
  for (const std::string& text :
       {decimal, " " + decimal + " ", "\t" + decimal + "\n", "\u00a0" + decimal + "\u3000", "\u2003" + decimal,
        all_white_space() + decimal + all_white_space(),
        (sign.empty() ? "+" : "") + decimal, decimal + ".0", decimal + ".000", sign + "00" + digits,
        sign + underscored, " " + sign + "0_0" + underscored + ".00 ", sign + "0" + digits + ".0"})
    out.push_back(text);
  return out;
}

std::vector<Json> bool_spellings(bool value) {
  if (value)
    return {true, 1, 1.0, "1", "t", "T", "y", "Y", "yes", "YES", "on", "On", "true", "TRUE", "tRuE"};
  // "FALSE": the one word with an 'A', the lower edge of the letters pydantic
  // folds (automatic mutant auto-fields-180-relational-1 left 'A' upper case).
  return {false, 0, 0.0, -0.0, "0", "f", "F", "n", "N", "no", "NO", "off", "OFF", "false", "False", "FALSE", "fAlSe"};
}

const std::vector<RejectedSpelling>& rejected_int_spellings() {
  static const std::vector<RejectedSpelling> spellings = [] {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<RejectedSpelling> out;
    for (double fractional : {1.5, -0.5, 2.25, 1e-3}) out.push_back({fractional, std::string(kIntFromFloat)});
    // ±2^63 exactly: pydantic-core's float_as_int takes only floats strictly
    // inside the int64 range (automatic mutant auto-fields-173-relational-3).
    for (double huge : {1e19, -1e19, 9.3e18, 1e300, 0x1p63, -0x1p63})
      out.push_back({huge, std::string(kIntParsingSize)});
    for (double non_finite : {nan, inf, -inf}) out.push_back({non_finite, std::string(kFiniteNumber)});
    for (const char* text : {"5.5", "1e2", "1E2", "0x10", "0b1", "1__0", "_1", "1_", "", " ", "+-5", "--5", "-+5",
                             "5.", ".5", "5..0", "5.0.0", "1.0_0", "5 .0", "- 5", "\u0663", "\uff15",
                             "\u200b5", "\ufeff5", "\x1c" "5", "NaN", "inf", "five", "5\u200b"})
      out.push_back({text, std::string(kIntParsing)});
    // Just outside each White_Space range: not stripped, so not a number.
    for (const char32_t c : white_space_neighbours()) {
      std::string text;
      append_utf8(text, c);
      out.push_back({text + "5", std::string(kIntParsing)});
    }
    out.push_back({std::string(4301, '7'), std::string(kIntParsingSize)});
    out.push_back({"-" + std::string(4300, '7'), std::string(kIntParsingSize)});
    out.push_back({" " + std::string(4301, '7'), std::string(kIntParsing)});
    for (const Json& wrong : {Json::array(), Json::array({1}), Json::object()}) out.push_back({wrong, std::string(kIntType)});
    return out;
  }();
  return spellings;
}

const std::vector<RejectedSpelling>& rejected_bool_spellings() {
  static const std::vector<RejectedSpelling> spellings = [] {
    std::vector<RejectedSpelling> out;
    for (const Json& number : {Json(2), Json(-1), Json(2.0), Json(-1.0), Json(100)})
      out.push_back({number, std::string(kBoolParsing)});
    for (const char* text : {"2", " true", "true ", "", "yes!", "\u00a0true", "01", "1.0", "0.0", "-0", "nope",
                             "ture", "tru", "offf"})
      out.push_back({text, std::string(kBoolParsing)});
    for (const Json& wrong : {Json(0.5), Json(1e20), Json(std::numeric_limits<double>::quiet_NaN()),
                              Json(Integer::from_decimal("18446744073709551616").to_json()), Json::array(),
                              Json::object()})
      out.push_back({wrong, std::string(kBoolType)});
    return out;
  }();
  return spellings;
}

std::optional<Respelling> respell_one_field(const Json& envelope, std::uint64_t choice) {
  const auto online = online_body(envelope);
  if (!online) return std::nullopt;
  const bool rerank = online->endpoint == Endpoint::Rerank;
  const Json& body = *online->body;
  // The fields that can be respelled, and the value each stands for.
  struct Candidate {
    const TypedField* field;
    std::optional<Integer> integer;
    bool boolean = false;
  };
  std::vector<Candidate> candidates;
  for (const auto& field : typed_fields()) {
    if (!field.applies_to(rerank)) continue;
    const auto it = body.find(field.name);
    if (it == body.end()) {
      if (field.absent_value) candidates.push_back({&field, Integer(*field.absent_value)});
    } else if (field.is_bool && it->is_boolean()) {
      candidates.push_back({&field, std::nullopt, it->get<bool>()});
    } else if (!field.is_bool && !it->is_boolean()) {
      if (auto n = spelled_integer(*it)) candidates.push_back({&field, *n});
    }
  }
  if (candidates.empty()) return std::nullopt;
  const Candidate& picked = candidates[choice % candidates.size()];
  const std::vector<Json> spellings =
      picked.field->is_bool ? bool_spellings(picked.boolean) : int_spellings(*picked.integer);
  if (spellings.size() < 2) return std::nullopt;  // an integer too long for a string spelling
  // The first spelling is the value itself: take one of the others.
  const Json& spelling = spellings[1 + (choice / candidates.size()) % (spellings.size() - 1)];
  Respelling out{envelope, std::string(picked.field->name) + " respelled as " + dump_json(spelling)};
  out.envelope["request"][std::string(picked.field->name)] = spelling;
  return out;
}

namespace {

// The body's value for `key`, or nullptr when it is absent or null.
const Json* written(const Json& body, std::string_view key) {
  const auto it = body.find(key);
  return it == body.end() || it->is_null() ? nullptr : &*it;
}

std::string shown(const std::optional<Integer>& value) { return value ? value->to_string() : "none"; }
std::string shown(const std::optional<bool>& value) { return value ? (*value ? "true" : "false") : "none"; }

// The same JSON type and value: 1.5 is not "1.5", 1e19 not the integer 10^19,
// and NaN is NaN.
bool same_spelling(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_number_float() && std::isnan(a.get<double>())) return std::isnan(b.get<double>());
  return a == b;
}

// The integer an online int field's value is taken as, where the law tells it
// without a reader of strings: a JSON integer of any size, a boolean (0 or 1)
// and a float that holds an integer exactly, the forms int_spellings writes
// besides strings. nullopt for a string, which the coercion laws judge.
std::optional<Integer> taken_integer(const Json& value) {
  if (value.is_boolean()) return Integer(value.get<bool>() ? 1 : 0);
  if (!value.is_number_float()) return spelled_integer(value);
  const double d = value.get<double>();
  if (std::trunc(d) != d || std::abs(d) >= static_cast<double>(kExactInDouble)) return std::nullopt;
  return Integer(static_cast<std::int64_t>(d));
}

// The bool a value is taken as when it is one of bool_spellings (the same JSON
// type and value); nullopt for any other, which the coercion laws judge.
std::optional<bool> taken_bool(const Json& value) {
  // Made once: the law reads every input that writes the field.
  static const std::vector<Json> kSpellings[] = {bool_spellings(false), bool_spellings(true)};
  for (const bool b : {false, true})
    for (const Json& spelling : kSpellings[b])
      if (same_spelling(spelling, value)) return b;
  return std::nullopt;
}

}  // namespace

Violations typed_fields_taken(const Json& body, const ScoringRequest& request) {
  Violations out;
  if (!body.is_object()) return out;
  const auto differs = [&](std::string_view field, const std::string& wrote, const std::string& holds) {
    out.push_back({"fields-taken", "the body wrote " + std::string(field) + " = " + wrote +
                                       ", the accepted request holds " + holds});
  };
  // Online, pydantic's non-string spellings are read too (automatic mutant
  // auto-fields-188-true-false-1 took use_activation "0" as true: only the
  // sampled coercion run saw it). LLM.score's keywords are Python's, not
  // pydantic's, so there a JSON integer alone is judged. A string spelling is
  // the coercion laws' to judge.
  const bool online = request.endpoint != Endpoint::LlmScore;
  const Json* truncate = written(body, "truncate_prompt_tokens");
  const auto want_truncate = !truncate ? std::nullopt : online ? taken_integer(*truncate) : spelled_integer(*truncate);
  if ((!truncate || want_truncate) && want_truncate != request.truncate_prompt_tokens)
    differs("truncate_prompt_tokens", shown(want_truncate), shown(request.truncate_prompt_tokens));
  const Json* side = written(body, "truncation_side");
  const std::optional<Side> want_side =
      !side ? std::nullopt : std::optional<Side>(*side == "left" ? Side::Left : Side::Right);
  if (want_side != request.truncation_side)
    differs("truncation_side", side ? dump_json(*side) : "none",
            request.truncation_side ? (*request.truncation_side == Side::Left ? "left" : "right") : "none");
  if (!online) return out;
  const Json* activation = written(body, "use_activation");
  const auto want_activation = activation ? taken_bool(*activation) : std::nullopt;
  if ((!activation || want_activation) && want_activation != request.use_activation)
    differs("use_activation", activation ? dump_json(*activation) : "none", shown(request.use_activation));
  const Json* padding = written(body, "padding");
  if ((padding && *padding == "max_length") != request.pad_to_max_length)
    differs("padding", padding ? dump_json(*padding) : "none",
            request.pad_to_max_length ? "padding to max_model_len" : "no padding");
  for (const auto& [field, held] : {std::pair<std::string_view, const Integer*>{"max_tokens_per_query", &request.max_tokens_per_query},
                                    {"max_tokens_per_doc", &request.max_tokens_per_doc}}) {
    const Json* value = written(body, field);
    const auto want = value ? taken_integer(*value) : std::optional<Integer>(0);
    if (want && !(*want == *held)) differs(field, want->to_string(), held->to_string());
  }
  return out;
}

// Two canonical decimal integers compared by sign, length and digits: the
// laws' own comparison. Integer's operator<=> is the one the core's bounds
// use, and a law comparing with it shares its slips (automatic mutant
// auto-integer-52-equality-1 put every integer beyond 64 bits on the wrong
// side of every bound, in the core and in this law alike).
int compare_decimal(std::string_view a, std::string_view b) {
  const bool a_negative = a.starts_with('-');
  if (a_negative != b.starts_with('-')) return a_negative ? -1 : 1;
  const int sign = a_negative ? -1 : 1;
  if (a.size() != b.size()) return a.size() < b.size() ? -sign : sign;
  const int digits = a.compare(b);
  return digits == 0 ? 0 : digits < 0 ? -sign : sign;
}

namespace {

// The body's value for `field` as the decimal digits of a JSON integer, or
// nullopt: absent, or a spelling for the coercion laws to judge.
std::optional<std::string> written_decimal(const Json& body, std::string_view field) {
  const auto it = body.find(field);
  if (it == body.end() || (!it->is_number_integer() && !is_big_integer(*it))) return std::nullopt;
  return dump_json(*it);
}

// The upper bounds of spec section 7, which pre-processing checks against
// max_model_len: truncate_prompt_tokens at most it, a token limit 0 or below it.
bool is_token_limit(std::string_view field) {
  return field == "max_tokens_per_query" || field == "max_tokens_per_doc";
}

// Whether `message`, the refusal of a field that the body gave as `value`,
// cites one of the field's bounds that the value keeps (so the refusal was not
// due). `m` is the model's max_model_len as written, when it is an integer.
// A message that cites no bound is other laws' to judge.
bool cites_a_kept_bound(const TypedField& field, const std::string& value, const std::string& message,
                        const std::optional<std::string>& m) {
  const std::string name(field.name);
  if (field.lower_bound &&
      message == name + ": Input should be greater than or equal to " + std::to_string(*field.lower_bound))
    return compare_decimal(value, std::to_string(*field.lower_bound)) >= 0;
  if (is_token_limit(name) && message == name + " must be a non-negative integer")
    return compare_decimal(value, "0") >= 0;
  if (is_token_limit(name) && m && message.starts_with(name + " (") &&
      message.ends_with(") must be less than max_model_len (" + *m + ")."))
    return message != name + " (" + value + ") must be less than max_model_len (" + *m + ")." ||
           compare_decimal(value, *m) < 0;
  if (name == "truncate_prompt_tokens" && m && message.starts_with("truncate_prompt_tokens value is greater"))
    return compare_decimal(value, *m) <= 0;
  return false;
}

struct OnlineRefusal {
  const Json* body;
  bool rerank;
};

// The request body of an online (score or rerank) envelope whose refusal names
// a field; nullopt for any other envelope or error.
std::optional<OnlineRefusal> online_refusal(const Json& envelope, const Error& error) {
  const auto online = online_body(envelope);
  if (!error.param || !online) return std::nullopt;
  return OnlineRefusal{online->body, online->endpoint == Endpoint::Rerank};
}

}  // namespace

Violations bounds_kept(const Json& body, bool rerank, std::optional<std::int64_t> max_model_len) {
  Violations out;
  if (!body.is_object()) return out;
  const auto kept = [&](std::string_view field, const std::string& value, const std::string& bound) {
    out.push_back({"bounds", "an online request was accepted with " + std::string(field) + " = " + value + ", " +
                                 bound});
  };
  for (const auto& field : typed_fields()) {
    if (field.is_bool || !field.applies_to(rerank)) continue;
    const auto value = written_decimal(body, field.name);
    if (!value) continue;
    if (field.lower_bound && compare_decimal(*value, std::to_string(*field.lower_bound)) < 0)
      kept(field.name, *value, "below its lower bound " + std::to_string(*field.lower_bound));
    if (!max_model_len) continue;
    const std::string m = std::to_string(*max_model_len);
    if (field.name == "truncate_prompt_tokens" && compare_decimal(*value, m) > 0)
      kept(field.name, *value, "above max_model_len " + m);
    if (is_token_limit(field.name) && *value != "0" && compare_decimal(*value, m) >= 0)
      kept(field.name, *value, "not 0 and not below max_model_len " + m);
  }
  return out;
}

Violations bounds_refusal(const Json& envelope, const Error& error) {
  const auto online = online_refusal(envelope, error);
  if (!online) return {};
  const std::string& field = *error.param;
  const auto value = written_decimal(*online->body, field);
  const auto is_field = [&](const TypedField& f) {
    return f.name == field && !f.is_bool && f.applies_to(online->rerank);
  };
  const auto typed = std::find_if(typed_fields().begin(), typed_fields().end(), is_field);
  if (!value || typed == typed_fields().end()) return {};
  const auto model = envelope.find("model");
  const Json* m_json = model != envelope.end() && model->is_object() ? written(*model, "max_model_len") : nullptr;
  const std::optional<std::string> m =
      m_json && m_json->is_number_integer() ? std::optional<std::string>(dump_json(*m_json)) : std::nullopt;
  if (!cites_a_kept_bound(*typed, *value, error.message, m)) return {};
  return {{"bounds", "the body wrote " + field + " = " + *value + (m ? " (max_model_len " + *m + ")" : "") +
                         ", which keeps the bound its refusal cites: '" + error.message + "'"}};
}

Violations typed_values_taken(const Json& envelope, const Error& error) {
  const auto online = online_refusal(envelope, error);
  if (!online) return {};
  const Json* body = online->body;
  const bool rerank = online->rerank;
  for (const auto& field : typed_fields()) {
    if (*error.param != field.name || !field.applies_to(rerank)) continue;
    const auto value = body->find(field.name);
    if (value == body->end()) return {};
    // A JSON integer is a Python int, a JSON boolean a bool: of the right
    // type whatever its size. Only a bound or a later check may refuse it.
    const bool of_its_type = field.is_bool ? value->is_boolean() : spelled_integer(*value).has_value();
    static constexpr std::string_view kBoolMessages[] = {kBoolType};
    static constexpr std::string_view kIntMessages[] = {kIntType, kIntParsingSize, kFiniteNumber};
    const std::span<const std::string_view> type_messages =
        field.is_bool ? std::span<const std::string_view>(kBoolMessages) : std::span<const std::string_view>(kIntMessages);
    const bool refused_as_type = std::any_of(type_messages.begin(), type_messages.end(), [&](std::string_view msg) {
      return error.message.find(msg) != std::string::npos;
    });
    if (!of_its_type || !refused_as_type) return {};
    return {{"typed-values-taken", std::string(field.name) + " = " + dump_json(*value) + " is " +
                                       (field.is_bool ? "a bool" : "an int") + " as pydantic reads it, but it was "
                                       "refused with '" + error.message + "'"}};
  }
  return {};
}

Violations rejected_spellings_refused(const Json& envelope, const Error* refusal) {
  const auto online = online_body(envelope);
  if (!online) return {};
  for (const auto& field : typed_fields()) {
    if (!field.applies_to(online->endpoint == Endpoint::Rerank)) continue;
    const auto value = online->body->find(field.name);
    if (value == online->body->end()) continue;
    const auto& rejected = field.is_bool ? rejected_bool_spellings() : rejected_int_spellings();
    const auto spelling = std::find_if(rejected.begin(), rejected.end(),
                                       [&](const RejectedSpelling& r) { return same_spelling(r.value, *value); });
    if (spelling == rejected.end()) continue;
    const std::string want = std::string(field.name) + ": " + spelling->msg;
    const std::string shown = dump_json(*value).substr(0, 80);
    if (!refusal)
      return {{"spellings-refused", std::string(field.name) + " = " + shown + " was taken; pydantic refuses it: " + want}};
    if (refusal->param == field.name && refusal->message != want)
      return {{"spellings-refused", std::string(field.name) + " = " + shown + " was refused with '" +
                                        refusal->message + "'; pydantic's message is '" + want + "'"}};
  }
  return {};
}

Violations coercion_invariance(const std::string& original_outcome, const std::string& respelled_outcome,
                               const std::string& what) {
  if (original_outcome == respelled_outcome) return {};
  return {{"coercion-invariance", "pydantic coerces both spellings to the same value, but with " + what +
                                      " the outcome became " + respelled_outcome + " instead of " +
                                      original_outcome}};
}

}  // namespace poolcheck::laws
