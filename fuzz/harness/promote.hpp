#pragma once
// `poolcheck promote`: turn a fuzz finding into a regression entry.
// 1. Replay the artifact in a child process: its failure signature (signature.hpp)
//    is the set of violated laws, or the crash kind and top frames, or a timeout.
//    An input that fails nothing is refused.
// 2. Minimise it (minimise.hpp) keeping that exact signature: law signatures
//    are checked in this process (fast); crashes are replayed in a child per
//    candidate; timeouts are not minimised.
// 3. Refuse a duplicate of an existing regression of the target: the same
//    minimised content (content_key), or the same signature with the same
//    outcome digest.
// 4. Write corpus/<target>/regressions/<name>.json (embedded metadata, JSON
//    targets) or <name>.pcentry (wrapper), with the note, "catches" (the
//    signature) and "promoted_from". No "expect": what the fixed core must
//    answer is unknown at promotion time; repro passes the entry once it no
//    longer fails (no violation, no crash). Add an "expect" once fixed.
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "core/error.hpp"
#include "fuzz/harness/repro.hpp"
#include "fuzz/harness/signature.hpp"

namespace poolcheck::harness {

struct PromoteOptions {
  fs::path artifact;
  std::optional<std::string> target;  // else inferred from the artifact's path
  std::optional<std::string> name;    // file stem; default "<first law>-<content hash>"
  std::optional<std::string> note;
  fs::path corpus_dir;                // holds <target>/regressions/
  double timeout_seconds = 10;
  std::size_t budget = 20000;         // predicate evaluations for the minimiser
  CheckResolver resolver = law_library_check;
};

struct PromoteResult {
  fs::path written;
  std::string target;
  Signature signature;
  std::size_t bytes_before = 0;
  std::size_t bytes_after = 0;
  std::size_t evaluations = 0;
};

// Errors: unknown target, unreadable artifact, nothing to promote (it passes),
// a duplicate (naming the existing entry), a name already taken.
Result<PromoteResult> promote(const PromoteOptions& options, std::ostream& log);

}  // namespace poolcheck::harness
