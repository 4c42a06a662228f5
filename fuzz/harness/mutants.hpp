#pragma once
// The mutation gate's catalogue (tests/mutation/catalogue.txt): known bugs of
// the reference core, each a small text substitution in one source file.
// Reading and applying are pure; mutation_gate.hpp runs them.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace poolcheck::harness {

namespace fs = std::filesystem;

struct Mutant {
  std::string id;
  std::string module;       // the part of the core it breaks
  std::string target;       // the fuzz target that should find it
  std::string provenance;
  std::string description;
  std::string file;         // relative to the repository root
  std::string find;         // occurs exactly once in `file`
  std::string replace;
  int line = 0;             // where the block starts in the catalogue
};

// Parses the catalogue text; `origin` names it in error messages
// ("catalogue.txt:12: ..."). Every field is required, ids are unique.
Result<std::vector<Mutant>> parse_catalogue(std::string_view text, std::string_view origin);
Result<std::vector<Mutant>> load_catalogue(const fs::path& path);

// The mutated text of `source`, or an error when the mutant does not apply
// (its `find` text occurs zero times or more than once).
Result<std::string> apply_mutant(const Mutant& mutant, std::string_view source);

// Checks that every mutant applies to the sources under `root`; the error
// lists each one that does not.
MaybeError check_catalogue_applies(const std::vector<Mutant>& mutants, const fs::path& root);

}  // namespace poolcheck::harness
