#pragma once
// Running another program: the libFuzzer binaries of a campaign (campaign.cpp)
// and the instrumented binaries of a coverage run (coverage.cpp).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <csignal>

#include <signal.h>
#include <sys/types.h>

namespace poolcheck::harness {

// A child process with its stdout and stderr on one non-blocking pipe, in its
// own process group (so that libFuzzer's fork-mode workers go with it: signal
// the group, -pid).
struct Process {
  pid_t pid = -1;  // -1: the process could not be started
  int fd = -1;
  std::string pending;  // a partial line
  bool exited = false;
  int status = 0;  // waitpid's, once exited
};

struct SpawnOptions {
  // NAME=VALUE pairs set in the child on top of this process's environment.
  std::vector<std::pair<std::string, std::string>> environment;
  // When set, the child's stdout goes to this file (truncated) and only its
  // stderr to the pipe: for output that is data, such as llvm-cov's JSON.
  std::filesystem::path stdout_file;
};

// Runs argv[0] (a path, or a bare name looked up on PATH) with argv. A failed exec shows
// in the pipe and as exit code 127.
Process spawn(const std::vector<std::string>& argv, const SpawnOptions& options = {});

// Ctrl-C while children run: from construction until restore() (or
// destruction), SIGINT sets a flag instead of ending this process, so that the
// caller stops its children itself and still prints its summary. One at a time.
class SigintFlag {
 public:
  SigintFlag();  // clears the flag and installs the handler
  ~SigintFlag() { restore(); }
  SigintFlag(const SigintFlag&) = delete;
  SigintFlag& operator=(const SigintFlag&) = delete;

  void restore();  // the previous handler again; the flag keeps its value
  bool raised() const { return raised_ != 0; }

 private:
  static void on_sigint(int);
  static volatile std::sig_atomic_t raised_;
  struct sigaction previous_ {};
  bool installed_ = false;
};

}  // namespace poolcheck::harness
