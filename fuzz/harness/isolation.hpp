#pragma once
// Running one input through a target's check in a child process, so that a
// crash, a sanitizer abort or a hang is a reported outcome, not the end of
// the run. The child runs the check (fork, no exec: the same binary, the same
// law library) and sends a summary back through a pipe; its stderr is
// captured for sanitizer reports; the parent kills it at the deadline.
#include <string>
#include <string_view>

#include "properties/laws/check.hpp"

namespace poolcheck::harness {

using CheckFunction = laws::CheckResult (*)(std::string_view bytes);

// What the parent needs from a CheckResult, in serialisable form.
struct CheckSummary {
  laws::Violations violations;
  bool accepted = false;
  std::string outcome;  // dump_json(outcome)
  std::string digest;   // outcome_digest(outcome)
};

CheckSummary summarise(const laws::CheckResult& result);
// The check in this process (for the minimiser's fast path).
CheckSummary run_in_process(CheckFunction check, std::string_view input);

enum class RunStatus { Completed, Crashed, TimedOut };

struct IsolatedRun {
  RunStatus status = RunStatus::Completed;
  CheckSummary summary;     // Completed only
  int signal = 0;           // Crashed: the signal that ended the child, or 0
  int exit_code = 0;        // Crashed without a signal: the child's exit code
  std::string stderr_text;  // the child's stderr, its first kMaxCapturedStderr bytes
  double seconds = 0;
};

inline constexpr std::size_t kMaxCapturedStderr = 256 * 1024;

// `timeout_seconds` <= 0 means no deadline.
IsolatedRun run_isolated(CheckFunction check, std::string_view input, double timeout_seconds);

// "SIGSEGV", "SIGABRT", ... or "signal N".
std::string signal_name(int signal);

}  // namespace poolcheck::harness
