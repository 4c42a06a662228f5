#include "properties/suites/runner.hpp"

#include <rapidcheck.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>

#include "properties/suites/case_watchdog.hpp"

namespace poolcheck::props {
namespace {

struct Profile {
  std::string name;
  int factor = 1;
  std::string error;
};

Profile profile_from_env() {
  const char* value = std::getenv("POOLCHECK_PROFILE");
  const std::string name = value ? value : "";
  if (name.empty() || name == "pr") return {"pr", 1, ""};
  if (name == "nightly") return {"nightly", kNightlyFactor, ""};
  return {name, 1, "POOLCHECK_PROFILE must be 'pr' or 'nightly', got '" + name + "'"};
}

// Whether RC_PARAMS sets `key` itself ("key=value", space separated): then
// the user's value wins over the profile's.
bool rc_params_set(const std::string& key) {
  const char* params = std::getenv("RC_PARAMS");
  return params != nullptr && (" " + std::string(params)).find(" " + key + "=") != std::string::npos;
}

// What one property run collects from its cases.
struct Run {
  Coverage coverage;
  // RapidCheck runs the minimal failing case once more, last, after shrinking:
  // a failure recorded by the run's last case is the minimal counterexample.
  std::optional<FailingInput> last_failure;
  std::string last_message;
  int failure_case = 0;  // the case (coverage.cases()) that recorded last_failure
};

Run* current_run = nullptr;

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += "  " + line + "\n";
  return out;
}

}  // namespace

void see(const std::string& input_class) {
  if (current_run != nullptr) current_run->coverage.see(input_class);
}

void see_and_tag(const std::string& input_class) {
  see(input_class);
  RC_TAG(input_class);
}

void expect_lawful(const laws::Violations& violations, const FailingInput& input) {
  if (violations.empty()) return;
  const std::string message = laws::describe(violations);
  if (current_run != nullptr) {
    current_run->last_failure = input;
    current_run->last_message = message;
    current_run->failure_case = current_run->coverage.cases();
  }
  RC_FAIL(message);
}

void run_property(const char* id, const PropertySpec& spec, void (*body)()) {
  const Profile profile = profile_from_env();
  ASSERT_TRUE(profile.error.empty()) << profile.error;
  const auto& config = rc::detail::configuration();
  // In reproduce mode RapidCheck runs only the properties the string names
  // (it reports the others as passing with 0 cases), and coverage means nothing.
  const bool reproducing = !config.reproduce.empty();
  if (reproducing && config.reproduce.count(id) == 0) GTEST_SKIP() << "RC_PARAMS reproduce= names other properties";

  rc::detail::TestParams params = config.testParams;  // seed, max_size, noshrink... from RC_PARAMS
  if (!rc_params_set("max_success")) params.maxSuccess = spec.pr_cases * profile.factor;
  if (reproducing) std::cout << "[ poolcheck ] " << id << ": replaying the case RC_PARAMS reproduce= names" << std::endl;
  else std::cout << "[ poolcheck ] " << id << ": profile " << profile.name << ", " << params.maxSuccess
                 << " cases, seed=" << params.seed << std::endl;

  const CaseTimeout timeout = case_timeout_from_env();
  ASSERT_TRUE(timeout.error.empty()) << timeout.error;

  Run run{Coverage(spec.coverage), std::nullopt, "", 0};
  current_run = &run;
  watch_property(id, params.seed, timeout.seconds);
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  const auto start = std::chrono::steady_clock::now();
  const auto result = rc::detail::checkTestable(
      [&run, body] {
        case_begins();
        run.coverage.begin_case();
        body();
      },
      metadata, params);
  unwatch_property();
  current_run = nullptr;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;

  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  rc::detail::FailureResult failure;
  if (result.match(failure)) {
    // One line, as corpus notes are (corpus/README.md).
    std::string note = std::string(id) + " failed: " + run.last_message;
    while (!note.empty() && note.back() == '\n') note.pop_back();
    for (std::size_t at = note.find('\n'); at != std::string::npos; at = note.find('\n', at))
      note.replace(at, 1, "; ");
    ADD_FAILURE() << message.str() << "\n"
                  << (run.last_failure && run.failure_case == run.coverage.cases()
                          ? write_counterexample(id, *run.last_failure, note)
                          : "no counterexample written: the minimal case failed outside a law (an exception?)\n")
                  << "(RapidCheck prints the RC_PARAMS=\"reproduce=...\" line when the program exits)";
    return;
  }
  if (!result.is<rc::detail::SuccessResult>()) {
    ADD_FAILURE() << message.str();
    return;
  }
  std::cout << message.str() << "\n[ poolcheck ] " << id << ": " << run.coverage.cases() << " cases in "
            << elapsed.count() << " s; input classes:\n"
            << run.coverage.table() << std::flush;
  if (reproducing) return;
  const auto starved = run.coverage.starved();
  EXPECT_TRUE(starved.empty()) << id << " passed but did not see enough of these input classes (profile "
                               << profile.name << ", " << run.coverage.cases() << " cases):\n"
                               << joined(starved);
}

}  // namespace poolcheck::props
