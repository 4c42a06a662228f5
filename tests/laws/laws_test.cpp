// The law library (properties/laws): every law holds on the core's real
// outputs, and every law that judges an output flags one that was broken on
// purpose (the historical bugs of spec section 9 among them). A law that could
// never report anything would be a defect; these tests make each one fire.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/envelope.hpp"
#include "core/fields.hpp"
#include "core/integer.hpp"
#include "core/json_api.hpp"
#include "core/json_input.hpp"
#include "core/msgpack.hpp"
#include "core/output_json.hpp"
#include "core/preprocess.hpp"
#include "core/tokenizer.hpp"
#include "core/unicode.hpp"
#include "core/verify.hpp"
#include "core/wire.hpp"
#include "properties/laws/check.hpp"
#include "properties/laws/coercion_laws.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/msgpack_laws.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/laws/rendered_laws.hpp"
#include "properties/laws/request_laws.hpp"
#include "properties/laws/token_type_laws.hpp"
#include "properties/laws/verify_laws.hpp"
#include "properties/laws/word_laws.hpp"
#include "tests/laws/law_test_support.hpp"

namespace poolcheck::laws {
namespace {

using Ints = std::vector<std::int64_t>;

// ------------------------------------------------------------------ helpers

// One accepted pre-processing run, kept whole so the laws can be pointed at it
// (and at a tampered copy of its output).
struct Run {
  Envelope envelope;
  std::optional<PoolingParams> before;
  PreprocessOutput output;
  mutable Json rendered;  // the output as printed, rendered afresh by each view()

  RequestRun view() const {
    rendered = preprocess_output_to_json(output, envelope.request);
    return {envelope, before, output, rendered};
  }
  PairOutput& pair(std::size_t i) { return output.outputs.at(i); }
  Json& extras(std::size_t i) { return *pair(i).pooling_params.extra_kwargs; }
};

std::unique_ptr<Run> run(const Json& env) {
  auto parsed = parse_envelope(env.dump());
  if (!parsed.ok()) {
    ADD_FAILURE() << "envelope rejected: " << parsed.error().message << "\n" << env.dump();
    return nullptr;
  }
  auto r = std::make_unique<Run>(Run{std::move(*parsed), std::nullopt, {}, {}});
  if (r->envelope.request.caller_params) r->before = r->envelope.request.caller_params->clone();
  auto out = preprocess(r->envelope.model, r->envelope.request);
  if (!out.ok()) {
    ADD_FAILURE() << "preprocess rejected: " << out.error().message << "\n" << env.dump();
    return nullptr;
  }
  r->output = std::move(*out);
  return r;
}

const Json kXlmR = Json{{"tokenizer", {{"returns_token_type_ids", false}}}};
const Json kLlm = Json{{"tokenizer", {{"use_sep_token", false}}}};
const Json kMultimodal = Json{{"is_multimodal", true}};

Json image(const std::string& url) { return Json{{"type", "image_url"}, {"image_url", {{"url", url}}}}; }
Json text_part(const std::string& text) { return Json{{"type", "text"}, {"text", text}}; }

// Offline, BERT, two pairs, the caller's extras carrying every kind of key.
Json offline_bert() {
  return envelope("llm.score",
                  Json{{"data_1", "q1 q2"},
                       {"data_2", {"d1 d2 d3", "d4"}},
                       {"pooling_params",
                        {{"use_activation", false},
                         {"extra_kwargs", {{"a", 1}, {"b", {{"c", {1, 2}}}}, {"cache_salt", "s"}, {"mm_processor_kwargs", {{"m", 1}}}}}}}});
}

std::vector<Json> good_envelopes() {
  return {
      envelope("score", Json{{"queries", "q1 q2"}, {"documents", {"d1 d2 d3", "d4", ""}}}),
      envelope("score", Json{{"data_1", {"q1", "q2"}}, {"data_2", {"d1", "d2 d3"}}, {"request_id", "x"}}),
      envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d2"}}, {"cache_salt", "salt"},
                              {"mm_processor_kwargs", {{"k", 1}}}, {"chat_template_kwargs", {{"c", 1}}}}),
      envelope("score", Json{{"text_1", "q1 q2"}, {"text_2", "d1 d2 d3"}}, kXlmR),
      envelope("score", Json{{"queries", "q1 q2"}, {"items", "d1 d2 d3"}, {"truncate_prompt_tokens", 3}}, kLlm),
      offline_bert(),
      envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", "d1"},
                                 {"pooling_params", {{"extra_kwargs", {{"compressed_token_type_ids", 99}}}}}}, kXlmR),
      envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", "d1"}, {"truncate_prompt_tokens", 0},
                                 {"pooling_params", {{"extra_kwargs", {{"z", 1}, {"compressed_token_type_ids", 7}}}}}}),
      envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", {"d1", "d2"}}}),
      envelope("rerank", Json{{"query", "q1 q2 q3"}, {"documents", {"d1 d2 d3 d4 d5", "d1"}}, {"truncate_prompt_tokens", 6}}),
      envelope("rerank", Json{{"query", "q1 q2"}, {"documents", {"d1 d2 d3"}}, {"truncate_prompt_tokens", 5},
                              {"truncation_side", "left"}, {"padding", "max_length"}},
               Json{{"max_model_len", 9}, {"tokenizer", {{"pad_token_id", 3}}}}),
      envelope("score", Json{{"queries", "q1"}, {"documents", Json{{"content", {text_part("d1"), image("u")}}}},
                             {"truncate_prompt_tokens", 4}, {"truncation_side", "right"}},
               kMultimodal),
      envelope("score", Json{{"queries", Json{{"content", {image("u"), text_part("q1 q2")}}}}, {"documents", {"d1 d2", "d3"}},
                             {"truncate_prompt_tokens", 5}},
               kMultimodal),
      envelope("score", Json{{"queries", "q1"}, {"documents", "d1 d2"}, {"max_tokens_per_doc", 1}, {"padding", "max_length"}},
               Json{{"max_model_len", 8}}),
      envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}, {"truncate_prompt_tokens", 0}, {"padding", "max_length"}},
               Json{{"max_model_len", 4}}),
  };
}

// --------------------------------------------- request laws on good outputs

TEST(RequestLaws, HoldOnTheCoresOutputs) {
  for (const Json& env : good_envelopes()) {
    auto r = run(env);
    ASSERT_TRUE(r) << env.dump();
    const Violations v = request_laws(r->view());
    EXPECT_TRUE(v.empty()) << env.dump() << "\n" << describe(v);
  }
}

TEST(RequestLaws, CheckEntryPointAcceptsGoodInputsAndMatchesTheLibrary) {
  for (const Json& env : good_envelopes()) {
    const std::string bytes = env.dump();
    const CheckResult result = check_request_input(bytes);
    EXPECT_HOLDS(result.violations);
    EXPECT_TRUE(result.accepted) << bytes;
    auto direct = preprocess_json(bytes);
    ASSERT_TRUE(direct.ok()) << direct.error().message;
    EXPECT_EQ(dump_json(result.outcome), dump_json(*direct));
  }
}

TEST(RequestLaws, CheckEntryPointJudgesRejectionsByTheErrorLaw) {
  const std::vector<std::string> rejected = {
      envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}, {"cache_salt", ""}}).dump(),
      envelope("score", Json{{"queries", {"a", "b"}}, {"documents", {"c", "d", "e"}}}).dump(),
      envelope("score", Json{{"queries", "q1 q2"}, {"documents", "d1 d2"}}, Json{{"max_model_len", 3}}).dump(),
      envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}, {"model", "other"}}).dump(),
      "{not json",
  };
  for (const auto& bytes : rejected) {
    const CheckResult result = check_request_input(bytes);
    EXPECT_HOLDS(result.violations);
    EXPECT_FALSE(result.accepted) << bytes;
    EXPECT_TRUE(result.outcome.contains("error")) << dump_json(result.outcome);
  }
}

// --------------------------------------------------------- keys_never_lost

TEST(KeysNeverLost, FiresWhenAUserKeyIsDropped) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  EXPECT_HOLDS(keys_never_lost(r->view()));
  r->extras(1).erase("a");
  EXPECT_FIRES(keys_never_lost(r->view()), "keys-never-lost");
}

TEST(KeysNeverLost, FiresOnTheOriginalBug_47082) {
  // extra_kwargs replaced by {"compressed_token_type_ids": k}.
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  const Json k = r->extras(0)["compressed_token_type_ids"];
  r->pair(0).pooling_params.extra_kwargs = std::make_shared<Json>(Json{{"compressed_token_type_ids", k}});
  EXPECT_FIRES(keys_never_lost(r->view()), "keys-never-lost");
}

TEST(KeysNeverLost, FiresWhenAValueChanges) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  r->extras(0)["b"]["c"][1] = 3;
  EXPECT_FIRES(keys_never_lost(r->view()), "keys-never-lost");
}

TEST(KeysNeverLost, FiresWhenAPairWithoutTypesLosesOrGainsExtras) {
  const Json env = envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", "d1"},
                                              {"pooling_params", {{"extra_kwargs", {{"a", 1}}}}}}, kXlmR);
  auto lost = run(env);
  ASSERT_TRUE(lost);
  EXPECT_HOLDS(keys_never_lost(lost->view()));
  lost->pair(0).pooling_params.extra_kwargs = nullptr;
  EXPECT_FIRES(keys_never_lost(lost->view()), "keys-never-lost");

  // A boundary computed for a model without types.
  auto gained = run(env);
  ASSERT_TRUE(gained);
  gained->pair(0).pooling_params.extra_kwargs = std::make_shared<Json>(Json{{"a", 1}, {"compressed_token_type_ids", 3}});
  EXPECT_FIRES(keys_never_lost(gained->view()), "keys-never-lost");
}

// ---------------------------------------------------------- nothing_mutated

TEST(NothingMutated, FiresWhenTheCallersParamsChange) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  EXPECT_HOLDS(nothing_mutated(r->view()));
  (*r->envelope.request.caller_params->extra_kwargs)["a"] = 2;
  EXPECT_FIRES(nothing_mutated(r->view()), "nothing-mutated");
}

TEST(NothingMutated, FiresWhenTheTaskIsWrittenIntoTheCallersParams) {
  // The historical offline LLM.score bug.
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  r->envelope.request.caller_params->task = "classify";
  EXPECT_FIRES(nothing_mutated(r->view()), "nothing-mutated");
}

TEST(NothingMutated, FiresWhenAPairAliasesTheCallersExtras) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  r->pair(0).pooling_params.extra_kwargs = r->envelope.request.caller_params->extra_kwargs;
  EXPECT_FIRES(nothing_mutated(r->view()), "nothing-mutated");

  // Also for a pair without types, which may share the base but never the caller's object.
  auto xlmr = run(envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", "d1"},
                                             {"pooling_params", {{"extra_kwargs", {{"a", 1}}}}}}, kXlmR));
  ASSERT_TRUE(xlmr);
  EXPECT_HOLDS(nothing_mutated(xlmr->view()));
  xlmr->pair(0).pooling_params.extra_kwargs = xlmr->envelope.request.caller_params->extra_kwargs;
  EXPECT_FIRES(nothing_mutated(xlmr->view()), "nothing-mutated");
}

TEST(NothingMutated, FiresWhenPairsShareExtrasWithEachOtherOrTheBase) {
  auto shared = run(offline_bert());
  ASSERT_TRUE(shared);
  shared->pair(1).pooling_params.extra_kwargs = shared->pair(0).pooling_params.extra_kwargs;
  EXPECT_FIRES(nothing_mutated(shared->view()), "nothing-mutated");

  auto base = run(offline_bert());
  ASSERT_TRUE(base);
  base->pair(0).pooling_params.extra_kwargs = base->output.base_params.extra_kwargs;
  EXPECT_FIRES(nothing_mutated(base->view()), "nothing-mutated");
}

TEST(NothingMutated, FiresWhenTheBaseParamsChange) {
  auto r = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(nothing_mutated(r->view()));
  r->output.base_params.use_activation = true;
  EXPECT_FIRES(nothing_mutated(r->view()), "nothing-mutated");

  auto offline = run(offline_bert());
  ASSERT_TRUE(offline);
  (*offline->output.base_params.extra_kwargs)["compressed_token_type_ids"] = 4;  // written into the base
  EXPECT_FIRES(nothing_mutated(offline->view()), "nothing-mutated");
}

// -------------------------------------------------- compression_round_trips

TEST(CompressionRoundTrips, FiresOnAWrongBoundary) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  EXPECT_HOLDS(compression_round_trips(r->view()));
  r->extras(0)["compressed_token_type_ids"] = 5;
  EXPECT_FIRES(compression_round_trips(r->view()), "compression-round-trips");
}

TEST(CompressionRoundTrips, FiresOnTheStaleBoundaryUnderLeftTruncation_47772) {
  // Left truncation to 5 of [CLS q1 q2 SEP d1 d2 d3 SEP]: the boundary is 1;
  // len(q) + 2 = 4, computed before truncation, is the bug.
  auto r = run(envelope("score", Json{{"queries", "q1 q2"}, {"documents", "d1 d2 d3"},
                                      {"truncate_prompt_tokens", 5}, {"truncation_side", "left"}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(compression_round_trips(r->view()));
  EXPECT_EQ(r->extras(0)["compressed_token_type_ids"], 1);
  r->extras(0)["compressed_token_type_ids"] = 4;
  EXPECT_FIRES(compression_round_trips(r->view()), "compression-round-trips");
}

TEST(CompressionRoundTrips, FiresOnAMissingOrNonIntegerBoundary) {
  auto missing = run(offline_bert());
  ASSERT_TRUE(missing);
  missing->extras(0).erase("compressed_token_type_ids");
  EXPECT_FIRES(compression_round_trips(missing->view()), "compression-round-trips");

  auto text = run(offline_bert());
  ASSERT_TRUE(text);
  text->extras(0)["compressed_token_type_ids"] = "4";
  EXPECT_FIRES(compression_round_trips(text->view()), "compression-round-trips");

  auto online = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}));
  ASSERT_TRUE(online);
  online->pair(0).pooling_params.extra_kwargs = nullptr;
  EXPECT_FIRES(compression_round_trips(online->view()), "compression-round-trips");
}

TEST(CompressionRoundTrips, FiresWhenTypesAreMissingMisalignedOrUnexpected) {
  auto missing = run(offline_bert());
  ASSERT_TRUE(missing);
  missing->pair(0).token_type_ids.reset();
  EXPECT_FIRES(compression_round_trips(missing->view()), "compression-round-trips");

  auto shorter = run(offline_bert());
  ASSERT_TRUE(shorter);
  shorter->pair(0).token_type_ids->pop_back();
  EXPECT_FIRES(compression_round_trips(shorter->view()), "compression-round-trips");

  auto xlmr = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}, kXlmR));
  ASSERT_TRUE(xlmr);
  EXPECT_HOLDS(compression_round_trips(xlmr->view()));
  xlmr->pair(0).token_type_ids = Ints{0, 0, 0, 1, 1};
  EXPECT_FIRES(compression_round_trips(xlmr->view()), "compression-round-trips");
}

// -------------------------------------------------------- lengths_and_order

Json one_to_three() {
  return envelope("score", Json{{"queries", "q1"}, {"documents", {"d1", "d2 d3", "d4"}}, {"request_id", "abc"}});
}

TEST(LengthsAndOrder, FiresWhenAPairIsMissing) {
  auto r = run(one_to_three());
  ASSERT_TRUE(r);
  EXPECT_HOLDS(lengths_and_order(r->view()));
  r->output.outputs.pop_back();
  EXPECT_FIRES(lengths_and_order(r->view()), "lengths-and-order");
}

TEST(LengthsAndOrder, FiresOnAWrongRequestId) {
  auto r = run(one_to_three());
  ASSERT_TRUE(r);
  r->pair(1).request_id = "score-abc-2";
  EXPECT_FIRES(lengths_and_order(r->view()), "lengths-and-order");

  auto rerank_as_score = run(envelope("rerank", Json{{"query", "q1"}, {"documents", "d1"}}));
  ASSERT_TRUE(rerank_as_score);
  EXPECT_HOLDS(lengths_and_order(rerank_as_score->view()));
  rerank_as_score->pair(0).request_id = "score-0-0";
  EXPECT_FIRES(lengths_and_order(rerank_as_score->view()), "lengths-and-order");

  auto offline = run(offline_bert());
  ASSERT_TRUE(offline);
  EXPECT_HOLDS(lengths_and_order(offline->view()));
  offline->pair(0).request_id = "score-1-0";
  EXPECT_FIRES(lengths_and_order(offline->view()), "lengths-and-order");
}

TEST(LengthsAndOrder, FiresWhenPairsAreReordered) {
  auto r = run(one_to_three());
  ASSERT_TRUE(r);
  std::swap(r->pair(0).prompt, r->pair(1).prompt);
  EXPECT_FIRES(lengths_and_order(r->view()), "lengths-and-order");
}

// ------------------------------------------------------- prompt_extras_exact

TEST(PromptExtrasExact, FiresWhenTheExtrasAreDropped_46939) {
  auto r = run(envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d2"}}, {"cache_salt", "salt"},
                                       {"mm_processor_kwargs", {{"k", 1}}}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_extras_exact(r->view()));
  r->pair(1).prompt.extras.cache_salt.reset();
  EXPECT_FIRES(prompt_extras_exact(r->view()), "prompt-extras");

  auto mm = run(envelope("rerank", Json{{"query", "q1"}, {"documents", "d1"}, {"mm_processor_kwargs", {{"k", 1}}}}));
  ASSERT_TRUE(mm);
  mm->pair(0).prompt.extras.mm_processor_kwargs.reset();
  EXPECT_FIRES(prompt_extras_exact(mm->view()), "prompt-extras");
}

TEST(PromptExtrasExact, FiresOnAnExtraOrAChangedExtra) {
  auto extra = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}));
  ASSERT_TRUE(extra);
  EXPECT_HOLDS(prompt_extras_exact(extra->view()));
  extra->pair(0).prompt.extras.cache_salt = Json("smuggled");
  EXPECT_FIRES(prompt_extras_exact(extra->view()), "prompt-extras");

  auto changed = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}, {"mm_processor_kwargs", {{"k", 1}}}}));
  ASSERT_TRUE(changed);
  changed->pair(0).prompt.extras.mm_processor_kwargs = Json{{"k", 2}};
  EXPECT_FIRES(prompt_extras_exact(changed->view()), "prompt-extras");
}

TEST(PromptExtrasExact, OfflineExpectsTheCallersExtrasIncludingAnEmptySalt) {
  auto r = run(envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", "d1"},
                                          {"pooling_params", {{"extra_kwargs", {{"cache_salt", ""}}}}}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_extras_exact(r->view()));
  r->pair(0).prompt.extras.cache_salt.reset();
  EXPECT_FIRES(prompt_extras_exact(r->view()), "prompt-extras");

  auto mm = run(offline_bert());
  ASSERT_TRUE(mm);
  EXPECT_HOLDS(prompt_extras_exact(mm->view()));
  mm->pair(1).prompt.extras.mm_processor_kwargs = Json{{"m", 2}};
  EXPECT_FIRES(prompt_extras_exact(mm->view()), "prompt-extras");
}

// The printed output, tampered with after rendering: what a slip in
// output_json.cpp would print while every structure stays right.
RequestRun printed_as(const Run& r, const Json& printed) { return {r.envelope, r.before, r.output, printed}; }

TEST(PromptExtrasExact, FiresOnAKeyAddedToThePrintedPrompt) {
  auto r = run(envelope("rerank", Json{{"query", "q1"}, {"documents", {"d1", "d2"}}, {"cache_salt", "salt"},
                                       {"chat_template_kwargs", {{"c", 1}}}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_extras_exact(r->view()));
  Json printed = r->rendered;
  printed["outputs"][1]["prompt"]["chat_template_kwargs"] = Json{{"c", 1}};
  EXPECT_FIRES(prompt_extras_exact(printed_as(*r, printed)), "prompt-extras");
  printed = r->rendered;
  printed["outputs"][0]["prompt"]["mm_processor_kwargs"] = nullptr;  // a null extra is no extra
  EXPECT_FIRES(prompt_extras_exact(printed_as(*r, printed)), "prompt-extras");
  printed = r->rendered;
  printed["outputs"][0]["prompt"]["cache_salt"] = "other";
  EXPECT_FIRES(prompt_extras_exact(printed_as(*r, printed)), "prompt-extras");
}

TEST(PromptExtrasExact, FiresOnThePrintedImagesOrKeyOrder) {
  auto r = run(envelope("score", Json{{"queries", "q1"}, {"documents", Json{{"content", {text_part("d1"), image("u")}}}},
                                      {"cache_salt", "s"}},
                        kMultimodal));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_extras_exact(r->view()));
  Json printed = r->rendered;
  printed["outputs"][0]["prompt"]["multi_modal_data"] = Json{{"image", {"v"}}};
  EXPECT_FIRES(prompt_extras_exact(printed_as(*r, printed)), "prompt-extras");
  Json reordered = Json::object();  // cache_salt before multi_modal_data
  for (const char* key : {"prompt_token_ids", "cache_salt", "multi_modal_data"})
    reordered[key] = r->rendered["outputs"][0]["prompt"][key];
  printed = r->rendered;
  printed["outputs"][0]["prompt"] = reordered;
  EXPECT_FIRES(prompt_extras_exact(printed_as(*r, printed)), "prompt-extras");
}

// ----------------------------------------------------- rendered_outputs_exact

TEST(RenderedOutputsExact, HoldsForEveryGoodEnvelope) {
  for (const auto& env : good_envelopes()) {
    auto r = run(env);
    ASSERT_TRUE(r);
    EXPECT_HOLDS(rendered_outputs_exact(r->view())) << env.dump();
  }
}

TEST(RenderedOutputsExact, FiresOnEachPrintingSlip) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  r->view();
  const Json good = r->rendered;
  const auto fires_after = [&](const std::function<void(Json&)>& slip, const char* law) {
    Json printed = good;
    slip(printed);
    EXPECT_FIRES(rendered_outputs_exact(printed_as(*r, printed)), law) << dump_json(printed);
  };
  fires_after([](Json& p) { p["extra"] = 1; }, "rendered-output");
  fires_after([](Json& p) { p.erase("caller_pooling_params"); }, "rendered-output");
  fires_after([](Json& p) { p["outputs"].erase(1); }, "rendered-output");
  fires_after([](Json& p) { p["outputs"][0]["score"] = 1.0; }, "rendered-output");
  fires_after([](Json& p) { p["outputs"][1]["request_id"] = "score-0-0"; }, "rendered-output");
  fires_after([](Json& p) { p["outputs"][0]["prompt"]["prompt_token_ids"][0] = 102; }, "rendered-output");
  // The params printed in the output are object forms: their own law judges them.
  fires_after([](Json& p) { p["caller_pooling_params"] = nullptr; }, "object-form");
  fires_after([](Json& p) { p["outputs"][0]["pooling_params"]["task"] = "embed"; }, "object-form");
  fires_after([](Json& p) { p["outputs"][0]["pooling_params"]["extra_kwargs"].erase("a"); }, "object-form");
  fires_after([](Json& p) { p["caller_pooling_params"]["use_activation"] = true; }, "object-form");
  // Online: no caller_pooling_params at all.
  auto online = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}));
  ASSERT_TRUE(online);
  online->view();
  Json printed = online->rendered;
  printed["caller_pooling_params"] = nullptr;
  EXPECT_FIRES(rendered_outputs_exact(printed_as(*online, printed)), "rendered-output");
}

// ---------------------------------------------------------- object_form_exact

TEST(ObjectFormExact, HoldsForTheCoresObjectForm) {
  PoolingParams p;
  p.task = "classify";
  p.late_interaction_params = LateInteractionParams{"score_doc", "k", std::nullopt};
  p.extra_kwargs = std::make_shared<Json>(Json{{"compressed_token_type_ids", 3}});
  EXPECT_HOLDS(object_form_exact(params_to_object(p), p, "p"));
  EXPECT_HOLDS(object_form_exact(params_to_object(PoolingParams{}), PoolingParams{}, "p"));
}

TEST(ObjectFormExact, FiresOnKeysOrderKindLateKeysAndValues) {
  PoolingParams p;
  p.task = "classify";
  p.late_interaction_params = LateInteractionParams{"score_doc", "k", 2};
  const Json good = params_to_object(p);
  const auto fires_after = [&](const std::function<void(Json&)>& slip, bool read_back) {
    Json printed = good;
    slip(printed);
    EXPECT_FIRES(object_form_exact(printed, p, "p", read_back), "object-form") << dump_json(printed);
  };
  fires_after([](Json& o) { o.erase("output_kind"); }, false);
  fires_after([](Json& o) { o["score"] = 1; }, false);
  fires_after([](Json& o) { o["output_kind"] = 2; }, false);
  fires_after([](Json& o) { o["late_interaction_params"].erase("query_uses"); }, false);
  fires_after([](Json& o) {  // task first: the ten keys, out of wire order
    Json reordered = Json::object();
    reordered["task"] = o["task"];
    for (auto it = o.begin(); it != o.end(); ++it)
      if (it.key() != "task") reordered[it.key()] = it.value();
    o = reordered;
  }, false);
  fires_after([](Json& o) { o["use_activation"] = true; }, true);
  // Without the read-back a changed value passes: that half is the costly one.
  Json changed = good;
  changed["use_activation"] = true;
  EXPECT_HOLDS(object_form_exact(changed, p, "p", false));
}

// ------------------------------------------------------------- command_agrees

TEST(CommandAgrees, FiresWhenACommandAnswersOtherwise) {
  EXPECT_HOLDS(command_agrees("poolcheck compress", compress_json("[0,0,1]"), Json{{"compressed_token_type_ids", 2}}));
  EXPECT_FIRES(command_agrees("poolcheck compress", compress_json("[0,1,1]"), Json{{"compressed_token_type_ids", 2}}),
               "command-agrees");
  auto refused = compress_json("[0,1,0]");
  ASSERT_FALSE(refused);
  EXPECT_HOLDS(command_agrees("poolcheck compress", refused, error_body(refused.error())));
  EXPECT_FIRES(command_agrees("poolcheck compress", refused, Json{{"compressed_token_type_ids", 1}}), "command-agrees");
}

// The comparator the laws lean on (json_equal) tells values of different
// types apart even when their sizes agree: an empty object or list is not
// null, nor each other (automatic mutants auto-json-equality-12-logical-1 and
// -18-logical-1 compared them as lists or objects).
TEST(CommandAgrees, FiresWhenTheAnswerHasAnotherTypeOfTheSameSize) {
  EXPECT_FIRES(command_agrees("poolcheck batch", Json::object(), Json(nullptr)), "command-agrees");
  EXPECT_FIRES(command_agrees("poolcheck batch", Json(nullptr), Json::object()), "command-agrees");
  EXPECT_FIRES(command_agrees("poolcheck batch", Json::array(), Json(nullptr)), "command-agrees");
  EXPECT_FIRES(command_agrees("poolcheck batch", Json(nullptr), Json::array()), "command-agrees");
  EXPECT_FIRES(command_agrees("poolcheck batch", Json::array(), Json::object()), "command-agrees");
  EXPECT_FIRES(command_agrees("poolcheck batch", Json{{"a", 1}}, Json::array({1})), "command-agrees");
  EXPECT_HOLDS(command_agrees("poolcheck batch", Json{{"a", Json::object()}}, Json{{"a", Json::object()}}));
}

// A refusal as printed (automatic mutant auto-output-json-85-delete-statement-1
// printed it without "type").
TEST(ErrorBodyExact, HoldsOnTheCoresBodyAndFiresOnAMissingMovedOrChangedKey) {
  const Error error = Error::bad_request("top_n: Input should be greater than or equal to 0", "top_n");
  EXPECT_HOLDS(error_body_exact(error_body(error), error));
  EXPECT_HOLDS(error_body_exact(error_body(Error::bad_request("x")), Error::bad_request("x")));
  Json body = error_body(error);
  body["error"].erase("type");
  EXPECT_FIRES(error_body_exact(body, error), "error-body-exact");
  Json moved = Json{{"error", {{"type", error.type}, {"message", error.message}, {"param", "top_n"}, {"code", 400}}}};
  EXPECT_FIRES(error_body_exact(moved, error), "error-body-exact");
  Json changed = error_body(error);
  changed["error"]["param"] = nullptr;
  EXPECT_FIRES(error_body_exact(changed, error), "error-body-exact");
  changed = error_body(error);
  changed["extra"] = 1;
  EXPECT_FIRES(error_body_exact(changed, error), "error-body-exact");
}

TEST(ReconstructBounds, HoldsOnTheCoreAtEveryEdgeButTheDearOne) {
  for (const std::int64_t k : {std::int64_t{-3}, std::int64_t{0}, std::int64_t{2}, std::int64_t{9}})
    for (const std::int64_t len : {std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, std::int64_t{5},
                                   kMaxTotalTokens + 1, std::numeric_limits<std::int64_t>::max()})
      EXPECT_HOLDS(reconstruct_bounds(k, len));
}

TEST(PromptExtrasExact, FiresOnWrongImages) {
  auto dropped = run(envelope("score", Json{{"queries", "q1"}, {"documents", Json{{"content", {text_part("d1"), image("u")}}}},
                                            {"truncate_prompt_tokens", 3}, {"truncation_side", "right"}},
                              kMultimodal));
  ASSERT_TRUE(dropped);
  EXPECT_HOLDS(prompt_extras_exact(dropped->view()));
  // The slice dropped the placeholder; dropping the URL too is wrong (spec 10.6).
  dropped->pair(0).prompt.image_urls.clear();
  EXPECT_FIRES(prompt_extras_exact(dropped->view()), "prompt-extras");

  // multi_modal_data on a text-only pair.
  auto added = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}, kMultimodal));
  ASSERT_TRUE(added);
  added->pair(0).prompt.image_urls = {"u"};
  EXPECT_FIRES(prompt_extras_exact(added->view()), "prompt-extras");
}

// ---------------------------------------------------------------- salt_valid

TEST(SaltValid, FiresWhenAnOnlineRequestWasAcceptedWithABadSalt_46966) {
  auto r = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}, {"cache_salt", "s"}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(salt_valid(r->view()));
  for (const Json& bad : {Json(""), Json(std::string(129, 'x')), Json("a/b"), Json("a@b"), Json(7)}) {
    r->envelope.request.extras.cache_salt = bad;
    EXPECT_FIRES(salt_valid(r->view()), "salt-valid") << bad.dump();
  }
  r->envelope.request.extras.cache_salt = Json(std::string(128, 'x'));
  EXPECT_HOLDS(salt_valid(r->view()));

  // Offline extras are not validated: an empty salt is copied as it is (spec 10.9).
  auto offline = run(envelope("llm.score", Json{{"data_1", "q1"}, {"data_2", "d1"},
                                                {"pooling_params", {{"extra_kwargs", {{"cache_salt", ""}}}}}}));
  ASSERT_TRUE(offline);
  EXPECT_HOLDS(salt_valid(offline->view()));
}

// -------------------------------------------------------- truncation_bounds

TEST(TruncationBounds, FiresWhenAPromptExceedsItsTarget) {
  auto r = run(envelope("score", Json{{"queries", "q1 q2"}, {"documents", "d1 d2 d3"}, {"truncate_prompt_tokens", 5},
                                      {"truncation_side", "left"}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(truncation_bounds(r->view()));
  r->pair(0).prompt.prompt_token_ids.push_back(0);
  EXPECT_FIRES(truncation_bounds(r->view()), "truncation-bounds");

  // Without a target the bound is max_model_len.
  auto untargeted = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}}, Json{{"max_model_len", 5}}));
  ASSERT_TRUE(untargeted);
  EXPECT_HOLDS(truncation_bounds(untargeted->view()));
  untargeted->pair(0).prompt.prompt_token_ids.push_back(1234);
  EXPECT_FIRES(truncation_bounds(untargeted->view()), "truncation-bounds");
}

TEST(TruncationBounds, FiresWhenPaddingMissesMaxModelLen_54364) {
  // Pad then truncate kept only the truncated length.
  auto r = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1 d2"}, {"truncate_prompt_tokens", 4},
                                      {"padding", "max_length"}},
                        Json{{"max_model_len", 8}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(truncation_bounds(r->view()));
  EXPECT_EQ(r->pair(0).prompt.prompt_token_ids.size(), 8u);
  r->pair(0).prompt.prompt_token_ids.resize(4);
  EXPECT_FIRES(truncation_bounds(r->view()), "truncation-bounds");
}

TEST(TruncationBounds, FiresWhenLongestFirstDropsASpecial) {
  auto r = run(envelope("score", Json{{"queries", "q1 q2 q3"}, {"documents", "d1 d2 d3 d4 d5"}, {"truncate_prompt_tokens", 7}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(truncation_bounds(r->view()));
  auto& ids = r->pair(0).prompt.prompt_token_ids;
  ids.erase(ids.begin());  // the CLS
  EXPECT_FIRES(truncation_bounds(r->view()), "truncation-bounds");

  auto last_sep = run(envelope("score", Json{{"queries", "q1 q2 q3"}, {"documents", "d1 d2 d3 d4 d5"}, {"truncate_prompt_tokens", 7}}));
  ASSERT_TRUE(last_sep);
  last_sep->pair(0).prompt.prompt_token_ids.back() = 5555;  // a word where the last SEP stood
  EXPECT_FIRES(truncation_bounds(last_sep->view()), "truncation-bounds");

  auto image_gone = run(envelope("score", Json{{"queries", "q1"}, {"documents", Json{{"content", {text_part("d1 d2 d3"), image("u")}}}},
                                               {"truncate_prompt_tokens", 6}},
                                 kMultimodal));
  ASSERT_TRUE(image_gone);
  EXPECT_HOLDS(truncation_bounds(image_gone->view()));
  auto& mm_ids = image_gone->pair(0).prompt.prompt_token_ids;
  std::replace(mm_ids.begin(), mm_ids.end(), std::int64_t{103}, std::int64_t{4444});
  EXPECT_FIRES(truncation_bounds(image_gone->view()), "truncation-bounds");
}

// ---------------------------------------------------------------- prompt_exact

TEST(PromptExact, HoldsOnTheCoresPromptsAndFiresOnAnyOtherWord) {
  auto r = run(envelope("score", Json{{"queries", "q1 q2 q3"}, {"documents", {"d1 d2 d3 d4 d5", "d1"}},
                                      {"truncate_prompt_tokens", 7}, {"padding", "max_length"}},
                        Json{{"max_model_len", 9}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_exact(r->view()));
  std::swap(r->pair(0).prompt.prompt_token_ids[1], r->pair(0).prompt.prompt_token_ids[2]);
  EXPECT_FIRES(prompt_exact(r->view()), "prompt-exact");
}

TEST(PromptExact, LongestFirstTakesTheTieFromTheDocument) {
  // 3 specials + 2 + 2 words into 6: one word goes, from the document on the tie.
  auto r = run(envelope("score", Json{{"queries", "q1 q2"}, {"documents", "d1 d2"}, {"truncate_prompt_tokens", 6}}));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_exact(r->view()));
  auto& ids = r->pair(0).prompt.prompt_token_ids;
  ASSERT_EQ(ids.size(), 6u);
  // The same length with the query's word removed instead: [CLS] q1 [SEP] d1 d2 [SEP].
  const auto query = tokenize_input(ScoreInput{false, "q1 q2", {}}, 30522).ids;
  const auto document = tokenize_input(ScoreInput{false, "d1 d2", {}}, 30522).ids;
  ids = {101, query[0], 102, document[0], document[1], 102};
  EXPECT_FIRES(prompt_exact(r->view()), "prompt-exact");
}

TEST(PromptExact, ASliceWithoutARequestedSideTakesTheModels) {
  // Longest-first cannot get 3 specials into 2: the slice falls back to the model's side.
  const Json left_model{{"tokenizer", {{"truncation_side", "left"}}}};
  auto r = run(envelope("score", Json{{"queries", "q1"}, {"documents", "d1"}, {"truncate_prompt_tokens", 2}}, left_model));
  ASSERT_TRUE(r);
  EXPECT_HOLDS(prompt_exact(r->view()));
  EXPECT_EQ(r->pair(0).prompt.prompt_token_ids, (std::vector<std::int64_t>{102, 102}));
  r->pair(0).prompt.prompt_token_ids = {101, 102};  // the right side's slice
  EXPECT_FIRES(prompt_exact(r->view()), "prompt-exact");
}

TEST(ContextLengthRejection, NamesTheFirstPairLongerThanMaxModelLen) {
  const auto message = [](int tokens, int max_len) {
    const std::string m = std::to_string(max_len);
    return "You passed " + std::to_string(tokens) +
           " input tokens and requested 0 output tokens. However, the model's context length is only " + m +
           " tokens, resulting in a maximum input length of " + m + " tokens. Please reduce the length of the input prompt.";
  };
  // Pair 0 is 5 tokens, pair 1 is 7: on a 6-token model, pair 1 is the one.
  auto parsed = parse_envelope(
      envelope("score", Json{{"queries", "q1"}, {"documents", {"d1", "d1 d2 d3"}}}, Json{{"max_model_len", 6}}).dump());
  ASSERT_TRUE(parsed);
  const std::optional<PoolingParams> no_caller;
  const PreprocessOutput none;
  const Json nothing_printed;
  const RequestRun run{*parsed, no_caller, none, nothing_printed};
  auto real = preprocess(parsed->model, parsed->request);
  ASSERT_FALSE(real);
  EXPECT_EQ(real.error().message, message(7, 6));
  EXPECT_HOLDS(context_length_rejection(run, real.error()));
  EXPECT_FIRES(context_length_rejection(run, Error::bad_request(message(5, 6))), "context-length");

  // A prompt of exactly max_model_len fits: rejecting it is the off-by-one.
  auto exact = parse_envelope(
      envelope("score", Json{{"queries", "q1"}, {"documents", "d1 d2"}}, Json{{"max_model_len", 6}}).dump());
  ASSERT_TRUE(exact);
  const RequestRun fits{*exact, no_caller, none, nothing_printed};
  EXPECT_FIRES(context_length_rejection(fits, Error::bad_request(message(6, 6))), "context-length");
  EXPECT_HOLDS(context_length_rejection(fits, Error::bad_request("another message")));
}

// --------------------------------------------------------------- request_laws

TEST(RequestLaws, TheUnionReportsEachBrokenPart) {
  auto r = run(offline_bert());
  ASSERT_TRUE(r);
  r->extras(0).erase("a");
  r->pair(1).request_id = "wrong";
  r->pair(0).prompt.extras.cache_salt.reset();
  const Violations v = request_laws(r->view());
  EXPECT_FIRES(v, "keys-never-lost");
  EXPECT_FIRES(v, "lengths-and-order");
  EXPECT_FIRES(v, "prompt-extras");
}

// ------------------------------------------------------------------ error_law

struct Case {
  Error error;
  std::string family;
};

std::vector<Case> spec_errors() {
  const auto bad = [](std::string message, std::optional<std::string> param = std::nullopt) {
    return Error::bad_request(std::move(message), std::move(param));
  };
  return {
      {bad("top_n: Input should be a valid integer", "top_n"), "type"},
      {bad("top_n: Input should be a valid integer, unable to parse string as an integer", "top_n"), "int-parsing"},
      {bad("priority: Input should be a valid integer, got a number with a fractional part", "priority"),
       "int-from-float"},
      {bad("max_tokens_per_doc: Unable to parse input string as an integer, exceeded maximum size",
           "max_tokens_per_doc"),
       "int-parsing-size"},
      {bad("truncate_prompt_tokens: Input should be a finite number", "truncate_prompt_tokens"), "finite-number"},
      {bad("use_activation: Input should be a valid boolean, unable to interpret input", "use_activation"),
       "bool-parsing"},
      {bad("cache_salt: Input should be a valid string", "cache_salt"), "type"},
      {bad("use_activation: Input should be a valid boolean", "use_activation"), "type"},
      {bad("queries: Input should be a valid list", "queries"), "type"},
      {bad("mm_processor_kwargs: Input should be a valid object", "mm_processor_kwargs"), "type"},
      {bad("pooling_params.task: Input should be a valid string", "pooling_params.task"), "type"},
      {bad("top_n: Input should be greater than or equal to 0", "top_n"), "lower-bound"},
      {bad("truncate_prompt_tokens: Input should be greater than or equal to -1", "truncate_prompt_tokens"), "lower-bound"},
      {Error::not_found("The model `other/model` does not exist.", "model"), "model-not-found"},
      {bad("Parameter 'cache_salt' must be a non-empty string if provided.", "cache_salt"), "cache-salt-empty"},
      {bad(R"(Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\', or NUL.)",
           "cache_salt"),
       "cache-salt-chars"},
      {bad("Parameter `normalize` was removed; use `use_activation` instead.", "normalize"), "normalize-removed"},
      {bad("chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: {'chat_template', 'tools'}",
           "chat_template_kwargs"),
       "reserved-chat-keys"},
      {bad("chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: {'tokenize'}",
           "chat_template_kwargs"),
       "reserved-chat-keys"},
      {bad("chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: "
           "{'chat_template', 'tools', 'tokenize'}",
           "chat_template_kwargs"),
       "reserved-chat-keys"},
      {bad("Input lengths must be either 1:1, 1:N or N:N"), "pair-lengths"},
      {bad("At least one text element must be given"), "no-text"},
      {bad("At least one text_pair element must be given"), "no-text-pair"},
      {bad("MultiModalParam is not supported for BertForSequenceClassification"), "multimodal-unsupported"},
      {bad("Only one multi-modal item is supported"), "multimodal-one-item"},
      {bad("truncate_prompt_tokens value is greater than max_model_len. Please request a smaller truncation size.",
           "truncate_prompt_tokens"),
       "truncation-target"},
      {bad("You passed 8 input tokens and requested 0 output tokens. However, the model's context length is only 6 "
           "tokens, resulting in a maximum input length of 6 tokens. Please reduce the length of the input prompt."),
       "context-length"},
      {bad("max_tokens_per_query must be a non-negative integer", "max_tokens_per_query"), "token-limit-negative"},
      {bad("max_tokens_per_doc must be a non-negative integer", "max_tokens_per_doc"), "token-limit-negative"},
      {bad("max_tokens_per_query (512) must be less than max_model_len (512).", "max_tokens_per_query"),
       "token-limit-too-large"},
      {bad("max_tokens_per_doc (600) must be less than max_model_len (512).", "max_tokens_per_doc"),
       "token-limit-too-large"},
      {bad("Token type ids are expected to be a sequence of zeros followed by a sequence of ones"), "token-type-order"},
      {bad("You cannot overwrite self.task='embed' with task='classify'!"), "task-overwrite"},
      {bad("`score` task was removed; use `classify` instead.", "pooling_params.task"), "task-score-removed"},
      {bad("`encode` task was removed; use `token_embed` or `token_classify` instead.", "$[4]"), "task-encode-removed"},
      {bad("For pooling output_kind has to be FINAL_ONLY, got <RequestOutputKind.DELTA: 1>", "pooling_params.output_kind"),
       "output-kind"},
      {bad("For pooling output_kind has to be FINAL_ONLY, got 0", "$[9]"), "output-kind"},
      {bad("Task 'classify' only supports ['use_activation'] parameters, does not support ['step_tag_id'] parameters"),
       "unsupported-parameters"},
      {bad("Task 'embed' only supports ['dimensions', 'use_activation'] parameters, does not support "
           "['step_tag_id', 'returned_token_ids'] parameters"),
       "unsupported-parameters"},
      {bad("Model 'N' does not support Matryoshka embeddings; dimensions must be unset. Received dimensions=1000, "
           "outside valid numeric range [1, 384]."),
       "matryoshka-unsupported"},
      {bad("Model 'N' does not support Matryoshka embeddings; dimensions must be unset. Numeric dimensions are valid "
           "only for Matryoshka models in range [1, 384]."),
       "matryoshka-unsupported"},
      {bad("Model 'N' only supports dimensions in range [1, 384], got 0."), "matryoshka-range"},
      {bad("Model 'N' only supports Matryoshka dimensions [256, 512], got 100."), "matryoshka-list"},
  };
}

TEST(ErrorLaw, AcceptsEverySpecMessageWithItsParam) {
  for (const auto& c : spec_errors()) {
    EXPECT_HOLDS(error_law(c.error)) << c.error.message;
    EXPECT_EQ(message_family(c.error.message), c.family) << c.error.message;
  }
}

TEST(ErrorLaw, EverySpecFamilyIsCoveredAbove) {
  std::set<std::string> covered;
  for (const auto& c : spec_errors()) covered.insert(message_family(c.error.message));
  for (const auto& name : spec_message_families()) EXPECT_TRUE(covered.count(name)) << "no case for " << name;
  EXPECT_FALSE(spec_message_families().empty());
}

TEST(ErrorLaw, AcceptsTheCoresDocumentedForms) {
  EXPECT_HOLDS(error_law(Error::bad_request("The request would produce more than 16777216 prompt tokens in total.")));
  EXPECT_HOLDS(error_law(Error::bad_request("The batch has more than 16777216 tokens in total.")));
  EXPECT_HOLDS(error_law(Error::bad_request("LEN may be at most 16777216.", "LEN")));
  EXPECT_HOLDS(error_law(Error::bad_request("model.max_model_len: Input should be greater than or equal to 1",
                                            "model.max_model_len")));
  EXPECT_HOLDS(error_law(Error::bad_request("request: Field required", "request")));
}

TEST(ErrorLaw, FlagsAnInternalErrorOrAnotherCode) {
  EXPECT_FIRES(error_law(Error::internal("Internal error: boom")), "errors-exact");
  Error teapot = Error::bad_request("Input lengths must be either 1:1, 1:N or N:N");
  teapot.code = 418;
  EXPECT_FIRES(error_law(teapot), "errors-exact");
  Error wrong_type = Error::bad_request("Input lengths must be either 1:1, 1:N or N:N");
  wrong_type.type = "ValueError";
  EXPECT_FIRES(error_law(wrong_type), "errors-exact");
}

TEST(ErrorLaw, OnlyTheUnknownModelIsA404) {
  EXPECT_FIRES(error_law(Error::not_found("Input lengths must be either 1:1, 1:N or N:N")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request("The model `x` does not exist.", "model")), "errors-exact");
}

TEST(ErrorLaw, FlagsAWrongParam) {
  // Named params.
  EXPECT_FIRES(error_law(Error::bad_request("Parameter 'cache_salt' must be a non-empty string if provided.")),
               "errors-exact");
  EXPECT_FIRES(error_law(Error::not_found("The model `x` does not exist.", "name")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request(
                   "truncate_prompt_tokens value is greater than max_model_len. Please request a smaller truncation size.")),
               "errors-exact");
  // Null params (spec 10.1).
  EXPECT_FIRES(error_law(Error::bad_request("Input lengths must be either 1:1, 1:N or N:N", "queries")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request(
                   "Token type ids are expected to be a sequence of zeros followed by a sequence of ones", "types")),
               "errors-exact");
  // The field a generic message names.
  EXPECT_FIRES(error_law(Error::bad_request("top_n: Input should be a valid integer", "priority")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request("top_n: Input should be greater than or equal to 0")), "errors-exact");
  // An empty param where any is allowed.
  EXPECT_FIRES(error_law(Error::bad_request("max_tokens_per_query must be a non-negative integer", "")), "errors-exact");
}

TEST(ErrorLaw, FlagsAnUnknownOrDriftedMessage) {
  EXPECT_FIRES(error_law(Error::bad_request("Something went wrong")), "errors-exact");
  // Drifted wording of quoted messages.
  EXPECT_FIRES(error_law(Error::bad_request("Only one multimodal item is supported")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request("Input lengths must be either 1:1, 1:N or N:N.")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request("top_n: Input should be a valid number", "top_n")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request(
                   R"(Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\', or NUL.)",
                   "cache_salt")),
               "errors-exact");
  // The context length must be the same number twice.
  EXPECT_FIRES(error_law(Error::bad_request(
                   "You passed 8 input tokens and requested 0 output tokens. However, the model's context length is "
                   "only 6 tokens, resulting in a maximum input length of 7 tokens. Please reduce the length of the "
                   "input prompt.")),
               "errors-exact");
  EXPECT_EQ(message_family("Something went wrong"), "");
}

// A bound message names the spec's bound for its field (automatic mutants
// auto-model-64-int-literal-3 and -4 printed max_model_len's as 2 and 0).
TEST(ErrorLaw, FlagsABoundOtherThanTheSpecs) {
  EXPECT_HOLDS(error_law(lower_bound_error("model.max_model_len", 1)));
  EXPECT_HOLDS(error_law(upper_bound_error("model.vocab_size", std::int64_t{1} << 30)));
  EXPECT_HOLDS(error_law(lower_bound_error("$[2].seq_len", 0)));
  EXPECT_FIRES(error_law(lower_bound_error("model.max_model_len", 2)), "errors-exact");
  EXPECT_FIRES(error_law(lower_bound_error("top_n", -1)), "errors-exact");
  EXPECT_FIRES(error_law(upper_bound_error("model.vocab_size", std::int64_t{1} << 31)), "errors-exact");
  EXPECT_FIRES(error_law(lower_bound_error("priority", 0)), "errors-exact");  // the spec gives it none
}

TEST(ErrorLaw, ReservedKeysArePrintedInTheFixedOrder) {
  // Spec 10.8: always in the order chat_template, tools, tokenize; each at most once.
  const std::string prefix = "chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: ";
  EXPECT_FIRES(error_law(Error::bad_request(prefix + "{'tools', 'chat_template'}", "chat_template_kwargs")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request(prefix + "{'tokenize', 'tools'}", "chat_template_kwargs")), "errors-exact");
  EXPECT_FIRES(error_law(Error::bad_request(prefix + "{'tools', 'tools'}", "chat_template_kwargs")), "errors-exact");
}

// ------------------------------------------------------ token-type laws

TEST(CompressionLaw, HoldsOnEveryShortList) {
  // Every list of length <= 5 over {-2, -1, 0, 1, 2}: valid ones, invalid ones, quirky negatives.
  const Ints alphabet{-2, -1, 0, 1, 2};
  std::size_t checked = 0;
  std::vector<Ints> frontier{{}};
  for (int len = 0; len <= 5; ++len) {
    std::vector<Ints> next;
    for (const auto& types : frontier) {
      const Violations v = compression_law(types);
      EXPECT_TRUE(v.empty()) << describe(v);
      ++checked;
      for (std::int64_t t : alphabet) {
        Ints longer = types;
        longer.push_back(t);
        next.push_back(std::move(longer));
      }
    }
    frontier = std::move(next);
  }
  EXPECT_EQ(checked, 1u + 5 + 25 + 125 + 625 + 3125);
}

TEST(CompressionLaw, HoldsOnTheSpecExamplesAndExtremes) {
  for (const Ints& types : std::vector<Ints>{{}, {0, 0, 0}, {1, 1}, {0, 0, 1, 1}, {0, 1, 0}, {2},
                                             {std::numeric_limits<std::int64_t>::min()},
                                             {std::numeric_limits<std::int64_t>::max()},
                                             Ints(1000, 0), Ints(1000, 1)}) {
    EXPECT_HOLDS(compression_law(types));
  }
}

BatchRequest request(const std::optional<Json>& boundary, std::int64_t len, bool params = true) {
  BatchRequest r;
  r.seq_len = len;
  if (params) {
    r.params = PoolingParams{};
    if (boundary) r.params->extra_kwargs = std::make_shared<Json>(Json{{"compressed_token_type_ids", *boundary}});
  }
  return r;
}

TEST(BatchLaw, HoldsOnGoodBatches) {
  const std::vector<std::optional<Json>> boundaries{std::nullopt, Json(nullptr), Json(-1), Json(0), Json(1), Json(2), Json(9)};
  for (const auto& a : boundaries)
    for (const auto& b : boundaries)
      for (std::int64_t la : {0, 1, 3})
        for (std::int64_t lb : {0, 2, 5}) {
          const std::vector<BatchRequest> batch{request(a, la), request(b, lb), request(std::nullopt, 2, false)};
          EXPECT_HOLDS(batch_law(batch));
        }
  EXPECT_HOLDS(batch_law(std::vector<BatchRequest>{}));
  // The spec example.
  EXPECT_HOLDS(batch_law(std::vector<BatchRequest>{request(Json(2), 5), request(std::nullopt, 4, false)}));
}

// `poolcheck batch` with the shape of its input broken: the core's command
// holds; a command that misspells the kind it wanted (the string-literal
// mutant auto-json-api-35: "a valid bject"), takes a request without its
// seq_len or names the wrong place is caught.
TEST(BatchShapeRefused, HoldsOnTheCoreAndFiresOnAMisspelledOrMissingRefusal) {
  const Json input = batch_command_input(std::vector<BatchRequest>{request(Json(2), 5), request(std::nullopt, 4, false)});
  EXPECT_HOLDS(batch_shape_refused(input, batch_json));
  EXPECT_HOLDS(batch_shape_refused(batch_command_input(std::vector<BatchRequest>{request(Json(1), 0)}), batch_json));
  const JsonCommand misspelled = [](std::string_view text) -> Result<Json> {
    auto answer = batch_json(text);
    if (answer) return answer;
    Error error = answer.error();
    if (const auto at = error.message.find("object"); at != std::string::npos) error.message.erase(at, 1);
    return error;
  };
  EXPECT_FIRES(batch_shape_refused(input, misspelled), "batch-shape-refused");
  const JsonCommand lenient = [](std::string_view text) -> Result<Json> {
    auto answer = batch_json(text);
    if (!answer && answer.error().message.find("Field required") != std::string::npos)
      return Json{{"token_type_ids", nullptr}};
    return answer;
  };
  EXPECT_FIRES(batch_shape_refused(input, lenient), "batch-shape-refused");
  const JsonCommand unwrapping = [](std::string_view text) -> Result<Json> {
    auto document = parse_bounded_json(text);
    if (document && document->is_object() && document->contains("batch")) return batch_json(dump_json((*document)["batch"]));
    return batch_json(text);
  };
  EXPECT_FIRES(batch_shape_refused(input, unwrapping), "batch-shape-refused");
  const JsonCommand misplaced = [](std::string_view text) -> Result<Json> {  // auto-json-api-40's path
    auto answer = batch_json(text);
    if (answer) return answer;
    Error error = answer.error();
    if (const auto at = error.message.find(".pooling_params"); at != std::string::npos) error.message.erase(at + 1, 1);
    return error;
  };
  EXPECT_FIRES(batch_shape_refused(input, misplaced), "batch-shape-refused");
}

TEST(BatchLaw, HoldsOnBatchesTheCoreRejects) {
  EXPECT_HOLDS(batch_law(std::vector<BatchRequest>{request(Json("2"), 3)}));
  EXPECT_HOLDS(batch_law(std::vector<BatchRequest>{request(Json(1.5), 3)}));
  EXPECT_HOLDS(batch_law(std::vector<BatchRequest>{request(Json(1), -1)}));
  EXPECT_HOLDS(batch_law(std::vector<BatchRequest>{request(Json(1), std::int64_t{1} << 25)}));
}

// The law states when a batch is refused, so a core that refuses a lawful
// batch, accepts a refused one, or names the wrong field is caught.
TEST(BatchLaw, FiresOnAWrongRefusalOrAcceptance) {
  using Types = std::vector<std::int64_t>;
  const auto refused = [](std::string message, std::optional<std::string> param = std::nullopt) {
    return BatchTypes(Error::bad_request(std::move(message), std::move(param)));
  };
  const std::vector<BatchRequest> empty_request{request(Json(0), 0)};
  EXPECT_FIRES(batch_law(empty_request, refused("$[0].seq_len: Input should be greater than or equal to 1", "$[0].seq_len")),
               "batch");
  EXPECT_HOLDS(batch_law(empty_request, BatchTypes(std::optional<Types>(Types{}))));

  const std::int64_t half = kMaxTotalTokens / 2;
  const std::vector<BatchRequest> at_limit{request(std::nullopt, half), request(std::nullopt, half)};
  const std::string total = "The batch has more than 16777216 tokens in total.";
  EXPECT_FIRES(batch_law(at_limit, refused(total)), "batch");
  EXPECT_HOLDS(batch_law(at_limit, BatchTypes(std::optional<Types>())));
  const std::vector<BatchRequest> past_limit{request(std::nullopt, half), request(std::nullopt, half + 1)};
  EXPECT_FIRES(batch_law(past_limit, BatchTypes(std::optional<Types>())), "batch");
  EXPECT_HOLDS(batch_law(past_limit, refused(total)));
  EXPECT_FIRES(batch_law(past_limit, refused("The batch has more than 16777215 tokens in total.")), "batch");

  const std::vector<BatchRequest> negative{request(Json(1), 2), request(Json(1), -1)};
  EXPECT_HOLDS(batch_law(negative, refused("$[1].seq_len: Input should be greater than or equal to 0", "$[1].seq_len")));
  EXPECT_FIRES(batch_law(negative, refused("$[0].seq_len: Input should be greater than or equal to 0", "$[0].seq_len")),
               "batch");
  const std::vector<BatchRequest> text_key{request(Json("2"), 3)};
  EXPECT_FIRES(batch_law(text_key, BatchTypes(std::optional<Types>(Types{0, 0, 1}))), "batch");
}

TEST(PackingLaw, HoldsOnGoodAndBadInputs) {
  EXPECT_HOLDS(packing_law(Ints{101, 2000, 102, 3000, 102}, Ints{0, 0, 0, 1, 1}));
  EXPECT_HOLDS(packing_law(Ints{101, 2000, 102}, Ints{0, 1}));
  EXPECT_HOLDS(packing_law(Ints{}, Ints{}));
  EXPECT_HOLDS(packing_law(Ints{(std::int64_t{1} << 30) - 1}, Ints{1}));
  // Types longer than ids: the core must answer with a 500, which the law accepts.
  EXPECT_HOLDS(packing_law(Ints{1}, Ints{0, 1}));
  EXPECT_HOLDS(packing_law(Ints{}, Ints{1}));
  // Out-of-range ids or types are internal errors, not the law's business.
  EXPECT_HOLDS(packing_law(Ints{std::int64_t{1} << 30}, Ints{0}));
  EXPECT_HOLDS(packing_law(Ints{1, 2}, Ints{2}));
}

TEST(TokenTypesCheck, BytesMapToTypesAndEveryLawHolds) {
  EXPECT_EQ(token_types_from_bytes(std::string("\x00\x01\x02\x03\x05\xFC\xFF", 7)), (Ints{0, 1, 2, 0, 2, -4, -1}));
  for (const std::string& bytes : {std::string(), std::string("\x00\x00\x01\x01", 4), std::string("\x00\x01\x00", 3),
                                   std::string("\x02", 1), std::string("\x00\xFF\x01\x00\xFE\x00\x01\x01", 8),
                                   std::string(300, '\x01'), std::string("\x00\x01\xFC\x00\x00\xFD\x01", 7)}) {
    const CheckResult result = check_token_types_input(bytes);
    EXPECT_HOLDS(result.violations);
  }
  const CheckResult ok = check_token_types_input(std::string("\x00\x00\x01", 3));
  EXPECT_TRUE(ok.accepted);
  EXPECT_EQ(dump_json(ok.outcome), R"({"compressed_token_type_ids":2})");
  const CheckResult bad = check_token_types_input(std::string("\x01\x00", 2));
  EXPECT_FALSE(bad.accepted);
  EXPECT_EQ(bad.outcome["error"]["message"],
            "Token type ids are expected to be a sequence of zeros followed by a sequence of ones");
}

// The fuzz target's depth hands the commands only the first types of a long
// list: the core's answers for that prefix are what the commands must match,
// so a long list that compresses, one that does not, and one with batch
// separators past the prefix all hold, with the whole list's outcome.
TEST(TokenTypeLaws, CommandsOnAPrefixAreJudgedByThePrefix) {
  const CheckDepth prefix_only{0, 1, 64};
  std::string zeros_then_ones(40, '\x00');
  zeros_then_ones += std::string(160, '\x01');  // compresses; its first 64 types too
  std::string broken = zeros_then_ones;
  broken[100] = '\x00';  // past the prefix: the whole list fails, the prefix compresses
  std::string separated = zeros_then_ones;
  separated[20] = '\xFC';
  separated[120] = '\xFD';
  for (const std::string& bytes : {zeros_then_ones, broken, separated}) {
    const CheckResult limited = check_token_types_input(bytes, prefix_only);
    EXPECT_HOLDS(limited.violations);
    EXPECT_EQ(dump_json(limited.outcome), dump_json(check_token_types_input(bytes).outcome));
  }
  EXPECT_FALSE(check_token_types_input(broken, prefix_only).accepted);
}

// ------------------------------------------------------ params and verify laws

TEST(ParamsLaws, HoldOnValidParamsAndNonCanonicalBytes) {
  PoolingParams p;
  EXPECT_HOLDS(params_round_trip(p));
  p.task = "classify";
  p.extra_kwargs = std::make_shared<Json>(Json{{"z", 1}, {"compressed_token_type_ids", 3}});
  EXPECT_HOLDS(params_round_trip(p));
  p.late_interaction_params = LateInteractionParams{"score_doc", "k", std::nullopt};
  p.returned_token_ids = Ints{1, 2};
  EXPECT_HOLDS(params_round_trip(p));

  // [null x4, "classify", false]: the trailing default false is not canonical; decoding it is fine.
  const auto bytes = Json::to_msgpack(Json::array({nullptr, nullptr, nullptr, nullptr, "classify", false}));
  const std::string msgpack(bytes.begin(), bytes.end());
  EXPECT_HOLDS(wire_bytes_fixed_point(msgpack));
  const CheckResult result = check_params_wire_input(msgpack);
  EXPECT_HOLDS(result.violations);
  EXPECT_TRUE(result.accepted);
  EXPECT_EQ(result.outcome["task"], "classify");
}

// A refused encode is msgspec's OverflowError for the first integer beyond 64
// bits, quoted whole (automatic mutant auto-msgpack-103-negate-condition-1
// printed "?" for it).
TEST(ParamsLaws, AnEncodeIsRefusedOnlyForTheFirstIntegerBeyond64BitsQuotedWhole) {
  const auto big = [](const std::string& digits) { return Integer::from_decimal(digits).to_json(); };
  PoolingParams p;
  p.extra_kwargs = std::make_shared<Json>(
      Json{{"small", 1}, {"list", Json::array({2, big("123456789012345678901234567890")})}, {"late", big("-99999999999999999999")}});
  EXPECT_HOLDS(params_round_trip(p));  // the core's own refusal
  const std::string tail = " as MessagePack: msgspec raises OverflowError for ints below -2**63 or above 2**64 - 1.";
  EXPECT_HOLDS(encode_refusal_exact(p, "Cannot encode the integer 123456789012345678901234567890" + tail));
  EXPECT_FIRES(encode_refusal_exact(p, "Cannot encode the integer ?" + tail), "wire-round-trip");
  EXPECT_FIRES(encode_refusal_exact(p, "Cannot encode the integer -99999999999999999999" + tail), "wire-round-trip");
  EXPECT_FIRES(encode_refusal_exact(p, "Cannot encode the integer 123456789012345678901234567890"), "wire-round-trip");
  p.extra_kwargs = std::make_shared<Json>(Json{{"small", 1}});
  EXPECT_FIRES(encode_refusal_exact(p, "Cannot encode the integer 1" + tail), "wire-round-trip");
}

// The comparator law holds for params with every field absent and with every
// field set; it fires only when deep_equal itself is blind (the gate's
// deep-equal-ignores-task), which a test of the law cannot build here.
TEST(ParamsLaws, ComparatorSeesEachFieldOfAbsentAndSetParams) {
  PoolingParams p;
  EXPECT_HOLDS(comparator_sees_each_field(p));
  p.use_activation = false;
  p.dimensions = 1;
  p.step_tag_id = 2;
  p.returned_token_ids = Ints{};
  p.task = "embed";
  p.requires_token_ids = true;
  p.skip_reading_prefix_cache = true;
  p.late_interaction_params = LateInteractionParams{"score_doc", "k", 3};
  p.extra_kwargs = std::make_shared<Json>(Json{{"poolcheck-comparator", 1}});
  EXPECT_HOLDS(comparator_sees_each_field(p));
  EXPECT_HOLDS(params_round_trip(p));
}

// The JSON comparator's law holds for documents of every JSON type (NaN,
// -0.0, big and negative integers, empty containers, nesting); like the
// params comparator's, it fires only when json_equal itself is blind (the
// automatic mutant auto-json-equality-14-int-literal-2), which a test of the
// law cannot build here.
TEST(ParamsLaws, JsonComparatorSeesEachValueOfEveryType) {
  const Json documents[] = {
      nullptr, true, "", 0, -5, std::uint64_t{18446744073709551615u}, -0.0,
      std::numeric_limits<double>::quiet_NaN(), Json::array(), Json::object(),
      Json{{"a", {1, 2, {3, Json::array()}}}, {"b", {{"c", nullptr}, {"d", Json::object()}}}, {"e", "é"}},
      Json(std::vector<Json>(100, 1.5))};
  for (const Json& document : documents) EXPECT_HOLDS(json_comparator_sees_each_value(document)) << document.dump();
}

TEST(WireLaw, DecodeKeepsEveryFieldOfTheBytes) {
  PoolingParams params;
  params.task = "classify";
  params.extra_kwargs = std::make_shared<Json>(Json{{"cache_salt", "s"}});
  params.late_interaction_params = LateInteractionParams{"cache_query", "q", std::nullopt};
  const std::string bytes = encode_wire_msgpack(params).value();
  auto decoded = decode_wire_msgpack(bytes);
  ASSERT_TRUE(decoded);
  EXPECT_HOLDS(decode_keeps_every_field(from_msgpack(bytes).value(), *decoded));
  decoded->extra_kwargs.reset();  // a decoder that forgot the field
  EXPECT_FIRES(decode_keeps_every_field(from_msgpack(bytes).value(), *decoded), "wire-round-trip");

  // An explicit null query_uses and explicit trailing defaults are what msgspec leaves off.
  const std::string explicit_defaults =
      to_msgpack(Json::array({nullptr, nullptr, nullptr, nullptr, "embed", false, nullptr,
                              Json::array({"score_doc", "k", nullptr}), nullptr, 2})).value();
  auto plain = decode_wire_msgpack(explicit_defaults);
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_HOLDS(decode_keeps_every_field(from_msgpack(explicit_defaults).value(), *plain));
}

// The defaults a verify fills, judged against the spec's statement: a token
// task that leaves skip_reading_prefix_cache unset gets true (automatic mutant
// auto-verify-66-logical-1 gave every task false).
TEST(VerifyLaw, DefaultsAreTheSpecsAndFireOnAnyOther) {
  ModelConfig model;
  model.pooler.pooling_type = "STEP";
  model.pooler.use_activation = false;
  model.pooler.dimensions = 16;
  model.pooler.step_tag_id = 7;
  model.is_matryoshka = true;
  for (const char* task : {"embed", "token_embed", "classify", "token_classify", "plugin", "something-else"}) {
    PoolingParams params;
    params.task = task;
    auto verified = verify_params(params, model);
    ASSERT_TRUE(verified) << task << ": " << verified.error().message;
    EXPECT_HOLDS(verify_defaults(model, params, *verified));
    PoolingParams wrong = verified->clone();
    wrong.skip_reading_prefix_cache = !verified->skip_reading_prefix_cache.value_or(false);
    EXPECT_FIRES(verify_defaults(model, params, wrong), "verify-defaults");
  }
  PoolingParams token;
  token.task = "token_embed";
  auto verified = verify_params(token, model).value();
  EXPECT_EQ(verified.skip_reading_prefix_cache, true);
  EXPECT_EQ(verified.use_activation, false);  // the pooler's
  EXPECT_EQ(verified.dimensions, 16);
  EXPECT_EQ(verified.step_tag_id, 7);
  verified.dimensions.reset();
  EXPECT_FIRES(verify_defaults(model, token, verified), "verify-defaults");
}

TEST(VerifyLaw, HoldsOnAcceptedAndRejectedParams) {
  ModelConfig model;
  PoolingParams classify;
  classify.task = "classify";
  classify.extra_kwargs = std::make_shared<Json>(Json{{"a", 1}});
  EXPECT_HOLDS(verify_law(model, classify));
  PoolingParams dims;  // dimensions on classify: the step-4 message, checked by the error law
  dims.task = "classify";
  dims.dimensions = 8;
  EXPECT_HOLDS(verify_law(model, dims));
  PoolingParams plugin;
  plugin.task = "plugin";
  EXPECT_HOLDS(verify_law(model, plugin));

  const CheckResult result =
      check_verify_input(R"({"model": {"is_matryoshka": true}, "pooling_params": {"task": "embed", "dimensions": 999}})");
  EXPECT_HOLDS(result.violations);
  EXPECT_FALSE(result.accepted);
}

TEST(VerifyLaw, AnUnsupportedParameterRejectionBlamesOnlyWhatTheRequestSet) {
  PoolingParams classify;
  classify.task = "classify";
  const Error blamed = Error::bad_request(
      "Task 'classify' only supports ['use_activation'] parameters, does not support ['dimensions'] parameters");
  EXPECT_FIRES(verify_rejection_blames_request(classify, blamed), "verify");  // e.g. the pooler's default dimensions
  classify.dimensions = 8;
  EXPECT_HOLDS(verify_rejection_blames_request(classify, blamed));

  const Error two = Error::bad_request(
      "Task 'embed' only supports ['dimensions', 'use_activation'] parameters, does not support ['step_tag_id', "
      "'returned_token_ids'] parameters");
  PoolingParams step;
  step.task = "embed";
  step.step_tag_id = 3;
  const Violations one_missing = verify_rejection_blames_request(step, two);
  ASSERT_EQ(one_missing.size(), 1u) << describe(one_missing);
  EXPECT_NE(one_missing[0].description.find("'returned_token_ids'"), std::string::npos) << one_missing[0].description;
  EXPECT_HOLDS(verify_rejection_blames_request(step, Error::bad_request("another message")));
}

// Spec 11.4, checked on known-bad messages: the law must see both slips.
TEST(VerifyLaw, TheStepMessagePrintsTheTaskBareTheOtherQuoted) {
  PoolingParams classify;
  classify.task = "classify";
  const std::string tail = " only supports ['use_activation'] parameters, does not support ";
  EXPECT_HOLDS(unsupported_message_task(classify, Error::bad_request("Task classify" + tail + "['step_tag_id'] parameters")));
  EXPECT_FIRES(unsupported_message_task(classify, Error::bad_request("Task 'classify'" + tail + "['step_tag_id'] parameters")),
               "verify");
  EXPECT_HOLDS(unsupported_message_task(classify, Error::bad_request("Task 'classify'" + tail + "['dimensions'] parameters")));
  EXPECT_FIRES(unsupported_message_task(classify, Error::bad_request("Task classify" + tail + "['dimensions'] parameters")),
               "verify");
  EXPECT_HOLDS(unsupported_message_task(classify, Error::bad_request("another message")));
}

// Automatic mutant auto-python-repr-51-increment-1: python_list stopped after
// its first name, and every law that printed the list used python_list too.
TEST(VerifyLaw, TheOnlySupportsListIsTheTasksValidParametersWhole) {
  PoolingParams embed;
  embed.task = "embed";
  const std::string step = " parameters, does not support ['step_tag_id', 'returned_token_ids'] parameters";
  EXPECT_HOLDS(unsupported_message_task(
      embed, Error::bad_request("Task embed only supports ['dimensions', 'use_activation']" + step)));
  EXPECT_FIRES(unsupported_message_task(embed, Error::bad_request("Task embed only supports ['dimensions']" + step)),
               "verify");
  EXPECT_FIRES(unsupported_message_task(
                   embed, Error::bad_request("Task embed only supports ['use_activation', 'dimensions']" + step)),
               "verify");
  PoolingParams classify;
  classify.task = "token_classify";
  EXPECT_FIRES(unsupported_message_task(
                   classify, Error::bad_request("Task 'token_classify' only supports ['dimensions', 'use_activation']"
                                                " parameters, does not support ['dimensions'] parameters")),
               "verify");
}

// ---------------------------------------------------------------- bounds_kept

TEST(BoundsKept, FiresOnAnAcceptedValueBelowItsBound) {
  EXPECT_HOLDS(bounds_kept(Json::parse(R"({"top_n": 0, "truncate_prompt_tokens": -1, "max_tokens_per_doc": 0})"), true));
  EXPECT_FIRES(bounds_kept(Json::parse(R"({"top_n": -1})"), true), "bounds");
  EXPECT_FIRES(bounds_kept(Json::parse(R"({"truncate_prompt_tokens": -2})"), false), "bounds");
  EXPECT_FIRES(bounds_kept(Json::parse(R"({"max_tokens_per_query": -1})"), false), "bounds");
  // top_n is rerank's alone; priority has no bound; booleans and spellings are the coercion laws'.
  EXPECT_HOLDS(bounds_kept(Json::parse(R"({"top_n": -1, "priority": -5})"), false));
  EXPECT_HOLDS(bounds_kept(Json::parse(R"({"top_n": "-1", "max_tokens_per_doc": false})"), true));
}

// -------------------------------------------------------------- fields taken

TEST(TypedFieldsTaken, HoldsOnTheCoresParseAndFiresOnADroppedOrChangedField) {
  const Json body = Json::parse(
      R"({"queries": "q", "documents": "d", "truncate_prompt_tokens": 4, "truncation_side": "left",
          "padding": "max_length", "max_tokens_per_doc": 3})");
  const auto parsed = parse_online_request(body, Endpoint::Score);
  ASSERT_TRUE(parsed.ok());
  EXPECT_HOLDS(typed_fields_taken(body, *parsed));
  for (const auto& drop : std::vector<std::function<void(ScoringRequest&)>>{
           [](ScoringRequest& r) { r.truncation_side.reset(); },
           [](ScoringRequest& r) { r.truncate_prompt_tokens = Integer(5); },
           [](ScoringRequest& r) { r.pad_to_max_length = false; },
           [](ScoringRequest& r) { r.max_tokens_per_doc = 0; }}) {
    ScoringRequest wrong = *parsed;
    drop(wrong);
    EXPECT_FIRES(typed_fields_taken(body, wrong), "fields-taken");
  }
  // A string spelling of a limit is the coercion laws' to judge.
  EXPECT_HOLDS(typed_fields_taken(Json{{"max_tokens_per_doc", "3"}}, ScoringRequest{}));
}

TEST(TypedFieldsTaken, ReadsPydanticsSpellingsOfBooleansAndOfIntegersBesidesStrings) {
  // Each spelling, as the core parses it, holds; the value read otherwise fires.
  for (const bool value : {false, true}) {
    for (const Json& spelling : bool_spellings(value)) {
      const Json body{{"queries", "q"}, {"documents", "d"}, {"use_activation", spelling}};
      const auto parsed = parse_online_request(body, Endpoint::Score);
      ASSERT_TRUE(parsed.ok()) << dump_json(spelling);
      EXPECT_HOLDS(typed_fields_taken(body, *parsed));
      ScoringRequest wrong = *parsed;
      wrong.use_activation = !value;  // auto-fields-188-true-false-1 read "0" as true
      EXPECT_FIRES(typed_fields_taken(body, wrong), "fields-taken") << dump_json(spelling);
      wrong.use_activation.reset();
      EXPECT_FIRES(typed_fields_taken(body, wrong), "fields-taken") << dump_json(spelling);
    }
  }
  for (const Json& spelling : {Json(true), Json(3.0), Json(-0.0)}) {
    const Json body{{"queries", "q"}, {"documents", "d"}, {"truncate_prompt_tokens", spelling},
                    {"max_tokens_per_query", spelling}};
    const auto parsed = parse_online_request(body, Endpoint::Score);
    ASSERT_TRUE(parsed.ok()) << dump_json(spelling);
    EXPECT_HOLDS(typed_fields_taken(body, *parsed));
    ScoringRequest wrong = *parsed;
    wrong.truncate_prompt_tokens = Integer(*wrong.truncate_prompt_tokens->to_int64() + 1);
    EXPECT_FIRES(typed_fields_taken(body, wrong), "fields-taken") << dump_json(spelling);
    wrong = *parsed;
    wrong.max_tokens_per_query = Integer(*wrong.max_tokens_per_query.to_int64() + 1);
    EXPECT_FIRES(typed_fields_taken(body, wrong), "fields-taken") << dump_json(spelling);
  }
  // Absent or null: no activation asked for; a spelling outside the list is not judged.
  EXPECT_FIRES(typed_fields_taken(Json{{"use_activation", nullptr}}, [] {
                 ScoringRequest r;
                 r.use_activation = false;
                 return r;
               }()),
               "fields-taken");
  EXPECT_HOLDS(typed_fields_taken(Json{{"use_activation", "oFf"}}, ScoringRequest{}));
  EXPECT_HOLDS(typed_fields_taken(Json{{"truncate_prompt_tokens", 2.5}}, ScoringRequest{}));
}

TEST(BoundsKept, NoFalseAlarmThroughTheRequestCheck) {
  // The core refuses top_n = -1, so the check reports no bounds violation...
  const auto refused = check_request_input(R"({"endpoint":"rerank","request":{"query":"q","documents":["d"],"top_n":-1}})");
  EXPECT_FALSE(refused.accepted);
  for (const auto& v : refused.violations) EXPECT_NE(v.law, "bounds");
  // ...and an accepted one within bounds none either.
  const auto accepted = check_request_input(R"({"endpoint":"rerank","request":{"query":"q","documents":["d"],"top_n":0}})");
  EXPECT_TRUE(accepted.accepted);
  EXPECT_TRUE(accepted.violations.empty());
}

TEST(OutputKindShown, HoldsOnTheCoresMessagesAndFiresOnAnyOtherShowing) {
  const auto rejection = [](const std::string& got) {
    return Error::bad_request("For pooling output_kind has to be FINAL_ONLY, got " + got, "output_kind");
  };
  for (const Json& kind : {Json("DELTA"), Json("CUMULATIVE"), Json("x"), Json(""), Json(0), Json(1), Json(3), Json(-1)})
    EXPECT_HOLDS(output_kind_shown(&kind, Error::bad_request(output_kind_message(kind), "output_kind")));
  const Json delta = "DELTA", one = 1, three = 3, other = "final_only";
  EXPECT_HOLDS(output_kind_shown(&delta, rejection("<RequestOutputKind.DELTA: 1>")));
  EXPECT_FIRES(output_kind_shown(&delta, rejection("\"DELTA\"")), "output-kind-shown");
  EXPECT_FIRES(output_kind_shown(&one, rejection("<RequestOutputKind.CUMULATIVE: 0>")), "output-kind-shown");
  EXPECT_FIRES(output_kind_shown(&three, rejection("<RequestOutputKind.FINAL_ONLY: 3>")), "output-kind-shown");
  EXPECT_FIRES(output_kind_shown(&other, rejection("final_only")), "output-kind-shown");
  // Another message, or no kind found in the input: nothing to judge.
  EXPECT_HOLDS(output_kind_shown(&delta, Error::bad_request("`score` task was removed; use `classify` instead.")));
  EXPECT_HOLDS(output_kind_shown(nullptr, rejection("anything")));
}

// msgspec's forms are the shortest; any wider header, a signed form for a
// non-negative int, float32 or a broken document is reported.
TEST(ShortestForms, HoldsOnMsgspecsFormsAndFiresOnEveryWiderOne) {
  using namespace std::string_literals;
  for (const std::string& good : {"\x93\x01\xc0\xa3" "abc"s, "\xcc\x80"s, "\xcd\x01\x00"s, "\xe0"s, "\xd0\xdf"s,
                                  "\xd1\xff\x7f"s, "\xd9\x20"s + std::string(32, 'x'), "\xc4\x00"s,
                                  "\x81\xa1k\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00"s,
                                  "\xdc\x00\x10"s + std::string(16, '\x00')})
    EXPECT_HOLDS(shortest_forms(good)) << testing::PrintToString(good);
  for (const std::string& bad : {"\xd9\x03" "abc"s, "\xda\x00\x03" "abc"s, "\xcc\x05"s, "\xcd\x00\xff"s, "\xd0\x05"s,
                                 "\xd0\xe0"s, "\xd1\xff\x80"s, "\xca\x00\x00\x00\x00"s, "\xdc\x00\x01\x01"s,
                                 "\xde\x00\x00"s, "\xc5\x00\x01x"s, "\x92\x01"s, "\xa3" "ab"s, "\x01\x02"s, ""s,
                                 "\xd4\x01\x00"s, "\xc1"s})
    EXPECT_FIRES(shortest_forms(bad), "shortest-form") << testing::PrintToString(bad);
}

// The law's White_Space is PropList.txt's: 25 code points in 10 ranges, and
// not the look-alikes U+180E (White_Space until Unicode 6.3), U+200B or U+FEFF.
TEST(WordSplit, TheSpecTableIsPropListsWhiteSpace) {
  int members = 0;
  for (char32_t c = 0; c < 0x10000; ++c) members += spec_white_space(c) ? 1 : 0;
  EXPECT_EQ(members, 25);
  for (char32_t c : {0x85u, 0xA0u, 0x1680u, 0x2000u, 0x200Au, 0x2028u, 0x2029u, 0x202Fu, 0x205Fu, 0x3000u})
    EXPECT_TRUE(spec_white_space(c)) << std::hex << static_cast<std::uint32_t>(c);
  for (char32_t c : {0x84u, 0x180Eu, 0x200Bu, 0x2060u, 0xFEFFu, 0x1Cu}) EXPECT_FALSE(spec_white_space(c));
  // The edges: each range's members and the code point on either side.
  EXPECT_EQ(white_space_edges().size(), 25u + 2u * 10u);
}

TEST(WordSplit, HoldsOnTheCoresTokenizerAtEveryEdge) {
  for (const char32_t c : white_space_edges()) {
    std::string edge;
    append_utf8(edge, static_cast<std::uint32_t>(c));
    for (const std::string& text : {"Cat" + edge + "sat", edge, "x9" + edge + edge + "\u00e9!", edge + "DOG"})
      EXPECT_HOLDS(words_split(text, 30522));
  }
  EXPECT_HOLDS(words_split("", 1001));
}


// Content parts tokenise in their order, images as placeholders (automatic
// mutant auto-tokenizer-92-void-call-1 dropped every text part). The law holds
// on the core's tokenizer and fires on layouts that drop, reorder or misplace.
TEST(WordSplit, PartsTokeniseInOrderWithPlaceholdersWhereTheImagesAre) {
  ScoreInput input;
  input.is_object = true;
  input.parts = {{ContentPart::Kind::Text, "Red cat"},
                 {ContentPart::Kind::ImageUrl, "http://x/a.png"},
                 {ContentPart::Kind::Text, "sat"},
                 {ContentPart::Kind::ImageUrl, "http://x/b.png"}};
  EXPECT_HOLDS(parts_tokenised(input, 30522));
  const SideTokens side = tokenize_input(input, 30522);
  ASSERT_EQ(side.ids.size(), 5u);
  EXPECT_EQ(side.ids[2], kImagePlaceholderId);
  EXPECT_EQ(side.placeholder_positions, (std::vector<std::size_t>{2, 4}));
  EXPECT_EQ(side.image_urls, (std::vector<std::string>{"http://x/a.png", "http://x/b.png"}));

  SideTokens images_only;  // the text parts dropped
  images_only.ids = {kImagePlaceholderId, kImagePlaceholderId};
  images_only.placeholder_positions = {0, 1};
  images_only.image_urls = side.image_urls;
  EXPECT_FIRES(parts_tokenised(input, 30522, images_only), "word-split");
  SideTokens swapped = side;  // the first two words in the other order
  std::swap(swapped.ids[0], swapped.ids[1]);
  EXPECT_FIRES(parts_tokenised(input, 30522, swapped), "word-split");
  SideTokens misplaced = side;  // a placeholder's position off by one
  misplaced.placeholder_positions[1] = 3;
  EXPECT_FIRES(parts_tokenised(input, 30522, misplaced), "word-split");
  SideTokens urls_reversed = side;
  std::swap(urls_reversed.image_urls[0], urls_reversed.image_urls[1]);
  EXPECT_FIRES(parts_tokenised(input, 30522, urls_reversed), "word-split");
  input.parts.clear();
  EXPECT_HOLDS(parts_tokenised(input, 30522));  // no parts, no ids
}

// An online body refused for a common field: is a field checked before it
// (spec 10.2) refused too? Holds on the core for every pair of defects in
// fields of section 6, fires on a parser that checks cache_salt last.
TEST(FirstFailureWins, HoldsOnTheCoreAndFiresOnAParserThatChecksOutOfOrder) {
  const auto online = [](Json body, const char* endpoint = "score") {
    body["query"] = "q";
    body["queries"] = "q";
    body["documents"] = "d";
    return envelope(endpoint, body);
  };
  const std::vector<std::pair<std::string, Json>> defects{
      {"normalize", true},          {"cache_salt", ""},          {"model", 1},
      {"user", 2},                  {"request_id", nullptr},     {"truncate_prompt_tokens", -2},
      {"truncation_side", "up"},    {"padding", "x"},            {"priority", "high"},
      {"mm_processor_kwargs", 3},   {"use_activation", "maybe"}, {"max_tokens_per_query", nullptr},
      {"max_tokens_per_doc", 1.5},  {"instruction", 4},          {"chat_template_kwargs", Json{{"tools", 1}}}};
  for (const auto& [a, bad_a] : defects)
    for (const auto& [b, bad_b] : defects) {
      Json body = Json::object();
      body[a] = bad_a;
      body[b] = bad_b;
      EXPECT_HOLDS(first_failure_wins(online(body)));
      EXPECT_HOLDS(first_failure_wins(online(body, "rerank")));
    }
  // A truncation target above max_model_len is refused after the fields: not a field-order question.
  EXPECT_HOLDS(first_failure_wins(online({{"priority", "high"}, {"truncate_prompt_tokens", 1 << 30}})));
  // Offline calls, unknown endpoints and accepted bodies: nothing to judge.
  EXPECT_HOLDS(first_failure_wins(envelope("llm.score", {{"cache_salt", ""}})));
  EXPECT_HOLDS(first_failure_wins(online({{"cache_salt", "ok"}})));

  const OnlineParser salt_last = [](const Json& body, Endpoint endpoint) -> Result<ScoringRequest> {
    Json rest = body;
    rest.erase("cache_salt");
    auto parsed = parse_online_request(rest, endpoint);
    return parsed ? parse_online_request(body, endpoint) : parsed;
  };
  EXPECT_FIRES(first_failure_wins(online({{"cache_salt", ""}, {"priority", "high"}}), salt_last),
               "first-failure-wins");
  EXPECT_HOLDS(first_failure_wins(online({{"cache_salt", ""}}), salt_last));
}

// Accepted dimensions, judged from spec 2 step 7 alone.
TEST(AcceptedDimensionsValid, HoldsInRangeAndFiresOnEveryWayOut) {
  ModelConfig model;
  model.is_matryoshka = true;
  model.embedding_size = 384;
  PoolingParams params;
  params.task = "embed";
  for (std::int64_t d : {1, 200, 384}) {
    params.dimensions = d;
    EXPECT_HOLDS(accepted_dimensions_valid(model, params));
  }
  for (std::int64_t d : {0, -1, 385}) {
    params.dimensions = d;
    EXPECT_FIRES(accepted_dimensions_valid(model, params), "verify-dimensions");
  }
  model.matryoshka_dimensions = std::vector<std::int64_t>{128, 256};
  params.dimensions = 256;
  EXPECT_HOLDS(accepted_dimensions_valid(model, params));
  params.dimensions = 200;
  EXPECT_FIRES(accepted_dimensions_valid(model, params), "verify-dimensions");
  model = ModelConfig{};
  params.dimensions = 100;
  EXPECT_FIRES(accepted_dimensions_valid(model, params), "verify-dimensions");
  params.task = "classify";  // not an embed task: verify rejects it elsewhere
  EXPECT_HOLDS(accepted_dimensions_valid(model, params));
  // The core's accepted answers hold.
  model.is_matryoshka = true;
  params.task = "token_embed";
  params.dimensions = 384;
  auto verified = verify_params(params, model);
  ASSERT_TRUE(verified.ok());
  EXPECT_HOLDS(accepted_dimensions_valid(model, *verified));
}

}  // namespace
}  // namespace poolcheck::laws
