#pragma once
// `poolcheck coverage`: source-based coverage (Clang's -fprofile-instr-generate
// -fcoverage-mapping) of the reference core, from a build configured with the
// `coverage` preset. Steps, each binary with its own LLVM_PROFILE_FILE:
//   1-4  the corpus: build/fuzz/poolcheck_replay_<T> corpus/<T> (in process;
//        `poolcheck repro` runs each entry in a fork that leaves with _Exit,
//        which writes no profile)
//   5    the property suites, pr profile (POOLCHECK_PROFILE=pr)
//   6    the unit tests (they also run the instrumented `poolcheck`)
// then llvm-profdata merge, llvm-cov export -summary-only (the core/ figures),
// llvm-cov report (per core/ file) and llvm-cov show -format=html.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck::harness {

namespace fs = std::filesystem;

struct CoverageCount {
  std::uint64_t covered = 0;
  std::uint64_t total = 0;
  // covered/total in percent; 100 when there is nothing to cover.
  double percent() const;
};

struct CoverageFigures {
  CoverageCount lines, branches, functions;
  std::size_t files = 0;
};

// The sum over the files under `directory` (an absolute path) of the
// per-file summaries in `llvm-cov export -summary-only` output. An error when
// the JSON is not such an export or no file lies under `directory`.
Result<CoverageFigures> figures_under(const Json& export_json, const fs::path& directory);

// "coverage core/: lines 96.1% (2301/2394), branches 91.0% (...), functions 98.2% (...)".
// Percentages are rounded down to 0.1, so a figure never reads higher than it is.
std::string summary_line(std::string_view label, const CoverageFigures& figures);

struct CoverageThresholds {
  std::optional<double> lines;     // percent
  std::optional<double> branches;  // percent
};
// One message per threshold not met, e.g. "lines 93.2% < 95%".
std::vector<std::string> unmet_thresholds(const CoverageFigures& figures, const CoverageThresholds& thresholds);

// The value of KEY in a CMakeCache.txt ("KEY:TYPE=VALUE" lines), if present.
std::optional<std::string> cmake_cache_value(std::string_view cache_text, std::string_view key);

// Whether the binary (ELF64) has a coverage mapping: an __llvm_covmap section.
bool has_coverage_mapping(const fs::path& binary);

// A program the coverage run executes, with its own profile directory.
struct CoverageStep {
  std::string name;  // also the profile and log directory name
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> environment;  // besides LLVM_PROFILE_FILE
};
// The corpus replays, the pr property profile and the unit tests of `build_dir`.
std::vector<CoverageStep> coverage_steps(const fs::path& root, const fs::path& build_dir);

struct CoverageOptions {
  fs::path root;        // the repository: core/, corpus/
  fs::path build_dir;   // a build of the `coverage` preset
  fs::path output_dir;  // profiles/, logs/, html/, summary.json, core-report.txt
  CoverageThresholds fail_under;
};

// Runs the steps, merges and reports; prints progress and the summary line on
// `out`, problems on `err`. Returns the exit code: 0 report written and the
// thresholds met; 1 a threshold not met or a step failed (the report is still
// written); 2 the build dir is not a built coverage build or llvm-cov /
// llvm-profdata are missing; 3 no profile written or an llvm tool failed;
// 130 interrupted.
int run_coverage(const CoverageOptions& options, std::ostream& out, std::ostream& err);

}  // namespace poolcheck::harness
