#pragma once
// Runs a program to completion with its output in a log file (process.hpp's
// spawn, waited for): what the mutation gate does with cmake, the property
// suites, `poolcheck repro` and the fuzzers.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace poolcheck::harness {

struct CommandOutcome {
  bool started = false;   // false: fork or exec failed (the log says why)
  int exit_code = -1;     // when it exited
  int signal = 0;         // when a signal ended it
  bool timed_out = false; // killed (with its process group) at the deadline
  double seconds = 0;
  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  std::string describe() const;  // "exit 1", "SIGSEGV", "timed out after 900 s", ...
};

// argv[0] is looked up on PATH. `environment` entries are set (name, value)
// in the child only. stdout and stderr go to `log` (truncated first).
// `timeout_seconds` <= 0: no deadline.
struct LoggedCommand {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> environment;
  std::filesystem::path log;
  double timeout_seconds = 0;
};
CommandOutcome run_logged(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment,
                          const std::filesystem::path& log, double timeout_seconds);
// The commands side by side (all started at once, each with its own log and
// deadline), from this one thread: the outcomes, in the commands' order.
std::vector<CommandOutcome> run_logged_together(const std::vector<LoggedCommand>& commands);

}  // namespace poolcheck::harness
