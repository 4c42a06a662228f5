// The JSON mutator's contract, without libFuzzer (so with any compiler):
// for every seed file given and many seeds, mutants stay within max_size, the
// same input and seed give the same mutant, nesting never goes past the cap
// (one level beyond the parser's limit) along long chains of tree mutations,
// and most mutants are still JSON (the point of a structure-aware mutator).
//
//   poolcheck_json_mutator_check FILE_OR_DIR...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/json_input.hpp"
#include "fuzz/json_mutator.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxSize = 4096;  // request.options max_len
constexpr int kDepthCap = poolcheck::kMaxNestingDepth + 1;

int failures = 0;

void fail(const std::string& what) {
  ++failures;
  if (failures <= 20) std::fprintf(stderr, "FAIL %s\n", what.c_str());
}

// Leaves the bytes alone: with it, every change comes from the tree mutations,
// whose nesting cap is then checkable (byte mutations may nest at will).
std::size_t no_byte_mutation(std::uint8_t*, std::size_t size, std::size_t) { return size; }

std::string mutate(const std::string& input, unsigned int seed, poolcheck::fuzz::ByteMutator bytes = nullptr) {
  std::vector<std::uint8_t> buffer(kMaxSize);
  std::copy(input.begin(), input.end(), buffer.begin());
  const std::size_t size = poolcheck::fuzz::mutate_json(buffer.data(), input.size(), kMaxSize, seed, bytes);
  if (size > kMaxSize) fail("size " + std::to_string(size) + " > max_size");
  return std::string(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(std::min(size, kMaxSize)));
}

struct Tally {
  std::size_t mutants = 0;
  std::size_t parsable = 0;
  std::size_t changed = 0;
  int deepest = 0;
};

void check_input(const std::string& name, const std::string& input, Tally& tally, unsigned int seeds = 300) {
  for (unsigned int seed = 0; seed < seeds; ++seed) {
    const std::string once = mutate(input, seed);
    if (mutate(input, seed) != once) fail(name + ": seed " + std::to_string(seed) + " is not deterministic");
    ++tally.mutants;
    if (once != input) ++tally.changed;
    if (poolcheck::parse_bounded_json(once)) ++tally.parsable;
  }
  // A chain of tree mutations, as libFuzzer stacks mutations on a corpus
  // element; back to the input when the result no longer parses.
  std::string current = input;
  for (unsigned int step = 0; step < 2000; ++step) {
    current = mutate(current, step * 2654435761u, no_byte_mutation);
    const int depth = poolcheck::nesting_depth(current, kDepthCap + 1);
    tally.deepest = std::max(tally.deepest, depth);
    if (depth > kDepthCap) fail(name + ": nesting past the cap after " + std::to_string(step + 1) + " mutations");
    if (!poolcheck::parse_bounded_json(current)) current = input;
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (fs::is_directory(argv[i])) {
      for (const auto& entry : fs::directory_iterator(argv[i]))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.push_back(argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }

  Tally tally;
  for (const auto& file : files) check_input(file.string(), read_file(file), tally);
  // Already at the parser's limit: mutations may go one level deeper, no more.
  const std::string deep = std::string(64, '[') + std::string(64, ']');
  check_input("depth-64", deep, tally);
  check_input("empty", "", tally);
  // The non-finite numbers the parser reads (Python's json does): every type
  // change of them must stay defined (run under UBSan in the clang-asan tree).
  // Many seeds: a given mutation of a given node is a draw in a few hundred.
  check_input("non-finite", R"({"a": NaN, "b": [Infinity, -Infinity, 1e400, -0.0]})", tally, 5000);

  std::printf("%zu mutants: %zu still JSON, %zu changed; deepest nesting along the chains: %d (cap %d)\n",
              tally.mutants, tally.parsable, tally.changed, tally.deepest, kDepthCap);
  if (tally.parsable * 10 < tally.mutants * 7) fail("fewer than 70% of mutants are JSON");
  if (tally.changed * 10 < tally.mutants * 9) fail("more than 10% of mutants are unchanged");
  if (tally.deepest != kDepthCap) fail("the chains never reached the cap: the parser's limit goes untested");
  if (failures != 0) {
    std::fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  return 0;
}
