#include "fuzz/harness/isolation.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/output_json.hpp"
#include "fuzz/harness/digest.hpp"

namespace poolcheck::harness {
namespace {

using Clock = std::chrono::steady_clock;

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::string serialise(const CheckSummary& summary) {
  Json violations = Json::array();
  for (const auto& v : summary.violations) violations.push_back(Json::array({v.law, v.description}));
  return dump_json(Json{{"violations", violations}, {"accepted", summary.accepted}, {"outcome", summary.outcome}});
}

bool deserialise(const std::string& text, CheckSummary& summary) {
  Json report = Json::parse(text, nullptr, false);
  if (report.is_discarded() || !report.is_object()) return false;
  try {
    for (const auto& v : report.at("violations"))
      summary.violations.push_back({v.at(0).get<std::string>(), v.at(1).get<std::string>()});
    summary.accepted = report.at("accepted").get<bool>();
    summary.outcome = report.at("outcome").get<std::string>();
  } catch (const Json::exception&) {
    return false;
  }
  summary.digest = digest_of_bytes(summary.outcome);
  return true;
}

// The child: run the check, report, and leave without running the parent's
// atexit handlers or flushing its buffers.
[[noreturn]] void child_main(CheckFunction check, std::string_view input, int report_fd, int stderr_fd) {
  ::dup2(stderr_fd, STDERR_FILENO);
  ::close(stderr_fd);
  const CheckSummary summary = run_in_process(check, input);
  write_all(report_fd, serialise(summary));
  ::close(report_fd);
  std::_Exit(0);
}

}  // namespace

CheckSummary summarise(const laws::CheckResult& result) {
  CheckSummary summary;
  summary.violations = result.violations;
  summary.accepted = result.accepted;
  summary.outcome = dump_json(result.outcome);
  summary.digest = digest_of_bytes(summary.outcome);
  return summary;
}

CheckSummary run_in_process(CheckFunction check, std::string_view input) { return summarise(check(input)); }

IsolatedRun run_isolated(CheckFunction check, std::string_view input, double timeout_seconds) {
  IsolatedRun run;
  int report_pipe[2];
  int stderr_pipe[2];
  if (::pipe(report_pipe) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (::pipe(stderr_pipe) != 0) {
    ::close(report_pipe[0]);
    ::close(report_pipe[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(report_pipe[0]);
    ::close(stderr_pipe[0]);
    child_main(check, input, report_pipe[1], stderr_pipe[1]);
  }
  ::close(report_pipe[1]);
  ::close(stderr_pipe[1]);

  const bool has_deadline = timeout_seconds > 0;
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(has_deadline ? timeout_seconds : 0));
  auto remaining_ms = [&]() -> int {
    if (!has_deadline) return 1000;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1000));
  };

  std::string report;
  pollfd fds[2] = {{report_pipe[0], POLLIN, 0}, {stderr_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  bool timed_out = false;
  char buffer[65536];
  while (open_fds > 0) {
    const int wait = remaining_ms();
    if (has_deadline && wait == 0 && Clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 2, wait);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (auto& fd : fds) {
      if (fd.fd < 0 || (fd.revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(fd.fd, buffer, sizeof buffer);
      if (n > 0) {
        if (fd.fd == report_pipe[0]) report.append(buffer, static_cast<std::size_t>(n));
        else if (run.stderr_text.size() < kMaxCapturedStderr)
          run.stderr_text.append(buffer, std::min<std::size_t>(static_cast<std::size_t>(n),
                                                               kMaxCapturedStderr - run.stderr_text.size()));
      } else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
        ::close(fd.fd);
        fd.fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);

  // Both pipes closed: the child is leaving (or hangs with its pipes closed,
  // which the deadline still catches).
  int status = 0;
  while (!timed_out) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) break;
    if (has_deadline && Clock::now() >= deadline) {
      timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (timed_out) {
    ::kill(pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();

  if (timed_out) {
    run.status = RunStatus::TimedOut;
  } else if (WIFSIGNALED(status)) {
    run.status = RunStatus::Crashed;
    run.signal = WTERMSIG(status);
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && deserialise(report, run.summary)) {
    run.status = RunStatus::Completed;
  } else {
    run.status = RunStatus::Crashed;  // e.g. a sanitizer's exit code, or a report cut short
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return run;
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGINT: return "SIGINT";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace poolcheck::harness
