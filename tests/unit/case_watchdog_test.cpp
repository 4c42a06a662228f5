// The property runner's watchdog (properties/suites/case_watchdog.hpp): a case
// that never ends stops the run with the property, the case and the seed that
// replays it; cases that end, however many, never trip it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "properties/suites/case_watchdog.hpp"

namespace poolcheck::props {
namespace {

TEST(CaseWatchdog, ACaseThatNeverEndsStopsTheRunNamingItsPropertyCaseAndSeed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        watch_property("Suite/Hangs", 4242, 0.3);
        case_begins();
        case_begins();
        for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      },
      testing::ExitedWithCode(kHangExitCode),
      "HANG: Suite/Hangs: case 2 has run for more than 0.3 s .*\n"
      "Reproduce with: RC_PARAMS=\"seed=4242\" .* --gtest_filter=Suite.Hangs");
}

TEST(CaseWatchdog, CasesThatEndInTimeAndAnUnwatchedPauseNeverTripIt) {
  watch_property("Suite/Ends", 1, 0.3);
  for (int i = 0; i < 6; ++i) {
    case_begins();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // 0.6 s in all, each case 0.1 s
  }
  unwatch_property();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // past the limit, but nothing is watched
  SUCCEED() << "the process is still here";
}

TEST(CaseWatchdog, TheLimitComesFromTheEnvironment) {
  unsetenv("POOLCHECK_CASE_TIMEOUT");
  EXPECT_EQ(case_timeout_from_env().seconds, kDefaultCaseTimeoutSeconds);
  setenv("POOLCHECK_CASE_TIMEOUT", "2.5", 1);
  EXPECT_EQ(case_timeout_from_env().seconds, 2.5);
  EXPECT_TRUE(case_timeout_from_env().error.empty());
  setenv("POOLCHECK_CASE_TIMEOUT", "0", 1);
  EXPECT_EQ(case_timeout_from_env().seconds, 0);
  setenv("POOLCHECK_CASE_TIMEOUT", "soon", 1);
  EXPECT_EQ(case_timeout_from_env().error,
            "POOLCHECK_CASE_TIMEOUT must be a number of seconds, 0 or more (0: no limit), got 'soon'");
  setenv("POOLCHECK_CASE_TIMEOUT", "-1", 1);
  EXPECT_FALSE(case_timeout_from_env().error.empty());
  unsetenv("POOLCHECK_CASE_TIMEOUT");
}

}  // namespace
}  // namespace poolcheck::props
