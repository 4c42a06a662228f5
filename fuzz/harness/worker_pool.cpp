#include "fuzz/harness/worker_pool.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

namespace poolcheck::harness {
namespace {

struct Worker {
  pid_t pid = -1;
  int to = -1;    // requests, written here
  int from = -1;  // replies, read here
  std::string pending;
  std::optional<std::size_t> busy;  // the request it is answering
};

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// One line, blocking; nothing at the end of the input.
std::optional<std::string> read_line(int fd, std::string& buffer) {
  for (;;) {
    if (const auto end = buffer.find('\n'); end != std::string::npos) {
      std::string line = buffer.substr(0, end);
      buffer.erase(0, end + 1);
      return line;
    }
    char chunk[65536];
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string line_of(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n"; }

// The worker's life: answer requests until the pipe closes, then exit without
// running this process's exit handlers (they belong to the parent).
[[noreturn]] void serve(int index, int in, int out, const WorkerTask& task) {
  std::string buffer;
  while (auto line = read_line(in, buffer)) {
    Json reply;
    try {
      reply = task(index, Json::parse(*line));
    } catch (const std::exception& e) {
      reply = Json{{"error", e.what()}};
    }
    if (!write_all(out, line_of(reply))) break;
  }
  std::fflush(nullptr);
  std::_Exit(0);
}

// Forks worker `index`; the fds of the workers before it are closed in the child.
bool start_worker(int index, std::vector<Worker>& workers, const WorkerTask& task) {
  int requests[2], replies[2];
  if (::pipe(requests) != 0) return false;
  if (::pipe(replies) != 0) {
    ::close(requests[0]);
    ::close(requests[1]);
    return false;
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const Worker& other : workers) {
      ::close(other.to);
      ::close(other.from);
    }
    ::close(requests[1]);
    ::close(replies[0]);
    serve(index, requests[0], replies[1], task);
  }
  ::close(requests[0]);
  ::close(replies[1]);
  if (pid < 0) {
    ::close(requests[1]);
    ::close(replies[0]);
    return false;
  }
  workers.push_back({pid, requests[1], replies[0], {}, std::nullopt});
  return true;
}

void stop(Worker& worker) {
  if (worker.pid < 0) return;
  ::close(worker.to);
  ::close(worker.from);
  ::waitpid(worker.pid, nullptr, 0);
  worker.pid = -1;
}

class Pool {
 public:
  Pool(const std::vector<Json>& requests, const OnReply& on_reply)
      : requests_(requests), on_reply_(on_reply), replies_(requests.size()) {}

  std::vector<Json> run(std::vector<Worker>& workers) {
    for (auto& worker : workers) hand_next(worker);
    while (answered_ < requests_.size()) {
      std::vector<pollfd> fds;
      std::vector<Worker*> polled;
      for (auto& worker : workers) {
        if (!worker.busy) continue;
        fds.push_back({worker.from, POLLIN, 0});
        polled.push_back(&worker);
      }
      if (fds.empty()) break;  // every worker gone: the rest are answered below
      if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) break;
      for (std::size_t i = 0; i < fds.size(); ++i)
        if (fds[i].revents != 0) read_from(*polled[i]);
    }
    for (std::size_t i = next_; i < requests_.size(); ++i) answer(i, Json{{"error", "no worker left"}});
    for (auto& worker : workers) stop(worker);
    return std::move(replies_);
  }

 private:
  void answer(std::size_t index, const Json& reply) {
    replies_[index] = reply;
    ++answered_;
    if (on_reply_) on_reply_(index, reply);
  }

  void hand_next(Worker& worker) {
    if (next_ >= requests_.size()) {
      stop(worker);  // its input closes: it exits
      return;
    }
    worker.busy = next_++;
    if (!write_all(worker.to, line_of(requests_[*worker.busy]))) fail(worker);
  }

  void fail(Worker& worker) {
    const std::size_t index = *worker.busy;
    worker.busy.reset();
    answer(index, Json{{"error", "worker " + std::to_string(worker.pid) + " exited"}});
    stop(worker);
  }

  void read_from(Worker& worker) {
    char chunk[65536];
    const ssize_t n = ::read(worker.from, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) return fail(worker);
    worker.pending.append(chunk, static_cast<std::size_t>(n));
    const auto end = worker.pending.find('\n');
    if (end == std::string::npos) return;
    Json reply = Json::parse(worker.pending.substr(0, end), nullptr, false);
    worker.pending.erase(0, end + 1);
    if (reply.is_discarded()) reply = Json{{"error", "unreadable reply"}};
    const std::size_t index = *worker.busy;
    worker.busy.reset();
    answer(index, reply);
    hand_next(worker);
  }

  const std::vector<Json>& requests_;
  const OnReply& on_reply_;
  std::vector<Json> replies_;
  std::size_t next_ = 0, answered_ = 0;
};

}  // namespace

std::vector<Json> run_in_workers(int workers, const std::vector<Json>& requests, const WorkerTask& task,
                                 const OnReply& on_reply) {
  // A worker that dies must not take this process with it through a write to its pipe.
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &previous);
  std::vector<Worker> pool;
  const std::size_t wanted = std::min<std::size_t>(static_cast<std::size_t>(std::max(workers, 1)), requests.size());
  for (std::size_t i = 0; i < wanted; ++i)
    if (!start_worker(static_cast<int>(i), pool, task)) break;
  std::vector<Json> replies = Pool(requests, on_reply).run(pool);
  ::sigaction(SIGPIPE, &previous, nullptr);
  return replies;
}

}  // namespace poolcheck::harness
