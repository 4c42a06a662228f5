#include "fuzz/harness/campaign.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/harness/campaign_report.hpp"
#include "fuzz/harness/digest.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/process.hpp"
#include "fuzz/harness/progress_text.hpp"
#include "fuzz/harness/report_text.hpp"
#include "fuzz/harness/repro.hpp"
#include "fuzz/harness/signature.hpp"

namespace poolcheck::harness {
namespace {

const std::vector<std::string> kAllTargets = {"request", "params_wire", "token_types", "verify"};

std::size_t count_files(const fs::path& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    n += it->is_regular_file();
  return n;
}

struct TargetRun {
  TargetPlan plan;
  std::ofstream log;
  std::set<fs::path> findings_before;
  std::size_t seeded = 0, corpus_start = 0, corpus_end = 0;
  FuzzStatus status;
  bool status_seen = false;
  std::vector<ReportSample> samples;  // one per progress tick, for the report
  enum class Phase { Waiting, Fuzzing, Merging, Done } phase = Phase::Waiting;
  Process process;
  int status_fd = -1;  // the UDP socket of a status_by_udp() engine
  Clock::time_point started, last_progress, last_status;
  double fuzz_seconds = 0;
  bool failed = false;
  std::string merge_note;
};

std::set<fs::path> finding_set(const FuzzEngine& engine, const TargetPlan& plan) {
  const auto found = engine.findings(plan);
  return {found.begin(), found.end()};
}

std::string progress_line(const FuzzEngine& engine, const TargetRun& run) {
  const double elapsed = since(run.started);
  std::uint64_t rate = run.status.exec_per_sec;
  if (rate == 0 && elapsed > 0.5) rate = static_cast<std::uint64_t>(static_cast<double>(run.status.execs) / elapsed);
  std::size_t findings = 0;
  for (const auto& path : engine.findings(run.plan)) findings += run.findings_before.count(path) == 0;
  return "[" + padded(run.plan.target, 11) + " " + clock_text(elapsed) + "/" + clock_text(run.plan.seconds) +
         "] execs " + grouped(run.status.execs) + "  exec/s " + grouped(rate) + "  cov " + grouped(run.status.cov) +
         "  " + engine.detail_name() + " " + engine.detail(run.status) + "  corpus " + grouped(run.status.corpus) +
         "  findings " + std::to_string(findings) + " (crash/timeout/oom " + std::to_string(run.status.crashes) + "/" +
         std::to_string(run.status.timeouts) + "/" + std::to_string(run.status.ooms) + ")" +
         // In fork mode libFuzzer reports when a job ends, and jobs grow longer.
         (since(run.last_status) >= 2 ? "  [last report " + clock_text(since(run.last_status)) + " ago]" : "");
}

void sample(TargetRun& run) {
  if (run.status_seen) run.samples.push_back({since(run.started), run.status.cov, run.status.corpus});
}

// Reads what is available; each complete line goes to the log and, while
// fuzzing, to the engine's status reader. Returns false at end of file.
bool pump(const FuzzEngine& engine, TargetRun& run) {
  char buffer[16384];
  while (true) {
    const ssize_t n = ::read(run.process.fd, buffer, sizeof buffer);
    if (n > 0) {
      run.process.pending.append(buffer, static_cast<std::size_t>(n));
      std::size_t start = 0;
      for (std::size_t end; (end = run.process.pending.find('\n', start)) != std::string::npos; start = end + 1) {
        const std::string_view line(run.process.pending.data() + start, end - start);
        run.log << line << '\n';
        if (run.phase == TargetRun::Phase::Fuzzing && engine.read_line(line, run.status)) {
          run.status_seen = true;
          run.last_status = Clock::now();
        }
      }
      run.process.pending.erase(0, start);
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

void finish_process(const FuzzEngine& engine, TargetRun& run) {
  (void)pump(engine, run);
  if (!run.process.pending.empty()) run.log << run.process.pending << '\n';
  run.process.pending.clear();
  ::close(run.process.fd);
  run.process.fd = -1;
  ::kill(-run.process.pid, SIGKILL);  // stragglers of the group, if any
  if (!run.process.exited) {
    while (::waitpid(run.process.pid, &run.process.status, 0) < 0 && errno == EINTR) {
    }
    run.process.exited = true;
  }
  run.log.flush();
}

// A UDP socket on 127.0.0.1 with a port of the kernel's choosing; -1 on failure.
int open_status_socket(int& port) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    return -1;
  }
  port = ntohs(address.sin_port);
  return fd;
}

// Hands each line of each waiting datagram to the engine's status reader.
void read_datagrams(const FuzzEngine& engine, TargetRun& run) {
  char buffer[65536];
  for (ssize_t n; (n = ::recv(run.status_fd, buffer, sizeof buffer, 0)) > 0;) {
    std::string_view text(buffer, static_cast<std::size_t>(n));
    bool read = false;
    while (!text.empty()) {
      const auto end = text.find('\n');
      read = engine.read_line(text.substr(0, end), run.status) || read;
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
    if (read) {
      run.status_seen = true;
      run.last_status = Clock::now();
    }
  }
}

void close_status_socket(TargetRun& run) {
  if (run.status_fd >= 0) ::close(run.status_fd);
  run.status_fd = -1;
}

// Names this campaign's own directories where an engine keeps them apart: UTC
// time to the second, then the process id.
std::string campaign_id() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", std::gmtime(&now));
  return std::string(text) + "-" + std::to_string(::getpid());
}

struct Finding {
  std::string target;
  fs::path binary;
  fs::path path;
  Signature signature;
  std::size_t size = 0;
};

using Runs = std::vector<std::unique_ptr<TargetRun>>;

// Whether every target is known and has its fuzzer, and the engine's own tools are installed; says on `err` what
// is not.
bool ready_to_fuzz(const FuzzEngine& engine, const std::vector<std::string>& targets, const fs::path& build_dir,
                   std::ostream& err) {
  for (const auto& target : targets) {
    if (!is_known_target(target)) {
      err << "poolcheck fuzz: unknown target '" << target << "' (targets: request, params_wire, token_types, verify)\n";
      return false;
    }
  }
  std::vector<std::string> missing;
  for (const auto& target : targets)
    if (::access(engine.binary(build_dir, target).c_str(), X_OK) != 0)
      missing.push_back(engine.binary(build_dir, target).string());
  if (!missing.empty()) {
    err << "poolcheck fuzz: no " << engine.name() << " binary at";
    for (const auto& path : missing) err << "\n  " << path;
    err << "\n" << engine.build_hint();
    return false;
  }
  if (const std::string tool = engine.missing_tool(); !tool.empty()) {
    err << "poolcheck fuzz: " << tool;
    return false;
  }
  return true;
}

// How the targets share the time and the jobs: `concurrency` of them side by side, in `waves` one after another.
struct Schedule {
  std::size_t concurrency = 1;
  std::size_t waves = 1;
  double per_target = 0;  // seconds
  int workers = 1;        // per target
};

// The waves, the seconds per target and the workers per target for `targets` targets and --jobs.
Schedule schedule_for(const FuzzEngine& engine, const CampaignOptions& options, std::size_t targets) {
  const int jobs = std::max(1, options.jobs);
  const std::size_t concurrency = std::min<std::size_t>(static_cast<std::size_t>(jobs), targets);
  const std::size_t waves = (targets + concurrency - 1) / concurrency;
  const double per_target = std::max(1.0, std::floor(options.seconds / static_cast<double>(waves)));
  return {concurrency, waves, per_target, engine.workers(jobs / static_cast<int>(concurrency))};
}

// A target's places (its working directory under .fuzz-work/, its options and dictionary under fuzz/) and budget.
TargetPlan plan_for(const FuzzEngine& engine, const CampaignOptions& options, const std::string& target,
                    const Schedule& schedule, const std::string& id) {
  TargetPlan plan;
  plan.target = target;
  plan.binary = fs::absolute(engine.binary(options.build_dir, target));
  plan.work = options.root / ".fuzz-work" / target;
  plan.corpus = plan.work / "corpus";
  plan.options_file = options.root / "fuzz" / (target + ".options");
  plan.dict = options.root / "fuzz" / (target + ".dict");
  plan.campaign_id = id;
  plan.seconds = schedule.per_target;
  plan.workers = schedule.workers;
  return plan;
}

// A run per target, its working corpus seeded from corpus/ and what it held before noted; nullopt (said on `err`)
// when a working directory cannot be created.
std::optional<Runs> prepare_runs(const FuzzEngine& engine, const CampaignOptions& options,
                                 const std::vector<std::string>& targets, const Schedule& schedule,
                                 const std::string& id, std::ostream& err) {
  Runs runs;
  for (const auto& target : targets) {
    auto run = std::make_unique<TargetRun>();
    run->plan = plan_for(engine, options, target, schedule, id);
    const TargetPlan& plan = run->plan;
    std::error_code ec;
    fs::create_directories(plan.corpus, ec);
    if (ec) {
      err << "poolcheck fuzz: cannot create " << plan.work.string() << ": " << ec.message() << "\n";
      return std::nullopt;
    }
    run->log.open(plan.work / "fuzz.log", std::ios::app);
    run->seeded = seed_working_corpus(options.root, target, plan.corpus, err);
    run->corpus_start = count_files(plan.corpus);
    run->findings_before = finding_set(engine, plan);
    runs.push_back(std::move(run));
  }
  return runs;
}

// The opening lines: how the time and the workers are shared, then each target's corpus and findings directory.
void print_plan(const FuzzEngine& engine, const CampaignOptions& options, const Schedule& schedule, const Runs& runs,
                std::ostream& out) {
  out << "poolcheck fuzz: " << engine.name() << ", " << runs.size() << " target(s), "
      << clock_text(options.seconds) << " in all: "
      << (schedule.waves == 1 ? "all at once" : std::to_string(schedule.waves) + " after one another") << ", "
      << clock_text(schedule.per_target) << " each, " << schedule.workers << " worker(s) each ("
      << engine.workers_note(schedule.workers) << ")\n";
  for (const auto& run : runs)
    out << "  " << padded(run->plan.target, 12) << shown(run->plan.corpus) << ": " << run->corpus_start
        << " inputs (" << run->seeded << " from corpus/" << run->plan.target << "), findings in "
        << shown(engine.findings_dir(run->plan)) << "/\n";
  out.flush();
}

// Spawns `launch` in `phase`, with its command line in the run's log; a launch that fails leaves the run done.
void start_process(TargetRun& run, const Launch& launch, TargetRun::Phase phase) {
  run.log << "==== poolcheck fuzz: ";
  for (const auto& [name, value] : launch.env) run.log << name << '=' << value << ' ';
  for (const auto& arg : launch.argv) run.log << arg << ' ';
  run.log << '\n';
  run.process = spawn(launch.argv, SpawnOptions{launch.env, {}});
  run.phase = run.process.pid < 0 ? TargetRun::Phase::Done : phase;
}

// Starts the fuzzer, with a status socket for an engine that reports by UDP.
void start_fuzzing(const FuzzEngine& engine, TargetRun& run) {
  if (engine.status_by_udp()) run.status_fd = open_status_socket(run.plan.status_port);
  start_process(run, engine.fuzz(run.plan), TargetRun::Phase::Fuzzing);
  run.started = run.last_progress = run.last_status = Clock::now();
  run.failed = run.process.pid < 0;
  if (run.failed) close_status_socket(run);
}

// Where a merge writes the minimised corpus that then replaces the working one.
fs::path merging_dir(const TargetRun& run) { return run.plan.work / "corpus.merging"; }

// Whether a merge started (the engine has one and it could be spawned).
bool start_merging(const FuzzEngine& engine, TargetRun& run) {
  const fs::path merged = merging_dir(run);
  const auto launch = engine.merge(run.plan, merged);
  if (!launch) return false;
  std::error_code ec;
  fs::remove_all(merged, ec);
  fs::create_directories(merged, ec);
  run.log << "==== poolcheck fuzz: merging into " << merged.string() << '\n';
  start_process(run, *launch, TargetRun::Phase::Merging);
  return run.phase == TargetRun::Phase::Merging;
}

// After the merge: the merged corpus replaces the working one if the merge succeeded; the note says how it went.
void finish_merging(TargetRun& run) {
  const fs::path merged = merging_dir(run);
  std::error_code ec;
  const bool ok = WIFEXITED(run.process.status) && WEXITSTATUS(run.process.status) == 0 &&
                  (count_files(merged) > 0 || count_files(run.plan.corpus) == 0);
  if (ok) {
    const fs::path old = run.plan.work / "corpus.old";
    fs::remove_all(old, ec);
    fs::rename(run.plan.corpus, old, ec);
    if (!ec) fs::rename(merged, run.plan.corpus, ec);
    if (!ec) fs::remove_all(old, ec);
    run.merge_note = ec ? "merge: " + ec.message() : "merged";
  } else {
    fs::remove_all(merged, ec);
    run.merge_note = "merge failed, corpus kept unmerged (see fuzz.log)";
  }
}

// Output lines are read by pump(); this reads the engine's other channels.
void read_status(const FuzzEngine& engine, TargetRun& run) {
  if (run.phase != TargetRun::Phase::Fuzzing) return;
  if (run.status_fd >= 0) read_datagrams(engine, run);
  if (engine.read_files(run.plan, run.process.pid, run.status)) {
    run.status_seen = true;
    run.last_status = Clock::now();
  }
}

// The campaign's main loop: starts the targets `concurrency` at a time, reads their output and status, prints
// their progress and takes each from fuzzing through its merge to done. Once Ctrl-C is raised it starts nothing
// more and stops the fuzzers.
class Scheduler {
 public:
  Scheduler(const FuzzEngine& engine, const CampaignOptions& options, Runs& runs, std::size_t concurrency,
            const SigintFlag& sigint, std::ostream& out)
      : engine_(engine), options_(options), runs_(runs), concurrency_(concurrency), sigint_(sigint), out_(out) {}

  void run_until_done() {
    while (any_unfinished()) {
      if (!sigint_.raised())
        start_waiting();
      else
        stop_on_interrupt();
      for (TargetRun* run : wait_for_output()) tend(*run);
    }
  }

 private:
  bool any_unfinished() const {
    return std::any_of(runs_.begin(), runs_.end(),
                       [](const auto& run) { return run->phase != TargetRun::Phase::Done; });
  }

  // How many targets hold a slot: fuzzing or merging.
  std::size_t active() const {
    std::size_t n = 0;
    for (const auto& run : runs_)
      n += run->phase == TargetRun::Phase::Fuzzing || run->phase == TargetRun::Phase::Merging;
    return n;
  }

  // Starts waiting targets, in order, while fewer than `concurrency` are fuzzing or merging.
  void start_waiting() {
    for (auto& run : runs_) {
      if (active() >= concurrency_) break;
      if (run->phase == TargetRun::Phase::Waiting) start_fuzzing(engine_, *run);
    }
  }

  // After Ctrl-C: the waiting targets are done without starting, the running ones get SIGINT once, and
  // those still running kInterruptGraceSeconds later are killed (kill_after_grace).
  void stop_on_interrupt() {
    for (auto& run : runs_)
      if (run->phase == TargetRun::Phase::Waiting) run->phase = TargetRun::Phase::Done;
    if (!forwarded_) {
      out_ << "poolcheck fuzz: interrupted; stopping the fuzzers\n";
      for (auto& run : runs_)
        if (run->process.pid > 0 && run->phase != TargetRun::Phase::Done) ::kill(-run->process.pid, SIGINT);
      forwarded_ = true;
      interrupted_ = Clock::now();
    }
  }

  // libFuzzer's fork mode answers SIGINT by ending after its next job, and the jobs of a long campaign last
  // up to 300 s each: Ctrl-C would wait that long. Its findings are on disk as they happen, and no merge
  // follows an interrupt, so a fuzzer that outlives the grace loses at most the new inputs of one job.
  static constexpr double kInterruptGraceSeconds = 5;

  void kill_after_grace(const TargetRun& run) const {
    if (forwarded_ && !run.process.exited && since(interrupted_) > kInterruptGraceSeconds) {
      ::kill(-run.process.pid, SIGKILL);
    }
  }

  // Waits up to 250 ms for output or a datagram from a running process; returns the runs to tend.
  std::vector<TargetRun*> wait_for_output() {
    std::vector<pollfd> fds;
    std::vector<TargetRun*> owners;
    for (auto& run : runs_) {
      if ((run->phase == TargetRun::Phase::Fuzzing || run->phase == TargetRun::Phase::Merging) &&
          run->process.fd >= 0) {
        fds.push_back({run->process.fd, POLLIN, 0});
        if (run->status_fd >= 0) fds.push_back({run->status_fd, POLLIN, 0});
        owners.push_back(run.get());
      }
    }
    if (!fds.empty()) ::poll(fds.data(), fds.size(), 250);
    return owners;
  }

  // Reads a run's output and status; while its process runs, a progress line when one is due, once it has ended,
  // the next phase.
  void tend(TargetRun& run) {
    const bool open = pump(engine_, run);
    read_status(engine_, run);
    if (!run.process.exited && ::waitpid(run.process.pid, &run.process.status, WNOHANG) == run.process.pid)
      run.process.exited = true;
    if (run.phase == TargetRun::Phase::Fuzzing && !run.process.exited &&
        since(run.started) > run.plan.seconds + 60) {  // the fuzzer ignored its time limit
      ::kill(-run.process.pid, SIGKILL);
    }
    kill_after_grace(run);
    if (open && !run.process.exited) {
      print_progress_when_due(run);
      return;
    }
    finish_process(engine_, run);
    if (run.phase == TargetRun::Phase::Fuzzing) {
      finish_fuzzing(run);
    } else {
      finish_merging(run);
      run.phase = TargetRun::Phase::Done;
    }
    run.corpus_end = count_files(run.plan.corpus);
  }

  // A progress line every --progress seconds while fuzzing, once the fuzzer has reported its status.
  void print_progress_when_due(TargetRun& run) {
    if (run.phase == TargetRun::Phase::Fuzzing && since(run.last_progress) >= options_.progress_seconds &&
        run.status_seen) {
      sample(run);
      out_ << progress_line(engine_, run) << "\n";
      out_.flush();
      run.last_progress = Clock::now();
    }
  }

  // The fuzzer has ended: its last status and progress line, then its merge unless interrupted or failed.
  void finish_fuzzing(TargetRun& run) {
    read_status(engine_, run);  // the last word of a fuzzer that writes its status on exit
    close_status_socket(run);
    run.fuzz_seconds = since(run.started);
    if (!run.status_seen) run.failed = true;
    engine_.keep_new_inputs(run.plan);
    sample(run);
    run.last_status = Clock::now();
    out_ << progress_line(engine_, run) << (run.failed ? "  FAILED to run (see fuzz.log)" : "  done") << "\n";
    if (!(options_.merge && !sigint_.raised() && !run.failed && start_merging(engine_, run)))
      run.phase = TargetRun::Phase::Done;
  }

  const FuzzEngine& engine_;
  const CampaignOptions& options_;
  Runs& runs_;
  const std::size_t concurrency_;
  const SigintFlag& sigint_;
  std::ostream& out_;
  bool forwarded_ = false;  // the fuzzers have had their SIGINT
  Clock::time_point interrupted_;
};

// Findings: what this campaign added, classified by replaying them through
// the law library in a child (as `poolcheck repro` would).
std::vector<Finding> new_findings(const FuzzEngine& engine, const Runs& runs) {
  std::vector<Finding> findings;
  for (const auto& run : runs) {
    for (const auto& path : finding_set(engine, run->plan)) {
      if (run->findings_before.count(path)) continue;
      Finding finding;
      finding.target = run->plan.target;
      finding.binary = run->plan.binary;
      finding.path = path;
      std::error_code ec;
      finding.size = static_cast<std::size_t>(fs::file_size(finding.path, ec));
      auto entry = load_entry(finding.path, run->plan.target);
      if (entry) finding.signature = signature_of(run_isolated(law_library_check(run->plan.target), entry->input, 10));
      findings.push_back(std::move(finding));
    }
  }
  return findings;
}

// Writes the chart of coverage and corpus size over time and returns its path.
fs::path write_report(const FuzzEngine& engine, const CampaignOptions& options, const Runs& runs) {
  std::vector<ReportSeries> report;
  for (const auto& run : runs)
    report.push_back({run->plan.target, std::string(engine.name()), run->fuzz_seconds, run->samples});
  const fs::path report_path = options.root / ".fuzz-work" / "report.svg";
  std::ofstream(report_path, std::ios::binary) << campaign_report_svg(report);
  return report_path;
}

// A target's row of the summary table: its last counters, its corpus before and after, its findings and problems.
void print_summary_row(const FuzzEngine& engine, const TargetRun& run, std::size_t found, std::ostream& out) {
  std::uint64_t rate = run.status.exec_per_sec;
  if (rate == 0 && run.fuzz_seconds > 0.5)
    rate = static_cast<std::uint64_t>(static_cast<double>(run.status.execs) / run.fuzz_seconds);
  out << "  " << padded(run.plan.target, 13) << padded(clock_text(run.fuzz_seconds), 7)
      << padded(grouped(run.status.execs), 14) << padded(grouped(rate), 10) << padded(grouped(run.status.cov), 8)
      << padded(engine.detail(run.status), 8)
      << padded(std::to_string(run.corpus_start) + " -> " + std::to_string(run.corpus_end), 16) << found
      << (run.failed ? "  (fuzzer FAILED to run: " + shown(run.plan.work / "fuzz.log") + ")" : "")
      << (run.merge_note.empty() || run.merge_note == "merged" ? "" : "  (" + run.merge_note + ")") << "\n";
}

// The summary table, a row per target; returns whether a fuzzer failed to run.
bool print_summary(const FuzzEngine& engine, const Runs& runs, const std::vector<Finding>& findings,
                   std::ostream& out) {
  out << "\npoolcheck fuzz: summary (" << engine.name() << ")\n";
  std::string detail_header = engine.detail_name();
  for (char& c : detail_header) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out << "  " << padded("TARGET", 13) << padded("TIME", 7) << padded("EXECS", 14) << padded("EXEC/S", 10)
      << padded("COV", 8) << padded(detail_header, 8) << padded("CORPUS", 16) << "FINDINGS\n";
  bool any_failed = false;
  for (const auto& run : runs) {
    std::size_t found = 0;
    for (const auto& finding : findings) found += finding.target == run->plan.target;
    any_failed = any_failed || run->failed;
    print_summary_row(engine, *run, found, out);
  }
  return any_failed;
}

// Where every target's working corpus, log and findings are, and the report.
void print_locations(const FuzzEngine& engine, const CampaignOptions& options, const std::string& id,
                     const fs::path& report_path, std::ostream& out) {
  TargetPlan placeholder;
  placeholder.work = options.root / ".fuzz-work" / "<target>";
  placeholder.campaign_id = id;
  out << "  working corpora and logs: " << shown(placeholder.work) << "/{corpus,fuzz.log}, findings in "
      << shown(engine.findings_dir(placeholder)) << "/\n";
  out << "  Report: " << shown(report_path) << " (coverage and corpus over time)\n";
}

// One block per distinct (target, signature); the smallest artifact stands for the others.
void print_findings(const std::vector<Finding>& findings, std::ostream& out) {
  std::map<std::pair<std::string, std::string>, std::vector<const Finding*>> groups;
  for (const auto& finding : findings)
    groups[{finding.target, finding.signature.describe()}].push_back(&finding);
  out << "\nFindings: " << findings.size() << " artifact(s), " << groups.size() << " distinct\n";
  for (auto& [key, members] : groups) {
    std::sort(members.begin(), members.end(), [](const Finding* a, const Finding* b) {
      return a->size != b->size ? a->size < b->size : a->path < b->path;
    });
    const Finding& first = *members.front();
    const std::string what = first.signature.failing()
                                 ? first.signature.describe()
                                 : "passes when replayed by this poolcheck build; a sanitizer-only finding? "
                                   "Replay it with: " + shown(first.binary) + " " + shown(first.path);
    out << "\n  [" << first.target << "] " << what << "\n";
    out << "    " << shown(first.path) << " (" << first.size << " bytes)";
    if (members.size() > 1) out << " and " << members.size() - 1 << " more like it";
    out << "\n";
    out << "    Reproduce with: poolcheck repro " << shown(first.path) << " --target " << first.target << "\n";
    out << "    Promote with:   poolcheck promote " << shown(first.path) << " --target " << first.target << "\n";
  }
}

}  // namespace

std::size_t seed_working_corpus(const fs::path& root, const std::string& target, const fs::path& corpus,
                                std::ostream& err, const std::vector<std::string>& kinds) {
  std::size_t seeded = 0;
  for (const auto& kind : kinds) {
    const fs::path dir = root / "corpus" / target / kind;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    auto files = collect_entry_files(dir);
    if (!files) continue;
    for (const auto& file : *files) {
      auto entry = load_entry(file, target);
      if (!entry) {
        err << "poolcheck fuzz: skipping " << entry.error().message << "\n";
        continue;
      }
      const fs::path out = corpus / ("seed-" + digest_of_bytes(entry->input).substr(kDigestPrefix.size()));
      std::ofstream(out, std::ios::binary) << entry->input;
      ++seeded;
    }
  }
  return seeded;
}

std::optional<fs::path> find_project_root(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_directory(dir / "corpus", ec) && fs::is_regular_file(dir / "CMakeLists.txt", ec)) return dir;
    if (dir == dir.root_path()) break;
  }
  return std::nullopt;
}

int run_campaign(const CampaignOptions& options, std::ostream& out, std::ostream& err) {
  const std::unique_ptr<FuzzEngine> engine = make_engine(options.engine);
  const std::vector<std::string> targets = options.targets.empty() ? kAllTargets : options.targets;
  if (!ready_to_fuzz(*engine, targets, options.build_dir, err)) return 2;
  const Schedule schedule = schedule_for(*engine, options, targets.size());
  const std::string id = campaign_id();
  std::optional<Runs> runs = prepare_runs(*engine, options, targets, schedule, id, err);
  if (!runs) return 2;
  print_plan(*engine, options, schedule, *runs, out);

  SigintFlag sigint;
  Scheduler(*engine, options, *runs, schedule.concurrency, sigint, out).run_until_done();
  sigint.restore();

  const std::vector<Finding> findings = new_findings(*engine, *runs);
  const fs::path report_path = write_report(*engine, options, *runs);
  const bool any_failed = print_summary(*engine, *runs, findings, out);
  print_locations(*engine, options, id, report_path, out);
  if (findings.empty()) {
    out << "\nNo findings.\n";
    return any_failed ? 3 : sigint.raised() ? 130 : 0;
  }
  print_findings(findings, out);
  return 1;
}

}  // namespace poolcheck::harness
