#pragma once
// The mutation sites (ast_sites.hpp) of the core's files, as clang reads them:
//   clang++ -fsyntax-only -std=c++20 -I<root> -Xclang -ast-dump=json
//           -Xclang -ast-dump-filter=poolcheck <file>
// (clang++-14 when it is on PATH, else clang++; nlohmann comes from
// /usr/include). The filter keeps the dump to the declarations of namespace
// poolcheck, which is all of the core; the standard library and nlohmann would
// make it a gigabyte. Each file's sites are cached under the work directory,
// keyed by the content of the file and of the core's headers, so that a second
// `--list` does not run clang at all.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fuzz/harness/ast_sites.hpp"

namespace poolcheck::harness {

namespace fs = std::filesystem;

struct FileSites {
  std::string file;    // relative to the root: "core/pairing.cpp"
  std::string source;  // its text
  std::vector<Site> sites;
};

// core/*.cpp under `root`, relative and sorted.
std::vector<std::string> core_sources(const fs::path& root);

// The sites of `file` (relative to `root`) from clang, whose dump is written
// to `dump` while it is read. The error names clang's log when it fails.
Result<std::vector<Site>> sites_from_clang(const fs::path& root, const std::string& file, std::string_view source,
                                           const fs::path& dump);

// Each file's sites, from `cache_dir` when the key matches, else from clang,
// `jobs` files at a time; a line on `progress` per file clang reads.
Result<std::vector<FileSites>> analyse_files(const fs::path& root, const std::vector<std::string>& files,
                                             const fs::path& cache_dir, int jobs, std::ostream& progress);

}  // namespace poolcheck::harness
