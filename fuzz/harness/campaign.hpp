#pragma once
// `poolcheck fuzz`: a libFuzzer campaign over the shipped corpus.
//
// Per target T, with <root> the repository and <build> the fuzz build:
//   .fuzz-work/T/corpus/     the working corpus: seeded from corpus/T/seeds and
//                            corpus/T/regressions (wrappers unwrapped), grown by
//                            libFuzzer, merged (-merge=1) at the end; kept
//                            between campaigns, never tracked
//   .fuzz-work/T/artifacts/  findings (crash-*, timeout-*, oom-*, leak-*)
//   .fuzz-work/T/fuzz.log    libFuzzer's full output
// The fuzzer is <build>/fuzz/poolcheck_fuzz_T in fork mode (-fork=N
// -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1), so a finding is saved
// and the campaign goes on; fuzz/T.options ([libfuzzer] section) adds its
// dictionary and limits. A progress line per running target every few seconds;
// a summary at the end with, per distinct finding, the repro and promote
// commands.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace poolcheck::harness {

namespace fs = std::filesystem;

// One of libFuzzer's status lines, e.g. (fork mode)
//   #815870: cov: 5 ft: 5 corp: 4 exec/s 0 oom/timeout/crash: 0/0/22 time: 4s job: 23 dft_time: 0
// or (single process)
//   #1234	NEW    cov: 12 ft: 14 corp: 3/10b lim: 4 exec/s: 617 rss: 30Mb L: 3/3 MS: 1 ...
struct FuzzStatus {
  std::uint64_t execs = 0;
  std::uint64_t exec_per_sec = 0;
  std::uint64_t cov = 0;
  std::uint64_t ft = 0;
  std::uint64_t corpus = 0;
  std::uint64_t ooms = 0;
  std::uint64_t timeouts = 0;
  std::uint64_t crashes = 0;
};
// Updates `status` and returns true when `line` is a status line.
bool parse_libfuzzer_status(std::string_view line, FuzzStatus& status);

// The [libfuzzer] section of an OSS-Fuzz style .options file as -key=value
// flags; a relative `dict` is taken next to the file. Keys in `skip` are left
// out (the campaign sets them itself).
std::vector<std::string> libfuzzer_option_flags(const fs::path& options_file,
                                                const std::vector<std::string>& skip = {});

// The nearest directory at or above `start` holding corpus/ and CMakeLists.txt.
std::optional<fs::path> find_project_root(const fs::path& start);

fs::path fuzzer_binary(const fs::path& build_dir, std::string_view target);

// Writes the inputs of <root>/corpus/<target>/seeds and .../regressions,
// unwrapped (corpus/README.md), into the directory `corpus`, one file per
// input named seed-<fnv1a64 of the bytes> (equal inputs share one file), and
// returns how many entries it wrote. A malformed entry is reported on `err`
// and skipped. The campaign's working corpus starts from this, and so does the
// OSS-Fuzz seed corpus (fuzz/seed_corpus_main.cpp).
std::size_t seed_working_corpus(const fs::path& root, const std::string& target, const fs::path& corpus,
                                std::ostream& err);

struct CampaignOptions {
  fs::path root;       // the repository: corpus/, fuzz/, .fuzz-work/
  fs::path build_dir;  // holds fuzz/poolcheck_fuzz_<T>
  double seconds = 60; // total wall time, split between waves of targets
  int jobs = 1;        // worker processes in all
  std::vector<std::string> targets;  // empty: all four
  double progress_seconds = 5;
  bool merge = true;
};

// Returns the exit code: 0 no finding, 1 findings, 2 usage error (missing
// binaries: the message says how to build them), 3 a fuzzer failed to run,
// 130 interrupted (Ctrl-C: the fuzzers are stopped, the merge skipped, the
// summary printed) with no finding.
int run_campaign(const CampaignOptions& options, std::ostream& out, std::ostream& err);

}  // namespace poolcheck::harness
