#pragma once
// `poolcheck mutate --auto`: the automatic mutants of core/ (auto_mutants.hpp),
// run as the catalogue gate runs its mutants (mutation_workspace.hpp), by
// `jobs` forked workers, each with a workspace of its own. The work directory
// (default <root>/build/mutation-auto):
//   sites/       per core file, its mutation sites (keyed by content) and, while
//                clang runs, its AST dump
//   worker-N/    worker N's workspace: src/, build/, logs/, results/
//   report.md    per file and per operator: killed, survived, timeout,
//                equivalent, did not build; the survivors with diff and reproduce command
// The baseline runs first in worker-0 and must pass; a mutant's checks may
// take 3 times the baseline's, times the workers, plus a minute before it
// counts as a timeout. Each worker's builds get cores / jobs compile jobs.
// tests/mutation/equivalent.txt (equivalent_list.hpp) names the mutants
// judged equivalent: they are not run, and counted apart.
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/harness/ast_sites.hpp"

namespace poolcheck::harness {

namespace fs = std::filesystem;

struct AutoOptions {
  fs::path root;
  fs::path work_dir;                  // empty: <root>/build/mutation-auto
  std::string cxx_compiler;           // the workers' build compiler; empty: CMake's default
  std::string command;                // the command line, for the report's heading
  std::vector<std::string> files;     // "core/x.cpp"; empty: every core/*.cpp
  std::vector<Operator> operators;    // empty: all
  std::vector<std::string> only;      // mutant ids (of all generated ones); overrides the choice below
  std::string changed_since;          // a git revision: only the lines `git diff -U0 REV` touched in core/
  bool all = false;                   // every candidate...
  std::size_t count = 0;              // ...or a sample of this many
  std::uint64_t seed = 1;             // ...chosen by this seed
  int jobs = 1;
  bool list = false;                  // print the mutants in catalogue form and stop
  fs::path junit;                     // also write JUnit XML here
};

// Returns 0 when no mutant survived, 1 when one did, 2 for a usage error (an
// unknown file or id, nothing chosen, a stale equivalent.txt entry, a mutant
// that does not apply or a worker that failed), 3 when clang cannot read the
// core or the baseline fails.
int run_auto_mutation(const AutoOptions& options, std::ostream& out, std::ostream& err);

}  // namespace poolcheck::harness
