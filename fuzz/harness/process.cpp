#include "fuzz/harness/process.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

namespace poolcheck::harness {

Process spawn(const std::vector<std::string>& argv, const SpawnOptions& options) {
  Process process;
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return process;
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return process;
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    if (options.stdout_file.empty()) {
      ::dup2(pipe_fds[1], STDOUT_FILENO);
    } else {
      const int out = ::open(options.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (out < 0) {
        std::fprintf(stderr, "poolcheck: cannot write %s: %s\n", options.stdout_file.c_str(), std::strerror(errno));
        std::_Exit(127);
      }
      ::dup2(out, STDOUT_FILENO);
    }
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    // setenv after fork is safe here: the harness forks from its only thread.
    for (const auto& [name, value] : options.environment) ::setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());  // a bare name is looked up on PATH (afl-fuzz)
    std::fprintf(stderr, "poolcheck: cannot run %s: %s\n", args[0], std::strerror(errno));
    std::_Exit(127);
  }
  ::setpgid(pid, pid);  // also here: no race with the first kill
  ::close(pipe_fds[1]);
  ::fcntl(pipe_fds[0], F_SETFL, ::fcntl(pipe_fds[0], F_GETFL) | O_NONBLOCK);
  process.pid = pid;
  process.fd = pipe_fds[0];
  return process;
}

volatile std::sig_atomic_t SigintFlag::raised_ = 0;

void SigintFlag::on_sigint(int) { raised_ = 1; }

SigintFlag::SigintFlag() {
  raised_ = 0;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
}

void SigintFlag::restore() {
  if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
  installed_ = false;
}

}  // namespace poolcheck::harness
