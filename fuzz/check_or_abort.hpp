#pragma once
// The whole of a fuzz target: hand the bytes to the law library's entry point
// and abort, with the violated laws on stderr, when any law fails. The laws
// live in properties/laws/ only; a target never checks anything itself.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "properties/laws/check.hpp"
#include "properties/laws/law_sample.hpp"

namespace poolcheck::fuzz {

inline int abort_on_violation(const laws::CheckResult& result) {
  if (!result.violations.empty()) {
    // abort(), not a return code: libFuzzer saves the input as a crash artifact
    // and the replay driver reports the file.
    std::fprintf(stderr, "poolcheck: law violated\n%s\n", laws::describe(result.violations).c_str());
    std::fflush(stderr);
    std::abort();
  }
  // -1 keeps an input over the work budget (checked only in part) out of the corpus.
  return result.over_budget ? -1 : 0;
}

inline std::string_view as_bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A target that checks some laws on a sample of its inputs (work_budget.hpp).
using DepthCheckFunction = laws::CheckResult (*)(std::string_view bytes, const laws::CheckDepth& how);

// How an engine checks (engine_start.cpp sets it before the first input).
// Not started, as in the replay drivers: every input gets the check, with the
// full check as the target's CheckDepth says.
struct EngineChecks {
  bool started = false;
  // The environment's choices, over the target's CheckDepth (0: the target's).
  std::uint32_t laws_one_in = 0;
  std::uint32_t full_check_one_in = 0;
  laws::LawSample sample;

  laws::CheckDepth applied_to(laws::CheckDepth how) const {
    if (laws_one_in != 0) how.laws_one_in = laws_one_in;
    if (full_check_one_in != 0) how.full_check_one_in = full_check_one_in;
    return how;
  }
};

inline EngineChecks& engine_checks() {
  static EngineChecks checks;
  return checks;
}

// Under an engine, `alone` (the core with no law) runs on every input and
// `check` on those the law sample picks, with the full check on every input
// whose outcome is the first of its shape; an exception escaping the core is
// `alone`'s violation, so it is reported as the check would.
inline int check_or_abort(DepthCheckFunction check, DepthCheckFunction alone, const laws::CheckDepth& how,
                          const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = as_bytes(data, size);
  auto& engine = engine_checks();
  if (!engine.started) return abort_on_violation(check(bytes, how));
  laws::CheckDepth depth = engine.applied_to(how);
  if (depth.laws_one_in > 1) {
    laws::CheckResult outcome = alone(bytes, depth);
    if (outcome.violations.empty()) {
      const laws::Judged judged = engine.sample.judges(bytes, outcome.outcome, depth.laws_one_in);
      if (judged == laws::Judged::No) return abort_on_violation(outcome);
      // A new kind of answer gets every law, the full check's re-runs among them.
      if (judged == laws::Judged::FirstOfShape) depth.full_check_one_in = 1;
    }
  }
  return abort_on_violation(check(bytes, depth));
}

}  // namespace poolcheck::fuzz
