#pragma once
// How a property runs. POOLCHECK_PROPERTY(Suite, Name, spec) defines a
// GoogleTest test that does what RC_GTEST_PROP does (hand the body to
// RapidCheck under the test id "Suite/Name", so RC_PARAMS reproduce strings
// name it the same way) and three things RC_GTEST_PROP cannot:
// - the case count comes from the property's spec and the profile
//   (POOLCHECK_PROFILE=pr|nightly; RC_PARAMS max_success= still wins);
// - after a passing run, the input-class coverage the spec declares is checked;
// - after a failing run, the minimal failing input is written as a corpus entry.
// Bodies draw their inputs with `*gen` and report through the functions below.
// RapidCheck itself stays out of this header.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "properties/laws/violation.hpp"
#include "properties/suites/counterexample.hpp"
#include "properties/suites/coverage.hpp"

namespace poolcheck::props {

inline constexpr int kNightlyFactor = 50;

struct PropertySpec {
  int pr_cases = 100;                 // nightly runs kNightlyFactor times as many
  std::vector<Requirement> coverage;  // the input classes a passing run must reach
};

void run_property(const char* id, const PropertySpec& spec, void (*body)());

// The current case belongs to `input_class` (coverage).
void see(const std::string& input_class);
// Same, and the class is added to RapidCheck's printed distribution (RC_TAG).
void see_and_tag(const std::string& input_class);
// Fails the current case when there are violations, naming them, and keeps
// `input` so the runner can write the minimal failing one.
void expect_lawful(const laws::Violations& violations, const FailingInput& input);

}  // namespace poolcheck::props

#define POOLCHECK_PROPERTY(Suite, Name, spec)                                                  \
  static void poolcheck_property_##Suite##_##Name();                                           \
  TEST(Suite, Name) {                                                                          \
    ::poolcheck::props::run_property(#Suite "/" #Name, (spec), &poolcheck_property_##Suite##_##Name); \
  }                                                                                            \
  static void poolcheck_property_##Suite##_##Name()
