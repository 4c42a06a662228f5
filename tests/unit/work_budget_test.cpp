// The request fuzz target's work budget (fuzz/work_budget.hpp): which inputs a
// campaign skips because they are slow by design, not broken.
#include <gtest/gtest.h>

#include <string>

#include "fuzz/work_budget.hpp"

namespace {

using poolcheck::fuzz::kPaddedTokenBudget;

// What the request target asks of the check (one parse: the budget reads the
// envelope the check has parsed anyway).
bool over_work_budget(const std::string& bytes) {
  return poolcheck::laws::check_request_input(bytes, poolcheck::fuzz::kRequestTargetCheck).over_budget;
}

std::string padded(std::int64_t max_model_len, const std::string& documents, const char* padding = "max_length") {
  return R"({"endpoint":"score","model":{"max_model_len":)" + std::to_string(max_model_len) +
         R"(},"request":{"queries":"q","documents":)" + documents + R"(,"padding":")" + padding + R"("}})";
}

TEST(WorkBudget, CountsEveryPaddedPair) {
  EXPECT_FALSE(over_work_budget(padded(kPaddedTokenBudget, R"("d")")));
  EXPECT_TRUE(over_work_budget(padded(kPaddedTokenBudget + 1, R"("d")")));
  EXPECT_FALSE(over_work_budget(padded(kPaddedTokenBudget / 2, R"(["d1","d2"])")));
  EXPECT_TRUE(over_work_budget(padded(kPaddedTokenBudget / 2, R"(["d1","d2","d3"])")));
  EXPECT_TRUE(over_work_budget(padded(std::int64_t{1} << 24, R"("d")")));
}

TEST(WorkBudget, OnlyPaddingCountsAndInvalidInputIsChecked) {
  EXPECT_FALSE(over_work_budget(padded(std::int64_t{1} << 24, R"("d")", "do_not_pad")));
  // No overflow on a huge max_model_len (the core rejects its output as too large).
  EXPECT_TRUE(over_work_budget(padded(std::int64_t{1} << 62, R"(["d1","d2","d3","d4"])")));
  // Rejected inputs cost nothing: the target checks their error.
  EXPECT_FALSE(over_work_budget(padded(0, R"("d")")));
  EXPECT_FALSE(over_work_budget("not json"));
}

// Over the budget the request is decided without its tokens, and the laws of
// that verdict run: 2^24 tokens exactly are accepted, one more refused.
TEST(WorkBudget, OverTheBudgetTheVerdictIsStillJudged) {
  const auto at_bound =
      poolcheck::laws::check_request_input(padded(std::int64_t{1} << 23, R"(["d1","d2"])"), poolcheck::fuzz::kRequestTargetCheck);
  EXPECT_TRUE(at_bound.over_budget);
  EXPECT_TRUE(at_bound.accepted);
  EXPECT_TRUE(at_bound.violations.empty()) << poolcheck::laws::describe(at_bound.violations);
  const auto past = poolcheck::laws::check_request_input(padded((std::int64_t{1} << 23) + 1, R"(["d1","d2"])"),
                                                         poolcheck::fuzz::kRequestTargetCheck);
  EXPECT_TRUE(past.over_budget);
  EXPECT_FALSE(past.accepted);
  EXPECT_EQ(past.outcome["error"]["message"], "The request would produce more than 16777216 prompt tokens in total.");
  EXPECT_TRUE(past.violations.empty()) << poolcheck::laws::describe(past.violations);
}

TEST(WorkBudget, TheDefaultCheckHasNoBudget) {
  EXPECT_FALSE(poolcheck::laws::check_request_input(padded(kPaddedTokenBudget + 1, R"("d")")).over_budget);
}

}  // namespace
