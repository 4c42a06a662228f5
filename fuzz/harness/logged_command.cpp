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

namespace {

// One running command: its process, its log (stderr arrives through the pipe
// and is appended; stdout goes to the file directly) and its outcome so far.
struct Running {
  Process process;
  std::ofstream errors;
  CommandOutcome outcome;
  bool done = false;
};

void drain(Running& running) {
  char buffer[16384];
  ssize_t n = 0;
  while ((n = ::read(running.process.fd, buffer, sizeof buffer)) > 0) running.errors.write(buffer, n);
  running.errors.flush();
}

void finish(Running& running, int status) {
  drain(running);
  ::close(running.process.fd);
  running.done = true;
  CommandOutcome& outcome = running.outcome;
  if (outcome.timed_out || !outcome.started) return;
  if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
  if (outcome.exit_code == 127) outcome.started = false;  // exec failed; the log says why
}

// One look at a running command: its output so far, and whether it ended or ran out of time.
void poll(Running& running, const LoggedCommand& command, std::chrono::steady_clock::time_point start) {
  drain(running);
  int status = 0;
  const pid_t done = ::waitpid(running.process.pid, &status, WNOHANG);
  CommandOutcome& outcome = running.outcome;
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (done == running.process.pid) return finish(running, status);
  if (done < 0 && errno != EINTR) {
    outcome.started = false;
    return finish(running, status);
  }
  if (command.timeout_seconds > 0 && outcome.seconds > command.timeout_seconds) {
    ::kill(-running.process.pid, SIGKILL);  // the group: cmake -> ninja -> compilers
    ::waitpid(running.process.pid, &status, 0);
    outcome.timed_out = true;
    finish(running, status);
  }
}

}  // namespace

std::vector<CommandOutcome> run_logged_together(const std::vector<LoggedCommand>& commands) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<Running> running(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    // stdout straight into the log; stderr through the pipe, appended to it here.
    running[i].process = spawn(commands[i].argv, SpawnOptions{commands[i].environment, commands[i].log});
    running[i].done = running[i].process.pid < 0;
    running[i].outcome.started = !running[i].done;
    if (!running[i].done) running[i].errors.open(commands[i].log, std::ios::binary | std::ios::app);
  }
  for (;;) {
    bool any_running = false;
    for (std::size_t i = 0; i < commands.size(); ++i) {
      if (running[i].done) continue;
      poll(running[i], commands[i], start);
      any_running = any_running || !running[i].done;
    }
    if (!any_running) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::vector<CommandOutcome> outcomes;
  for (const auto& r : running) outcomes.push_back(r.outcome);
  return outcomes;
}

CommandOutcome run_logged(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& environment,
                          const std::filesystem::path& log, double timeout_seconds) {
  return run_logged_together({LoggedCommand{argv, environment, log, timeout_seconds}}).front();
}

}  // namespace poolcheck::harness
