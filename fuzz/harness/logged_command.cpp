#include "fuzz/harness/logged_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "fuzz/harness/isolation.hpp"

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
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0 || argv.empty()) return outcome;
  const auto start = std::chrono::steady_clock::now();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    return outcome;
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // so that a timeout kills the whole tree (cmake -> ninja -> compilers)
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    for (const auto& [name, value] : environment) ::setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    std::_Exit(127);
  }
  ::setpgid(pid, pid);
  ::close(log_fd);
  outcome.started = true;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      outcome.started = false;
      return outcome;
    }
    if (timeout_seconds > 0 && outcome.seconds > timeout_seconds) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      outcome.timed_out = true;
      return outcome;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (outcome.exit_code == 127) outcome.started = false;  // exec failed; the log says why
  return outcome;
}

}  // namespace poolcheck::harness
