// Pre-processing end to end (spec sections 5 and 7, edges 10.6, 10.9, 10.13,
// 10.15), through the library boundary `preprocess_json` and, where the
// aligned token types must be seen, through `preprocess` itself.
//
// Word ids are literals for the default vocabulary (30522):
// 1000 + fnv1a32(word) % 29522, computed by hand (see tokenizer_test.cpp for
// the formula pinned on its own).
#include "core/preprocess.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/envelope.hpp"
#include "core/json_api.hpp"
#include "core/output_json.hpp"

namespace poolcheck {
namespace {

using Ints = std::vector<std::int64_t>;

constexpr std::int64_t CLS = 101, SEP = 102, IMG = 103;
constexpr std::int64_t Q1 = 2575, Q2 = 11698, Q3 = 20821, Q4 = 16004;
constexpr std::int64_t D1 = 22270, D2 = 13147, D3 = 4024, D4 = 8841, D5 = 29240;

// ----------------------------------------------------------------- helpers

Json envelope(const std::string& endpoint, const Json& request, const Json& model = nullptr) {
  Json e = Json::object();
  e["endpoint"] = endpoint;
  if (!model.is_null()) e["model"] = model;
  e["request"] = request;
  return e;
}

Json score(const Json& queries, const Json& documents) {
  return Json{{"queries", queries}, {"documents", documents}};
}

Json with(Json object, const std::string& key, const Json& value) {
  object[key] = value;
  return object;
}

Json offline(const Json& data_1, const Json& data_2, const Json& params = nullptr) {
  Json call{{"data_1", data_1}, {"data_2", data_2}};
  if (!params.is_null()) call["pooling_params"] = params;
  return call;
}

const Json kBert = Json::object();
const Json kXlmR = Json{{"tokenizer", {{"returns_token_type_ids", false}}}};
// No sep token: plain concatenation, whatever returns_token_type_ids says (it defaults to true).
const Json kLlm = Json{{"tokenizer", {{"use_sep_token", false}}}};
const Json kMultimodal = Json{{"is_multimodal", true}, {"architecture", "Qwen2VLForSequenceClassification"}};

Json bert(std::int64_t max_model_len) { return Json{{"max_model_len", max_model_len}}; }

Json accepted(const Json& env) {
  auto out = preprocess_json(env.dump());
  if (!out.ok()) {
    ADD_FAILURE() << "rejected: " << out.error().message << "\ninput: " << env.dump();
    return Json{{"outputs", Json::array()}};
  }
  return *out;
}

Error rejected(const Json& env) {
  auto out = preprocess_json(env.dump());
  if (out.ok()) {
    ADD_FAILURE() << "accepted: " << out->dump() << "\ninput: " << env.dump();
    return Error::internal("accepted");
  }
  return out.error();
}

void expect_error(const Json& env, const std::string& message, const std::optional<std::string>& param,
                  int code = 400) {
  Error e = rejected(env);
  EXPECT_EQ(e.message, message);
  EXPECT_EQ(e.param, param);
  EXPECT_EQ(e.code, code);
  EXPECT_EQ(e.type, code == 404 ? "NotFoundError" : "BadRequestError");
}

const Json& pair(const Json& out, std::size_t i) { return out["outputs"][i]; }
Ints ids(const Json& out, std::size_t i) { return pair(out, i)["prompt"]["prompt_token_ids"].get<Ints>(); }
const Json& prompt(const Json& out, std::size_t i) { return pair(out, i)["prompt"]; }
const Json& extras(const Json& out, std::size_t i) { return pair(out, i)["pooling_params"]["extra_kwargs"]; }
std::size_t count(const Json& out) { return out["outputs"].size(); }

// The aligned token types the boundary was computed from, seen through the core.
PreprocessOutput core_run(const Json& env) {
  auto parsed = parse_envelope(env.dump());
  if (!parsed.ok()) {
    ADD_FAILURE() << "envelope rejected: " << parsed.error().message;
    return {};
  }
  auto out = preprocess(parsed->model, parsed->request);
  if (!out.ok()) {
    ADD_FAILURE() << "preprocess rejected: " << out.error().message;
    return {};
  }
  return *out;
}

std::optional<Ints> types(const Json& env, std::size_t i = 0) {
  auto out = core_run(env);
  if (out.outputs.size() <= i) {
    ADD_FAILURE() << "no pair " << i;
    return Ints{-999};
  }
  return out.outputs[i].token_type_ids;
}

// The object form of the params the online path builds, with these extras.
Json classify_params(const Json& extra_kwargs, const Json& use_activation = nullptr) {
  Json p = Json::object();
  p["use_activation"] = use_activation;
  p["dimensions"] = nullptr;
  p["step_tag_id"] = nullptr;
  p["returned_token_ids"] = nullptr;
  p["task"] = "classify";
  p["requires_token_ids"] = false;
  p["skip_reading_prefix_cache"] = nullptr;
  p["late_interaction_params"] = nullptr;
  p["extra_kwargs"] = extra_kwargs;
  p["output_kind"] = "FINAL_ONLY";
  return p;
}

Json boundary(std::int64_t k) { return Json{{"compressed_token_type_ids", k}}; }

Json image(const std::string& url) {
  return Json{{"type", "image_url"}, {"image_url", {{"url", url}}}};
}
Json text_part(const std::string& text) { return Json{{"type", "text"}, {"text", text}}; }
// A vector, not a Json: `{image("a")}` as a Json parameter would be a copy of
// the one element rather than a one-element list.
Json content(const std::vector<Json>& parts) {
  Json list = Json::array();
  for (const auto& part : parts) list.push_back(part);
  return Json{{"content", list}};
}

const std::string kQ = "q1 q2";
const std::string kD = "d1 d2 d3";

// ------------------------------------------------------------ pair layouts

TEST(PreprocessLayout, BertPairIdsTypesAndTheWholeOutput) {
  const Json env = envelope("score", score(kQ, kD));
  const Json out = accepted(env);
  const Json want = Json{{"outputs", Json::array({Json{
                                         {"request_id", "score-0-0"},
                                         {"prompt", {{"prompt_token_ids", {CLS, Q1, Q2, SEP, D1, D2, D3, SEP}}}},
                                         {"pooling_params", classify_params(boundary(4))}}})}};
  EXPECT_EQ(out.dump(), want.dump());
  EXPECT_EQ(types(env), (Ints{0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(PreprocessLayout, BertBoundaryIsQueryLengthPlusTwo) {
  const struct {
    std::string query;
    std::int64_t k;
    Ints ids;
  } cases[] = {
      {"", 2, {CLS, SEP, D1, SEP}},
      {"q1", 3, {CLS, Q1, SEP, D1, SEP}},
      {"q1 q2 q3 q4", 6, {CLS, Q1, Q2, Q3, Q4, SEP, D1, SEP}},
  };
  for (const auto& c : cases) {
    const Json out = accepted(envelope("score", score(c.query, "d1")));
    EXPECT_EQ(ids(out, 0), c.ids) << c.query;
    EXPECT_EQ(extras(out, 0), boundary(c.k)) << c.query;
  }
  // An empty document: every type is 0, so the boundary is the length.
  const Json out = accepted(envelope("score", score(kQ, "")));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, SEP}));
  EXPECT_EQ(types(envelope("score", score(kQ, ""))), (Ints{0, 0, 0, 0, 1}));
  EXPECT_EQ(extras(out, 0), boundary(4));
}

TEST(PreprocessLayout, XlmRHasTheSameIdsAndNoTypes) {
  const Json env = envelope("score", score(kQ, kD), kXlmR);
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, D2, D3, SEP}));
  EXPECT_EQ(pair(out, 0)["pooling_params"], classify_params(nullptr));
  EXPECT_EQ(types(env), std::nullopt);
}

TEST(PreprocessLayout, LlmStyleConcatenatesWithoutSpecials) {
  const Json env = envelope("score", score(kQ, kD), kLlm);
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{Q1, Q2, D1, D2, D3}));
  EXPECT_EQ(extras(out, 0), nullptr);
  EXPECT_EQ(types(env), std::nullopt);
}

TEST(PreprocessLayout, WithoutSepTokenThereAreNeverTypes) {
  for (bool returns : {true, false}) {
    const Json model = Json{{"tokenizer", {{"use_sep_token", false}, {"returns_token_type_ids", returns}}}};
    const Json env = envelope("rerank", Json{{"query", kQ}, {"documents", {kD}}}, model);
    const Json out = accepted(env);
    EXPECT_EQ(ids(out, 0), (Ints{Q1, Q2, D1, D2, D3})) << returns;
    EXPECT_EQ(extras(out, 0), nullptr) << returns;
    EXPECT_EQ(types(env), std::nullopt) << returns;
  }
}

TEST(PreprocessLayout, OnlineUseActivationReachesTheParams) {
  const Json on = accepted(envelope("score", with(score(kQ, kD), "use_activation", false)));
  EXPECT_EQ(pair(on, 0)["pooling_params"], classify_params(boundary(4), false));
  const Json off = accepted(envelope("rerank", Json{{"query", kQ}, {"documents", kD}, {"use_activation", true}}));
  EXPECT_EQ(pair(off, 0)["pooling_params"], classify_params(boundary(4), true));
  const Json null = accepted(envelope("score", with(score(kQ, kD), "use_activation", nullptr)));
  EXPECT_EQ(pair(null, 0)["pooling_params"]["use_activation"], nullptr);
}

TEST(PreprocessLayout, OneToManyAndManyToManyKeepDocumentOrder) {
  const Json one_to_n = accepted(envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d2 d3", "d4"}}}));
  ASSERT_EQ(count(one_to_n), 3u);
  EXPECT_EQ(ids(one_to_n, 0), (Ints{CLS, Q1, SEP, D1, SEP}));
  EXPECT_EQ(ids(one_to_n, 1), (Ints{CLS, Q1, SEP, D2, D3, SEP}));
  EXPECT_EQ(ids(one_to_n, 2), (Ints{CLS, Q1, SEP, D4, SEP}));

  const Json n_to_n = accepted(envelope("score", Json{{"data_1", {"q1", "q2 q3"}}, {"data_2", {"d1", "d2"}}}));
  ASSERT_EQ(count(n_to_n), 2u);
  EXPECT_EQ(ids(n_to_n, 0), (Ints{CLS, Q1, SEP, D1, SEP}));
  EXPECT_EQ(ids(n_to_n, 1), (Ints{CLS, Q2, Q3, SEP, D2, SEP}));
  EXPECT_EQ(extras(n_to_n, 1), boundary(4));
}

// ------------------------------------------------------------- token limits

TEST(PreprocessTokenLimits, KeepTheFirstWordsOfEachSide) {
  Json body = score("q1 q2 q3", "d1 d2 d3 d4");
  body["max_tokens_per_query"] = 2;
  body["max_tokens_per_doc"] = 1;
  const Json out = accepted(envelope("score", body));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(4));

  // A limit above the side's length keeps it all; 0 means off.
  body["max_tokens_per_query"] = 10;
  body["max_tokens_per_doc"] = 0;
  EXPECT_EQ(ids(accepted(envelope("score", body)), 0), (Ints{CLS, Q1, Q2, Q3, SEP, D1, D2, D3, D4, SEP}));
}

TEST(PreprocessTokenLimits, AlsoApplyToLlmStyle) {
  Json body = score("q1 q2 q3", "d1 d2 d3 d4");
  body["max_tokens_per_doc"] = 2;
  EXPECT_EQ(ids(accepted(envelope("score", body, kLlm)), 0), (Ints{Q1, Q2, Q3, D1, D2}));
}

TEST(PreprocessTokenLimits, NeverRemoveThePlaceholder) {
  Json body = score("q1 q2", content({text_part("d1 d2"), image("http://i/1.png"), text_part("d3")}));
  body["max_tokens_per_doc"] = 1;
  const Json out = accepted(envelope("score", body, kMultimodal));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, IMG, SEP}));
  EXPECT_EQ(prompt(out, 0)["multi_modal_data"], (Json{{"image", {"http://i/1.png"}}}));

  Json query_side = score(content({image("u"), text_part("q1 q2 q3")}), "d1");
  query_side["max_tokens_per_query"] = 1;
  EXPECT_EQ(ids(accepted(envelope("score", query_side, kMultimodal)), 0), (Ints{CLS, IMG, Q1, SEP, D1, SEP}));
}

TEST(PreprocessTokenLimits, AreValidatedWithTheExactMessages) {
  expect_error(envelope("score", with(score(kQ, kD), "max_tokens_per_query", -1)),
               "max_tokens_per_query must be a non-negative integer", "max_tokens_per_query");
  expect_error(envelope("score", with(score(kQ, kD), "max_tokens_per_doc", -3)),
               "max_tokens_per_doc must be a non-negative integer", "max_tokens_per_doc");
  expect_error(envelope("score", with(score(kQ, kD), "max_tokens_per_query", 512)),
               "max_tokens_per_query (512) must be less than max_model_len (512).", "max_tokens_per_query");
  expect_error(envelope("score", with(score(kQ, kD), "max_tokens_per_doc", 9), bert(6)),
               "max_tokens_per_doc (9) must be less than max_model_len (6).", "max_tokens_per_doc");
  // Just below max_model_len passes.
  EXPECT_EQ(count(accepted(envelope("score", with(score(kQ, kD), "max_tokens_per_query", 511)))), 1u);
  // The query's limit is checked first.
  Json both = score(kQ, kD);
  both["max_tokens_per_query"] = -1;
  both["max_tokens_per_doc"] = -1;
  expect_error(envelope("score", both), "max_tokens_per_query must be a non-negative integer",
               "max_tokens_per_query");
}

TEST(PreprocessTokenLimits, OfflineTheyTravelInExtraKwargs) {
  const Json out = accepted(envelope(
      "llm.score", offline("q1 q2 q3", "d1 d2 d3", Json{{"extra_kwargs", {{"max_tokens_per_doc", 1}, {"max_tokens_per_query", 2}}}})));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
  // Every key survives, the boundary is added last.
  EXPECT_EQ(extras(out, 0).dump(),
            R"({"max_tokens_per_doc":1,"max_tokens_per_query":2,"compressed_token_type_ids":4})");

  // null means 0 (off).
  const Json null = accepted(envelope("llm.score", offline("q1", "d1 d2", Json{{"extra_kwargs", {{"max_tokens_per_doc", nullptr}}}})));
  EXPECT_EQ(ids(null, 0), (Ints{CLS, Q1, SEP, D1, D2, SEP}));

  // A non-integer is a type error naming the field.
  Error e = rejected(envelope("llm.score", offline("q1", "d1", Json{{"extra_kwargs", {{"max_tokens_per_query", "2"}}}})));
  EXPECT_EQ(e.code, 400);
  ASSERT_TRUE(e.param.has_value());
  EXPECT_NE(e.param->find("max_tokens_per_query"), std::string::npos) << *e.param;
  EXPECT_EQ(e.message, *e.param + ": Input should be a valid integer");

  Error too_big = rejected(envelope("llm.score", offline("q1", "d1", Json{{"extra_kwargs", {{"max_tokens_per_doc", 512}}}})));
  EXPECT_EQ(too_big.message, "max_tokens_per_doc (512) must be less than max_model_len (512).");
  Error negative = rejected(envelope("llm.score", offline("q1", "d1", Json{{"extra_kwargs", {{"max_tokens_per_doc", -1}}}})));
  EXPECT_EQ(negative.message, "max_tokens_per_doc must be a non-negative integer");
}

// ----------------------------------------------------------- longest-first

Json truncated(const std::string& q, const std::string& d, std::int64_t t) {
  return with(score(q, d), "truncate_prompt_tokens", t);
}

TEST(PreprocessLongestFirst, RemovesFromTheEndOfTheLongerSideDocumentOnATie) {
  // 3 query words, 5 document words: 11 tokens.
  const std::string q = "q1 q2 q3", d = "d1 d2 d3 d4 d5";
  // 9: two from the (longer) document.
  Json out = accepted(envelope("score", truncated(q, d, 9)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, Q3, SEP, D1, D2, D3, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(5));
  // 8: the sides tie at 3, then the document loses one more.
  out = accepted(envelope("score", truncated(q, d, 8)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, Q3, SEP, D1, D2, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(5));
  // 7: ... then the query (now the longer side).
  out = accepted(envelope("score", truncated(q, d, 7)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, D2, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(4));
  // 6: document again on the tie.
  out = accepted(envelope("score", truncated(q, d, 6)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
  // A target at or above the length changes nothing.
  out = accepted(envelope("score", truncated(q, d, 11)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, Q3, SEP, D1, D2, D3, D4, D5, SEP}));
}

TEST(PreprocessLongestFirst, RemovesFromTheQueryWhenItIsLonger) {
  const Json out = accepted(envelope("score", truncated("q1 q2 q3 q4 q5", "d1 d2", 8)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, Q3, SEP, D1, D2, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(5));
}

TEST(PreprocessLongestFirst, KeepsTheSpecials) {
  const Json env = envelope("score", truncated(kQ, kD, 3));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{CLS, SEP, SEP}));
  EXPECT_EQ(types(env), (Ints{0, 0, 1}));
  EXPECT_EQ(extras(out, 0), boundary(2));
}

TEST(PreprocessLongestFirst, FallsBackToTheModelsSideWhenOnlySpecialsRemain) {
  // Model side right (the default): the first 2 of [CLS, SEP, SEP].
  Json env = envelope("score", truncated(kQ, kD, 2));
  EXPECT_EQ(ids(accepted(env), 0), (Ints{CLS, SEP}));
  EXPECT_EQ(types(env), (Ints{0, 0}));
  EXPECT_EQ(extras(accepted(env), 0), boundary(2));
  // Model side left: the last 2.
  const Json left_model = Json{{"tokenizer", {{"truncation_side", "left"}}}};
  env = envelope("score", truncated(kQ, kD, 2), left_model);
  EXPECT_EQ(ids(accepted(env), 0), (Ints{SEP, SEP}));
  EXPECT_EQ(types(env), (Ints{0, 1}));
  EXPECT_EQ(extras(accepted(env), 0), boundary(1));
  env = envelope("score", truncated(kQ, kD, 1), left_model);
  EXPECT_EQ(ids(accepted(env), 0), (Ints{SEP}));
  EXPECT_EQ(extras(accepted(env), 0), boundary(0));
  // The model's side plays no part while words can still be removed.
  EXPECT_EQ(ids(accepted(envelope("score", truncated(kQ, kD, 6), left_model)), 0),
            (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
}

TEST(PreprocessLongestFirst, LlmStyleHasNoSpecials) {
  const Json out = accepted(envelope("score", truncated(kQ, kD, 3), kLlm));
  EXPECT_EQ(ids(out, 0), (Ints{Q1, Q2, D1}));
  EXPECT_EQ(ids(accepted(envelope("score", truncated(kQ, kD, 0), kLlm)), 0), Ints{});
}

TEST(PreprocessLongestFirst, KeepsThePlaceholderAndCountsOnlyWords) {
  // Query 2 words; document 3 words then an image. Fixed: 3 specials + the placeholder.
  Json body = score(kQ, content({text_part("d1 d2 d3"), image("u")}));
  body["truncate_prompt_tokens"] = 7;
  Json out = accepted(envelope("score", body, kMultimodal));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, IMG, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(4));
  EXPECT_EQ(prompt(out, 0)["multi_modal_data"], (Json{{"image", {"u"}}}));

  // 3 query words after an image against 3 document words: a tie in words
  // (the placeholder does not make the query longer), so the document loses one.
  body = score(content({image("u"), text_part("q1 q2 q3")}), "d1 d2 d3");
  body["truncate_prompt_tokens"] = 9;
  out = accepted(envelope("score", body, kMultimodal));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, IMG, Q1, Q2, Q3, SEP, D1, D2, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(6));

  // Down to the specials and the placeholder.
  body["truncate_prompt_tokens"] = 4;
  out = accepted(envelope("score", body, kMultimodal));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, IMG, SEP, SEP}));
}

// --------------------------------------------------------- explicit slicing

Json sliced(std::int64_t t, const std::string& side) {
  Json body = truncated(kQ, kD, t);
  body["truncation_side"] = side;
  return body;
}

TEST(PreprocessSlicing, RightKeepsTheFirstT) {
  const Json env = envelope("score", sliced(5, "right"));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1}));
  EXPECT_EQ(types(env), (Ints{0, 0, 0, 0, 1}));
  EXPECT_EQ(extras(out, 0), boundary(4));
  // Slicing, not longest-first: the last SEP is gone although words could have been removed.
  EXPECT_EQ(ids(accepted(envelope("score", sliced(3, "right"))), 0), (Ints{CLS, Q1, Q2}));
  EXPECT_EQ(extras(accepted(envelope("score", sliced(3, "right"))), 0), boundary(3));
}

TEST(PreprocessSlicing, LeftKeepsTheLastTAndTheBoundaryFollows_47772) {
  // [CLS q1 q2 SEP | d1 d2 d3 SEP] keeping the last 5: the boundary is 1, not len(q)+2 = 4.
  const Json env = envelope("score", sliced(5, "left"));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{SEP, D1, D2, D3, SEP}));
  EXPECT_EQ(types(env), (Ints{0, 1, 1, 1, 1}));
  EXPECT_EQ(extras(out, 0), boundary(1));
  // Cutting into the document: every type is 1.
  const Json into = accepted(envelope("score", sliced(3, "left")));
  EXPECT_EQ(ids(into, 0), (Ints{D2, D3, SEP}));
  EXPECT_EQ(extras(into, 0), boundary(0));
}

TEST(PreprocessSlicing, RequestSideOverridesTheModelsSide) {
  const Json left_model = Json{{"tokenizer", {{"truncation_side", "left"}}}};
  EXPECT_EQ(ids(accepted(envelope("score", sliced(4, "right"), left_model)), 0), (Ints{CLS, Q1, Q2, SEP}));
  EXPECT_EQ(ids(accepted(envelope("score", sliced(4, "left"))), 0), (Ints{D1, D2, D3, SEP}));
}

TEST(PreprocessSlicing, OfflineAcceptsATruncationSide) {
  Json call = offline(kQ, kD);
  call["truncate_prompt_tokens"] = 5;
  call["truncation_side"] = "left";
  const Json out = accepted(envelope("llm.score", call));
  EXPECT_EQ(ids(out, 0), (Ints{SEP, D1, D2, D3, SEP}));
  EXPECT_EQ(extras(out, 0), boundary(1));
  call.erase("truncation_side");
  EXPECT_EQ(ids(accepted(envelope("llm.score", call)), 0), (Ints{CLS, Q1, SEP, D1, SEP}));
}

TEST(PreprocessSlicing, LlmAndXlmRSliceTheSameWay) {
  EXPECT_EQ(ids(accepted(envelope("score", sliced(2, "left"), kLlm)), 0), (Ints{D2, D3}));
  const Json xlmr = accepted(envelope("score", sliced(5, "left"), kXlmR));
  EXPECT_EQ(ids(xlmr, 0), (Ints{SEP, D1, D2, D3, SEP}));
  EXPECT_EQ(extras(xlmr, 0), nullptr);
}

// ------------------------------------------------- targets and context length

TEST(PreprocessTarget, MinusOneMeansMaxModelLen) {
  // 8 tokens, max_model_len 6: longest-first to 6.
  const Json out = accepted(envelope("score", truncated(kQ, kD, -1), bert(6)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
  EXPECT_EQ(ids(out, 0), ids(accepted(envelope("score", truncated(kQ, kD, 6), bert(6))), 0));
  // With a side: sliced to 6.
  Json left = truncated(kQ, kD, -1);
  left["truncation_side"] = "left";
  EXPECT_EQ(ids(accepted(envelope("score", left, bert(6))), 0), (Ints{Q2, SEP, D1, D2, D3, SEP}));
}

TEST(PreprocessTarget, AboveMaxModelLenIsRejected) {
  expect_error(envelope("score", truncated(kQ, kD, 7), bert(6)),
               "truncate_prompt_tokens value is greater than max_model_len. Please request a smaller truncation size.",
               "truncate_prompt_tokens");
  expect_error(envelope("llm.score", with(offline(kQ, kD), "truncate_prompt_tokens", 513)),
               "truncate_prompt_tokens value is greater than max_model_len. Please request a smaller truncation size.",
               "truncate_prompt_tokens");
  EXPECT_EQ(count(accepted(envelope("score", truncated(kQ, kD, 6), bert(6)))), 1u);
  expect_error(envelope("score", truncated(kQ, kD, -2)),
               "truncate_prompt_tokens: Input should be greater than or equal to -1", "truncate_prompt_tokens");
}

std::string context_message(std::int64_t n, std::int64_t m) {
  return "You passed " + std::to_string(n) +
         " input tokens and requested 0 output tokens. However, the model's context length is only " +
         std::to_string(m) + " tokens, resulting in a maximum input length of " + std::to_string(m) +
         " tokens. Please reduce the length of the input prompt.";
}

TEST(PreprocessTarget, ContextLengthMessage) {
  expect_error(envelope("score", score(kQ, kD), bert(6)),
               "You passed 8 input tokens and requested 0 output tokens. However, the model's context length is "
               "only 6 tokens, resulting in a maximum input length of 6 tokens. Please reduce the length of the "
               "input prompt.",
               std::nullopt);
  EXPECT_EQ(context_message(8, 6),
            "You passed 8 input tokens and requested 0 output tokens. However, the model's context length is "
            "only 6 tokens, resulting in a maximum input length of 6 tokens. Please reduce the length of the "
            "input prompt.");
  // Exactly max_model_len passes.
  EXPECT_EQ(ids(accepted(envelope("score", score(kQ, "d1"), bert(6))), 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
  // Offline and on the other styles too.
  expect_error(envelope("llm.score", offline(kQ, kD), bert(7)), context_message(8, 7), std::nullopt);
  expect_error(envelope("score", score(kQ, kD), Json{{"max_model_len", 4}, {"tokenizer", {{"use_sep_token", false}}}}),
               context_message(5, 4), std::nullopt);
}

TEST(PreprocessTarget, ContextLengthCountsTokensAfterTheMaxTokensCut) {
  Json body = score(kQ, kD);
  body["max_tokens_per_doc"] = 2;
  expect_error(envelope("score", body, bert(6)), context_message(7, 6), std::nullopt);
  body["max_tokens_per_doc"] = 1;
  EXPECT_EQ(ids(accepted(envelope("score", body, bert(6))), 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP}));
}

TEST(PreprocessTarget, ContextLengthIsCheckedPerPairInOrder) {
  // The second document is too long.
  Error e = rejected(envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d1 d2 d3"}}}, bert(5)));
  EXPECT_EQ(e.message, context_message(7, 5));
}

// ----------------------------------------------------------------- padding

Json padded_model(std::int64_t max_model_len, std::int64_t pad) {
  return Json{{"max_model_len", max_model_len}, {"tokenizer", {{"pad_token_id", pad}}}};
}

TEST(PreprocessPadding, PadsIdsWithPadTokenIdAndTypesWithTheirLastValue) {
  const Json env = envelope("score", with(score(kQ, kD), "padding", "max_length"), padded_model(10, 7));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, SEP, D1, D2, D3, SEP, 7, 7}));
  EXPECT_EQ(types(env), (Ints{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(extras(out, 0), boundary(4));
}

TEST(PreprocessPadding, DefaultPadTokenIsZero) {
  const Json out = accepted(envelope("score", with(score("q1", "d1"), "padding", "max_length"), bert(7)));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, SEP, D1, SEP, 0, 0}));
}

TEST(PreprocessPadding, AllZeroTypesGiveBoundaryMaxModelLen) {
  Json body = sliced(3, "right");
  body["padding"] = "max_length";
  const Json env = envelope("score", body, padded_model(10, 7));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, Q2, 7, 7, 7, 7, 7, 7, 7}));
  EXPECT_EQ(types(env), Ints(10, 0));
  EXPECT_EQ(extras(out, 0), boundary(10));
}

TEST(PreprocessPadding, DoNotPadAndAbsentDoNotPad) {
  EXPECT_EQ(ids(accepted(envelope("score", with(score(kQ, kD), "padding", "do_not_pad"), bert(10))), 0),
            (Ints{CLS, Q1, Q2, SEP, D1, D2, D3, SEP}));
  EXPECT_EQ(ids(accepted(envelope("score", with(score(kQ, kD), "padding", nullptr), bert(10))), 0),
            (Ints{CLS, Q1, Q2, SEP, D1, D2, D3, SEP}));
}

TEST(PreprocessPadding, XlmRAndLlmPadIdsOnly) {
  Json model = kXlmR;
  model["max_model_len"] = 10;
  model["tokenizer"]["pad_token_id"] = 1;
  const Json xlmr = accepted(envelope("score", with(score(kQ, kD), "padding", "max_length"), model));
  EXPECT_EQ(ids(xlmr, 0), (Ints{CLS, Q1, Q2, SEP, D1, D2, D3, SEP, 1, 1}));
  EXPECT_EQ(extras(xlmr, 0), nullptr);
  Json llm = kLlm;
  llm["max_model_len"] = 7;
  const Json plain = accepted(envelope("score", with(score(kQ, kD), "padding", "max_length"), llm));
  EXPECT_EQ(ids(plain, 0), (Ints{Q1, Q2, D1, D2, D3, 0, 0}));
  EXPECT_EQ(extras(plain, 0), nullptr);
}

TEST(PreprocessPadding, TruncateThenPad_54364) {
  // Sliced to 5, then padded to 10: the content survives (pad-then-truncate kept only padding).
  Json right = sliced(5, "right");
  right["padding"] = "max_length";
  Json env = envelope("score", right, padded_model(10, 7));
  EXPECT_EQ(ids(accepted(env), 0), (Ints{CLS, Q1, Q2, SEP, D1, 7, 7, 7, 7, 7}));
  EXPECT_EQ(types(env), (Ints{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(extras(accepted(env), 0), boundary(4));

  Json left = sliced(5, "left");
  left["padding"] = "max_length";
  env = envelope("score", left, padded_model(10, 7));
  EXPECT_EQ(ids(accepted(env), 0), (Ints{SEP, D1, D2, D3, SEP, 7, 7, 7, 7, 7}));
  EXPECT_EQ(extras(accepted(env), 0), boundary(1));

  Json longest = truncated(kQ, kD, 6);
  longest["padding"] = "max_length";
  env = envelope("score", longest, padded_model(10, 7));
  EXPECT_EQ(ids(accepted(env), 0), (Ints{CLS, Q1, Q2, SEP, D1, SEP, 7, 7, 7, 7}));
  EXPECT_EQ(extras(accepted(env), 0), boundary(4));
}

// ------------------------------------------------------ truncate_prompt_tokens: 0

TEST(PreprocessZeroTarget, GivesAnEmptyPromptAndTheBaseParams) {
  const Json env = envelope("score", truncated(kQ, kD, 0));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), Ints{});
  EXPECT_EQ(types(env), Ints{});
  // Empty types: no compressed key, the base params as they are.
  EXPECT_EQ(pair(out, 0)["pooling_params"], classify_params(nullptr));
  // With a side too.
  EXPECT_EQ(ids(accepted(envelope("score", sliced(0, "left"))), 0), Ints{});
  EXPECT_EQ(ids(accepted(envelope("score", truncated(kQ, kD, 0), kXlmR)), 0), Ints{});
}

TEST(PreprocessZeroTarget, OfflineKeepsTheCallersExtrasAndAnyUserBoundary) {
  const Json params = Json{{"use_activation", false}, {"extra_kwargs", {{"a", 1}, {"compressed_token_type_ids", 99}}}};
  const Json out = accepted(envelope("llm.score", with(offline(kQ, kD, params), "truncate_prompt_tokens", 0)));
  EXPECT_EQ(ids(out, 0), Ints{});
  EXPECT_EQ(extras(out, 0).dump(), R"({"a":1,"compressed_token_type_ids":99})");
  EXPECT_EQ(pair(out, 0)["pooling_params"]["use_activation"], false);
  EXPECT_EQ(pair(out, 0)["pooling_params"]["task"], "classify");
}

TEST(PreprocessZeroTarget, WithPaddingAllPadsAndBoundaryMaxModelLen) {
  Json body = truncated(kQ, kD, 0);
  body["padding"] = "max_length";
  const Json env = envelope("score", body, padded_model(6, 9));
  const Json out = accepted(env);
  EXPECT_EQ(ids(out, 0), (Ints{9, 9, 9, 9, 9, 9}));
  EXPECT_EQ(types(env), Ints(6, 0));
  EXPECT_EQ(extras(out, 0), boundary(6));
}

// ---------------------------------------------- offline extra_kwargs (#47082)

TEST(PreprocessOfflineExtras, EveryUserKeySurvivesAndTheBoundaryComesLast) {
  const Json params = Json{{"extra_kwargs", {{"user_a", 1}, {"nested", {{"x", {1, 2}}, {"y", nullptr}}}, {"z", "last"}}}};
  const Json out = accepted(envelope("llm.score", offline(kQ, {kD, "d1"}, params)));
  ASSERT_EQ(count(out), 2u);
  EXPECT_EQ(extras(out, 0).dump(),
            R"({"user_a":1,"nested":{"x":[1,2],"y":null},"z":"last","compressed_token_type_ids":4})");
  EXPECT_EQ(extras(out, 1).dump(),
            R"({"user_a":1,"nested":{"x":[1,2],"y":null},"z":"last","compressed_token_type_ids":4})");
}

TEST(PreprocessOfflineExtras, ComputedBoundaryWinsAndKeepsTheUsersPosition) {
  // vLLM builds `{**old, "compressed_token_type_ids": k}` (or assigns into a
  // copy): in a Python dict, assigning an existing key replaces its value where
  // the key already stands, so a user-supplied key keeps its position, while a
  // new key goes last. The wire form (msgspec) writes maps in that order.
  const Json params = Json{{"extra_kwargs", {{"a", 1}, {"compressed_token_type_ids", 99}, {"z", 2}}}};
  const Json out = accepted(envelope("llm.score", offline(kQ, kD, params)));
  EXPECT_EQ(extras(out, 0).dump(), R"({"a":1,"compressed_token_type_ids":4,"z":2})");
  // Null from the user is replaced too.
  const Json null_key = Json{{"extra_kwargs", {{"compressed_token_type_ids", nullptr}, {"b", true}}}};
  EXPECT_EQ(extras(accepted(envelope("llm.score", offline(kQ, kD, null_key))), 0).dump(),
            R"({"compressed_token_type_ids":4,"b":true})");
}

TEST(PreprocessOfflineExtras, OtherCallerFieldsAreKeptInThePairsParams) {
  const Json params = Json{{"use_activation", false}, {"requires_token_ids", true}, {"skip_reading_prefix_cache", true},
                           {"extra_kwargs", {{"k", "v"}}}};
  const Json out = accepted(envelope("llm.score", offline(kQ, kD, params)));
  Json want = classify_params(Json{{"k", "v"}, {"compressed_token_type_ids", 4}}, false);
  want["requires_token_ids"] = true;
  want["skip_reading_prefix_cache"] = true;
  EXPECT_EQ(pair(out, 0)["pooling_params"].dump(), want.dump());
}

TEST(PreprocessOfflineExtras, NoParamsOrNoExtrasGiveJustTheBoundary) {
  EXPECT_EQ(extras(accepted(envelope("llm.score", offline(kQ, kD))), 0), boundary(4));
  EXPECT_EQ(extras(accepted(envelope("llm.score", offline(kQ, kD, Json::object()))), 0), boundary(4));
  EXPECT_EQ(extras(accepted(envelope("llm.score", offline(kQ, kD, Json{{"extra_kwargs", Json::object()}}))), 0),
            boundary(4));
}

TEST(PreprocessOfflineExtras, UserBoundaryOnAModelWithoutTypesPassesThrough_VllmQuirk) {
  const Json params = Json{{"extra_kwargs", {{"compressed_token_type_ids", 99}, {"k", "v"}}}};
  for (const Json& model : {kXlmR, kLlm}) {
    const Json out = accepted(envelope("llm.score", offline(kQ, kD, params), model));
    EXPECT_EQ(extras(out, 0).dump(), R"({"compressed_token_type_ids":99,"k":"v"})") << model.dump();
  }
}

TEST(PreprocessOfflineExtras, TaskConflictIsRejected) {
  expect_error(envelope("llm.score", offline(kQ, kD, Json{{"task", "embed"}})),
               "You cannot overwrite self.task='embed' with task='classify'!", std::nullopt);
  expect_error(envelope("llm.score", offline(kQ, kD, Json{{"task", "token_classify"}})),
               "You cannot overwrite self.task='token_classify' with task='classify'!", std::nullopt);
  const Json ok = accepted(envelope("llm.score", offline(kQ, kD, Json{{"task", "classify"}})));
  EXPECT_EQ(pair(ok, 0)["pooling_params"]["task"], "classify");
  EXPECT_EQ(ok["caller_pooling_params"]["task"], "classify");
}

// ------------------------------------------------------------- prompt extras

TEST(PreprocessPromptExtras, OnlineTheEnginePromptGetsExactlyTheNonNullExtras) {
  Json body = score(kQ, {kD, "d1"});
  body["cache_salt"] = "salt-1";
  body["mm_processor_kwargs"] = Json{{"a", 1}};
  body["chat_template_kwargs"] = Json{{"x", 1}};
  body["instruction"] = "rank these";
  const Json out = accepted(envelope("score", body));
  ASSERT_EQ(count(out), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const Json& p = prompt(out, i);
    EXPECT_EQ(p.size(), 3u) << p.dump();
    EXPECT_EQ(p["cache_salt"], "salt-1");
    EXPECT_EQ(p["mm_processor_kwargs"], (Json{{"a", 1}}));
    EXPECT_FALSE(p.contains("chat_template_kwargs"));
    EXPECT_FALSE(p.contains("instruction"));
    // Online extras never go into the params.
    EXPECT_EQ(extras(out, i), boundary(4));
  }
  EXPECT_EQ(prompt(out, 0).dump(),
            R"({"prompt_token_ids":[101,2575,11698,102,22270,13147,4024,102],"cache_salt":"salt-1","mm_processor_kwargs":{"a":1}})");
}

TEST(PreprocessPromptExtras, OnlineNullOrAbsentExtrasStayOut) {
  Json body = score(kQ, kD);
  body["cache_salt"] = nullptr;
  body["mm_processor_kwargs"] = nullptr;
  const Json out = accepted(envelope("rerank", Json{{"query", kQ}, {"documents", kD}, {"cache_salt", nullptr},
                                                    {"mm_processor_kwargs", nullptr}, {"chat_template_kwargs", {{"k", 1}}}}));
  EXPECT_EQ(prompt(out, 0).dump(), R"({"prompt_token_ids":[101,2575,11698,102,22270,13147,4024,102]})");
  EXPECT_EQ(prompt(accepted(envelope("score", body)), 0).dump(),
            R"({"prompt_token_ids":[101,2575,11698,102,22270,13147,4024,102]})");
  const Json one = accepted(envelope("score", with(score(kQ, kD), "mm_processor_kwargs", Json::object())));
  EXPECT_EQ(prompt(one, 0)["mm_processor_kwargs"], Json::object());
  EXPECT_FALSE(prompt(one, 0).contains("cache_salt"));
}

TEST(PreprocessPromptExtras, OfflineFromExtraKwargsCopiedUnvalidated) {
  const Json params = Json{{"extra_kwargs",
                            {{"cache_salt", ""}, {"mm_processor_kwargs", {{"b", 2}}}, {"chat_template_kwargs", {{"c", 3}}}}}};
  const Json out = accepted(envelope("llm.score", offline(kQ, kD, params)));
  EXPECT_EQ(prompt(out, 0).dump(),
            R"({"prompt_token_ids":[101,2575,11698,102,22270,13147,4024,102],"cache_salt":"","mm_processor_kwargs":{"b":2}})");
  // The extras stay in extra_kwargs as well: no key is lost.
  EXPECT_EQ(extras(out, 0).dump(),
            R"({"cache_salt":"","mm_processor_kwargs":{"b":2},"chat_template_kwargs":{"c":3},"compressed_token_type_ids":4})");

  // Online these would be rejected; offline they are copied as given.
  for (const Json& salt : {Json("a/b@c\\"), Json(std::string(200, 's')), Json(5), Json::array({1})}) {
    const Json copied = accepted(envelope("llm.score", offline(kQ, kD, Json{{"extra_kwargs", {{"cache_salt", salt}}}})));
    EXPECT_EQ(prompt(copied, 0)["cache_salt"], salt);
  }
  const Json non_object = accepted(envelope("llm.score", offline(kQ, kD, Json{{"extra_kwargs", {{"mm_processor_kwargs", "x"}}}})));
  EXPECT_EQ(prompt(non_object, 0)["mm_processor_kwargs"], "x");
}

TEST(PreprocessPromptExtras, OfflineNullExtrasStayOut) {
  const Json params = Json{{"extra_kwargs", {{"cache_salt", nullptr}, {"mm_processor_kwargs", nullptr}}}};
  const Json out = accepted(envelope("llm.score", offline(kQ, kD, params)));
  EXPECT_EQ(prompt(out, 0).dump(), R"({"prompt_token_ids":[101,2575,11698,102,22270,13147,4024,102]})");
  // ... but the keys themselves survive in extra_kwargs.
  EXPECT_EQ(extras(out, 0).dump(), R"({"cache_salt":null,"mm_processor_kwargs":null,"compressed_token_type_ids":4})");
}

// -------------------------------------------------------------- multimodal

TEST(PreprocessMultimodal, PlaceholderAndImageInTheEnginePrompt) {
  const Json env = envelope("score", score("q1", content({text_part("d1"), image("http://x/1.png")})), kMultimodal);
  const Json out = accepted(env);
  EXPECT_EQ(prompt(out, 0).dump(),
            R"({"prompt_token_ids":[101,2575,102,22270,103,102],"multi_modal_data":{"image":["http://x/1.png"]}})");
  EXPECT_EQ(types(env), (Ints{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(extras(out, 0), boundary(3));

  // An image in the query stands in the query.
  const Json query_image = accepted(
      envelope("score", score(content({text_part("q1"), image("u"), text_part("q2")}), "d1"), kMultimodal));
  EXPECT_EQ(ids(query_image, 0), (Ints{CLS, Q1, IMG, Q2, SEP, D1, SEP}));
  EXPECT_EQ(extras(query_image, 0), boundary(5));
  EXPECT_EQ(prompt(query_image, 0)["multi_modal_data"], (Json{{"image", {"u"}}}));
}

TEST(PreprocessMultimodal, TextPartsAreJoinedWithASpace) {
  const Json out = accepted(envelope("score", score("q1", content({text_part("d1"), text_part("d2")})), kMultimodal));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, SEP, D1, D2, SEP}));
  EXPECT_FALSE(prompt(out, 0).contains("multi_modal_data"));
  // A string on a multimodal model is plain text.
  EXPECT_EQ(ids(accepted(envelope("score", score("q1", "d1 d2"), kMultimodal)), 0), (Ints{CLS, Q1, SEP, D1, D2, SEP}));
}

TEST(PreprocessMultimodal, UrlStaysWhenSlicingDropsThePlaceholder) {
  Json body = score("q1", content({text_part("d1"), image("http://x/1.png")}));
  body["truncate_prompt_tokens"] = 4;
  body["truncation_side"] = "right";
  const Json out = accepted(envelope("score", body, kMultimodal));
  EXPECT_EQ(ids(out, 0), (Ints{CLS, Q1, SEP, D1}));
  EXPECT_EQ(prompt(out, 0)["multi_modal_data"], (Json{{"image", {"http://x/1.png"}}}));

  // Longest-first down to fewer tokens than the specials and the placeholder: sliced too.
  body.erase("truncation_side");
  body["truncate_prompt_tokens"] = 2;
  const Json tiny = accepted(envelope("score", body, kMultimodal));
  EXPECT_EQ(ids(tiny, 0), (Ints{CLS, SEP}));
  EXPECT_EQ(prompt(tiny, 0)["multi_modal_data"], (Json{{"image", {"http://x/1.png"}}}));
}

TEST(PreprocessMultimodal, TwoImagesInAPairAreRejected) {
  expect_error(envelope("score", score(content({image("a")}), content({image("b")})), kMultimodal),
               "Only one multi-modal item is supported", std::nullopt);
  expect_error(envelope("score", score("q1", content({image("a"), text_part("d1"), image("b")})), kMultimodal),
               "Only one multi-modal item is supported", std::nullopt);
  expect_error(envelope("llm.score", offline(content({image("a")}), content({image("b")})), kMultimodal),
               "Only one multi-modal item is supported", std::nullopt);
  // One image per pair is fine, however many pairs carry one.
  const Json out = accepted(envelope(
      "rerank", Json{{"query", "q1"}, {"documents", {content({image("a")}), content({image("b")}), "d1"}}}, kMultimodal));
  ASSERT_EQ(count(out), 3u);
  EXPECT_EQ(prompt(out, 0)["multi_modal_data"], (Json{{"image", {"a"}}}));
  EXPECT_EQ(prompt(out, 1)["multi_modal_data"], (Json{{"image", {"b"}}}));
  EXPECT_FALSE(prompt(out, 2).contains("multi_modal_data"));
  // An image query paired with two text documents: the query's URL in both.
  const Json shared = accepted(envelope("rerank", Json{{"query", content({image("a")})}, {"documents", {"d1", "d2"}}}, kMultimodal));
  EXPECT_EQ(prompt(shared, 1)["multi_modal_data"], (Json{{"image", {"a"}}}));
  EXPECT_EQ(ids(shared, 1), (Ints{CLS, IMG, SEP, D2, SEP}));
}

TEST(PreprocessMultimodal, ObjectInputOnATextModelIsRejected) {
  expect_error(envelope("score", score("q1", content({text_part("d1")}))),
               "MultiModalParam is not supported for BertForSequenceClassification", std::nullopt);
}

// ------------------------------------------------------------- request ids

std::vector<std::string> request_ids(const Json& out) {
  std::vector<std::string> got;
  for (const auto& p : out["outputs"]) got.push_back(p["request_id"].get<std::string>());
  return got;
}

using Strings = std::vector<std::string>;

TEST(PreprocessRequestIds, ScoreAndRerank) {
  EXPECT_EQ(request_ids(accepted(envelope("score", with(score("q1", {"d1", "d2", "d3"}), "request_id", "abc")))),
            (Strings{"score-abc-0", "score-abc-1", "score-abc-2"}));
  EXPECT_EQ(request_ids(accepted(envelope("score", score("q1", {"d1", "d2"})))), (Strings{"score-0-0", "score-0-1"}));
  EXPECT_EQ(request_ids(accepted(envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d2"}}, {"request_id", "r-7"}}))),
            (Strings{"rerank-r-7-0", "rerank-r-7-1"}));
  EXPECT_EQ(request_ids(accepted(envelope("rerank", Json{{"query", "q1"}, {"documents", "d1"}}))), Strings{"rerank-0-0"});
}

TEST(PreprocessRequestIds, EmptyIdIsUsedVerbatim) {
  EXPECT_EQ(request_ids(accepted(envelope("score", with(score("q1", "d1"), "request_id", "")))), Strings{"score--0"});
}

TEST(PreprocessRequestIds, OfflineIsScoreZero) {
  EXPECT_EQ(request_ids(accepted(envelope("llm.score", offline("q1", {"d1", "d2", "d3"})))),
            (Strings{"score-0-0", "score-0-1", "score-0-2"}));
}

// ------------------------------------------------------ the caller's params

TEST(PreprocessCallerParams, UnchangedAfterAnOfflineCall) {
  const Json params = Json{{"use_activation", true}, {"extra_kwargs", {{"a", {1, {{"b", 2}}}}, {"cache_salt", "s"}}}};
  const Json env = envelope("llm.score", offline("q1", {"d1", "d2"}, params));
  auto parsed = parse_envelope(env.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_TRUE(parsed->request.caller_params);
  const PoolingParams before = parsed->request.caller_params->clone();
  auto out = preprocess(parsed->model, parsed->request);
  ASSERT_TRUE(out.ok()) << out.error().message;
  const PoolingParams& caller = *parsed->request.caller_params;
  EXPECT_TRUE(deep_equal(caller, before)) << params_to_object(caller).dump();
  EXPECT_EQ(caller.task, std::nullopt);  // not even its task
  ASSERT_EQ(out->outputs.size(), 2u);
  for (const auto& p : out->outputs) {
    EXPECT_NE(p.pooling_params.extra_kwargs, caller.extra_kwargs);
    EXPECT_NE(p.pooling_params.extra_kwargs, out->base_params.extra_kwargs);
  }
  EXPECT_NE(out->outputs[0].pooling_params.extra_kwargs, out->outputs[1].pooling_params.extra_kwargs);
  EXPECT_NE(out->base_params.extra_kwargs, caller.extra_kwargs);

  // Mutating a pair's extras does not reach the caller's.
  (*out->outputs[0].pooling_params.extra_kwargs)["a"][1]["b"] = 3;
  EXPECT_TRUE(deep_equal(caller, before));
  EXPECT_EQ((*out->outputs[1].pooling_params.extra_kwargs)["a"][1]["b"], 2);
}

TEST(PreprocessCallerParams, OutputShowsThemAsGiven) {
  const Json params = Json{{"use_activation", true}, {"dimensions", 8}, {"extra_kwargs", {{"a", 1}}}};
  const Json out = accepted(envelope("llm.score", offline(kQ, kD, params)));
  Json want = Json::object();
  want["use_activation"] = true;
  want["dimensions"] = 8;
  want["step_tag_id"] = nullptr;
  want["returned_token_ids"] = nullptr;
  want["task"] = nullptr;
  want["requires_token_ids"] = false;
  want["skip_reading_prefix_cache"] = nullptr;
  want["late_interaction_params"] = nullptr;
  want["extra_kwargs"] = Json{{"a", 1}};
  want["output_kind"] = "FINAL_ONLY";
  EXPECT_EQ(out["caller_pooling_params"].dump(), want.dump());
  // The pair got the task and the boundary; the caller did not.
  EXPECT_EQ(pair(out, 0)["pooling_params"]["task"], "classify");
  EXPECT_EQ(extras(out, 0).dump(), R"({"a":1,"compressed_token_type_ids":4})");
}

TEST(PreprocessCallerParams, NullWhenNoneWereGivenAndAbsentOnline) {
  const Json out = accepted(envelope("llm.score", offline(kQ, kD)));
  ASSERT_TRUE(out.contains("caller_pooling_params"));
  EXPECT_EQ(out["caller_pooling_params"], nullptr);
  const Json explicit_null = accepted(envelope("llm.score", with(offline(kQ, kD), "pooling_params", nullptr)));
  EXPECT_EQ(explicit_null["caller_pooling_params"], nullptr);
  EXPECT_FALSE(accepted(envelope("score", score(kQ, kD))).contains("caller_pooling_params"));
}

TEST(PreprocessCallerParams, PairsWithoutTypesShareAnUnchangedBase) {
  // XLM-R: the base params are used as they are; still never the caller's own object.
  const Json env = envelope("llm.score", offline("q1", {"d1", "d2"}, Json{{"extra_kwargs", {{"a", 1}}}}), kXlmR);
  auto parsed = parse_envelope(env.dump());
  ASSERT_TRUE(parsed.ok());
  auto out = preprocess(parsed->model, parsed->request);
  ASSERT_TRUE(out.ok()) << out.error().message;
  for (const auto& p : out->outputs) {
    EXPECT_NE(p.pooling_params.extra_kwargs, parsed->request.caller_params->extra_kwargs);
    EXPECT_EQ(*p.pooling_params.extra_kwargs, (Json{{"a", 1}}));
  }
  EXPECT_EQ(parsed->request.caller_params->task, std::nullopt);
}

// ------------------------------------------------------------- determinism

TEST(PreprocessDeterminism, SameInputByteIdenticalOutput) {
  const std::vector<Json> inputs = {
      envelope("llm.score", offline("q1 q2", {"d1 d2 d3", "d4"}, Json{{"extra_kwargs", {{"z", 1}, {"a", {{"y", 2}, {"b", 3}}}}}})),
      envelope("rerank", Json{{"query", content({image("u"), text_part("Q1")})}, {"documents", {"d1", "d2"}},
                              {"truncate_prompt_tokens", 4}, {"padding", "max_length"}, {"cache_salt", "s"}},
               Json{{"is_multimodal", true}, {"max_model_len", 8}}),
      envelope("score", score(kQ, kD), bert(3)),  // an error
  };
  for (const auto& env : inputs) {
    const std::string bytes = env.dump();
    auto first = preprocess_json(bytes);
    auto second = preprocess_json(bytes);
    ASSERT_EQ(first.ok(), second.ok());
    if (first.ok()) {
      EXPECT_EQ(dump_json(*first), dump_json(*second));
    } else {
      EXPECT_EQ(dump_json(error_body(first.error())), dump_json(error_body(second.error())));
    }
  }
}

// ------------------------------------------------------- the resource bound

const std::string kTooManyTokens = "The request would produce more than 16777216 prompt tokens in total.";

TEST(PreprocessResourceBound, OnePaddedPairAboveTwoToThe24IsRejected) {
  for (std::int64_t max_len : {(std::int64_t{1} << 24) + 1, std::numeric_limits<std::int64_t>::max()}) {
    expect_error(envelope("score", with(score("q1", "d1"), "padding", "max_length"), bert(max_len)), kTooManyTokens,
                 std::nullopt);
  }
}

TEST(PreprocessResourceBound, TheTotalOverPairsIsBounded) {
  // Two pairs padded to 2^23 + 1: the second one crosses 2^24.
  const std::int64_t half = (std::int64_t{1} << 23) + 1;
  expect_error(envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d2"}}, {"padding", "max_length"}},
                        bert(half)),
               kTooManyTokens, std::nullopt);
}

// plan_prompt_lengths(request) is preprocess's verdict without the tokens.
Result<Ints> planned(const Json& env) {
  auto parsed = parse_envelope(env.dump());
  if (!parsed) return parsed.error();
  return plan_prompt_lengths(parsed->model, parsed->request);
}

TEST(PreprocessPlan, LengthsAreThePromptsAndErrorsThePreprocessErrors) {
  const Json cases[] = {
      envelope("score", score("q1 q2", Json{"d1", "d2 d3 d4"})),
      envelope("score", with(score("q1", "d1 d2"), "padding", "max_length"), bert(12)),
      envelope("rerank", Json{{"query", "q1 q2 q3"}, {"documents", {"d1", "d2"}}, {"truncate_prompt_tokens", 4}}),
      envelope("score", with(score("q1", "d1"), "model", "other")),                       // 404
      envelope("score", score("q1 q2 q3 q4", "d1 d2 d3 d4"), bert(6)),                    // context length
      envelope("score", with(score("q1", "d1"), "truncate_prompt_tokens", 9), bert(8)),   // truncation target
      envelope("score", score(Json{"q1", "q2"}, Json{"d1", "d2", "d3"})),                 // pairing
      envelope("score", with(score("q1", "d1"), "padding", "max_length"), bert((std::int64_t{1} << 24) + 1)),
  };
  for (const Json& env : cases) {
    const auto lengths = planned(env);
    auto parsed = parse_envelope(env.dump());
    ASSERT_TRUE(parsed.ok()) << env.dump();
    const auto output = preprocess(parsed->model, parsed->request);
    ASSERT_EQ(lengths.ok(), output.ok()) << env.dump();
    if (!output) {
      EXPECT_EQ(dump_json(error_body(lengths.error())), dump_json(error_body(output.error()))) << env.dump();
      continue;
    }
    Ints built;
    for (const auto& pair : output->outputs) built.push_back(static_cast<std::int64_t>(pair.prompt.prompt_token_ids.size()));
    EXPECT_EQ(*lengths, built) << env.dump();
  }
}

TEST(PreprocessPlan, DecidesTheTokenTotalWithoutBuildingIt) {
  const std::int64_t half = std::int64_t{1} << 23;
  const Json two_pairs{{"query", "q1"}, {"documents", {"d1", "d2"}}, {"padding", "max_length"}};
  const auto at_bound = planned(envelope("rerank", two_pairs, bert(half)));
  ASSERT_TRUE(at_bound.ok()) << at_bound.error().message;
  EXPECT_EQ(*at_bound, (Ints{half, half}));
  const auto past = planned(envelope("rerank", two_pairs, bert(half + 1)));
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().message, kTooManyTokens);
}

std::string huge_query(std::size_t words) {
  std::string q;
  q.reserve(words * 3);
  for (std::size_t i = 0; i < words; ++i) q += "q1 ";
  return q;
}

TEST(PreprocessResourceBound, HugeQueryTinyTruncationManyDocumentsCompletes) {
  // 2 million query words (6 MB of input) against 1000 documents, truncated
  // to 5 tokens: the core windows the truncation instead of copying the query
  // for every pair. Asserted: it completes, with the right prompts.
  Json body = Json::object();
  body["query"] = huge_query(2'000'000);
  body["documents"] = Json(std::vector<std::string>(1000, "d1"));
  body["truncate_prompt_tokens"] = 5;
  const Json out = accepted(envelope("rerank", body));
  ASSERT_EQ(count(out), 1000u);
  for (std::size_t i = 0; i < 1000; i += 333) {
    EXPECT_EQ(ids(out, i), (Ints{CLS, Q1, SEP, D1, SEP}));
    EXPECT_EQ(extras(out, i), boundary(3));
  }
  EXPECT_EQ(pair(out, 999)["request_id"], "rerank-0-999");

  body["truncation_side"] = "left";
  const Json left = accepted(envelope("rerank", body));
  ASSERT_EQ(count(left), 1000u);
  EXPECT_EQ(ids(left, 999), (Ints{Q1, Q1, SEP, D1, SEP}));
  EXPECT_EQ(extras(left, 999), boundary(3));
}

TEST(PreprocessResourceBound, HugeQueryWithoutTruncationIsTheContextError) {
  Json body = Json::object();
  body["query"] = huge_query(2'000'000);
  body["documents"] = Json(std::vector<std::string>(1000, "d1"));
  expect_error(envelope("rerank", body), context_message(2'000'004, 512), std::nullopt);
}

}  // namespace
}  // namespace poolcheck
