#pragma once
// The report of `poolcheck mutate --auto`: per file and per operator, how many
// mutants were killed, survived, timed out, are equivalent or did not build;
// the kill rate with and without the error-propagation mutants; each survivor
// with its diff and the command that reproduces it. Markdown (report.md) and
// JUnit XML.
#include <cstddef>
#include <string>
#include <vector>

#include "fuzz/harness/auto_mutants.hpp"
#include "fuzz/harness/mutation_workspace.hpp"

namespace poolcheck::harness {

enum class Verdict { Killed, Survived, Timeout, Equivalent, DidNotBuild };

struct SweepResult {
  AutoMutant mutant;
  Verdict verdict = Verdict::Survived;
  MutantRun run;           // not for Equivalent: those are not run
  std::string equivalent;  // the reason, from equivalent.txt
};

// Killed when a check failed other than by running out of time, Timeout when
// only time ran out, else Survived (or DidNotBuild).
Verdict verdict_of(const MutantRun& run);
std::string verdict_name(Verdict verdict);  // "killed", "timeout", "did-not-build", ...

// What the report says about the run besides its results.
struct SweepContext {
  std::string command;      // as typed, for the heading
  std::size_t generated = 0, files = 0;
  std::string selection;    // "a sample of 20 (seed 1)", "all", ...
  std::string baseline;     // the baseline's line
};

// The lines of find that replace changes, as a diff: ' ' context, '-', '+'.
std::string mutant_diff(const Mutant& mutant);
std::string reproduce_command(const Mutant& mutant);

std::string sweep_report(const std::vector<SweepResult>& results, const SweepContext& context);
std::string sweep_junit(const std::vector<SweepResult>& results);

}  // namespace poolcheck::harness
