// The replay driver: a `main` for a fuzz target's LLVMFuzzerTestOneInput, so
// corpus entries and crash artifacts replay with any compiler (GCC included),
// without libFuzzer and under valgrind.
//
//   poolcheck_replay_<target> FILE_OR_DIR...
//
// Each file, or every regular file under each directory (recursively, sorted,
// dot files skipped, as libFuzzer reads a corpus), goes to the target once, as
// raw bytes. Wrapped corpus entries (`*.pcentry`, corpus/README.md) are not
// raw input: they are listed as SKIP and left to `poolcheck repro`.
// A pass prints `PASS <file>`; an input the target declines (it returns -1,
// see work_budget.hpp) prints `SKIP <file>`; a law violation aborts inside the target after
// printing the violated laws, and a SIGABRT handler names the file first. Exit
// codes: 0 all passed, 2 usage error (no inputs, unreadable path), otherwise
// the abort's.
#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The file being replayed, for the SIGABRT handler (which may only use
// async-signal-safe calls, hence a fixed buffer and write(2)).
char current_file[4096];

void on_abort(int signal_number) {
  constexpr char kPrefix[] = "FAIL ";
  (void)!write(STDERR_FILENO, kPrefix, sizeof kPrefix - 1);
  (void)!write(STDERR_FILENO, current_file, std::strlen(current_file));
  (void)!write(STDERR_FILENO, "\n", 1);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

bool wrapped_entry(const fs::path& path) { return path.extension() == ".pcentry"; }

bool hidden(const fs::path& path) {
  const std::string name = path.filename().string();
  return !name.empty() && name[0] == '.';
}

// The inputs named by `arg`, or false when it is neither a file nor a directory.
bool expand(const fs::path& arg, std::vector<fs::path>& out) {
  std::error_code ec;
  if (fs::is_regular_file(arg, ec)) {
    out.push_back(arg);
    return true;
  }
  if (!fs::is_directory(arg, ec)) return false;
  std::vector<fs::path> found;
  for (auto it = fs::recursive_directory_iterator(arg, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (hidden(it->path())) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) found.push_back(it->path());
  }
  if (ec) return false;
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
  return true;
}

bool read_file(const fs::path& path, std::vector<std::uint8_t>& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!expand(argv[i], inputs)) {
      std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], argv[i]);
      return 2;
    }
  }
  if (inputs.empty()) {
    // An empty seed directory replaying "successfully" would hide a broken path.
    std::fprintf(stderr, "%s: no input files\n", argv[0]);
    return 2;
  }
  std::signal(SIGABRT, on_abort);
  for (const auto& path : inputs) {
    if (wrapped_entry(path)) {
      std::printf("SKIP %s (wrapped corpus entry: replay it with poolcheck repro)\n", path.c_str());
      continue;
    }
    std::vector<std::uint8_t> bytes;
    if (!read_file(path, bytes)) {
      std::fprintf(stderr, "%s: cannot read '%s'\n", argv[0], path.c_str());
      return 2;
    }
    std::snprintf(current_file, sizeof current_file, "%s", path.c_str());
    // An exact-size heap copy, as libFuzzer passes it: ASan and valgrind then
    // see a read past the end.
    std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[bytes.size()]);
    if (!bytes.empty()) std::memcpy(data.get(), bytes.data(), bytes.size());
    if (LLVMFuzzerTestOneInput(data.get(), bytes.size()) == -1) {
      std::printf("SKIP %s (over the target's work budget, checked only in part: check it with poolcheck repro)\n", path.c_str());
    } else {
      std::printf("PASS %s\n", path.c_str());
    }
    std::fflush(stdout);  // before a later abort can lose it
  }
  return 0;
}
