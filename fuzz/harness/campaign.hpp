#pragma once
// `poolcheck fuzz`: a fuzz campaign over the shipped corpus, with libFuzzer
// (default) or AFL++ (engine.hpp says what differs between them).
//
// Per target T, with <root> the repository and <build> the fuzz build:
//   .fuzz-work/T/corpus/     the working corpus: seeded from corpus/T/seeds and
//                            corpus/T/regressions (wrappers unwrapped); libFuzzer
//                            grows it and merges it (-merge=1) at the end, AFL++
//                            starts from it; kept between campaigns, never tracked
//   .fuzz-work/T/artifacts/  libFuzzer's findings (crash-*, timeout-*, oom-*, leak-*)
//   .fuzz-work/T/afl/        AFL++'s output: default/{queue,crashes,hangs}/, fuzzer_stats
//   .fuzz-work/T/fuzz.log    the fuzzer's full output
//   .fuzz-work/report.svg    coverage and corpus size over time, per target
// libFuzzer is <build>/fuzz/poolcheck_fuzz_T in fork mode (-fork=N
// -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1), AFL++ is afl-fuzz over
// <build>/fuzz/poolcheck_afl_T; both go on after a finding, and both take the
// dictionary and limits of fuzz/T.options ([libfuzzer] section). A progress
// line per running target every few seconds; a summary at the end with, per
// distinct finding, the repro and promote commands.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/harness/engine.hpp"

namespace poolcheck::harness {

// The nearest directory at or above `start` holding corpus/ and CMakeLists.txt.
std::optional<fs::path> find_project_root(const fs::path& start);

// Writes the inputs of <root>/corpus/<target>/<kind> for each of `kinds`,
// unwrapped (corpus/README.md), into the directory `corpus`, one file per
// input named seed-<fnv1a64 of the bytes> (equal inputs share one file), and
// returns how many entries it wrote. A malformed entry is reported on `err`
// and skipped. The campaign's working corpus starts from this, and so do the
// OSS-Fuzz seed corpus (fuzz/seed_corpus_main.cpp) and the mutation gate's
// time-to-find (seeds only).
std::size_t seed_working_corpus(const fs::path& root, const std::string& target, const fs::path& corpus,
                                std::ostream& err,
                                const std::vector<std::string>& kinds = {"seeds", "regressions"});

struct CampaignOptions {
  fs::path root;       // the repository: corpus/, fuzz/, .fuzz-work/
  fs::path build_dir;  // holds fuzz/poolcheck_fuzz_<T> (libFuzzer) or fuzz/poolcheck_afl_<T> (AFL++)
  EngineKind engine = EngineKind::LibFuzzer;
  double seconds = 60; // total wall time, split between waves of targets
  int jobs = 1;        // worker processes in all
  std::vector<std::string> targets;  // empty: all four
  double progress_seconds = 5;
  bool merge = true;
};

// Returns the exit code: 0 no finding, 1 findings, 2 usage error (missing
// binaries: the message says how to build them), 3 a fuzzer failed to run,
// 130 interrupted (Ctrl-C: the fuzzers are stopped, killed if they outlive a
// grace of 5 s, the merge skipped, the summary printed) with no finding.
int run_campaign(const CampaignOptions& options, std::ostream& out, std::ostream& err);

}  // namespace poolcheck::harness
