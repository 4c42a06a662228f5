#pragma once
// tests/mutation/equivalent.txt: the automatic mutants judged equivalent (no
// input can tell them from the core), each with the reason. One per line:
//   auto-pairing-25-int-literal-1  a reserve() capacity hint
// the id, white space, then the reason (required). '#' starts a comment line;
// blank lines are skipped. The sweep does not run these and counts them apart.
// An entry whose mutant is no longer generated is an error: the code moved
// under it (ids carry the line), so the judgement must be made again.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace poolcheck::harness {

struct EquivalentEntry {
  std::string id;
  std::string reason;
  int line = 0;
};

// `origin` names the text in errors ("equivalent.txt:3: ...").
Result<std::vector<EquivalentEntry>> parse_equivalent_list(std::string_view text, std::string_view origin);
// A missing file is an empty list.
Result<std::vector<EquivalentEntry>> load_equivalent_list(const std::filesystem::path& path);

// An error naming every entry whose id is not among `generated`.
MaybeError check_equivalent_entries(const std::vector<EquivalentEntry>& entries,
                                    const std::set<std::string>& generated, std::string_view origin);

}  // namespace poolcheck::harness
