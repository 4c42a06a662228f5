#pragma once
// A property case that never ends is a finding, not a stuck CI job. An endless
// loop in the core (a loop whose step goes the wrong way, a position that never
// advances) would otherwise hold the property until ctest's or the mutation
// gate's time limit, and end with nothing but "Timeout". The watchdog ends the
// process once one case has run for POOLCHECK_CASE_TIMEOUT seconds (default
// kDefaultCaseTimeoutSeconds; 0 turns it off), naming the property, the case and
// the seed that replays it. A case of the `pr` profile takes milliseconds, of
// the nightly one no longer, so the limit is far above any honest case.
#include <cstdint>
#include <string>

namespace poolcheck::props {

inline constexpr double kDefaultCaseTimeoutSeconds = 60;
inline constexpr int kHangExitCode = 3;

// The limit POOLCHECK_CASE_TIMEOUT sets, or an error message for a value that
// is not a number of seconds (0 or more).
struct CaseTimeout {
  double seconds = kDefaultCaseTimeoutSeconds;
  std::string error;
};
CaseTimeout case_timeout_from_env();

// From now on the cases of property `id` are watched, with `seed` the seed that
// replays them. What a hang prints is written here, not when the watchdog fires:
// a core that grows a string without end holds all the memory by then.
void watch_property(const char* id, std::uint64_t seed, double timeout_seconds);
// A case of the watched property starts: its clock starts again.
void case_begins();
// The property's run is over: nothing is watched until the next watch_property.
void unwatch_property();

// What the watchdog prints when `id`'s case `case_number` overruns (exposed
// for its test).
std::string hang_message(const char* id, std::uint64_t seed, int case_number, double timeout_seconds,
                         const std::string& program);

}  // namespace poolcheck::props
