// Request validation (spec 1, 6, 10.1-10.5, 10.9): the common fields, cache_salt,
// chat_template_kwargs, score shapes and ScoreInputs, rerank fields, pairing,
// the 404, the model-dependent checks of preprocess, their order, and the
// offline LLM.score call. Expected messages are written out byte for byte.
#include "core/request.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/envelope.hpp"
#include "core/json_api.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "core/pairing.hpp"
#include "core/preprocess.hpp"

namespace poolcheck {
namespace {

using namespace std::string_literals;

constexpr const char* kNormalize = "Parameter `normalize` was removed; use `use_activation` instead.";
constexpr const char* kSaltEmpty = "Parameter 'cache_salt' must be a non-empty string if provided.";
constexpr const char* kSaltRules =
    R"(Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\', or NUL.)";
constexpr const char* kReserved =
    "chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: ";
constexpr const char* kLengths = "Input lengths must be either 1:1, 1:N or N:N";
constexpr const char* kNoText = "At least one text element must be given";
constexpr const char* kNoTextPair = "At least one text_pair element must be given";
constexpr const char* kTruncTooBig =
    "truncate_prompt_tokens value is greater than max_model_len. Please request a smaller "
    "truncation size.";
constexpr const char* kDefaultModel = "cross-encoder/ms-marco-MiniLM-L-6-v2";

// Through the core's own parser: nlohmann's would turn integers beyond 64 bits into floats.
Json js(std::string_view text) { return parse_bounded_json(text).value(); }

// The whole pipeline through the library boundary: envelope in, JSON or error out.
Result<Json> run(std::string_view endpoint, const Json& request, const Json& model = Json()) {
  Json envelope = Json::object();
  envelope["endpoint"] = endpoint;
  if (!model.is_null()) envelope["model"] = model;
  envelope["request"] = request;
  return preprocess_json(dump_json(envelope));
}

Result<Json> score(std::string_view request, std::string_view model = "null") {
  return run("score", js(request), js(model));
}
Result<Json> rerank(std::string_view request, std::string_view model = "null") {
  return run("rerank", js(request), js(model));
}
Result<Json> offline(std::string_view call, std::string_view model = "null") {
  return run("llm.score", js(call), js(model));
}

// Adds (or replaces) `key` in a JSON object given as text.
Json with(std::string_view base, std::initializer_list<std::pair<const char*, Json>> fields) {
  Json body = js(base);
  for (const auto& [key, value] : fields) body[key] = value;
  return body;
}

std::string describe(const Result<Json>& r) {
  return r.ok() ? "accepted: " + r.value().dump().substr(0, 400)
                : "rejected: " + r.error().message;
}

void expect_error(const Result<Json>& r, std::string_view message, std::optional<std::string> param,
                  std::string_view type = "BadRequestError", int code = 400) {
  ASSERT_FALSE(r.ok()) << describe(r);
  EXPECT_EQ(r.error().message, message);
  EXPECT_EQ(r.error().param, param);
  EXPECT_EQ(r.error().type, type);
  EXPECT_EQ(r.error().code, code);
}

// For errors whose wording the spec leaves to the core: a 400 with this param.
void expect_bad_request(const Result<Json>& r, std::optional<std::string> param) {
  ASSERT_FALSE(r.ok()) << describe(r);
  EXPECT_EQ(r.error().param, param) << r.error().message;
  EXPECT_EQ(r.error().type, "BadRequestError");
  EXPECT_EQ(r.error().code, 400);
  EXPECT_FALSE(r.error().message.empty());
}

void expect_ok(const Result<Json>& r) { EXPECT_TRUE(r.ok()) << describe(r); }

constexpr std::string_view kScoreBase = R"({"queries":"q","documents":"d"})";
constexpr std::string_view kRerankBase = R"({"query":"q","documents":["d"]})";

// ---- common field types (spec 1, 6) -------------------------------------------

struct TypeCase {
  std::string field;
  std::string value;  // JSON
  std::string message;
};

constexpr std::string_view kIntParsing = "Input should be a valid integer, unable to parse string as an integer";
constexpr std::string_view kIntFromFloat = "Input should be a valid integer, got a number with a fractional part";
constexpr std::string_view kBoolParsing = "Input should be a valid boolean, unable to interpret input";

const std::vector<TypeCase>& common_type_cases() {
  static const std::vector<TypeCase> cases{
      {"model", "5", "model: Input should be a valid string"},
      {"model", "[]", "model: Input should be a valid string"},
      {"model", "true", "model: Input should be a valid string"},
      {"user", "5", "user: Input should be a valid string"},
      {"user", "{}", "user: Input should be a valid string"},
      {"request_id", "5", "request_id: Input should be a valid string"},
      {"request_id", "false", "request_id: Input should be a valid string"},
      // int and bool fields: pydantic 2's lax-mode messages (spec 11.1), measured with pydantic 2.13.
      {"truncate_prompt_tokens", "\"5.5\"", "truncate_prompt_tokens: " + std::string(kIntParsing)},
      {"truncate_prompt_tokens", "1.5", "truncate_prompt_tokens: " + std::string(kIntFromFloat)},
      {"truncate_prompt_tokens", "[]", "truncate_prompt_tokens: Input should be a valid integer"},
      {"truncate_prompt_tokens", "{}", "truncate_prompt_tokens: Input should be a valid integer"},
      {"priority", "\"1e2\"", "priority: " + std::string(kIntParsing)},
      {"priority", "\"\"", "priority: " + std::string(kIntParsing)},
      {"priority", "-0.5", "priority: " + std::string(kIntFromFloat)},
      {"priority", "1e300", "priority: Unable to parse input string as an integer, exceeded maximum size"},
      {"priority", "[1]", "priority: Input should be a valid integer"},
      {"mm_processor_kwargs", "[]", "mm_processor_kwargs: Input should be a valid object"},
      {"mm_processor_kwargs", "\"x\"", "mm_processor_kwargs: Input should be a valid object"},
      {"mm_processor_kwargs", "1", "mm_processor_kwargs: Input should be a valid object"},
      {"use_activation", "\"yes \"", "use_activation: " + std::string(kBoolParsing)},
      {"use_activation", "2", "use_activation: " + std::string(kBoolParsing)},
      {"use_activation", "0.5", "use_activation: Input should be a valid boolean"},
      {"use_activation", "[]", "use_activation: Input should be a valid boolean"},
      {"max_tokens_per_query", "\"3.5\"", "max_tokens_per_query: " + std::string(kIntParsing)},
      {"max_tokens_per_query", "3.5", "max_tokens_per_query: " + std::string(kIntFromFloat)},
      {"max_tokens_per_query", "{}", "max_tokens_per_query: Input should be a valid integer"},
      {"max_tokens_per_doc", "\"0x10\"", "max_tokens_per_doc: " + std::string(kIntParsing)},
      {"max_tokens_per_doc", "\"1__0\"", "max_tokens_per_doc: " + std::string(kIntParsing)},
      {"max_tokens_per_doc", "[]", "max_tokens_per_doc: Input should be a valid integer"},
      {"instruction", "5", "instruction: Input should be a valid string"},
      {"instruction", "[\"x\"]", "instruction: Input should be a valid string"},
      {"chat_template_kwargs", "[]", "chat_template_kwargs: Input should be a valid object"},
      {"chat_template_kwargs", "\"x\"", "chat_template_kwargs: Input should be a valid object"},
      // Literal fields: pydantic's literal wording, for wrong strings and wrong types alike.
      {"truncation_side", "\"up\"", "truncation_side: Input should be 'left' or 'right'"},
      {"truncation_side", "5", "truncation_side: Input should be 'left' or 'right'"},
      {"padding", "\"pad\"", "padding: Input should be 'max_length' or 'do_not_pad'"},
      {"padding", "true", "padding: Input should be 'max_length' or 'do_not_pad'"},
  };
  return cases;
}

TEST(RequestCommonFields, EachTypeErrorHasTheGenericMessageAndParam) {
  for (const auto& c : common_type_cases()) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " " + c.field + "=" + c.value);
      Json body = with(endpoint == "score" ? kScoreBase : kRerankBase, {{c.field.c_str(), js(c.value)}});
      expect_error(run(endpoint, body), c.message, c.field);
    }
  }
}

TEST(RequestCommonFields, ValidValuesAreAccepted) {
  Json body = with(kScoreBase, {{"model", kDefaultModel},
                                {"user", "u"},
                                {"request_id", "r"},
                                {"truncate_prompt_tokens", 5},
                                {"truncation_side", "left"},
                                {"padding", "do_not_pad"},
                                {"priority", js("-9223372036854775808")},
                                {"mm_processor_kwargs", js(R"({"a":{"b":[1]}})")},
                                {"cache_salt", "salt"},
                                {"use_activation", false},
                                {"max_tokens_per_query", 3},
                                {"max_tokens_per_doc", 0},
                                {"instruction", "be brief"},
                                {"chat_template_kwargs", js(R"({"enable_thinking":false})")},
                                {"some_unknown_key", js(R"({"ignored":[1,2]})")}});
  auto r = run("score", body);
  ASSERT_TRUE(r.ok()) << describe(r);
  const Json& out = r.value()["outputs"][0];
  EXPECT_EQ(out["request_id"], "score-r-0");
  EXPECT_EQ(out["prompt"]["cache_salt"], "salt");
  EXPECT_EQ(out["prompt"]["mm_processor_kwargs"], js(R"({"a":{"b":[1]}})"));
  EXPECT_FALSE(out["prompt"].contains("chat_template_kwargs"));
  EXPECT_EQ(out["pooling_params"]["use_activation"], false);
  EXPECT_EQ(out["pooling_params"]["task"], "classify");
}

TEST(RequestCommonFields, PriorityIsAPythonInt) {
  expect_ok(score(R"({"queries":"q","documents":"d","priority":9223372036854775807})"));
  expect_ok(score(R"({"queries":"q","documents":"d","priority":-9223372036854775808})"));
  expect_ok(score(R"({"queries":"q","documents":"d","priority":-5})"));
  expect_ok(score(R"({"queries":"q","documents":"d","priority":9223372036854775808})"));
  expect_ok(score(R"({"queries":"q","documents":"d","priority":"-99999999999999999999999999"})"));
}

// Spellings pydantic coerces to the same value give the same outcome, byte for
// byte, as the plain value (spec 11.1, 11.6).
TEST(RequestCommonFields, CoercedSpellingsBehaveAsTheirValue) {
  struct Spellings {
    const char* field;
    const char* plain;
    std::vector<const char*> same;
  };
  const std::vector<Spellings> cases{
      {"truncate_prompt_tokens", "3", {"\"3\"", "\" 3 \"", "\"+3\"", "\"3.00\"", "3.0", "\"003\"", "\"\\u00a03\\u3000\""}},
      {"truncate_prompt_tokens", "1", {"true", "1.0", "\"1\""}},
      {"truncate_prompt_tokens", "-1", {"-1.0", "\"-1\"", "\" -1.0 \""}},
      {"max_tokens_per_doc", "10", {"1e1", "\"1_0\"", "\"0_10\"", "10.0", "\"10.000\""}},
      {"max_tokens_per_query", "0", {"false", "0.0", "-0.0", "\"-0\"", "\"0.0\"", "\"000\""}},
      {"use_activation", "true", {"1", "1.0", "\"yes\"", "\"ON\"", "\"t\"", "\"1\"", "\"True\""}},
      {"use_activation", "false", {"0", "-0.0", "\"no\"", "\"Off\"", "\"f\"", "\"0\"", "\"FALSE\""}},
  };
  for (const auto& c : cases) {
    auto plain = run("score", with(kScoreBase, {{"queries", "a b c d e f"}, {c.field, js(c.plain)}}));
    ASSERT_TRUE(plain.ok()) << c.field << "=" << c.plain << ": " << describe(plain);
    for (const char* spelling : c.same) {
      SCOPED_TRACE(std::string(c.field) + "=" + spelling);
      auto r = run("score", with(kScoreBase, {{"queries", "a b c d e f"}, {c.field, js(spelling)}}));
      ASSERT_TRUE(r.ok()) << describe(r);
      EXPECT_EQ(dump_json(*r), dump_json(*plain));
    }
  }
}

TEST(RequestRerank, TopNIsCoercedThenBounded) {
  expect_ok(run("rerank", with(kRerankBase, {{"top_n", js("\" 0007 \"")}})));
  expect_ok(run("rerank", with(kRerankBase, {{"top_n", js("18446744073709551616")}})));
  expect_ok(run("rerank", with(kRerankBase, {{"top_n", js("true")}})));
  expect_error(run("rerank", with(kRerankBase, {{"top_n", js("\"7.5\"")}})), "top_n: " + std::string(kIntParsing),
               "top_n");
  // The bound is checked on the coerced value.
  for (const char* below : {"-1", "\"-1\"", "-1.0", "\" -1 \"", "-99999999999999999999999"})
    expect_error(run("rerank", with(kRerankBase, {{"top_n", js(below)}})),
                 "top_n: Input should be greater than or equal to 0", "top_n");
}

TEST(RequestCommonFields, BodyMustBeAnObject) {
  for (const char* body : {"[]", "\"x\"", "5", "null"}) {
    SCOPED_TRACE(body);
    auto r = run("score", js(body));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, 400);
    EXPECT_EQ(r.error().type, "BadRequestError");
  }
}

// ---- null: absent or a type error (spec 10.3) ---------------------------------

TEST(RequestNulls, NullMeansAbsentForTheseFields) {
  for (const char* field : {"model", "user", "truncate_prompt_tokens", "truncation_side", "padding",
                            "mm_processor_kwargs", "cache_salt", "use_activation", "instruction",
                            "chat_template_kwargs"}) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " " + field);
      auto r = run(endpoint, with(endpoint == "score" ? kScoreBase : kRerankBase, {{field, nullptr}}));
      ASSERT_TRUE(r.ok()) << describe(r);
      const Json& out = r.value()["outputs"][0];
      // Absent: no extras in the prompt, no activation set, default request id.
      EXPECT_FALSE(out["prompt"].contains("cache_salt"));
      EXPECT_FALSE(out["prompt"].contains("mm_processor_kwargs"));
      EXPECT_TRUE(out["pooling_params"]["use_activation"].is_null());
      EXPECT_EQ(out["request_id"], std::string(endpoint) + "-0-0");
    }
  }
}

TEST(RequestNulls, NullIsATypeErrorForTheseFields) {
  const std::vector<std::pair<const char*, const char*>> cases{
      {"request_id", "request_id: Input should be a valid string"},
      {"priority", "priority: Input should be a valid integer"},
      {"max_tokens_per_query", "max_tokens_per_query: Input should be a valid integer"},
      {"max_tokens_per_doc", "max_tokens_per_doc: Input should be a valid integer"},
  };
  for (const auto& [field, message] : cases) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " " + field);
      auto body = with(endpoint == "score" ? kScoreBase : kRerankBase, {{field, nullptr}});
      expect_error(run(endpoint, body), message, field);
    }
  }
  expect_error(rerank(R"({"query":"q","documents":["d"],"top_n":null})"),
               "top_n: Input should be a valid integer", "top_n");
}

TEST(RequestNulls, NormalizeIsRejectedWhateverItsValueNullIncluded) {
  for (const char* value : {"true", "false", "null", "0", "\"x\"", "{}", "[]"}) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " normalize=" + value);
      auto body = with(endpoint == "score" ? kScoreBase : kRerankBase, {{"normalize", js(value)}});
      expect_error(run(endpoint, body), kNormalize, "normalize");
    }
  }
}

// ---- request_id (spec 7.6, 10.13) ---------------------------------------------

TEST(RequestId, UsedVerbatimInEngineIds) {
  auto r = score(R"({"queries":"q","documents":["a","b"],"request_id":"abc"})");
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.value()["outputs"][0]["request_id"], "score-abc-0");
  EXPECT_EQ(r.value()["outputs"][1]["request_id"], "score-abc-1");
  auto empty = rerank(R"({"query":"q","documents":["a"],"request_id":""})");
  ASSERT_TRUE(empty.ok()) << describe(empty);
  EXPECT_EQ(empty.value()["outputs"][0]["request_id"], "rerank--0");
}

// ---- cache_salt (spec 6, 10.12) -----------------------------------------------

TEST(RequestCacheSalt, NullIsFine) {
  auto r = score(R"({"queries":"q","documents":"d","cache_salt":null})");
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_FALSE(r.value()["outputs"][0]["prompt"].contains("cache_salt"));
}

TEST(RequestCacheSalt, NonStringOrEmptyIsRejected) {
  for (const char* value : {"\"\"", "5", "0", "true", "false", "[]", "[\"a\"]", "{}", "1.5"}) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " cache_salt=" + value);
      auto body = with(endpoint == "score" ? kScoreBase : kRerankBase, {{"cache_salt", js(value)}});
      expect_error(run(endpoint, body), kSaltEmpty, "cache_salt");
    }
  }
}

std::string repeat(std::string_view unit, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += unit;
  return out;
}

TEST(RequestCacheSalt, At128CodePointsAcceptedAt129Rejected) {
  // ASCII, 2-, 3- and 4-byte UTF-8: the limit counts code points, not bytes.
  for (std::string_view unit : {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}) {
    SCOPED_TRACE(std::string(unit));
    const std::string ok_salt = repeat(unit, 128);
    auto ok = run("score", with(kScoreBase, {{"cache_salt", ok_salt}}));
    ASSERT_TRUE(ok.ok()) << describe(ok);
    EXPECT_EQ(ok.value()["outputs"][0]["prompt"]["cache_salt"], ok_salt);
    expect_error(run("score", with(kScoreBase, {{"cache_salt", repeat(unit, 129)}})), kSaltRules,
                 "cache_salt");
    expect_error(run("rerank", with(kRerankBase, {{"cache_salt", repeat(unit, 129)}})), kSaltRules,
                 "cache_salt");
  }
  // Mixed widths: 127 ASCII + one emoji = 128 code points (131 bytes).
  expect_ok(run("score", with(kScoreBase, {{"cache_salt", repeat("a", 127) + "\xf0\x9f\x98\x80"}})));
  expect_error(run("score", with(kScoreBase, {{"cache_salt", repeat("a", 128) + "\xc3\xa9"}})),
               kSaltRules, "cache_salt");
  expect_ok(run("score", with(kScoreBase, {{"cache_salt", "x"}})));
}

TEST(RequestCacheSalt, EachForbiddenCharacterIsRejected) {
  // Written as JSON text, so the NUL is the escape \u0000 and '/' may come as \/.
  for (const char* salt : {R"("a@b")", R"("a/b")", R"("a\\b")", R"("a\u0000b")", R"("@")", R"("/")",
                           R"("\\")", R"("\u0000")", R"("abc@")", R"("\u0040")", R"("\/x")",
                           R"("\u005c")"}) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " cache_salt=" + salt);
      std::string body = std::string(endpoint == "score" ? kScoreBase : kRerankBase);
      body.insert(1, R"("cache_salt":)" + std::string(salt) + ",");
      expect_error(run(endpoint, js(body)), kSaltRules, "cache_salt");
    }
  }
}

TEST(RequestCacheSalt, TheRulesMessageShowsTwoBackslashes) {
  auto r = score(R"({"queries":"q","documents":"d","cache_salt":"a\\b"})");
  ASSERT_FALSE(r.ok());
  const std::string expected =
      "Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '"
      "\\\\"
      "', or NUL.";
  EXPECT_EQ(r.error().message, expected);
  EXPECT_NE(r.error().message.find("'\\\\'"), std::string::npos);
}

TEST(RequestCacheSalt, OtherPunctuationAndUnicodeAreFine) {
  auto r = score(R"({"queries":"q","documents":"d","cache_salt":"a-b_c.d:e#f\u00e9 \u2603"})");
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.value()["outputs"][0]["prompt"]["cache_salt"], "a-b_c.d:e#f\xc3\xa9 \xe2\x98\x83");
}

// ---- chat_template_kwargs and instruction (spec 6, 10.8) -----------------------

TEST(RequestChatTemplateKwargs, ReservedKeysPrintedInFixedOrder) {
  const std::vector<std::pair<const char*, const char*>> cases{
      {R"({"chat_template":"x"})", "{'chat_template'}"},
      {R"({"tools":[]})", "{'tools'}"},
      {R"({"tokenize":true})", "{'tokenize'}"},
      {R"({"tools":[],"chat_template":"x"})", "{'chat_template', 'tools'}"},
      {R"({"tokenize":false,"tools":1})", "{'tools', 'tokenize'}"},
      {R"({"tokenize":false,"chat_template":"x"})", "{'chat_template', 'tokenize'}"},
      {R"({"tokenize":1,"tools":2,"chat_template":3,"other":4})", "{'chat_template', 'tools', 'tokenize'}"},
      {R"({"a":1,"chat_template":3,"b":2,"tokenize":1,"tools":2})", "{'chat_template', 'tools', 'tokenize'}"},
  };
  for (const auto& [kwargs, set] : cases) {
    for (std::string_view endpoint : {"score", "rerank"}) {
      SCOPED_TRACE(std::string(endpoint) + " " + kwargs);
      auto body = with(endpoint == "score" ? kScoreBase : kRerankBase, {{"chat_template_kwargs", js(kwargs)}});
      expect_error(run(endpoint, body), std::string(kReserved) + set, "chat_template_kwargs");
    }
  }
}

TEST(RequestChatTemplateKwargs, OtherKeysAreFineAndNeverReachThePrompt) {
  auto r = score(R"({"queries":"q","documents":["a","b"],"chat_template_kwargs":{"enable_thinking":true,"Tools":1}})");
  ASSERT_TRUE(r.ok()) << describe(r);
  for (const auto& out : r.value()["outputs"]) {
    EXPECT_EQ(out["prompt"].size(), 1u) << out["prompt"].dump();
    EXPECT_TRUE(out["prompt"].contains("prompt_token_ids"));
  }
}

ScoringRequest parsed(std::string_view body, Endpoint endpoint = Endpoint::Score) {
  auto r = parse_online_request(js(body), endpoint);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : ScoringRequest{};
}

TEST(RequestInstruction, FoldedIntoChatTemplateKwargs) {
  auto r = parsed(R"({"queries":"q","documents":"d","instruction":"rank well"})");
  ASSERT_TRUE(r.chat_template_kwargs.has_value());
  EXPECT_EQ(*r.chat_template_kwargs, js(R"({"instruction":"rank well"})"));

  auto kept = parsed(R"({"queries":"q","documents":"d","instruction":"rank well","chat_template_kwargs":{"a":1}})");
  ASSERT_TRUE(kept.chat_template_kwargs.has_value());
  EXPECT_EQ(kept.chat_template_kwargs->dump(), R"({"a":1,"instruction":"rank well"})");

  auto rr = parsed(R"({"query":"q","documents":["d"],"instruction":""})", Endpoint::Rerank);
  ASSERT_TRUE(rr.chat_template_kwargs.has_value());
  EXPECT_EQ(*rr.chat_template_kwargs, js(R"({"instruction":""})"));
}

TEST(RequestInstruction, NotFoldedWhenTheKeyIsAlreadyThere) {
  auto r = parsed(R"({"queries":"q","documents":"d","instruction":"mine","chat_template_kwargs":{"instruction":"theirs"}})");
  ASSERT_TRUE(r.chat_template_kwargs.has_value());
  EXPECT_EQ(*r.chat_template_kwargs, js(R"({"instruction":"theirs"})"));
  // Even when the existing value is null: the key is there.
  auto n = parsed(R"({"queries":"q","documents":"d","instruction":"mine","chat_template_kwargs":{"instruction":null}})");
  ASSERT_TRUE(n.chat_template_kwargs.has_value());
  EXPECT_EQ(*n.chat_template_kwargs, js(R"({"instruction":null})"));
}

TEST(RequestInstruction, AbsentOrNullLeavesKwargsAlone) {
  EXPECT_FALSE(parsed(R"({"queries":"q","documents":"d"})").chat_template_kwargs.has_value());
  EXPECT_FALSE(parsed(R"({"queries":"q","documents":"d","instruction":null})").chat_template_kwargs.has_value());
  auto r = parsed(R"({"queries":"q","documents":"d","instruction":null,"chat_template_kwargs":{"x":1}})");
  ASSERT_TRUE(r.chat_template_kwargs.has_value());
  EXPECT_EQ(*r.chat_template_kwargs, js(R"({"x":1})"));
}

TEST(RequestInstruction, DoesNotErrorAndDoesNotChangeTheOutput) {
  auto plain = score(R"({"queries":"q","documents":["a","b"]})");
  auto with_instruction = score(R"({"queries":"q","documents":["a","b"],"instruction":"be fair"})");
  ASSERT_TRUE(plain.ok()) << describe(plain);
  ASSERT_TRUE(with_instruction.ok()) << describe(with_instruction);
  EXPECT_EQ(plain.value(), with_instruction.value());
  expect_ok(rerank(R"({"query":"q","documents":["a"],"instruction":"x","chat_template_kwargs":{"instruction":"y"}})"));
}

// ---- score shapes (spec 6, 10.5) ---------------------------------------------

std::vector<std::string> texts(const std::vector<ScoreInput>& side) {
  std::vector<std::string> out;
  for (const auto& input : side) out.push_back(input.text);
  return out;
}

TEST(RequestScoreShapes, EachOfTheFourShapes) {
  const std::vector<std::pair<const char*, const char*>> shapes{
      {"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"}, {"text_1", "text_2"}};
  for (const auto& [first, second] : shapes) {
    SCOPED_TRACE(std::string(first) + "/" + second);
    Json body = Json::object();
    body[first] = "q";
    body[second] = js(R"(["d1","d2"])");
    auto r = parse_online_request(body, Endpoint::Score);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(texts(r->queries), std::vector<std::string>{"q"});
    EXPECT_EQ(texts(r->documents), (std::vector<std::string>{"d1", "d2"}));
    auto full = run("score", body);
    ASSERT_TRUE(full.ok()) << describe(full);
    EXPECT_EQ(full.value()["outputs"].size(), 2u);
  }
}

TEST(RequestScoreShapes, NoCompleteShapeIsAnError) {
  for (const char* body : {R"({})", R"({"queries":"q"})", R"({"documents":"d"})", R"({"items":["d"]})",
                           R"({"queries":"q","data_2":"d"})", R"({"data_1":"q","text_2":"d"})",
                           R"({"text_1":"q","documents":"d"})", R"({"query":"q","documents":"d"})",
                           R"({"queries":"q","documents":null})"}) {
    SCOPED_TRACE(body);
    expect_bad_request(score(body), std::nullopt);
  }
}

// vLLM's score request is a pydantic union: the first class in union order
// whose fields validate wins; the other shapes' keys are unknown keys (spec 11.5).
TEST(RequestScoreShapes, SeveralCompleteShapesTakeTheFirstThatValidates) {
  struct Case {
    const char* body;
    std::vector<std::string> queries, documents;
  };
  const std::vector<Case> cases{
      {R"({"queries":"q","documents":"d","items":"i"})", {"q"}, {"d"}},
      {R"({"data_1":"a","data_2":"b","text_1":"x","text_2":"y"})", {"a"}, {"b"}},
      {R"({"text_1":"x","text_2":"y","queries":"q","items":"i"})", {"q"}, {"i"}},
      {R"({"queries":"q","documents":5,"text_1":"x","text_2":"y"})", {"x"}, {"y"}},
      {R"({"queries":"q","documents":[5],"items":"i"})", {"q"}, {"i"}},
      {R"({"queries":5,"documents":"d","data_1":"a","data_2":"b"})", {"a"}, {"b"}},
      // A side of an incomplete shape is an unknown key once a shape validates.
      {R"({"queries":"q","documents":"d","data_1":5})", {"q"}, {"d"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body);
    auto r = parsed(c.body);
    EXPECT_EQ(texts(r.queries), c.queries);
    EXPECT_EQ(texts(r.documents), c.documents);
  }
}

TEST(RequestScoreShapes, WhenNoCompleteShapeValidatesTheFirstOnesErrorWins) {
  expect_error(score(R"({"queries":"q","documents":5,"text_1":"x","text_2":7})"),
               "documents: Input should be a valid string", "documents");
  expect_error(score(R"({"queries":5,"items":"i","text_1":7,"text_2":"y"})"), "queries: Input should be a valid string",
               "queries");
  expect_error(score(R"({"data_1":"a","data_2":[{}],"text_1":"x","text_2":7})"),
               "data_2[0].content: Field required", "data_2[0].content");
}

TEST(RequestScoreShapes, NoCompleteShapeIsTheShapeError) {
  const std::string message =
      "Exactly one of the input shapes {queries, documents}, {queries, items}, {data_1, data_2} or "
      "{text_1, text_2} must be given; got none.";
  for (const char* body : {R"({"queries":"q"})", R"({"documents":"d","text_1":"x"})",
                           R"({"queries":"q","documents":null})", R"({})"}) {
    SCOPED_TRACE(body);
    expect_error(score(body), message, std::nullopt);
  }
}

TEST(RequestScoreShapes, ListsAndSinglesAreWrapped) {
  auto r = parsed(R"({"queries":["a","b"],"documents":["c","d"]})");
  EXPECT_EQ(texts(r.queries), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(texts(r.documents), (std::vector<std::string>{"c", "d"}));
  auto s = parsed(R"({"text_1":"a","text_2":"c"})");
  EXPECT_EQ(texts(s.queries), std::vector<std::string>{"a"});
  EXPECT_EQ(texts(s.documents), std::vector<std::string>{"c"});
}

// ---- ScoreInput validation (spec 6, 10.5) ----------------------------------------

TEST(RequestScoreInput, NonStringNonObjectIsATypeError) {
  expect_error(score(R"({"queries":5,"documents":"d"})"), "queries: Input should be a valid string", "queries");
  expect_error(score(R"({"queries":"q","documents":["a",5]})"), "documents[1]: Input should be a valid string",
               "documents[1]");
  expect_error(score(R"({"queries":"q","documents":[null]})"), "documents[0]: Input should be a valid string",
               "documents[0]");
  expect_error(score(R"({"queries":"q","documents":[["nested"]]})"),
               "documents[0]: Input should be a valid string", "documents[0]");
}

TEST(RequestScoreInput, ContentMustBeAListOfValidParts) {
  expect_error(score(R"({"queries":{"content":"x"},"documents":"d"})"),
               "queries.content: Input should be a valid list", "queries.content");
  expect_error(score(R"({"queries":{"content":{}},"documents":"d"})"),
               "queries.content: Input should be a valid list", "queries.content");
  expect_bad_request(score(R"({"queries":{},"documents":"d"})"), "queries.content");
  expect_bad_request(score(R"({"queries":{"text":"x"},"documents":"d"})"), "queries.content");
  expect_error(score(R"({"queries":"q","documents":["a",{"content":[5]}]})"),
               "documents[1].content[0]: Input should be a valid object", "documents[1].content[0]");
  expect_bad_request(score(R"({"queries":"q","documents":{"content":[{"type":"video"}]}})"),
                     "documents.content[0].type");
  expect_bad_request(score(R"({"queries":"q","documents":{"content":[{"text":"x"}]}})"),
                     "documents.content[0].type");
  expect_bad_request(score(R"({"queries":"q","documents":{"content":[{"type":"text"}]}})"),
                     "documents.content[0].text");
  expect_error(score(R"({"queries":"q","documents":{"content":[{"type":"text","text":5}]}})"),
               "documents.content[0].text: Input should be a valid string", "documents.content[0].text");
  expect_bad_request(score(R"({"queries":"q","documents":{"content":[{"type":"image_url"}]}})"),
                     "documents.content[0].image_url");
  expect_error(score(R"({"queries":"q","documents":{"content":[{"type":"image_url","image_url":"u"}]}})"),
               "documents.content[0].image_url: Input should be a valid object",
               "documents.content[0].image_url");
  expect_error(
      score(R"({"queries":"q","documents":{"content":[{"type":"image_url","image_url":{"url":5}}]}})"),
      "documents.content[0].image_url.url: Input should be a valid string",
      "documents.content[0].image_url.url");
}

TEST(RequestScoreInput, TypeCheckComesBeforeTheMultiModalParamCheck) {
  // The first document is a valid object (MultiModalParam on this model), the
  // second an invalid one: the type error wins.
  expect_error(score(R"({"queries":"q","documents":[{"content":[{"type":"text","text":"x"}]},{"content":5}]})"),
               "documents[1].content: Input should be a valid list", "documents[1].content");
  // A valid object query and an invalid document: the type error still wins.
  expect_error(score(R"({"queries":{"content":[]},"documents":[{"content":[7]}]})"),
               "documents[0].content[0]: Input should be a valid object", "documents[0].content[0]");
  expect_error(rerank(R"({"query":{"content":[]},"documents":[{"content":"x"}]})"),
               "documents[0].content: Input should be a valid list", "documents[0].content");
}

TEST(RequestScoreInput, ValidObjectOnATextModelIsMultiModalParam) {
  expect_error(score(R"({"queries":{"content":[{"type":"text","text":"x"}]},"documents":"d"})"),
               "MultiModalParam is not supported for BertForSequenceClassification", std::nullopt);
  expect_error(rerank(R"({"query":"q","documents":[{"content":[]}]})"),
               "MultiModalParam is not supported for BertForSequenceClassification", std::nullopt);
  expect_error(score(R"({"queries":"q","documents":{"content":[{"type":"image_url","image_url":{"url":"u"}}]}})",
                     R"({"architecture":"XLMRobertaForSequenceClassification"})"),
               "MultiModalParam is not supported for XLMRobertaForSequenceClassification", std::nullopt);
}

TEST(RequestScoreInput, ValidObjectOnAMultimodalModelIsAccepted) {
  auto r = score(R"({"queries":"q","documents":{"content":[{"type":"text","text":"photo:"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]}})",
                 R"({"is_multimodal":true,"architecture":"JinaVLForRanking"})");
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.value()["outputs"][0]["prompt"]["multi_modal_data"], js(R"({"image":["https://x/y.png"]})"));
  auto parts = parsed(R"({"queries":{"content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"u"}}]},"documents":"d"})");
  ASSERT_EQ(parts.queries.size(), 1u);
  ASSERT_TRUE(parts.queries[0].is_object);
  ASSERT_EQ(parts.queries[0].parts.size(), 2u);
  EXPECT_EQ(parts.queries[0].parts[0], (ContentPart{ContentPart::Kind::Text, "a"}));
  EXPECT_EQ(parts.queries[0].parts[1], (ContentPart{ContentPart::Kind::ImageUrl, "u"}));
}

// ---- rerank fields (spec 6) -----------------------------------------------------

TEST(RequestRerank, QueryAndDocuments) {
  auto r = parsed(R"({"query":"q","documents":"one"})", Endpoint::Rerank);
  EXPECT_EQ(texts(r.queries), std::vector<std::string>{"q"});
  EXPECT_EQ(texts(r.documents), std::vector<std::string>{"one"});
  auto out = rerank(R"({"query":"q","documents":["a","b","c"]})");
  ASSERT_TRUE(out.ok()) << describe(out);
  ASSERT_EQ(out.value()["outputs"].size(), 3u);
  EXPECT_EQ(out.value()["outputs"][2]["request_id"], "rerank-0-2");
}

TEST(RequestRerank, MissingOrMistypedQueryAndDocuments) {
  expect_bad_request(rerank(R"({"documents":["d"]})"), "query");
  expect_bad_request(rerank(R"({"query":"q"})"), "documents");
  auto q = rerank(R"({"query":5,"documents":["d"]})");
  expect_bad_request(q, "query");
  if (!q.ok()) {
    EXPECT_EQ(q.error().message.rfind("query: Input should be a valid ", 0), 0u) << q.error().message;
  }
  // query is one ScoreInput, not a list.
  expect_bad_request(rerank(R"({"query":["q"],"documents":["d"]})"), "query");
  expect_error(rerank(R"({"query":"q","documents":["d",3]})"), "documents[1]: Input should be a valid string",
               "documents[1]");
}

TEST(RequestRerank, TopN) {
  expect_error(rerank(R"({"query":"q","documents":["d"],"top_n":-1})"),
               "top_n: Input should be greater than or equal to 0", "top_n");
  expect_error(rerank(R"({"query":"q","documents":["d"],"top_n":-9223372036854775808})"),
               "top_n: Input should be greater than or equal to 0", "top_n");
  expect_error(rerank(R"({"query":"q","documents":["d"],"top_n":null})"), "top_n: Input should be a valid integer",
               "top_n");
  for (const char* value : {"[]", "{}"}) {
    SCOPED_TRACE(value);
    expect_error(run("rerank", with(kRerankBase, {{"top_n", js(value)}})), "top_n: Input should be a valid integer",
                 "top_n");
  }
  for (const char* value : {"\"1\"", "1.0", "1e1", "true", "9223372036854775808"}) expect_ok(run("rerank", with(kRerankBase, {{"top_n", js(value)}})));
  expect_ok(rerank(R"({"query":"q","documents":["d"],"top_n":0})"));
  expect_ok(rerank(R"({"query":"q","documents":["d"],"top_n":100})"));
  expect_ok(rerank(R"({"query":"q","documents":["d"]})"));
  // top_n is validated, then unused: the output is the same.
  EXPECT_EQ(rerank(R"({"query":"q","documents":["a","b"],"top_n":1})").value(),
            rerank(R"({"query":"q","documents":["a","b"]})").value());
}

// ---- pairing (spec 6) ---------------------------------------------------------

std::vector<ScoreInput> inputs(int n, bool object = false) {
  std::vector<ScoreInput> out;
  for (int i = 0; i < n; ++i) out.push_back(ScoreInput{object, object ? "" : "t" + std::to_string(i), {}});
  return out;
}

void expect_pair_error(const Result<std::vector<PairIndex>>& r, std::string_view message) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, message);
  EXPECT_EQ(r.error().param, std::nullopt);
  EXPECT_EQ(r.error().code, 400);
  EXPECT_EQ(r.error().type, "BadRequestError");
}

TEST(Pairing, OneToOneOneToNAndNToN) {
  ModelConfig model;
  auto one = make_pairs(inputs(1), inputs(1), model);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one.value(), (std::vector<PairIndex>{{0, 0}}));
  auto fan = make_pairs(inputs(1), inputs(3), model);
  ASSERT_TRUE(fan.ok());
  EXPECT_EQ(fan.value(), (std::vector<PairIndex>{{0, 0}, {0, 1}, {0, 2}}));
  auto zip = make_pairs(inputs(3), inputs(3), model);
  ASSERT_TRUE(zip.ok());
  EXPECT_EQ(zip.value(), (std::vector<PairIndex>{{0, 0}, {1, 1}, {2, 2}}));
}

TEST(Pairing, MessagesAndTheirOrder) {
  ModelConfig model;
  expect_pair_error(make_pairs(inputs(2), inputs(3), model), kLengths);
  expect_pair_error(make_pairs(inputs(3), inputs(1), model), kLengths);
  expect_pair_error(make_pairs(inputs(2), inputs(0), model), kLengths);  // lengths before len2 == 0
  expect_pair_error(make_pairs(inputs(0), inputs(1), model), kNoText);
  expect_pair_error(make_pairs(inputs(0), inputs(0), model), kNoText);   // len1 before len2
  expect_pair_error(make_pairs(inputs(1), inputs(0), model), kNoTextPair);
  // MultiModalParam comes first of all.
  expect_pair_error(make_pairs(inputs(2, true), inputs(3), model),
                    "MultiModalParam is not supported for BertForSequenceClassification");
  expect_pair_error(make_pairs(inputs(0), inputs(1, true), model),
                    "MultiModalParam is not supported for BertForSequenceClassification");
  model.architecture = "Qwen3ForSequenceClassification";
  expect_pair_error(make_pairs(inputs(1), inputs(1, true), model),
                    "MultiModalParam is not supported for Qwen3ForSequenceClassification");
  model.is_multimodal = true;
  EXPECT_TRUE(make_pairs(inputs(1, true), inputs(2, true), model).ok());
  expect_pair_error(make_pairs(inputs(2, true), inputs(3), model), kLengths);
}

TEST(Pairing, ThroughTheEndpoints) {
  expect_error(score(R"({"queries":["a","b"],"documents":["c","d","e"]})"), kLengths, std::nullopt);
  expect_error(score(R"({"queries":[],"documents":["c"]})"), kNoText, std::nullopt);
  expect_error(score(R"({"queries":[],"documents":[]})"), kNoText, std::nullopt);
  expect_error(score(R"({"queries":"q","documents":[]})"), kNoTextPair, std::nullopt);
  expect_error(score(R"({"queries":["a","b"],"documents":[]})"), kLengths, std::nullopt);
  expect_error(rerank(R"({"query":"q","documents":[]})"), kNoTextPair, std::nullopt);
  expect_error(offline(R"({"data_1":["a","b"],"data_2":["c"]})"), kLengths, std::nullopt);
  expect_error(offline(R"({"data_1":[],"data_2":["c"]})"), kNoText, std::nullopt);
  expect_error(offline(R"({"data_1":"a","data_2":[]})"), kNoTextPair, std::nullopt);
  expect_error(score(R"({"queries":["a","b"],"documents":[{"content":[]},"d","e"]})"),
               "MultiModalParam is not supported for BertForSequenceClassification", std::nullopt);
}

TEST(Pairing, PairOrderIsDocumentOrder) {
  auto fan = score(R"({"queries":"q","documents":["a","b c","d e f"]})");
  ASSERT_TRUE(fan.ok()) << describe(fan);
  const auto& outs = fan.value()["outputs"];
  ASSERT_EQ(outs.size(), 3u);
  // [CLS] q [SEP] doc [SEP]: the document word counts are 1, 2, 3.
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(outs[i]["request_id"], "score-0-" + std::to_string(i));
    EXPECT_EQ(outs[i]["prompt"]["prompt_token_ids"].size(), 5 + i);
  }
  auto zip = score(R"({"queries":["a","b b"],"documents":["c","d"]})");
  ASSERT_TRUE(zip.ok()) << describe(zip);
  EXPECT_EQ(zip.value()["outputs"][0]["pooling_params"]["extra_kwargs"]["compressed_token_type_ids"], 3);
  EXPECT_EQ(zip.value()["outputs"][1]["pooling_params"]["extra_kwargs"]["compressed_token_type_ids"], 4);
}

// ---- the 404 (spec 1) -------------------------------------------------------------

TEST(RequestModel, UnknownModelIsTheOne404) {
  expect_error(score(R"({"model":"some/other","queries":"q","documents":"d"})"),
               "The model `some/other` does not exist.", "model", "NotFoundError", 404);
  expect_error(rerank(R"({"model":"","query":"q","documents":["d"]})"), "The model `` does not exist.", "model",
               "NotFoundError", 404);
  expect_error(score(R"({"model":"cross-encoder/ms-marco-MiniLM-L-6-v2","queries":"q","documents":"d"})",
                     R"({"name":"mine"})"),
               "The model `cross-encoder/ms-marco-MiniLM-L-6-v2` does not exist.", "model", "NotFoundError", 404);
}

TEST(RequestModel, MatchingOrAbsentModelIsFine) {
  expect_ok(score(R"({"model":"cross-encoder/ms-marco-MiniLM-L-6-v2","queries":"q","documents":"d"})"));
  expect_ok(rerank(R"({"model":"mine","query":"q","documents":["d"]})", R"({"name":"mine"})"));
  expect_ok(rerank(R"({"model":null,"query":"q","documents":["d"]})", R"({"name":"mine"})"));
  expect_ok(rerank(R"({"query":"q","documents":["d"]})", R"({"name":"mine"})"));
}

// ---- truncate_prompt_tokens (spec 1, 6) ------------------------------------------

TEST(RequestTruncation, BelowMinusOneIsABoundError) {
  for (const char* value : {"-2", "-100", "-9223372036854775808"}) {
    SCOPED_TRACE(value);
    expect_error(run("score", with(kScoreBase, {{"truncate_prompt_tokens", js(value)}})),
                 "truncate_prompt_tokens: Input should be greater than or equal to -1", "truncate_prompt_tokens");
    expect_error(offline(std::string(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":)") + value + "}"),
                 "truncate_prompt_tokens: Input should be greater than or equal to -1", "truncate_prompt_tokens");
  }
}

TEST(RequestTruncation, AboveMaxModelLenIsRejected) {
  expect_error(score(R"({"queries":"q","documents":"d","truncate_prompt_tokens":513})"), kTruncTooBig,
               "truncate_prompt_tokens");
  expect_error(rerank(R"({"query":"q","documents":["d"],"truncate_prompt_tokens":9223372036854775807})"),
               kTruncTooBig, "truncate_prompt_tokens");
  expect_error(score(R"({"queries":"q","documents":"d","truncate_prompt_tokens":17})", R"({"max_model_len":16})"),
               kTruncTooBig, "truncate_prompt_tokens");
  expect_error(offline(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":513})"), kTruncTooBig,
               "truncate_prompt_tokens");
}

TEST(RequestTruncation, MinusOneZeroAndMaxModelLenAreFine) {
  for (const char* value : {"-1", "0", "1", "512"}) {
    SCOPED_TRACE(value);
    expect_ok(run("score", with(kScoreBase, {{"truncate_prompt_tokens", js(value)}})));
    expect_ok(offline(std::string(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":)") + value + "}"));
  }
  expect_ok(score(R"({"queries":"q","documents":"d","truncate_prompt_tokens":16})", R"({"max_model_len":16})"));
}

// ---- max_tokens_per_query / _doc (spec 5) ----------------------------------------

TEST(RequestTokenLimits, NegativeIsRejected) {
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_query":-1})"),
               "max_tokens_per_query must be a non-negative integer", "max_tokens_per_query");
  expect_error(rerank(R"({"query":"q","documents":["d"],"max_tokens_per_doc":-1})"),
               "max_tokens_per_doc must be a non-negative integer", "max_tokens_per_doc");
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_doc":-9223372036854775808})"),
               "max_tokens_per_doc must be a non-negative integer", "max_tokens_per_doc");
}

TEST(RequestTokenLimits, AtOrAboveMaxModelLenIsRejected) {
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_query":512})"),
               "max_tokens_per_query (512) must be less than max_model_len (512).", "max_tokens_per_query");
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_query":1000})"),
               "max_tokens_per_query (1000) must be less than max_model_len (512).", "max_tokens_per_query");
  expect_error(rerank(R"({"query":"q","documents":["d"],"max_tokens_per_doc":512})"),
               "max_tokens_per_doc (512) must be less than max_model_len (512).", "max_tokens_per_doc");
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_doc":8})", R"({"max_model_len":8})"),
               "max_tokens_per_doc (8) must be less than max_model_len (8).", "max_tokens_per_doc");
}

TEST(RequestTokenLimits, ZeroAndBelowMaxModelLenAreFine) {
  expect_ok(score(R"({"queries":"q","documents":"d","max_tokens_per_query":0,"max_tokens_per_doc":0})"));
  expect_ok(score(R"({"queries":"q","documents":"d","max_tokens_per_query":511,"max_tokens_per_doc":511})"));
  expect_ok(score(R"({"queries":"q","documents":"d","max_tokens_per_doc":7})", R"({"max_model_len":8})"));
  // The limit keeps the first k words of its side.
  auto cut = score(R"({"queries":"a b c","documents":"d e f","max_tokens_per_query":1,"max_tokens_per_doc":2})");
  ASSERT_TRUE(cut.ok()) << describe(cut);
  EXPECT_EQ(cut.value()["outputs"][0]["prompt"]["prompt_token_ids"].size(), 6u);  // CLS a SEP d e SEP
}

TEST(RequestTokenLimits, QueryIsCheckedBeforeDoc) {
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_doc":-1,"max_tokens_per_query":512})"),
               "max_tokens_per_query (512) must be less than max_model_len (512).", "max_tokens_per_query");
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_doc":512,"max_tokens_per_query":-1})"),
               "max_tokens_per_query must be a non-negative integer", "max_tokens_per_query");
  expect_error(score(R"({"queries":"q","documents":"d","max_tokens_per_doc":-1,"max_tokens_per_query":5})"),
               "max_tokens_per_doc must be a non-negative integer", "max_tokens_per_doc");
}

// ---- order of checks (spec 10.2) -------------------------------------------------

struct Stage {
  const char* field;
  const char* value;
  const char* message;
};

// The online order: normalize, cache_salt, then the common fields in the order
// of section 6 (with reserved keys at chat_template_kwargs).
const std::vector<Stage>& online_common_stages() {
  static const std::vector<Stage> stages{
      {"normalize", "null", kNormalize},
      {"cache_salt", "\"\"", kSaltEmpty},
      {"model", "1", "model: Input should be a valid string"},
      {"user", "1", "user: Input should be a valid string"},
      {"request_id", "null", "request_id: Input should be a valid string"},
      {"truncate_prompt_tokens", "-2", "truncate_prompt_tokens: Input should be greater than or equal to -1"},
      {"truncation_side", "\"middle\"", "truncation_side: Input should be 'left' or 'right'"},
      {"padding", "\"longest\"", "padding: Input should be 'max_length' or 'do_not_pad'"},
      {"priority", "null", "priority: Input should be a valid integer"},
      {"mm_processor_kwargs", "[]", "mm_processor_kwargs: Input should be a valid object"},
      {"use_activation", "2", "use_activation: Input should be a valid boolean, unable to interpret input"},
      {"max_tokens_per_query", "null", "max_tokens_per_query: Input should be a valid integer"},
      {"max_tokens_per_doc", "1.5", "max_tokens_per_doc: Input should be a valid integer, got a number with a fractional part"},
      {"instruction", "{}", "instruction: Input should be a valid string"},
      {"chat_template_kwargs", R"({"tokenize":true})",
       "chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: {'tokenize'}"},
  };
  return stages;
}

void check_pairwise_order(std::string_view endpoint, std::vector<Stage> stages) {
  const std::string_view base = endpoint == "score" ? kScoreBase : kRerankBase;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    for (std::size_t j = i + 1; j < stages.size(); ++j) {
      SCOPED_TRACE(std::string(endpoint) + ": " + stages[i].field + " before " + stages[j].field);
      // Insert the later field first, so JSON key order cannot be what decides.
      Json body = js(base);
      body[stages[j].field] = js(stages[j].value);
      body[stages[i].field] = js(stages[i].value);
      auto r = run(endpoint, body);
      ASSERT_FALSE(r.ok()) << describe(r);
      EXPECT_EQ(r.error().message, stages[i].message);
    }
  }
}

TEST(RequestOrder, OnlineCommonFieldsScore) {
  auto stages = online_common_stages();
  // then the endpoint's own fields (a side's type), then the shape, the 404 and
  // the truncation target: listed here as fields that break them.
  stages.push_back({"queries", "5", "queries: Input should be a valid string"});
  check_pairwise_order("score", stages);
}

TEST(RequestOrder, OnlineCommonFieldsRerank) {
  auto stages = online_common_stages();
  stages.push_back({"top_n", "-1", "top_n: Input should be greater than or equal to 0"});
  check_pairwise_order("rerank", stages);
}

TEST(RequestOrder, EndpointFieldsBeforeTheShape) {
  // queries has a type error and there is no complete shape: the type error wins.
  expect_error(score(R"({"queries":5})"), "queries: Input should be a valid string", "queries");
  expect_error(score(R"({"items":[1]})"), "items[0]: Input should be a valid string", "items[0]");
}

TEST(RequestOrder, ShapeBeforeThe404) {
  auto r = score(R"({"model":"other","queries":"q"})");
  expect_bad_request(r, std::nullopt);
  // Two complete shapes are a valid body (spec 11.5): the 404 then.
  expect_error(score(R"({"model":"other","queries":"q","documents":"d","items":"i"})"),
               "The model `other` does not exist.", "model", "NotFoundError", 404);
}

TEST(RequestOrder, EndpointFieldsBeforeThe404) {
  expect_error(rerank(R"({"model":"other","query":"q","documents":["d"],"top_n":-1})"),
               "top_n: Input should be greater than or equal to 0", "top_n");
  expect_error(score(R"({"model":"other","queries":"q","documents":[{"content":1}]})"),
               "documents[0].content: Input should be a valid list", "documents[0].content");
}

TEST(RequestOrder, CommonFieldBoundBeforeThe404) {
  expect_error(score(R"({"model":"other","queries":"q","documents":"d","truncate_prompt_tokens":-2})"),
               "truncate_prompt_tokens: Input should be greater than or equal to -1", "truncate_prompt_tokens");
}

TEST(RequestOrder, The404BeforeTheTruncationTarget) {
  expect_error(score(R"({"model":"other","queries":"q","documents":"d","truncate_prompt_tokens":100000})"),
               "The model `other` does not exist.", "model", "NotFoundError", 404);
}

TEST(RequestOrder, The404BeforePairing) {
  expect_error(score(R"({"model":"other","queries":["a","b"],"documents":["c","d","e"]})"),
               "The model `other` does not exist.", "model", "NotFoundError", 404);
  expect_error(rerank(R"({"model":"other","query":{"content":[]},"documents":["d"]})"),
               "The model `other` does not exist.", "model", "NotFoundError", 404);
}

TEST(RequestOrder, The404BeforeTokenLimits) {
  expect_error(score(R"({"model":"other","queries":"q","documents":"d","max_tokens_per_query":-1})"),
               "The model `other` does not exist.", "model", "NotFoundError", 404);
}

TEST(RequestOrder, TruncationTargetBeforePairing) {
  expect_error(score(R"({"queries":[],"documents":["d"],"truncate_prompt_tokens":513})"), kTruncTooBig,
               "truncate_prompt_tokens");
  expect_error(rerank(R"({"query":{"content":[]},"documents":["d"],"truncate_prompt_tokens":513})"), kTruncTooBig,
               "truncate_prompt_tokens");
}

TEST(RequestOrder, TruncationTargetBeforeTokenLimits) {
  expect_error(score(R"({"queries":"q","documents":"d","truncate_prompt_tokens":513,"max_tokens_per_query":-1})"),
               kTruncTooBig, "truncate_prompt_tokens");
}

TEST(RequestOrder, PairingBeforeTokenLimits) {
  expect_error(score(R"({"queries":["a","b"],"documents":["c"],"max_tokens_per_query":-1})"), kLengths,
               std::nullopt);
  expect_error(score(R"({"queries":"q","documents":[],"max_tokens_per_doc":600})"), kNoTextPair, std::nullopt);
  expect_error(score(R"({"queries":{"content":[]},"documents":"d","max_tokens_per_doc":600})"),
               "MultiModalParam is not supported for BertForSequenceClassification", std::nullopt);
}

constexpr const char* kSmallMultimodal =
    R"({"is_multimodal":true,"architecture":"JinaVLForRanking","max_model_len":8})";
constexpr const char* kContext11 =
    "You passed 11 input tokens and requested 0 output tokens. However, the model's context length is "
    "only 8 tokens, resulting in a maximum input length of 8 tokens. Please reduce the length of the "
    "input prompt.";

TEST(RequestOrder, TokenLimitsBeforeThePairs) {
  // Pair 0 is too long for the context, but the doc limit is checked first.
  expect_error(score(R"({"queries":"q","documents":"a b c d e f g","max_tokens_per_doc":8})", R"({"max_model_len":8})"),
               "max_tokens_per_doc (8) must be less than max_model_len (8).", "max_tokens_per_doc");
  expect_error(score(R"({"queries":"q","documents":"a b c d e f g"})", R"({"max_model_len":8})"), kContext11,
               std::nullopt);
}

TEST(RequestOrder, PairsInOrder) {
  const char* image = R"({"content":[{"type":"image_url","image_url":{"url":"u"}}]})";
  // Pair 0: [CLS] image [SEP] 7 words [SEP] = 11 tokens > 8; pair 1: two images.
  std::string first_context = std::string(R"({"queries":[)") + image + "," + image + R"(],"documents":["a b c d e f g",)" +
                              image + "]}";
  expect_error(score(first_context, kSmallMultimodal), kContext11, std::nullopt);
  std::string first_images = std::string(R"({"queries":[)") + image + "," + image + R"(],"documents":[)" + image +
                             R"(,"a b c d e f g"]})";
  expect_error(score(first_images, kSmallMultimodal), "Only one multi-modal item is supported", std::nullopt);
}

// ---- offline LLM.score (spec 6, 7.1, 10.2, 10.9) -----------------------------------

TEST(Offline, FieldsAreValidated) {
  expect_bad_request(offline(R"({"data_2":"d"})"), "data_1");
  expect_bad_request(offline(R"({"data_1":"q"})"), "data_2");
  expect_error(offline(R"({"data_1":5,"data_2":"d"})"), "data_1: Input should be a valid string", "data_1");
  expect_error(offline(R"({"data_1":"q","data_2":["d",false]})"), "data_2[1]: Input should be a valid string",
               "data_2[1]");
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":5})"),
               "pooling_params: Input should be a valid object", "pooling_params");
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":5}})"),
               "pooling_params.task: Input should be a valid string", "pooling_params.task");
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"score"}})"),
               "`score` task was removed; use `classify` instead.", "pooling_params.task");
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"encode"}})"),
               "`encode` task was removed; use `token_embed` or `token_classify` instead.", "pooling_params.task");
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"requires_token_ids":null}})"),
               "pooling_params.requires_token_ids: Input should be a valid boolean",
               "pooling_params.requires_token_ids");
  expect_error(offline(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":"3"})"),
               "truncate_prompt_tokens: Input should be a valid integer", "truncate_prompt_tokens");
  expect_error(offline(R"({"data_1":"q","data_2":"d","truncation_side":"up"})"),
               "truncation_side: Input should be 'left' or 'right'", "truncation_side");
  expect_ok(offline(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":null,"truncation_side":null,"pooling_params":null})"));
  expect_ok(offline(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":2,"truncation_side":"left"})"));
}

TEST(Offline, RequestIdsAndCallerParamsNullWhenNone) {
  auto r = offline(R"({"data_1":"q","data_2":["a","b"]})");
  ASSERT_TRUE(r.ok()) << describe(r);
  ASSERT_TRUE(r.value().contains("caller_pooling_params"));
  EXPECT_TRUE(r.value()["caller_pooling_params"].is_null());
  EXPECT_EQ(r.value()["outputs"][0]["request_id"], "score-0-0");
  EXPECT_EQ(r.value()["outputs"][1]["request_id"], "score-0-1");
  // Online outputs carry no caller params at all.
  auto online = score(R"({"queries":"q","documents":"d"})");
  ASSERT_TRUE(online.ok());
  EXPECT_FALSE(online.value().contains("caller_pooling_params"));
}

TEST(Offline, TaskConflictMessage) {
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"embed"}})"),
               "You cannot overwrite self.task='embed' with task='classify'!", std::nullopt);
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"token_classify"}})"),
               "You cannot overwrite self.task='token_classify' with task='classify'!", std::nullopt);
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"plugin"}})"),
               "You cannot overwrite self.task='plugin' with task='classify'!", std::nullopt);
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":""}})"),
               "You cannot overwrite self.task='' with task='classify'!", std::nullopt);
}

TEST(Offline, TaskConflictMessageUsesPythonRepr) {
  // A single quote: Python switches to double quotes.
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"it's"}})"),
               R"(You cannot overwrite self.task="it's" with task='classify'!)", std::nullopt);
  // Both quotes: single quotes, the single one escaped.
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"a\"b'c"}})"),
               R"(You cannot overwrite self.task='a"b\'c' with task='classify'!)", std::nullopt);
  // A double quote alone stays as it is; a backslash and a newline are escaped.
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"say \"hi\""}})"),
               R"(You cannot overwrite self.task='say "hi"' with task='classify'!)", std::nullopt);
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"a\\b\nc"}})"),
               R"(You cannot overwrite self.task='a\\b\nc' with task='classify'!)", std::nullopt);
}

TEST(Offline, ClassifyOrNoTaskIsFineAndTheCallerIsUntouched) {
  auto r = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"use_activation":false,"extra_kwargs":{"k":[1]}}})");
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_TRUE(r.value()["caller_pooling_params"]["task"].is_null());
  EXPECT_EQ(r.value()["caller_pooling_params"]["extra_kwargs"], js(R"({"k":[1]})"));
  EXPECT_EQ(r.value()["outputs"][0]["pooling_params"]["task"], "classify");
  EXPECT_EQ(r.value()["outputs"][0]["pooling_params"]["use_activation"], false);
  EXPECT_EQ(r.value()["outputs"][0]["pooling_params"]["extra_kwargs"]["k"], js("[1]"));
  auto c = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"classify"}})");
  ASSERT_TRUE(c.ok()) << describe(c);
  EXPECT_EQ(c.value()["caller_pooling_params"]["task"], "classify");
}

TEST(Offline, TokenLimitsFromExtraKwargs) {
  // null means 0: no cut.
  auto none = offline(R"({"data_1":"a b c","data_2":"d","pooling_params":{"extra_kwargs":{"max_tokens_per_query":null,"max_tokens_per_doc":null}}})");
  ASSERT_TRUE(none.ok()) << describe(none);
  EXPECT_EQ(none.value()["outputs"][0]["prompt"]["prompt_token_ids"].size(), 7u);
  auto cut = offline(R"({"data_1":"a b c","data_2":"d e","pooling_params":{"extra_kwargs":{"max_tokens_per_query":1,"max_tokens_per_doc":1}}})");
  ASSERT_TRUE(cut.ok()) << describe(cut);
  EXPECT_EQ(cut.value()["outputs"][0]["prompt"]["prompt_token_ids"].size(), 5u);
  // Request-level fields are not part of the offline call: ignored.
  auto ignored = offline(R"({"data_1":"a b c","data_2":"d","max_tokens_per_query":1})");
  ASSERT_TRUE(ignored.ok()) << describe(ignored);
  EXPECT_EQ(ignored.value()["outputs"][0]["prompt"]["prompt_token_ids"].size(), 7u);
}

TEST(Offline, TokenLimitTypeErrors) {
  for (const char* value : {"\"3\"", "1.0", "1e1", "true", "[]", "{}"}) {
    for (const char* field : {"max_tokens_per_query", "max_tokens_per_doc"}) {
      SCOPED_TRACE(std::string(field) + "=" + value);
      std::string call = std::string(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{")") + field +
                         "\":" + value + "}}}";
      const std::string path = std::string("pooling_params.extra_kwargs.") + field;
      expect_error(offline(call), path + ": Input should be a valid integer", path);
    }
  }
}

TEST(Offline, TokenLimitBoundMessages) {
  auto neg = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"max_tokens_per_query":-1}}})");
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.error().message, "max_tokens_per_query must be a non-negative integer");
  auto big = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"max_tokens_per_doc":512}}})");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().message, "max_tokens_per_doc (512) must be less than max_model_len (512).");
  auto both = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"max_tokens_per_doc":-1,"max_tokens_per_query":600}}})");
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.error().message, "max_tokens_per_query (600) must be less than max_model_len (512).");
}

TEST(Offline, TokenLimitBoundErrorNamesTheNestedField) {
  // Spec 10.1: nested fields are named by their dotted path, as the type error
  // for the same field already does.
  auto neg = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"max_tokens_per_query":-1}}})");
  ASSERT_FALSE(neg.ok());
  EXPECT_EQ(neg.error().param, "pooling_params.extra_kwargs.max_tokens_per_query");
  auto big = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"max_tokens_per_doc":512}}})");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().param, "pooling_params.extra_kwargs.max_tokens_per_doc");
}

TEST(Offline, ExtrasAreNotValidated) {
  auto r = offline(R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"cache_salt":"","mm_processor_kwargs":5,"chat_template_kwargs":{"tools":1}}}})");
  ASSERT_TRUE(r.ok()) << describe(r);
  const Json& prompt = r.value()["outputs"][0]["prompt"];
  EXPECT_EQ(prompt["cache_salt"], "");
  EXPECT_EQ(prompt["mm_processor_kwargs"], 5);
  EXPECT_FALSE(prompt.contains("chat_template_kwargs"));
}

TEST(OfflineOrder, FieldsBeforeTruncationTarget) {
  expect_error(offline(R"({"data_1":5,"data_2":"d","truncate_prompt_tokens":100000})"),
               "data_1: Input should be a valid string", "data_1");
  expect_error(offline(R"({"data_1":"q","data_2":"d","truncate_prompt_tokens":100000,"truncation_side":"mid"})"),
               "truncation_side: Input should be 'left' or 'right'", "truncation_side");
}

TEST(OfflineOrder, TruncationTargetBeforePairing) {
  expect_error(offline(R"({"data_1":[],"data_2":"d","truncate_prompt_tokens":513})"), kTruncTooBig,
               "truncate_prompt_tokens");
}

TEST(OfflineOrder, PairingBeforeTaskConflict) {
  expect_error(offline(R"({"data_1":["a","b"],"data_2":"d","pooling_params":{"task":"embed"}})"), kLengths,
               std::nullopt);
  expect_error(offline(R"({"data_1":{"content":[]},"data_2":"d","pooling_params":{"task":"embed"}})"),
               "MultiModalParam is not supported for BertForSequenceClassification", std::nullopt);
}

TEST(OfflineOrder, TaskConflictBeforeTokenLimits) {
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"embed","extra_kwargs":{"max_tokens_per_query":-1}}})"),
               "You cannot overwrite self.task='embed' with task='classify'!", std::nullopt);
  expect_error(offline(R"({"data_1":"q","data_2":"d","pooling_params":{"task":"embed","extra_kwargs":{"max_tokens_per_query":"x"}}})"),
               "You cannot overwrite self.task='embed' with task='classify'!", std::nullopt);
}

TEST(OfflineOrder, TokenLimitsBeforePairs) {
  auto r = offline(R"({"data_1":"q","data_2":"a b c d e f g","pooling_params":{"extra_kwargs":{"max_tokens_per_doc":8}}})",
                   R"({"max_model_len":8})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "max_tokens_per_doc (8) must be less than max_model_len (8).");
  expect_error(offline(R"({"data_1":"q","data_2":"a b c d e f g"})", R"({"max_model_len":8})"), kContext11,
               std::nullopt);
}

// ---- every rejection is a 400 or the 404, never a 500 (spec 8) --------------------

TEST(RequestErrors, EveryRejectionIsAClientError) {
  const std::vector<std::pair<const char*, const char*>> cases{
      {"score", R"({"queries":"q","documents":"d","cache_salt":"@"})"},
      {"score", R"({"queries":{"content":[{"type":"image_url","image_url":{}}]},"documents":"d"})"},
      {"rerank", R"({"query":"q","documents":["d"],"priority":1e400})"},
      {"llm.score", R"({"data_1":"q","data_2":"d","pooling_params":{"output_kind":"DELTA"}})"},
      {"llm.score", R"({"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":5}})"},
  };
  for (const auto& [endpoint, body] : cases) {
    SCOPED_TRACE(body);
    std::string envelope = std::string(R"({"endpoint":")") + endpoint + R"(","request":)" + body + "}";
    auto r = preprocess_json(envelope);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.error().code == 400 || r.error().code == 404) << r.error().code << " " << r.error().message;
  }
}

}  // namespace
}  // namespace poolcheck
