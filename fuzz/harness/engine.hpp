#pragma once
// The part of a `poolcheck fuzz` campaign that depends on the fuzzing engine:
// which binary fuzzes a target, how to start it, how to read its status and
// where it puts its findings. campaign.cpp does the rest (seeding, scheduling,
// progress lines, the report, classifying findings, the summary) once for both.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace poolcheck::harness {

namespace fs = std::filesystem;

enum class EngineKind { LibFuzzer, Afl };

// The counters a progress line and the summary show. libFuzzer fills them from
// its status lines, AFL++ from its StatsD datagrams and fuzzer_stats file.
struct FuzzStatus {
  std::uint64_t execs = 0;
  std::uint64_t exec_per_sec = 0;
  std::uint64_t cov = 0;       // edges: libFuzzer's cov, AFL++'s edges_found
  std::uint64_t ft = 0;        // libFuzzer's features
  std::uint64_t map_size = 0;  // AFL++'s total_edges: cov / map_size is its bitmap_cvg
  std::uint64_t corpus = 0;
  std::uint64_t ooms = 0;
  std::uint64_t timeouts = 0;  // AFL++: saved_hangs
  std::uint64_t crashes = 0;   // AFL++: saved_crashes
  bool operator==(const FuzzStatus&) const = default;
};

// One of libFuzzer's status lines, e.g. (fork mode)
//   #815870: cov: 5 ft: 5 corp: 4 exec/s 0 oom/timeout/crash: 0/0/22 time: 4s job: 23 dft_time: 0
// or (single process)
//   #1234	NEW    cov: 12 ft: 14 corp: 3/10b lim: 4 exec/s: 617 rss: 30Mb L: 3/3 MS: 1 ...
// Updates `status` and returns true when `line` is a status line.
bool parse_libfuzzer_status(std::string_view line, FuzzStatus& status);

// AFL++'s status, which comes two ways with the same keys: its fuzzer_stats
// file ("execs_done        : 1234" lines; AFL++ 4.04c rewrites it only every
// 60 s) and StatsD datagrams ("fuzzing.execs_done:1234|g" lines, every second
// with AFL_STATSD=1). Updates `status` from one line and returns true when it
// held a counter; `pid` receives fuzzer_pid (the file's only), which tells this
// session's file from an older one.
bool parse_afl_status(std::string_view line, FuzzStatus& status, long& pid);

// The [libfuzzer] section of an OSS-Fuzz style .options file as (key, value)
// pairs; a relative `dict` is taken next to the file.
std::vector<std::pair<std::string, std::string>> libfuzzer_options(const fs::path& options_file);
// The same as -key=value flags. Keys in `skip` are left out (the campaign sets
// them itself).
std::vector<std::string> libfuzzer_option_flags(const fs::path& options_file,
                                                const std::vector<std::string>& skip = {});

// One target's places, as the campaign prepared them.
struct TargetPlan {
  std::string target;
  fs::path binary;
  fs::path work;          // .fuzz-work/<T>/
  fs::path corpus;        // .fuzz-work/<T>/corpus/: seeded from corpus/<T>/{seeds,regressions}
  fs::path options_file;  // fuzz/<T>.options (may be absent)
  fs::path dict;          // fuzz/<T>.dict (may be absent)
  std::string campaign_id;  // unique per campaign, for engines that keep each campaign apart
  double seconds = 0;
  int workers = 1;
  int status_port = 0;  // the campaign's UDP port on 127.0.0.1 for status_by_udp() engines
};

// A program to start, with environment variables added to the campaign's own.
struct Launch {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env;
};

class FuzzEngine {
 public:
  virtual ~FuzzEngine() = default;
  virtual std::string_view name() const = 0;  // "libFuzzer", "AFL++"
  virtual fs::path binary(const fs::path& build_dir, std::string_view target) const = 0;
  // What to tell a user whose build directory has no binaries.
  virtual std::string build_hint() const = 0;
  // A program the engine runs besides the target that is not installed, with
  // how to install it; "" when none is missing.
  virtual std::string missing_tool() const = 0;
  // How many worker processes one target may use out of `share`.
  virtual int workers(int share) const = 0;
  virtual std::string workers_note(int workers) const = 0;  // "-fork=2", ...
  // Where findings land (shown to the user; the engine creates it).
  virtual fs::path findings_dir(const TargetPlan& plan) const = 0;
  virtual Launch fuzz(const TargetPlan& plan) const = 0;
  // Whether the fuzzer sends its status as datagrams to plan.status_port;
  // their lines go to read_line like output lines do.
  virtual bool status_by_udp() const = 0;
  // Status from one line of the fuzzer's output or datagrams; false when it is none.
  virtual bool read_line(std::string_view line, FuzzStatus& status) const = 0;
  // Status from the fuzzer's files, for a fuzzer started as process `pid`.
  virtual bool read_files(const TargetPlan& plan, long pid, FuzzStatus& status) const = 0;
  // The findings present now (the campaign subtracts those present before).
  virtual std::vector<fs::path> findings(const TargetPlan& plan) const = 0;
  // After fuzzing: copies what the fuzzer found into plan.corpus when it
  // keeps its corpus elsewhere; returns how many inputs it added.
  virtual std::size_t keep_new_inputs(const TargetPlan& plan) const = 0;
  // A corpus minimisation to run after fuzzing into `into`, when the engine has one.
  virtual std::optional<Launch> merge(const TargetPlan& plan, const fs::path& into) const = 0;
  // "cov"'s neighbour in progress lines and the summary: libFuzzer's features, AFL++'s map density.
  virtual std::string detail_name() const = 0;
  virtual std::string detail(const FuzzStatus& status) const = 0;
};

std::unique_ptr<FuzzEngine> make_engine(EngineKind kind);
std::unique_ptr<FuzzEngine> make_libfuzzer_engine();
std::unique_ptr<FuzzEngine> make_afl_engine();

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t value);

}  // namespace poolcheck::harness
