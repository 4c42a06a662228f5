#pragma once
// `poolcheck repro`: replays corpus entries or fuzz artifacts, each in its own
// child process (isolation.hpp), judges them (verdict.hpp) and reports: a
// PASS/FAIL/TIMEOUT table, the violated laws and a minimal diff per failure,
// and optionally JUnit XML for CI.
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/verdict.hpp"

namespace poolcheck::harness {

// The check function for a target name, or nullptr when unknown. The default
// is the law library's (laws::find_target); tests substitute their own.
using CheckResolver = std::function<CheckFunction(std::string_view target)>;
CheckFunction law_library_check(std::string_view target);

struct ReproOptions {
  std::vector<fs::path> paths;
  std::optional<std::string> target;  // for paths that do not name one
  double timeout_seconds = 10;
  bool verbose = false;  // also print each entry's actual verdict and digest
  CheckResolver resolver = law_library_check;
};

struct ReproCase {
  fs::path path;
  std::string target;
  std::string note;
  Judgement judgement;
  std::optional<Expect> actual;  // when the child completed
  double seconds = 0;
};

struct ReproReport {
  std::vector<ReproCase> cases;
  std::size_t count(Status status) const;
  bool all_passed() const { return count(Status::Pass) == cases.size(); }
};

// The (path, target) pairs to replay, or a usage error: a path that does not
// exist, a path that names no target without --target, a --target that
// contradicts the path, or an unknown target.
struct PlannedEntry {
  fs::path path;
  std::string target;
};
Result<std::vector<PlannedEntry>> plan_repro(const ReproOptions& options);

// Replays every planned entry; prints a table row to `live` (when given) as
// each one finishes.
ReproReport run_repro(const std::vector<PlannedEntry>& plan, const ReproOptions& options, std::ostream* live);

void print_table_header(std::ostream& out, bool verbose);
void print_table_row(std::ostream& out, const ReproCase& c, bool verbose);
// The failures' details and the one-line summary.
void print_failures_and_summary(std::ostream& out, const ReproReport& report);

std::string junit_xml(const ReproReport& report);

}  // namespace poolcheck::harness
