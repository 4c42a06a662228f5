// The libFuzzer engine of `poolcheck fuzz`: <build>/fuzz/poolcheck_fuzz_<T> in
// fork mode (-fork=N -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1), so
// a finding is saved under .fuzz-work/<T>/artifacts/ and the campaign goes on;
// status from its output lines; -merge=1 at the end.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "fuzz/harness/engine.hpp"

namespace poolcheck::harness {
namespace {

const char* const kArtifactPrefixes[] = {"crash-", "leak-", "timeout-", "oom-", "slow-unit-"};

fs::path artifacts_dir(const TargetPlan& plan) { return plan.work / "artifacts"; }

// The .options flags, or only the dictionary when there is no .options file.
std::vector<std::string> option_flags(const TargetPlan& plan) {
  static const std::vector<std::string> ours = {"fork", "jobs", "workers", "ignore_crashes", "ignore_timeouts",
                                                "ignore_ooms", "max_total_time", "artifact_prefix", "merge", "runs"};
  std::error_code ec;
  if (fs::is_regular_file(plan.options_file, ec)) return libfuzzer_option_flags(plan.options_file, ours);
  if (fs::is_regular_file(plan.dict, ec)) return {"-dict=" + plan.dict.string()};
  return {};
}

std::string artifact_prefix_flag(const TargetPlan& plan) {
  return "-artifact_prefix=" + fs::absolute(artifacts_dir(plan)).string() + "/";
}

class LibFuzzerEngine final : public FuzzEngine {
 public:
  std::string_view name() const override { return "libFuzzer"; }

  fs::path binary(const fs::path& build_dir, std::string_view target) const override {
    return build_dir / "fuzz" / ("poolcheck_fuzz_" + std::string(target));
  }

  std::string build_hint() const override {
    return "Build the fuzz targets first (Clang with libFuzzer), from the repository root:\n"
           "  cmake --workflow --preset fuzz\n"
           "or\n"
           "  cmake --preset fuzz && cmake --build --preset fuzz\n"
           "or point --build-dir at a build configured with -DPOOLCHECK_FUZZ=ON.\n";
  }

  std::string missing_tool() const override { return ""; }  // the binary is the fuzzer

  int workers(int share) const override { return std::max(1, share); }
  std::string workers_note(int workers) const override { return "-fork=" + std::to_string(workers); }

  fs::path findings_dir(const TargetPlan& plan) const override { return artifacts_dir(plan); }

  Launch fuzz(const TargetPlan& plan) const override {
    std::error_code ec;
    fs::create_directories(artifacts_dir(plan), ec);  // libFuzzer does not create it
    Launch launch;
    launch.argv = {plan.binary.string(),
                   "-fork=" + std::to_string(plan.workers),
                   "-ignore_crashes=1",
                   "-ignore_timeouts=1",
                   "-ignore_ooms=1",
                   "-max_total_time=" + std::to_string(static_cast<long>(plan.seconds)),
                   artifact_prefix_flag(plan)};
    const auto flags = option_flags(plan);
    launch.argv.insert(launch.argv.end(), flags.begin(), flags.end());
    launch.argv.push_back(fs::absolute(plan.corpus).string());
    return launch;
  }

  bool status_by_udp() const override { return false; }
  bool read_line(std::string_view line, FuzzStatus& status) const override {
    return parse_libfuzzer_status(line, status);
  }
  bool read_files(const TargetPlan&, long, FuzzStatus&) const override { return false; }

  std::vector<fs::path> findings(const TargetPlan& plan) const override {
    std::vector<fs::path> found;
    std::error_code ec;
    for (auto it = fs::directory_iterator(artifacts_dir(plan), ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
      const std::string name = it->path().filename().string();
      for (const char* prefix : kArtifactPrefixes)
        if (name.rfind(prefix, 0) == 0) found.push_back(it->path());
    }
    return found;
  }

  std::size_t keep_new_inputs(const TargetPlan&) const override { return 0; }  // it writes plan.corpus itself

  std::optional<Launch> merge(const TargetPlan& plan, const fs::path& into) const override {
    Launch launch;
    launch.argv = {plan.binary.string(), "-merge=1", artifact_prefix_flag(plan)};
    for (const auto& flag : option_flags(plan))
      if (flag.rfind("-dict=", 0) != 0) launch.argv.push_back(flag);
    launch.argv.push_back(fs::absolute(into).string());
    launch.argv.push_back(fs::absolute(plan.corpus).string());
    return launch;
  }

  std::string detail_name() const override { return "ft"; }
  std::string detail(const FuzzStatus& status) const override { return grouped(status.ft); }
};

}  // namespace

std::unique_ptr<FuzzEngine> make_libfuzzer_engine() { return std::make_unique<LibFuzzerEngine>(); }

bool parse_libfuzzer_status(std::string_view line, FuzzStatus& status) {
  if (line.size() < 2 || line[0] != '#' || !std::isdigit(static_cast<unsigned char>(line[1]))) return false;
  FuzzStatus parsed = status;
  std::size_t i = 1;
  parsed.execs = 0;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])))
    parsed.execs = parsed.execs * 10 + static_cast<std::uint64_t>(line[i++] - '0');
  // "key: value" or "key value" pairs after the count; numbers may carry units.
  auto number_after = [&](std::string_view key, std::uint64_t& out) {
    const auto at = line.find(key, i);
    if (at == std::string_view::npos) return false;
    std::size_t j = at + key.size();
    while (j < line.size() && (line[j] == ':' || line[j] == ' ')) ++j;
    if (j >= line.size() || !std::isdigit(static_cast<unsigned char>(line[j]))) return false;
    std::uint64_t value = 0;
    while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j])))
      value = value * 10 + static_cast<std::uint64_t>(line[j++] - '0');
    out = value;
    return true;
  };
  if (!number_after("cov", parsed.cov) && !number_after("corp", parsed.corpus)) return false;
  number_after("ft", parsed.ft);
  number_after("corp", parsed.corpus);
  number_after("exec/s", parsed.exec_per_sec);
  const auto counters = line.find("oom/timeout/crash:");
  if (counters != std::string_view::npos) {
    unsigned long long oom = 0, timeout = 0, crash = 0;
    const std::string rest(line.substr(counters + 18));
    if (std::sscanf(rest.c_str(), " %llu/%llu/%llu", &oom, &timeout, &crash) == 3) {
      parsed.ooms = oom;
      parsed.timeouts = timeout;
      parsed.crashes = crash;
    }
  }
  status = parsed;
  return true;
}

std::vector<std::pair<std::string, std::string>> libfuzzer_options(const fs::path& options_file) {
  std::vector<std::pair<std::string, std::string>> options;
  std::ifstream in(options_file);
  std::string line;
  bool in_section = false;
  auto trim = [](std::string text) {
    const auto first = text.find_first_not_of(" \t\r");
    const auto last = text.find_last_not_of(" \t\r");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
  };
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      in_section = line == "[libfuzzer]";
      continue;
    }
    const auto equals = line.find('=');
    if (!in_section || equals == std::string::npos) continue;
    const std::string key = trim(line.substr(0, equals));
    std::string value = trim(line.substr(equals + 1));
    if (key == "dict" && fs::path(value).is_relative()) value = (options_file.parent_path() / value).string();
    options.emplace_back(key, value);
  }
  return options;
}

std::vector<std::string> libfuzzer_option_flags(const fs::path& options_file, const std::vector<std::string>& skip) {
  std::vector<std::string> flags;
  for (const auto& [key, value] : libfuzzer_options(options_file))
    if (std::find(skip.begin(), skip.end(), key) == skip.end()) flags.push_back("-" + key + "=" + value);
  return flags;
}

}  // namespace poolcheck::harness
