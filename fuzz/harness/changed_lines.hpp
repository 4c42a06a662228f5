#pragma once
// `poolcheck mutate --auto --changed-since REV`: the lines of core/ a change
// touched, as `git diff -U0 REV -- core/` reports them (the new side of each
// hunk; a hunk that only deletes marks no line), so that a pull request's CI
// mutates only what it changed.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace poolcheck::harness {

// File (relative to the repository, "core/x.cpp") -> touched lines (1-based).
using ChangedLines = std::map<std::string, std::set<int>>;

ChangedLines parse_unified_diff(std::string_view diff);

// Whether any of lines first..last of `file` was touched.
bool touches(const ChangedLines& changed, const std::string& file, int first, int last);

// Runs git in `root`; its output is kept in `log`. An error when git fails
// (an unknown REV, not a repository).
Result<ChangedLines> changed_since(const std::filesystem::path& root, const std::string& rev,
                                   const std::filesystem::path& log);

}  // namespace poolcheck::harness
