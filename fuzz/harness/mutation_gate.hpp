#pragma once
// `poolcheck mutate`: the mutation gate. Each catalogued mutant of the core
// (mutants.hpp) is applied alone to a mirror of the source tree, the mirror's
// build recompiles only what it changes, and the `pr` property profile and the
// corpus replay run against it. Every mutant must be killed, and every
// property must kill at least one mutant; otherwise the gate fails.
//
// The work directory (default <root>/build/mutation) is one workspace
// (mutation_workspace.hpp: src/, build/, logs/, results/), plus report.md, the
// kill matrix. With fuzz_seconds > 0 it also measures, per mutant, how long one
// libFuzzer worker of the mutant's target needs from the shipped seeds to find
// it (build-fuzz/: Clang, libFuzzer, ASan+UBSan; fuzz/<id>/: its artifacts).
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace poolcheck::harness {

namespace fs = std::filesystem;

struct GateOptions {
  fs::path root;                  // the repository: tests/mutation/catalogue.txt, corpus/
  fs::path work_dir;              // empty: <root>/build/mutation
  std::string cxx_compiler;       // the mirror build's compiler; empty: CMake's default
  std::vector<std::string> only;  // mutant ids to run; empty: all
  double fuzz_seconds = 0;        // > 0: also measure fuzzing time-to-find, capped here
  bool list = false;              // print the catalogue and stop
};

// Returns 0 when every mutant run was killed (and, for the whole catalogue,
// every property killed one), 1 otherwise, 2 for a usage or catalogue error
// (unknown id, a mutant that no longer applies or does not compile), 3 when
// the unmutated baseline fails or a build cannot be configured.
int run_mutation_gate(const GateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace poolcheck::harness
