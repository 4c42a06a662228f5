#pragma once
// What every law returns: the violations it found, each naming the law and
// saying, readably, what was expected and what was seen. No violations: the
// law holds for this input.
#include <string>
#include <vector>

namespace poolcheck::laws {

struct Violation {
  std::string law;          // a stable id, e.g. "keys-never-lost"
  std::string description;  // what was expected and what was seen
  bool operator==(const Violation&) const = default;
};

using Violations = std::vector<Violation>;

// One line per violation: "[law] description".
std::string describe(const Violations& violations);

// Appends `more` to `into`.
void append(Violations& into, Violations more);

}  // namespace poolcheck::laws
