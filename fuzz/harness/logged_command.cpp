#include "fuzz/harness/logged_command.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <thread>

#include "fuzz/harness/isolation.hpp"
#include "fuzz/harness/process.hpp"

namespace poolcheck::harness {

std::string CommandOutcome::describe() const {
  if (!started) return "could not be started";
  if (timed_out) return "timed out after " + std::to_string(static_cast<long>(seconds)) + " s";
  if (signal != 0) return signal_name(signal);
  return "exit " + std::to_string(exit_code);
}

CommandOutcome run_logged(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment,
                          const std::filesystem::path& log, double timeout_seconds) {
  CommandOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  // stdout straight into the log; stderr through the pipe, appended to it here.
  Process process = spawn(argv, SpawnOptions{environment, log});
  if (process.pid < 0) return outcome;
  outcome.started = true;
  std::ofstream errors(log, std::ios::binary | std::ios::app);
  int status = 0;
  for (;;) {
    char buffer[16384];
    ssize_t n = 0;
    while ((n = ::read(process.fd, buffer, sizeof buffer)) > 0) errors.write(buffer, n);
    errors.flush();
    const pid_t done = ::waitpid(process.pid, &status, WNOHANG);
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == process.pid) break;
    if (done < 0 && errno != EINTR) {
      outcome.started = false;
      break;
    }
    if (timeout_seconds > 0 && outcome.seconds > timeout_seconds) {
      ::kill(-process.pid, SIGKILL);  // the group: cmake -> ninja -> compilers
      ::waitpid(process.pid, &status, 0);
      outcome.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ssize_t n = 0;
  char rest[16384];
  while ((n = ::read(process.fd, rest, sizeof rest)) > 0) errors.write(rest, n);
  ::close(process.fd);
  if (outcome.timed_out || !outcome.started) return outcome;
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (outcome.exit_code == 127) outcome.started = false;  // exec failed; the log says why
  return outcome;
}

}  // namespace poolcheck::harness
