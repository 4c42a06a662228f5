// The laws of spec section 8 over generated request envelopes. Every case goes
// through laws::check_request_input, the bytes-in entry point a user's body,
// a fuzz input and a corpus entry take; the laws live in properties/laws/.
#include <algorithm>
#include <vector>

#include "core/envelope.hpp"
#include "core/json_equality.hpp"
#include "core/preprocess.hpp"
#include "core/token_types.hpp"
#include "core/wire.hpp"
#include "core/output_json.hpp"
#include "properties/laws/check.hpp"
#include "properties/laws/request_laws.hpp"
#include "properties/suites/request_generators.hpp"
#include "properties/suites/runner.hpp"
#include "properties/suites/suite_support.hpp"

namespace poolcheck::props {
namespace {

std::string side_lengths_class(const RequestCase& c) {
  if (c.queries == 0) return "sides: no queries";
  if (c.documents == 0) return "sides: no documents";
  if (c.queries == 1) return c.documents == 1 ? "sides: 1:1" : "sides: 1:N";
  return c.queries == c.documents ? "sides: N:N" : "sides: M:N";
}

// The truncation target as given, when it is an integer.
std::optional<std::int64_t> truncation_target(const RequestCase& c) {
  if (!c.envelope.is_object() || !c.envelope.contains("request") || !c.envelope["request"].is_object()) return {};
  const Json& body = c.envelope["request"];
  if (!body.contains("truncate_prompt_tokens") || !body["truncate_prompt_tokens"].is_number_integer()) return {};
  return body["truncate_prompt_tokens"].get<std::int64_t>();
}

// Some pair's prompt is exactly `target` tokens long: truncation had work to do.
bool prompt_at(const laws::CheckResult& result, std::int64_t target) {
  for (const auto& output : result.outcome["outputs"])
    if (static_cast<std::int64_t>(output["prompt"]["prompt_token_ids"].size()) == target) return true;
  return false;
}

// The classes every request property reports; each property requires its own.
void classify(const RequestCase& c, const laws::CheckResult& result) {
  const std::string outcome = result.accepted ? "accepted" : "rejected";
  see_and_tag("endpoint " + c.endpoint);
  see_and_tag(kind_name(c.kind));
  see_and_tag(outcome);
  see("style " + style_name(c.model.style));
  see(side_lengths_class(c));
  if (c.model.multimodal) see("multimodal model");
  if (c.caller_params) see("caller params");
  if (c.caller_extras) see("user extra_kwargs");
  if (!result.accepted) {
    see("family " + rejected_family(result));
    if (c.defect.find("spelled as pydantic refuses") != std::string::npos) see("rejected by coercion");
    return;
  }
  if (c.coerced) see("accepted through coercion");
  const auto pairs = result.outcome["outputs"].size();
  if (pairs > 1) see("accepted: several pairs");
  if (c.truncation) see("accepted: truncation");
  if (c.padding) see("accepted: padding");
  if (c.content_objects) see("accepted: content objects");
  if (c.caller_extras && c.model.style == TokenizerStyle::Bert) see("accepted: user extra_kwargs on a BERT-like model");
}

const PropertySpec kEveryEnvelope{
    20000,
    {{"endpoint score", 0.15},        {"endpoint rerank", 0.15},      {"endpoint llm.score", 0.15},
     {"style bert", 0.15},            {"style xlmr", 0.15},           {"style llm", 0.15},
     {"valid", 0.40},                 {"near-valid", 0.12},           {"junk", 0.07},
     {"accepted", 0.25},              {"rejected", 0.25},             {"multimodal model", 0.08},
     {"user extra_kwargs", 0.10},     {"accepted: several pairs", 0.10},
     {"accepted: truncation", 0.08},  {"accepted: padding", 0.04},    {"accepted: content objects", 0.01},
     {"accepted: user extra_kwargs on a BERT-like model", 0.02},
     {"accepted through coercion", 0.05},   {"rejected by coercion", 0.005}}};

// A well-formed request (every field of the right type and in range, the
// generator's own claim) is accepted, or refused only for its context length:
// the generator does not count tokens. A bound or check made stricter than the
// spec's (vocab_size 1001 refused, say) refuses such a request with another
// family, and no law of the core's outcome can tell that from a right refusal.
laws::Violations well_formed_accepted(const RequestCase& c, const laws::CheckResult& result) {
  if (c.kind != InputKind::Valid || result.accepted) return {};
  const std::string family = rejected_family(result);
  if (family == "context-length") return {};
  return {{"well-formed-accepted", "a well-formed request was refused (" + family + "): " + dump_json(result.outcome)}};
}

// An ASCII-escaped request (every non-ASCII character a \uXXXX escape, a
// surrogate pair above U+FFFF) is read as the same request written plainly:
// the outcomes are equal. The laws judge the text the core decoded, so a
// decoder that turns a pair into the wrong code point keeps them all.
laws::Violations escapes_read_alike(const RequestCase& c, const laws::CheckResult& result) {
  if (c.unescaped.empty()) return {};
  const laws::CheckResult plain = laws::check_request_input(c.unescaped);
  if (json_equal(plain.outcome, result.outcome)) return {};
  return {{"escapes-read-alike", "the request ASCII-escaped gave " + dump_json(result.outcome) +
                                     ", written plainly " + dump_json(plain.outcome)}};
}

// The laws, and well-formed-accepted and escapes-read-alike on top.
void expect_request_lawful(const RequestCase& request, const laws::CheckResult& result) {
  laws::Violations found = result.violations;
  laws::append(found, well_formed_accepted(request, result));
  laws::append(found, escapes_read_alike(request, result));
  expect_lawful(found, request_input(request.bytes));
}

}  // namespace

// Section 8 in full, over the whole population: valid requests, near-valid
// ones (one field wrong) and junk bytes, on all three endpoints and styles.
POOLCHECK_PROPERTY(RequestLaws, HoldForEveryEnvelope, kEveryEnvelope) {
  const RequestCase request = *gen_request();
  const laws::CheckResult result = laws::check_request_input(request.bytes);
  classify(request, result);
  expect_request_lawful(request, result);
}

namespace {

RequestShape truncation_heavy() {
  RequestShape shape;
  shape.truncation_percent = 85;
  shape.padding_percent = 40;
  shape.max_words = 14;
  return shape;
}

const PropertySpec kTruncation{
    10000,
    {{"accepted", 0.40},
     {"truncation: longest-first", 0.20},
     {"truncation: slice left", 0.08},
     {"truncation: slice right", 0.08},
     {"truncation: target -1", 0.04},
     {"truncation: target 0", 0},
     {"accepted: padding", 0.12},
     {"accepted: a prompt at its target length", 0.10},
     {"family context-length", 0}}};

}  // namespace

// Truncation never exceeds its target, longest-first never drops a special
// token, padding fills to max_model_len, and the token types follow (the
// truncation-bounds and compression laws), on inputs built to need cutting.
POOLCHECK_PROPERTY(RequestLaws, TruncationStaysInBounds, kTruncation) {
  const RequestCase request = *gen_valid_request(truncation_heavy());
  const laws::CheckResult result = laws::check_request_input(request.bytes);
  classify(request, result);
  if (const auto target = truncation_target(request)) {
    see(request.truncation_side.empty() ? "truncation: longest-first" : "truncation: slice " + request.truncation_side);
    if (*target <= 0) see("truncation: target " + std::to_string(*target));
    if (result.accepted && !request.padding && prompt_at(result, *target))
      see("accepted: a prompt at its target length");
  }
  expect_request_lawful(request, result);
}

namespace {

RequestShape any_cardinality() {
  RequestShape shape;
  shape.any_cardinality = true;
  return shape;
}

const PropertySpec kPairing{
    10000,
    {{"sides: 1:1", 0.04}, {"sides: 1:N", 0.10}, {"sides: N:N", 0.02}, {"sides: M:N", 0.04},
     {"sides: no queries", 0.05}, {"sides: no documents", 0.08}, {"accepted", 0.25},
     {"family pair-lengths", 0.04}, {"family no-text", 0.03}, {"family no-text-pair", 0.04}}};

}  // namespace

// Pairing cardinality: side lengths 0..4 each, legal or not. Accepted means
// 1:1, 1:N or N:N with pair i holding its own query; a pairing rejection names
// the right defect (the pairing-cardinality laws).
POOLCHECK_PROPERTY(RequestLaws, PairOneToOneOneToManyOrZipped, kPairing) {
  const RequestCase request = *gen_valid_request(any_cardinality());
  const laws::CheckResult result = laws::check_request_input(request.bytes);
  classify(request, result);
  expect_lawful(result.violations, request_input(request.bytes));
}

namespace {

RequestShape offline_only() {
  RequestShape shape;
  shape.endpoints = {"llm.score"};
  shape.caller_params_percent = 95;
  return shape;
}

bool nested(const Json& object) {
  for (const auto& [key, value] : object.items())
    if (value.is_structured()) return true;
  return false;
}

const PropertySpec kOffline{
    10000,
    {{"caller params", 0.70},
     {"user extra_kwargs", 0.45},
     {"user extra_kwargs: nested values", 0.15},
     {"user extra_kwargs: compressed_token_type_ids", 0.10},
     {"user extra_kwargs: empty or non-ASCII key", 0.03},
     {"style bert", 0.20},
     {"accepted", 0.40},
     {"accepted: user extra_kwargs on a BERT-like model", 0.08},
     {"near-valid", 0.08}}};

}  // namespace

// LLM.score leaves the caller's PoolingParams deep-equal (the nothing-mutated
// law) and keeps every key of its extra_kwargs in every pair (keys-never-lost),
// with rich caller params, adversarial keys, and one-defect variants.
POOLCHECK_PROPERTY(RequestLaws, OfflineCallerParamsStayUntouched, kOffline) {
  const RequestCase valid = *gen_valid_request(offline_only());
  const RequestCase request = chance(15) ? *gen_near_valid(valid) : valid;
  const laws::CheckResult result = laws::check_request_input(request.bytes);
  classify(request, result);
  if (valid.caller_extras) {
    const Json& extras = valid.envelope["request"]["pooling_params"]["extra_kwargs"];
    if (nested(extras)) see("user extra_kwargs: nested values");
    if (extras.contains("compressed_token_type_ids")) see("user extra_kwargs: compressed_token_type_ids");
    for (const auto& [key, value] : extras.items())
      if (key.empty() || static_cast<unsigned char>(key[0]) >= 0x80) see("user extra_kwargs: empty or non-ASCII key");
  }
  expect_request_lawful(request, result);
}

namespace {

// The JSON pointers of the objects of `value` that have a member.
void objects_with_members(const Json& value, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
  if (value.is_object() && !value.empty()) out.push_back(at);
  if (value.is_object())
    for (const auto& [key, child] : value.items()) objects_with_members(child, at / key, out);
  else if (value.is_array())
    for (std::size_t i = 0; i < value.size(); ++i) objects_with_members(value[i], at / i, out);
}

// `object` with `key`'s member first and the others after it in their order.
Json with_member_first(const Json& object, const std::string& key, const Json& first_value) {
  Json out = Json::object();
  out[key] = first_value;
  for (const auto& [name, value] : object.items())
    if (name != key) out[name] = value;
  return out;
}

const PropertySpec kRepeatedKey{3000,
                                {{"object under 16 keys", 0.30},
                                 {"object of 16 keys or more", 0.10},
                                 {"accepted", 0.25}}};

}  // namespace

// Python's json.loads keeps a repeated key's first place and its last value
// (docs/decisions.md). A well-formed request with one key of one of its
// objects written once more, first, with another value (the member itself
// left in place or written last), must give the outcome of the same request
// with that member moved to the object's front: in small objects (a linear
// search for the key) and wide ones (a hash index from 16 keys on) alike.
// Law `repeated-key-last-value`.
POOLCHECK_PROPERTY(RequestLaws, RepeatedKeyKeepsFirstPlaceLastValue, kRepeatedKey) {
  const RequestCase request = *gen_valid_request();
  std::vector<Json::json_pointer> objects;
  objects_with_members(request.envelope, Json::json_pointer(), objects);
  const Json::json_pointer at = *rc::gen::elementOf(objects);
  Json moved = request.envelope;
  Json& object = moved[at];
  if (chance(30))
    for (int i = 0; object.size() < 17; ++i) object["x-filler-" + std::to_string(i)] = i;
  see(object.size() < 16 ? "object under 16 keys" : "object of 16 keys or more");
  auto member = object.begin();
  std::advance(member, *rc::gen::inRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(object.size())));
  const std::string key = member.key();
  const std::string marker = "\x01poolcheck-repeated-key\x01";
  Json repeated = moved;
  repeated[at] = with_member_first(object, marker, *gen_json(1));
  if (chance(50)) repeated[at].erase(key);  // the last value written last: past the 16th key, in a wide object
  repeated[at][key] = object[key];
  object = with_member_first(object, key, object[key]);
  std::string bytes = input_json(repeated);
  const std::string written = input_json(Json(marker));
  bytes.replace(bytes.find(written), written.size(), input_json(Json(key)));

  const laws::CheckResult result = laws::check_request_input(bytes);
  const laws::CheckResult expected = laws::check_request_input(input_json(moved));
  if (result.accepted) see("accepted");
  laws::Violations found = result.violations;
  if (!json_equal(result.outcome, expected.outcome))
    found.push_back({"repeated-key-last-value", "key '" + key + "' written twice in " + at.to_string() +
                                                    " gave " + dump_json(result.outcome) +
                                                    "; with it written once, first, holding the last value: " +
                                                    dump_json(expected.outcome)});
  expect_lawful(found, request_input(bytes));
}

namespace {

// Three cases: each pays for a request of 2^24 prompt tokens.
const PropertySpec kTokenTotalLimit{3, {}};

// `pairs` documents padded to `max_model_len` tokens each.
Json padded_envelope(std::int64_t pairs, std::int64_t max_model_len) {
  Json documents = Json::array();
  for (std::int64_t i = 0; i < pairs; ++i) documents.push_back("d" + std::to_string(i));
  return Json{{"endpoint", "score"},
              {"model", {{"max_model_len", max_model_len}}},
              {"request", {{"queries", "q"}, {"documents", documents}, {"padding", "max_length"}}}};
}

// The token-total laws only: the others render and re-run the 2^24 ids.
laws::Violations token_total_laws(const Json& document) {
  auto envelope = envelope_from_json(document);
  if (!envelope) return {{"token-total", "the envelope was refused: " + envelope.error().message}};
  const std::optional<PoolingParams> caller_before;
  auto output = preprocess(envelope->model, envelope->request);
  const PreprocessOutput none;
  const Json nothing_printed;
  const laws::RequestRun run{*envelope, caller_before, output ? *output : none, nothing_printed};
  return output ? laws::token_total_bound(run) : laws::token_total_rejection(run, output.error());
}

}  // namespace

// The bound on a request's prompt tokens (spec 10.15) at its edge: 1, 2 or 16
// pairs padded to 2^24 tokens together are accepted, one token more per pair
// is refused, and so is one pair of 2^24 + 1 (padded pairs are all equally
// long, so only one pair can be one token past). Only the two token-total laws
// run (the others would render and re-run 2^24 ids per case; the fuzz targets
// skip such padding). Automatic mutants auto-preprocess-154-relational-1 and
// -187-int-literal-1 refused 2^24; -187-int-literal-2 accepted 2^24 + 1.
POOLCHECK_PROPERTY(RequestLaws, TokenTotalTakesUpToItsLimit, kTokenTotalLimit) {
  const std::int64_t pairs = *rc::gen::element<std::int64_t>(1, 2, 16);
  const std::int64_t meets = kMaxTotalTokens / pairs;
  for (const Json& document : {padded_envelope(pairs, meets), padded_envelope(pairs, meets + 1),
                               padded_envelope(1, kMaxTotalTokens + 1)})
    expect_lawful(token_total_laws(document), request_input(input_json(document)));
}

namespace {

const PropertySpec kIllFormedUtf8{100,
                                  {{"newline before the sequence", 0.05}, {"non-ASCII prefix", 0.2}, {"in a key", 0.1}}};

// A score request with `text`, written raw, as its query or as a key of its
// body; `lead` goes before its first key (white space, newlines among it,
// that moves the position).
std::string request_with_raw_text(const std::string& lead, const std::string& text, bool as_key) {
  const std::string body = as_key ? "\"" + text + R"(":1,"queries":"q")" : R"("queries":")" + text + "\"";
  return "{" + lead + R"("endpoint":"score","request":{)" + body + R"(,"documents":"d"}})";
}

// The laws hold on `bytes`, and the core refused them as invalid UTF-8.
void expect_refused_as_invalid_utf8(std::string_view bytes) {
  const laws::CheckResult result = laws::check_request_input(bytes);
  laws::Violations found = result.violations;
  const std::string message = result.accepted ? "" : result.outcome["error"]["message"].get<std::string>();
  if (message.rfind("Invalid JSON: Invalid UTF-8 byte: ", 0) != 0)
    found.push_back({"utf8-refusal", "an ill-formed UTF-8 sequence in a string was " +
                                         (result.accepted ? std::string("accepted") : "refused with '" + message + "'") +
                                         "; it is refused as 'Invalid UTF-8 byte'"});
  expect_lawful(found, request_input(std::string(bytes)));
}

// Wire bytes whose extra_kwargs hold the string "a" + `broken` + `after`:
// the MessagePack door refuses them at the sequence's first byte, by offset.
// With `after` empty the string ends in the sequence, and the next key's
// header (0xA1, a continuation byte's value) follows it in the bytes.
void expect_wire_refused_as_invalid_utf8(const std::string& broken, const std::string& after) {
  PoolingParams params;
  const std::string stand_in(broken.size(), 'x');  // the same length: the same string header
  params.extra_kwargs = std::make_shared<Json>(Json{{"k", "a" + stand_in + after}, {"l", 1}});
  std::string bytes = encode_wire_msgpack(params).value();
  const std::size_t at = bytes.rfind(stand_in);
  bytes.replace(at, broken.size(), broken);
  const laws::CheckResult result = laws::check_params_wire_input(bytes);
  laws::Violations found = result.violations;
  const std::string expected = "Invalid MessagePack: invalid UTF-8 in string at byte " + std::to_string(at);
  if (result.accepted || result.outcome["error"]["message"] != expected)
    found.push_back({"utf8-refusal", "wire bytes with an ill-formed UTF-8 sequence at byte " + std::to_string(at) +
                                         " gave " + dump_json(result.outcome) + "; expected '" + expected + "'"});
  expect_lawful(found, wire_input(bytes));
}

}  // namespace

// The JSON and MessagePack doors take only well-formed UTF-8 (spec 10.4). Each ill-formed
// sequence the generators know (broken_utf8_sequences: broken at each byte,
// each lead byte's range crossed at either end, each continuation byte just
// outside 0x80..0xBF) is put in a query or a key after a generated prefix, and after
// none: the request is refused as invalid UTF-8, at the sequence's first byte
// (law utf8-refusal judges the position). Every sequence, every case: a draw
// of one defect among many would meet a given sequence once in a few runs.
// Automatic mutants auto-json-input-111-int-literal-2, -112-int-literal-1 and
// -114/-115-int-literal-12/-17 took a continuation byte of 0x7F or 0xC0,
// -119-int-literal-5 refused one byte late, -117-int-literal-6 read on past it,
// -117-plus-minus-1 read past the end of the input to complete a sequence,
// and -223-true-false-1 read on after a key that failed (one case in three
// puts the sequence in a key). Each sequence goes through the MessagePack
// door too, in a string of extra_kwargs (auto-msgpack-168-int-literal-2 took
// a continuation byte of 0x7F), and three cut sequences end such a string
// (-185-plus-minus-1 completed one with the bytes after the string).
POOLCHECK_PROPERTY(RequestLaws, IllFormedUtf8RefusedWhereItStarts, kIllFormedUtf8) {
  const std::string lead = *rc::gen::element<std::string>("", " ", "\n", "\n \n\t");
  const std::string written = input_json(Json(*gen_unicode_string(6)));
  const std::string prefix = written.substr(1, written.size() - 2);  // escaped as JSON, without its quotes
  if (lead.find('\n') != std::string::npos) see("newline before the sequence");
  if (std::any_of(prefix.begin(), prefix.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
    see("non-ASCII prefix");
  for (const std::string& broken : broken_utf8_sequences()) expect_wire_refused_as_invalid_utf8(broken, "b");
  for (const std::string cut : {"\xc3", "\xe4\xb8", "\xf0\x9f\x98"}) expect_wire_refused_as_invalid_utf8(cut, "");
  const bool as_key = chance(30);
  if (as_key) see("in a key");
  for (const std::string& before : {std::string(), prefix}) {
    for (const std::string& broken : broken_utf8_sequences())
      expect_refused_as_invalid_utf8(request_with_raw_text(lead, before + broken + "b", as_key));
    // A sequence cut by the end of the input, in a buffer whose next bytes
    // would complete it: the door reads only the bytes it was given.
    for (const std::string cut : {"\xc3", "\xe4\xb8", "\xf0\x9f\x98"}) {
      const std::string text = request_with_raw_text(lead, before + cut, as_key);
      const std::string buffer = text.substr(0, text.rfind(cut) + cut.size()) + "\x80\x80\x80\"}}";
      expect_refused_as_invalid_utf8(std::string_view(buffer).substr(0, buffer.size() - 6));
    }
  }
}

}  // namespace poolcheck::props
