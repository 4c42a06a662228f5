#pragma once
// What the catalogue gate (mutation_gate.hpp) and the automatic sweep
// (auto_sweep.hpp) share: a mirror of the source tree with a build tree of its
// own, one mutant at a time applied to it, and the checks whose failures are
// its kills (the `pr` property profile and the corpus replay).
//
// A workspace directory holds:
//   src/              the mirror: CMakeLists.txt, core/, properties/, fuzz/, cli/, tests/
//                     (files are rewritten only when they differ, so rebuilds are incremental)
//   build/            its build tree (RelWithDebInfo, no sanitizers)
//   logs/             per mutant: the build, properties and corpus output
//   results/          per mutant: the properties' GoogleTest JSON, the corpus JUnit XML
//   counterexamples/  per mutant: a failing property's counterexample, as a corpus entry
#include <filesystem>
#include <functional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "fuzz/harness/logged_command.hpp"
#include "fuzz/harness/mutants.hpp"

namespace poolcheck::harness {

namespace fs = std::filesystem;

struct Workspace {
  fs::path root;  // the repository the mirror copies; its corpus/ is replayed
  fs::path dir, src, logs, results;
};

// A build tree over the mirror: configured once, then rebuilt incrementally.
struct Tree {
  fs::path dir;
  std::vector<std::string> configure_args;
  std::vector<std::string> targets;
  int parallel = 0;  // compile jobs; 0: the build tool's default (Ninja: the cores + 2)
};

Workspace workspace_at(const fs::path& root, const fs::path& dir);  // creates src/, logs/, results/
// dir/build: RelWithDebInfo, no sanitizers, poolcheck_properties, poolcheck_law_tests and poolcheck;
// compiled by `cxx_compiler` (empty: CMake's default).
Tree checks_tree(const Workspace& workspace, const std::string& cxx_compiler);

// Makes the mirror a copy of the mirrored part of the root, removing files the
// root no longer has (and so undoing any mutant an interrupted run left).
MaybeError mirror_sources(const Workspace& workspace);
MaybeError configure(const Workspace& workspace, const Tree& tree, std::ostream& out);
CommandOutcome build(const Workspace& workspace, const Tree& tree, const std::string& label);
// mirror_sources, configure and build, as one step: the tree then holds the
// unmutated core. The build's seconds, or why it failed.
Result<double> prepare(const Workspace& workspace, const Tree& tree, std::ostream& out);

// How the checks run: how long they may take before a run counts as hung, and
// in how many GoogleTest shards the property suite runs, side by side with
// each other and with the corpus replay (the cores a worker has: the suite
// is most of a mutant's time).
struct CheckLimits {
  double properties_seconds = 1200;
  double corpus_seconds = 900;
  int property_shards = 1;
};

struct MutantRun {
  std::string label;
  bool built = false;
  double build_seconds = 0, properties_seconds = 0, corpus_seconds = 0;
  std::vector<std::string> properties;  // failing properties (or how the binary died)
  std::vector<std::string> law_tests;   // failing tests of the laws themselves (tests/laws/)
  std::vector<std::string> entries;     // failing corpus entries, relative to the root
  std::vector<std::string> timeouts;    // those of the above that only ran out of time
  std::size_t corpus_cases = 0;
  std::string fuzz;                     // time-to-find, when measured
  bool killed() const { return !properties.empty() || !law_tests.empty() || !entries.empty(); }
  // Killed by a failure that is not just a hang.
  bool failed_a_check() const { return properties.size() + law_tests.size() + entries.size() > timeouts.size(); }
};

// The cores this machine has (at least 1): what the checks and builds share out.
int available_cores();

// Runs the property suite, the law tests and the corpus replay against the
// tree's binaries, side by side; every property seen is added to `all_properties`.
void run_checks(const Workspace& workspace, const Tree& tree, const CheckLimits& limits,
                std::set<std::string>& all_properties, MutantRun& run);

// The unmutated mirror's run before its checks: prepare()'s build, labelled "baseline".
Result<MutantRun> build_baseline(const Workspace& workspace, const Tree& tree, std::ostream& out);
// The checked baseline must pass everything, or no kill would mean anything.
MaybeError check_baseline(const Workspace& workspace, const MutantRun& baseline,
                          const std::set<std::string>& all_properties);

// Applies `mutant` to the mirror, builds, runs the checks (and `while_applied`,
// when given, once it built), then puts the file back. An error when the
// mutant does not apply or the mirror cannot be written.
Result<MutantRun> run_mutant(const Workspace& workspace, const Tree& tree, const Mutant& mutant,
                             const CheckLimits& limits, std::set<std::string>& all_properties,
                             const std::function<void(MutantRun&)>& while_applied = {});

// Text helpers of the mutation reports.
std::string seconds_text(double seconds);  // one decimal
std::string short_list(const std::vector<std::string>& items, std::size_t shown);  // "a, b (+3 more)" or "-"
bool write_file(const fs::path& path, std::string_view bytes);

}  // namespace poolcheck::harness
