// The AFL++ engine of `poolcheck fuzz --engine afl`: <build>/fuzz/poolcheck_afl_<T>
// (the same target source, built with afl-clang-fast++ and AFL++'s
// libFuzzer-compatible driver) under one afl-fuzz per target:
//   afl-fuzz -i .fuzz-work/<T>/corpus -o .fuzz-work/<T>/afl/<campaign> -V S -t MS -G MAX_LEN
//            -x fuzz/<T>.dict -- BINARY
// Each campaign gets its own output directory, so the findings of earlier ones
// stay where their summary said (AFL++ would delete or move them), and starts
// from the working corpus, so it sees seeds added since; what it adds to its
// queue is copied back into the working corpus afterwards, where the next
// campaign of either engine starts from it.
// Findings: <output>/default/{crashes,hangs}/id:*. Status: StatsD datagrams
// every second (AFL_STATSD=1), since afl-fuzz 4.04c rewrites fuzzer_stats only
// at start, every 60 s and at exit; that file gives the map size.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <unistd.h>

#include "fuzz/harness/digest.hpp"
#include "fuzz/harness/engine.hpp"

namespace poolcheck::harness {
namespace {

fs::path output_dir(const TargetPlan& plan) { return plan.work / "afl" / plan.campaign_id; }
fs::path instance_dir(const TargetPlan& plan) { return output_dir(plan) / "default"; }

class AflEngine final : public FuzzEngine {
 public:
  std::string_view name() const override { return "AFL++"; }

  fs::path binary(const fs::path& build_dir, std::string_view target) const override {
    return build_dir / "fuzz" / ("poolcheck_afl_" + std::string(target));
  }

  std::string build_hint() const override {
    return "Build the AFL++ targets first (afl-clang-fast++; tools/bootstrap --with-extras installs afl++),\n"
           "from the repository root:\n"
           "  tools/campaign --engine afl\n"
           "or\n"
           "  cmake --preset afl && cmake --build --preset afl\n"
           "or point --build-dir at a build configured with -DPOOLCHECK_FUZZ=ON -DPOOLCHECK_AFL=ON\n"
           "and CMAKE_CXX_COMPILER=afl-clang-fast++.\n";
  }

  std::string missing_tool() const override {
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "";
    while (true) {
      const auto colon = dirs.find(':');
      const fs::path dir(std::string(dirs.substr(0, colon)));
      if (!dir.empty() && ::access((dir / "afl-fuzz").c_str(), X_OK) == 0) return "";
      if (colon == std::string_view::npos) break;
      dirs.remove_prefix(colon + 1);
    }
    return "afl-fuzz is not on the PATH. Install afl++ (as root): tools/bootstrap --with-extras\n";
  }

  // Several instances of one target would need afl-fuzz's -M/-S roles and a
  // process each; one instance per target keeps a target one process, as with
  // libFuzzer, and --jobs still runs targets side by side.
  int workers(int) const override { return 1; }
  std::string workers_note(int) const override { return "one afl-fuzz"; }

  fs::path findings_dir(const TargetPlan& plan) const override { return instance_dir(plan); }

  Launch fuzz(const TargetPlan& plan) const override {
    std::error_code ec;
    fs::create_directories(output_dir(plan).parent_path(), ec);  // afl-fuzz makes only the last level
    Launch launch;
    launch.argv = {"afl-fuzz",
                   "-i", fs::absolute(plan.corpus).string(),
                   "-o", fs::absolute(output_dir(plan)).string(),
                   "-V", std::to_string(static_cast<long>(plan.seconds)),
                   "-m", "none"};
    std::string max_len;
    for (const auto& [key, value] : libfuzzer_options(plan.options_file)) {
      if (key == "timeout")  // libFuzzer's seconds, AFL++'s milliseconds
        launch.argv.insert(launch.argv.end(), {"-t", std::to_string(std::lround(std::atof(value.c_str()) * 1000))});
      if (key == "max_len") {
        launch.argv.insert(launch.argv.end(), {"-G", value});
        max_len = value;  // the spec mutator's limit too, below
      }
      if (key == "dict") launch.argv.insert(launch.argv.end(), {"-x", value});
    }
    if (!fs::is_regular_file(plan.options_file, ec) && fs::is_regular_file(plan.dict, ec))
      launch.argv.insert(launch.argv.end(), {"-x", plan.dict.string()});
    launch.argv.insert(launch.argv.end(), {"--", plan.binary.string()});
    launch.env = {
        {"AFL_NO_UI", "1"},                              // log lines, not a full-screen UI, into fuzz.log
        {"AFL_SKIP_CPUFREQ", "1"},                       // a shared machine's governor is not ours to set
        {"AFL_NO_AFFINITY", "1"},                        // other builds share the cores: do not pin
        {"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1"},  // whatever core_pattern says
        {"AFL_NO_CRASH_README", "1"},                    // crashes/ holds findings only
        {"AFL_STATSD", "1"},
        {"AFL_STATSD_HOST", "127.0.0.1"},
        {"AFL_STATSD_PORT", std::to_string(plan.status_port)},
        // What afl-fuzz requires of sanitizer options (abort, so that a report
        // is a crash; no symbolising in the fuzzing loop). poolcheck repro
        // replays a finding with the full report.
        {"ASAN_OPTIONS", "abort_on_error=1:symbolize=0:detect_leaks=0:malloc_context_size=0"},
        {"UBSAN_OPTIONS", "abort_on_error=1:halt_on_error=1:symbolize=0"},
    };
    add_spec_mutator(plan, launch);
    if (!max_len.empty()) launch.env.emplace_back("POOLCHECK_AFL_MAX_LEN", max_len);  // as -G: afl_custom_mutator.cpp
    return launch;
  }

  bool status_by_udp() const override { return true; }

  // The spec mutator of the libFuzzer targets (fuzz/afl_custom_mutator.cpp),
  // from its own build next to the AFL++ one (build/afl-mutator beside
  // build/afl: `cmake --workflow --preset afl-mutator`), unless the user
  // names a library in AFL_CUSTOM_MUTATOR_LIBRARY. Without either, AFL++
  // mutates bytes alone, and the campaign says so.
  static void add_spec_mutator(const TargetPlan& plan, Launch& launch) {
    launch.env.emplace_back("POOLCHECK_AFL_TARGET", plan.target);
    if (std::getenv("AFL_CUSTOM_MUTATOR_LIBRARY") != nullptr) return;
    const fs::path library = plan.binary.parent_path().parent_path().parent_path() / "afl-mutator" / "fuzz" /
                             "libpoolcheck_afl_mutator.so";
    std::error_code ec;
    if (fs::is_regular_file(library, ec)) launch.env.emplace_back("AFL_CUSTOM_MUTATOR_LIBRARY", library.string());
    else std::fprintf(stderr, "poolcheck fuzz: no %s, so AFL++ mutates bytes alone (build it: cmake --workflow --preset afl-mutator)\n", library.c_str());
  }

  bool read_line(std::string_view line, FuzzStatus& status) const override {
    long pid = 0;
    return line.rfind("fuzzing.", 0) == 0 && parse_afl_status(line, status, pid);
  }

  bool read_files(const TargetPlan& plan, long pid, FuzzStatus& status) const override {
    std::ifstream in(instance_dir(plan) / "fuzzer_stats");
    FuzzStatus parsed = status;
    long stats_pid = 0;
    bool any = false;
    for (std::string line; std::getline(in, line);) any = parse_afl_status(line, parsed, stats_pid) || any;
    if (!any || stats_pid != pid) return false;
    // Between its rewrites the file lags the datagrams: then only the map
    // size (constant) is news. execs_done only grows within a session.
    if (parsed.execs < status.execs) status.map_size = parsed.map_size;
    else status = parsed;
    return true;
  }

  std::vector<fs::path> findings(const TargetPlan& plan) const override {
    std::vector<fs::path> found;
    for (const char* kind : {"crashes", "hangs"}) {
      std::error_code ec;
      for (auto it = fs::directory_iterator(instance_dir(plan) / kind, ec); !ec && it != fs::directory_iterator();
           it.increment(ec))
        if (it->path().filename().string().rfind("id:", 0) == 0) found.push_back(it->path());
    }
    return found;
  }

  // The queue entries AFL++ made ("orig:" marks those it read from -i), named
  // by content as the seeds are, so that a second copy is not added.
  std::size_t keep_new_inputs(const TargetPlan& plan) const override {
    std::size_t added = 0;
    std::error_code ec;
    for (auto it = fs::directory_iterator(instance_dir(plan) / "queue", ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!it->is_regular_file() || name.rfind("id:", 0) != 0 || name.find(",orig:") != std::string::npos) continue;
      std::ifstream in(it->path(), std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const fs::path out = plan.corpus / ("afl-" + digest_of_bytes(bytes).substr(kDigestPrefix.size()));
      if (fs::exists(out, ec)) continue;
      std::ofstream(out, std::ios::binary) << bytes;
      ++added;
    }
    return added;
  }

  // A second minimisation would drop what libFuzzer's next -merge=1 keeps anyway.
  std::optional<Launch> merge(const TargetPlan&, const fs::path&) const override { return std::nullopt; }

  std::string detail_name() const override { return "map"; }
  std::string detail(const FuzzStatus& status) const override {
    if (status.map_size == 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.2f%%", 100.0 * static_cast<double>(status.cov) / status.map_size);
    return text;
  }
};

}  // namespace

std::unique_ptr<FuzzEngine> make_afl_engine() { return std::make_unique<AflEngine>(); }

bool parse_afl_status(std::string_view line, FuzzStatus& status, long& pid) {
  // "fuzzing.key:value|g" or "key    : value"
  if (line.rfind("fuzzing.", 0) == 0) line.remove_prefix(8);
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view key = line.substr(0, colon);
  key = key.substr(0, key.find_last_not_of(' ') + 1);
  std::string_view value = line.substr(colon + 1);
  value.remove_prefix(std::min(value.find_first_not_of(' '), value.size()));
  // The parse stops at "|g" and at a fraction.
  const char* first = value.data();
  const char* last = value.data() + value.size();
  auto whole = [&](std::uint64_t& out) { return std::from_chars(first, last, out).ec == std::errc(); };
  if (key == "execs_done") return whole(status.execs);
  if (key == "execs_per_sec") {
    double real = 0;  // "inf" before the first second of fuzzing
    if (std::from_chars(first, last, real).ec != std::errc()) return false;
    status.exec_per_sec = std::isfinite(real) && real >= 0 ? static_cast<std::uint64_t>(real) : 0;
    return true;
  }
  if (key == "corpus_count") return whole(status.corpus);
  if (key == "edges_found") return whole(status.cov);
  if (key == "total_edges") return whole(status.map_size);
  // saved_* since AFL++ 4.00, unique_* before.
  if (key == "saved_crashes" || key == "unique_crashes") return whole(status.crashes);
  if (key == "saved_hangs" || key == "unique_hangs") return whole(status.timeouts);
  if (key == "fuzzer_pid") return std::from_chars(first, last, pid).ec == std::errc();
  return false;
}

}  // namespace poolcheck::harness
