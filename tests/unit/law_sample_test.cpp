// The law sample of the fuzz targets (properties/laws/law_sample.hpp,
// fuzz/check_or_abort.hpp): which inputs the laws judge under an engine, and
// the law-free outcome each target runs on every input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/output_json.hpp"
#include "fuzz/check_or_abort.hpp"
#include "fuzz/work_budget.hpp"
#include "properties/laws/law_sample.hpp"
#include "tests/unit/corpus_seeds.hpp"

namespace {

using poolcheck::Json;
using poolcheck::laws::CheckDepth;
using poolcheck::laws::CheckResult;
using poolcheck::laws::Judged;
using poolcheck::laws::LawSample;
using poolcheck::laws::outcome_shape;

Json parsed(const char* text) { return Json::parse(text); }

bool same_shape(const char* a, const char* b) { return outcome_shape(parsed(a)) == outcome_shape(parsed(b)); }

TEST(OutcomeShape, KeepsKeysKindsAndSizeClassesNotValues) {
  EXPECT_TRUE(same_shape(R"({"k":1,"s":"a salt 1","l":[1,2,3]})", R"({"k":2,"s":"x-2","l":[7,8,9]})"));
  EXPECT_FALSE(same_shape(R"({"k":1})", R"({"k":300})"));       // another size class
  EXPECT_FALSE(same_shape(R"({"k":1})", R"({"k":-1})"));        // another sign
  EXPECT_FALSE(same_shape(R"({"k":1})", R"({"k":1.5})"));       // another kind
  EXPECT_FALSE(same_shape(R"({"s":"a"})", R"({"s":""})"));      // an empty string
  EXPECT_FALSE(same_shape(R"({"l":[1,2,3]})", R"({"l":[1,2,3,4]})"));  // another length class
  EXPECT_FALSE(same_shape(R"({"l":[0,0,1]})", R"({"l":[0,0,300]})"));  // its last element
  EXPECT_FALSE(same_shape(R"({"a":1,"b":2})", R"({"b":2,"a":1})"));    // key order
  EXPECT_FALSE(same_shape(R"({"a":true})", R"({"a":false})"));
}

TEST(OutcomeShape, AShortWordIsItsText) {
  EXPECT_FALSE(same_shape(R"({"task":"embed"})", R"({"task":"classify"})"));
  EXPECT_FALSE(same_shape(R"({"side":"left"})", R"({"side":"right"})"));
  // Digits, spaces and length make a value, not a word.
  EXPECT_TRUE(same_shape(R"({"salt":"abc1"})", R"({"salt":"xyz2"})"));
  EXPECT_TRUE(same_shape(R"({"salt":"two words"})", R"({"salt":"three more words"})"));
  EXPECT_TRUE(same_shape(R"({"salt":"abcdefghijklmnopqrstuvwxyz"})", R"({"salt":"zyxwvutsrqponmlkjihgfedcba"})"));
}

TEST(OutcomeShape, AnErrorMessageIsItsTextUpToTheInputsOwnValues) {
  EXPECT_TRUE(same_shape(R"({"message":"request.queries[3]: Input should be a valid string"})",
                         R"({"message":"request.queries[12]: Input should be a valid string"})"));
  EXPECT_TRUE(same_shape(R"({"message":"Unknown task 'x'"})", R"({"message":"Unknown task 'embed'"})"));
  EXPECT_FALSE(same_shape(R"({"message":"request.top_n: Input should be a valid integer"})",
                          R"({"message":"request.top_n: Input should be a valid boolean"})"));
  // Only a message reads its text.
  EXPECT_TRUE(same_shape(R"({"detail":"one text"})", R"({"detail":"another text"})"));
}

TEST(OutcomeShape, ReadsAtMostItsBudgetOfValues) {
  Json wide = Json::object();
  for (int i = 0; i < 300; ++i) wide["k" + std::to_string(i)] = 0;
  Json changed_late = wide;
  changed_late["k299"] = "a string";
  Json changed_early = wide;
  changed_early["k1"] = "a string";
  EXPECT_EQ(outcome_shape(wide), outcome_shape(changed_late));
  EXPECT_NE(outcome_shape(wide), outcome_shape(changed_early));
}

// Bytes the hash does not pick for a sample of one in `n`.
std::string unpicked(std::uint32_t n, int from = 0) {
  for (int i = from;; ++i) {
    std::string bytes = "input " + std::to_string(i);
    if ((poolcheck::laws::sampling_hash(bytes) >> 8) % n != 0) return bytes;
  }
}

TEST(LawSample, JudgesTheFirstOutcomeOfEachShapeAndThenOnlyWhatTheHashPicks) {
  LawSample sample;
  const std::string bytes = unpicked(1000);
  EXPECT_EQ(sample.judges(bytes, parsed(R"({"k":1})"), 1000), Judged::FirstOfShape);
  EXPECT_EQ(sample.judges(bytes, parsed(R"({"k":2})"), 1000), Judged::No);
  EXPECT_EQ(sample.judges(bytes, parsed(R"({"k":"s"})"), 1000), Judged::FirstOfShape);
  EXPECT_EQ(sample.shapes_seen(), 2u);
}

TEST(LawSample, TheHashPicksAboutOneInN) {
  LawSample sample;
  const Json outcome = parsed(R"({"k":1})");
  sample.judges("first", outcome, 16);
  int judged = 0;
  for (int i = 0; i < 16000; ++i)
    judged += sample.judges("input " + std::to_string(i), outcome, 16) == Judged::PickedByHash;
  EXPECT_GT(judged, 800);
  EXPECT_LT(judged, 1200);
}

TEST(LawSample, OneInOneJudgesEveryInput) {
  LawSample sample;
  sample.judges("first", parsed("{}"), 1);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(sample.judges("input " + std::to_string(i), parsed("{}"), 1), Judged::PickedByHash);
}

TEST(LawSample, LearnsAtMostItsBoundOfShapes) {
  LawSample sample;
  const std::string bytes = unpicked(1u << 20);
  for (std::size_t i = 0; i < LawSample::kMaxShapes; ++i)
    ASSERT_EQ(sample.judges(bytes, Json{{"k" + std::to_string(i), 0}}, 1u << 20), Judged::FirstOfShape);
  EXPECT_EQ(sample.shapes_seen(), LawSample::kMaxShapes);
  EXPECT_EQ(sample.judges(bytes, Json{{"one more", 0}}, 1u << 20), Judged::No);
  EXPECT_EQ(sample.shapes_seen(), LawSample::kMaxShapes);
}

using poolcheck::test::seeds_of;

// What the law sample skips is the check's own answer: the law-free outcome
// of every seed is the check's, with the depth its fuzz target uses.
TEST(TargetOutcomes, AreTheChecksAnswersWithoutItsLaws) {
  using namespace poolcheck::laws;
  struct Pair {
    const char* target;
    CheckResult (*check)(std::string_view, const CheckDepth&);
    CheckResult (*alone)(std::string_view, const CheckDepth&);
    CheckDepth how;
  };
  const Pair pairs[] = {
      {"request", check_request_input, request_outcome, poolcheck::fuzz::kRequestTargetCheck},
      {"params_wire", check_params_wire_input, params_wire_outcome, poolcheck::fuzz::kCommandsTargetCheck},
      {"token_types", check_token_types_input, token_types_outcome, poolcheck::fuzz::kTokenTypesTargetCheck},
      {"verify", check_verify_input, verify_outcome, poolcheck::fuzz::kVerifyTargetCheck},
  };
  for (const Pair& pair : pairs) {
    const auto seeds = seeds_of(pair.target);
    ASSERT_FALSE(seeds.empty()) << pair.target;
    for (const std::string& bytes : seeds) {
      const CheckResult checked = pair.check(bytes, pair.how);
      const CheckResult alone = pair.alone(bytes, pair.how);
      EXPECT_TRUE(alone.violations.empty()) << pair.target << ": " << bytes;
      EXPECT_EQ(alone.accepted, checked.accepted) << pair.target << ": " << bytes;
      EXPECT_EQ(alone.over_budget, checked.over_budget) << pair.target << ": " << bytes;
      EXPECT_EQ(poolcheck::dump_json(alone.outcome), poolcheck::dump_json(checked.outcome))
          << pair.target << ": " << bytes;
    }
  }
}

// check_or_abort under an engine, with a check that always fails: it aborts
// exactly when the check runs.
CheckResult always_violated(std::string_view, const CheckDepth&) { return {{{"test-law", "always fails"}}, true, 1}; }
CheckResult answers_one(std::string_view, const CheckDepth&) { return {{}, true, 1}; }
CheckResult core_throws(std::string_view, const CheckDepth&) {
  return {{{"no-exceptions", "an exception escaped the core"}}, false, nullptr};
}

int run(poolcheck::fuzz::DepthCheckFunction alone, const std::string& bytes) {
  CheckDepth how;
  how.laws_one_in = 1000;
  return poolcheck::fuzz::check_or_abort(always_violated, alone, how,
                                         reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

class EngineChecks : public ::testing::Test {
 protected:
  void TearDown() override { poolcheck::fuzz::engine_checks() = {}; }
};

TEST_F(EngineChecks, WithoutAnEngineEveryInputIsChecked) {
  EXPECT_DEATH(run(answers_one, unpicked(1000)), "test-law");
}

TEST_F(EngineChecks, UnderAnEngineOnlyTheSampleIsChecked) {
  auto& engine = poolcheck::fuzz::engine_checks();
  engine.started = true;
  const std::string bytes = unpicked(1000);
  EXPECT_DEATH(run(answers_one, bytes), "test-law");  // the first of its shape (in the child)
  engine.sample.judges(bytes, Json(1), 1000);          // the same shape, met here in the parent
  EXPECT_EQ(run(answers_one, bytes), 0);
  EXPECT_DEATH(run(core_throws, bytes), "test-law");  // a core that threw is checked
  engine.laws_one_in = 1;                              // POOLCHECK_LAWS_ONE_IN=1: every input
  EXPECT_DEATH(run(answers_one, bytes), "test-law");
}

// The check it was handed: aborts when the full check is on for this input.
CheckResult full_check_violated(std::string_view, const CheckDepth& how) {
  if (how.full_check_one_in == 1) return {{{"full-check", "the full check ran"}}, true, 1};
  return {{}, true, 1};
}

TEST_F(EngineChecks, TheFirstOfAShapeGetsTheFullCheckAndAPickedInputItsTargets) {
  auto& engine = poolcheck::fuzz::engine_checks();
  engine.started = true;
  CheckDepth how;
  how.laws_one_in = 1;  // every input picked: judged, but by the hash
  how.full_check_one_in = 8;
  const std::string bytes = unpicked(1000);
  auto run_full = [&] {
    return poolcheck::fuzz::check_or_abort(full_check_violated, answers_one, how,
                                           reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  };
  EXPECT_EQ(run_full(), 0);
  how.laws_one_in = 1000;
  EXPECT_DEATH(run_full(), "full-check");  // the first of its shape (in the child)
}

TEST_F(EngineChecks, TheEnvironmentsChoicesOverrideTheTargets) {
  auto& engine = poolcheck::fuzz::engine_checks();
  CheckDepth how;
  how.laws_one_in = 16;
  how.full_check_one_in = 8;
  EXPECT_EQ(engine.applied_to(how).laws_one_in, 16u);
  EXPECT_EQ(engine.applied_to(how).full_check_one_in, 8u);
  engine.laws_one_in = 3;
  engine.full_check_one_in = 1;
  EXPECT_EQ(engine.applied_to(how).laws_one_in, 3u);
  EXPECT_EQ(engine.applied_to(how).full_check_one_in, 1u);
}

}  // namespace
