// What a fuzzing engine does before the first input and the replay drivers
// never do: start the law sample (check_or_abort.hpp, work_budget.hpp), so
// that the core runs on every input and the laws on a sample of them.
// libFuzzer and AFL++'s libFuzzer-compatible driver both call it; linked into
// the engines' executables only (fuzz/CMakeLists.txt).
//
// Two switches, for comparison runs:
//   POOLCHECK_LAWS_ONE_IN=N        the laws judge one input in N besides the
//                                  first of each outcome shape (default: the
//                                  target's CheckDepth::laws_one_in); 1: every
//                                  input, as the targets did before the sample;
//   POOLCHECK_FULL_CHECK_ONE_IN=N  the full check goes to one judged input in
//                                  N (default: the target's, kFullCheckOneIn);
//                                  1: every one.
// Both at 1 check every input as `poolcheck repro` does (bench/fuzz_speed
// makes its input sets so, free of any sample's bias).
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz/check_or_abort.hpp"

namespace {

// The whole number in `variable`, or 0 (the target's own) when it is unset.
std::uint32_t one_in(const char* variable) {
  const char* text = std::getenv(variable);
  if (text == nullptr) return 0;
  const std::string_view value(text);
  std::uint32_t n = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (error != std::errc() || end != value.data() + value.size() || n == 0) {
    std::fprintf(stderr, "poolcheck: %s must be a whole number from 1 to 4294967295, got '%s'\n", variable, text);
    std::exit(2);
  }
  return n;
}

// At the end of a run, what the law sample chose, so that a campaign's user
// sees how many inputs the laws judged (and a comparison run's figures).
void report_law_sample() {
  const auto& engine = poolcheck::fuzz::engine_checks();
  const auto& counts = engine.sample.counts();
  if (counts.inputs == 0) return;
  std::fprintf(stderr,
               "poolcheck: the laws judged %llu of %llu inputs: %llu the first of their outcome's shape (%zu shapes), "
               "%llu picked by their hash\n",
               static_cast<unsigned long long>(counts.first_of_shape + counts.picked_only),
               static_cast<unsigned long long>(counts.inputs), static_cast<unsigned long long>(counts.first_of_shape),
               engine.sample.shapes_seen(), static_cast<unsigned long long>(counts.picked_only));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  auto& engine = poolcheck::fuzz::engine_checks();
  engine.started = true;
  engine.laws_one_in = one_in("POOLCHECK_LAWS_ONE_IN");
  engine.full_check_one_in = one_in("POOLCHECK_FULL_CHECK_ONE_IN");
  std::atexit(report_law_sample);
  return 0;
}
