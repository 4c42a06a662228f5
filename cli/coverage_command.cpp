// `poolcheck coverage`: argument parsing and printing only; the run is
// harness::run_coverage (fuzz/harness/coverage.hpp). It does not configure or
// build: tools/coverage does that with the `coverage` preset, then runs this.
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "fuzz/harness/campaign.hpp"
#include "fuzz/harness/coverage.hpp"

namespace poolcheck::cli {
namespace {

namespace fs = std::filesystem;
namespace h = poolcheck::harness;

int run_coverage(const Args& args) {
  auto options = parse_options("coverage", args,
                               {"--build-dir", "--output", "--fail-under-lines", "--fail-under-branches"}, {});
  if (!options) return kExitUsage;
  if (!options->positional.empty()) return usage_error("coverage", "takes no positional argument");
  h::CoverageOptions coverage;
  for (auto [flag, threshold] : {std::pair{"--fail-under-lines", &coverage.fail_under.lines},
                                 std::pair{"--fail-under-branches", &coverage.fail_under.branches}}) {
    const auto text = value_of(*options, flag);
    if (!text) continue;
    const auto percent = parse_number(*text);
    if (!percent || *percent < 0 || *percent > 100)
      return usage_error("coverage", std::string(flag) + " takes a percentage from 0 to 100");
    *threshold = *percent;
  }
  auto root = h::find_project_root(fs::current_path());
  if (!root) return usage_error("coverage", "run it inside the repository (no corpus/ here or above)");
  coverage.root = *root;
  const auto build_dir = value_of(*options, "--build-dir");
  coverage.build_dir = build_dir ? fs::absolute(*build_dir) : *root / "build" / "coverage";
  const auto output = value_of(*options, "--output");
  coverage.output_dir = output ? fs::absolute(*output) : coverage.build_dir / "coverage-report";
  try {
    return h::run_coverage(coverage, std::cout, std::cerr);
  } catch (const std::exception& e) {  // a filesystem error: the environment, not a finding
    std::cerr << "poolcheck coverage: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace

std::vector<Command> coverage_commands() {
  return {
      Command{"coverage", "line, branch and function coverage of core/ (tools/coverage)",
              "Usage: poolcheck coverage [--build-dir DIR] [--output DIR] [--fail-under-lines P]\n"
              "                          [--fail-under-branches P]\n\n"
              "Measures which lines, branches and functions of the reference core (core/) the\n"
              "checks execute. DIR (default build/coverage) must be a build of the `coverage` CMake\n"
              "preset (Clang, -fprofile-instr-generate -fcoverage-mapping); this command does not\n"
              "configure or build it: `tools/coverage ARGS` does both, then runs it with ARGS.\n"
              "Steps, each printed as it starts and ends (the whole run takes minutes):\n"
              "  the corpus, every file of corpus/<T> through DIR/fuzz/poolcheck_replay_<T>;\n"
              "  the property suites, pr profile (POOLCHECK_PROFILE=pr);\n"
              "  the unit tests (which also run the instrumented poolcheck);\n"
              "each writing raw profiles to OUT/profiles/<step>/ (LLVM_PROFILE_FILE) and its output\n"
              "to OUT/logs/<step>.log; then llvm-profdata merge, llvm-cov export (the figures),\n"
              "llvm-cov report (OUT/core-report.txt, per core/ file) and llvm-cov show\n"
              "(OUT/html/index.html). llvm-cov and llvm-profdata are taken next to the build's\n"
              "compiler, else from PATH. OUT (--output) defaults to DIR/coverage-report; its\n"
              "profiles, logs and html are replaced on each run.\n"
              "Ends with one line for core/ (percentages rounded down), e.g.\n"
              "  coverage core/: lines 96.1% (2301/2394), branches 91.0% (1001/1100), functions 98.2% (...)\n"
              "--fail-under-lines P and --fail-under-branches P fail the run below P percent.\n"
              "Exit codes: 0 report written, thresholds met; 1 a threshold not met or a step failed\n"
              "(the report is still written); 2 usage error, DIR not a built coverage build, or\n"
              "llvm-cov missing; 3 no profile written or an llvm tool failed; 130 interrupted.\n\n"
              "Examples:\n"
              "  tools/coverage --fail-under-lines 95 --fail-under-branches 90\n"
              "  poolcheck coverage --build-dir build/coverage --output /tmp/cov\n",
              run_coverage},
  };
}

}  // namespace poolcheck::cli
