// poolcheck_seed_corpus: the inputs a campaign starts from, for packaging.
//
//   poolcheck_seed_corpus ROOT TARGET DIR
//
// Writes the inputs of ROOT/corpus/TARGET/seeds and .../regressions into DIR
// (created if missing), as the bytes the fuzz target gets: `*.pcentry`
// wrappers unwrapped, every other file as it is (corpus/README.md). It is the
// campaign's own seeding (harness::seed_working_corpus), so an OSS-Fuzz seed
// corpus (fuzz/oss_fuzz_out.cmake) holds exactly what `poolcheck fuzz` seeds
// with. Unlike a campaign, which skips a malformed entry and goes on, this
// fails on one: a packaged corpus must not silently lose a regression.
// Exit codes: 0 written, 1 a malformed or missing corpus, 2 usage error.
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <system_error>

#include "fuzz/harness/campaign.hpp"
#include "fuzz/harness/entry.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  namespace harness = poolcheck::harness;
  if (argc != 4) {
    std::cerr << "usage: poolcheck_seed_corpus ROOT TARGET DIR\n"
                 "  writes the unwrapped inputs of ROOT/corpus/TARGET/{seeds,regressions} into DIR\n";
    return 2;
  }
  const fs::path root = argv[1];
  const std::string target = argv[2];
  const fs::path dir = argv[3];
  if (!harness::is_known_target(target)) {
    std::cerr << "poolcheck_seed_corpus: unknown target '" << target << "'\n";
    return 2;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "poolcheck_seed_corpus: cannot create " << dir << ": " << ec.message() << "\n";
    return 1;
  }
  std::ostringstream problems;
  const std::size_t written = harness::seed_working_corpus(root, target, dir, problems);
  if (!problems.str().empty()) {
    std::cerr << "poolcheck_seed_corpus: malformed corpus entries for " << target << ":\n" << problems.str();
    return 1;
  }
  if (written == 0) {
    std::cerr << "poolcheck_seed_corpus: no inputs under " << (root / "corpus" / target) << "\n";
    return 1;
  }
  std::cout << "poolcheck_seed_corpus: " << written << " inputs of " << target << " in " << dir.string() << "\n";
  return 0;
}
