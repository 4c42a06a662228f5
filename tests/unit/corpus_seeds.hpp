#pragma once
// The shipped seeds of a fuzz target (corpus/<target>/seeds), as bytes, for
// the unit tests that run every seed.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace poolcheck::test {

inline std::vector<std::string> seeds_of(const std::string& target) {
  std::vector<std::string> out;
  namespace fs = std::filesystem;
  for (const auto& entry : fs::directory_iterator(fs::path(POOLCHECK_SOURCE_DIR) / "corpus" / target / "seeds")) {
    std::ifstream in(entry.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return out;
}

}  // namespace poolcheck::test
