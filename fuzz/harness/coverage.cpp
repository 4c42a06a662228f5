#include "fuzz/harness/coverage.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include <elf.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fields.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/process.hpp"
#include "fuzz/harness/progress_text.hpp"

namespace poolcheck::harness {
namespace {

// How often a long step reports that it is still running, with its last output line.
constexpr double kHeartbeatSeconds = 20;

std::string percent_text(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", std::floor(percent * 10) / 10);
  return text;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Adds one file's {"count", "covered"} summary to `count`; false when malformed.
bool add_count(const Json& summary, const char* key, CoverageCount& count) {
  const auto it = summary.find(key);
  if (it == summary.end() || !it->is_object()) return false;
  const auto total = it->find("count");
  const auto covered = it->find("covered");
  if (total == it->end() || covered == it->end()) return false;
  const auto total_value = as_int64(*total);
  const auto covered_value = as_int64(*covered);
  if (!total_value || !covered_value || *total_value < 0 || *covered_value < 0) return false;
  count.total += static_cast<std::uint64_t>(*total_value);
  count.covered += static_cast<std::uint64_t>(*covered_value);
  return true;
}

struct Finished {
  bool started = false;
  bool interrupted = false;
  int status = 0;  // waitpid's
};

// Runs argv to its end; its output (stderr only, with a stdout_file) goes to
// `log`. Every kHeartbeatSeconds a line on `out` says it is still running. On
// Ctrl-C the child's process group gets SIGINT and the run ends with it.
Finished run_to_end(const std::vector<std::string>& argv, const SpawnOptions& spawn_options, const SigintFlag& sigint,
                    std::ostream& log, std::ostream& out) {
  Finished finished;
  log << "==== poolcheck coverage:";
  for (const auto& arg : argv) log << ' ' << arg;
  log << '\n';
  log.flush();
  Process process = spawn(argv, spawn_options);
  if (process.pid < 0) return finished;
  finished.started = true;
  const auto start = Clock::now();
  auto last_heartbeat = start;
  std::string last_line;
  bool forwarded = false;
  char buffer[16384];
  for (bool open = true; open;) {
    if (sigint.raised() && !forwarded) {
      ::kill(-process.pid, SIGINT);
      forwarded = true;
    }
    pollfd fd{process.fd, POLLIN, 0};
    ::poll(&fd, 1, 250);
    while (true) {
      const ssize_t n = ::read(process.fd, buffer, sizeof buffer);
      if (n > 0) {
        log.write(buffer, n);
        process.pending.append(buffer, static_cast<std::size_t>(n));
        std::size_t line_start = 0;
        for (std::size_t end; (end = process.pending.find('\n', line_start)) != std::string::npos;
             line_start = end + 1)
          if (end > line_start) last_line = process.pending.substr(line_start, end - line_start);
        process.pending.erase(0, line_start);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) open = false;
      break;
    }
    if (open && since(last_heartbeat) >= kHeartbeatSeconds) {
      out << "      " << clock_text(since(start)) << " running" << (last_line.empty() ? "" : ": ")
          << last_line.substr(0, 100) << "\n";
      out.flush();
      last_heartbeat = Clock::now();
    }
  }
  ::close(process.fd);
  while (::waitpid(process.pid, &finished.status, 0) < 0 && errno == EINTR) {
  }
  log.flush();
  finished.interrupted = forwarded;
  return finished;
}

std::string status_text(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

bool succeeded(const Finished& finished) {
  return finished.started && WIFEXITED(finished.status) && WEXITSTATUS(finished.status) == 0;
}

// The first executable NAME in a directory of PATH.
std::optional<fs::path> on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  const std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    std::error_code ec;
    if (end > start && fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

// llvm-profdata and llvm-cov of the compiler's own LLVM (a raw profile's
// format is its compiler's), else the first on PATH. The cache may name the
// compiler without a directory ("clang++", as the presets do).
std::optional<fs::path> find_llvm_tool(const std::string& name, const fs::path& compiler) {
  const std::optional<fs::path> located = compiler.empty()             ? std::nullopt
                                          : compiler.has_parent_path() ? std::optional(compiler)
                                                                       : on_path(compiler.string());
  std::error_code ec;
  const fs::path resolved = located ? fs::canonical(*located, ec) : fs::path();
  if (located && !ec && fs::is_regular_file(resolved.parent_path() / name, ec)) return resolved.parent_path() / name;
  return on_path(name);
}

std::vector<fs::path> profiles_under(const fs::path& dir) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".profraw") found.push_back(it->path());
  std::sort(found.begin(), found.end());
  return found;
}

// How to get a coverage build, for the messages about a build directory that holds none.
constexpr std::string_view kBuildIt = "configure and build it with `cmake --preset coverage && cmake --build --preset "
                                      "coverage` (tools/coverage does both)";

// The binaries whose code the report counts: the instrumented `poolcheck` and each step's program.
std::vector<fs::path> instrumented_binaries(const fs::path& build, const std::vector<CoverageStep>& steps) {
  std::vector<fs::path> binaries = {build / "cli" / "poolcheck"};
  for (const auto& step : steps) binaries.push_back(step.argv[0]);
  return binaries;
}

// Whether every binary is built and carries a coverage mapping; says on `err` which one does not.
bool all_instrumented(const fs::path& build, const std::vector<fs::path>& binaries, std::ostream& err) {
  for (const auto& binary : binaries) {
    if (::access(binary.c_str(), X_OK) != 0) {
      err << "poolcheck coverage: " << shown(binary) << " is missing: " << kBuildIt << "\n";
      return false;
    }
    if (!has_coverage_mapping(binary)) {
      err << "poolcheck coverage: " << shown(build) << " is not a coverage build (" << shown(binary)
          << " has no coverage mapping, -fcoverage-mapping): " << kBuildIt << "\n";
      return false;
    }
  }
  return true;
}

struct LlvmTools {
  fs::path profdata;
  fs::path llvm_cov;
};

// The llvm tools of the build's compiler (find_llvm_tool); nullopt, said on `err`, when one is missing.
std::optional<LlvmTools> llvm_tools(const std::string& cache, std::ostream& err) {
  const fs::path compiler = cmake_cache_value(cache, "CMAKE_CXX_COMPILER").value_or("");
  const auto profdata = find_llvm_tool("llvm-profdata", compiler);
  const auto llvm_cov = find_llvm_tool("llvm-cov", compiler);
  if (!profdata || !llvm_cov) {
    err << "poolcheck coverage: " << (profdata ? "llvm-cov" : "llvm-profdata")
        << " not found next to the compiler (" << compiler.string()
        << ") nor on PATH; on Debian 12 it ships in the llvm-14 package (tools/bootstrap installs it)\n";
    return std::nullopt;
  }
  return LlvmTools{*profdata, *llvm_cov};
}

// The directories a run writes under its output directory (CoverageOptions::output_dir).
struct OutputDirs {
  fs::path out_dir;
  fs::path profiles;
  fs::path logs;
  fs::path html;
};

// Fresh output: profiles of an earlier run would be merged into this one.
// nullopt, said on `err`, when the directories cannot be created.
std::optional<OutputDirs> fresh_output(const fs::path& output_dir, std::ostream& err) {
  const fs::path out_dir = fs::absolute(output_dir);
  const fs::path profiles = out_dir / "profiles";
  const fs::path logs = out_dir / "logs";
  const fs::path html = out_dir / "html";
  std::error_code ec;
  for (const auto& dir : {profiles, logs, html}) fs::remove_all(dir, ec);
  fs::create_directories(profiles, ec);
  fs::create_directories(logs, ec);
  if (ec) {
    err << "poolcheck coverage: cannot create " << shown(out_dir) << ": " << ec.message() << "\n";
    return std::nullopt;
  }
  return OutputDirs{out_dir, profiles, logs, html};
}

// Every instrumented binary that ran, so that each one's code is counted.
std::vector<std::string> object_arguments(const std::vector<fs::path>& binaries) {
  std::vector<std::string> objects = {binaries[0].string()};
  for (std::size_t i = 1; i < binaries.size(); ++i) {
    objects.push_back("-object");
    objects.push_back(binaries[i].string());
  }
  return objects;
}

// The exit code to end a coverage run with at once; nothing: the run goes on.
using EarlyExit = std::optional<int>;

// A coverage run past its checks: the steps' programs, then llvm-profdata and llvm-cov, each announced as
// "[n/N] ..." on `out`, then the summary.
class CoverageRun {
 public:
  CoverageRun(const LlvmTools& tools, const OutputDirs& dirs, const std::vector<fs::path>& binaries,
              const SigintFlag& sigint, std::size_t step_count, std::ostream& out, std::ostream& err)
      : tools_(tools), dirs_(dirs), objects_(object_arguments(binaries)), sigint_(sigint), step_count_(step_count),
        out_(out), err_(err) {}

  // Runs each step's program with its own profile directory and log; a step that fails is noted, the run goes on.
  EarlyExit run_steps(const std::vector<CoverageStep>& steps) {
    for (const auto& step : steps) {
      announce(step.name + ": " + shown(step.argv[0]) + (step.argv.size() > 1 ? " " + shown(step.argv[1]) : ""));
      SpawnOptions spawn_options;
      spawn_options.environment = step.environment;
      spawn_options.environment.emplace_back("LLVM_PROFILE_FILE",
                                             (dirs_.profiles / step.name / "%p-%m.profraw").string());
      const fs::path log_path = dirs_.logs / (step.name + ".log");
      std::ofstream log(log_path, std::ios::binary);
      const auto start = Clock::now();
      const Finished finished = run_to_end(step.argv, spawn_options, sigint_, log, out_);
      if (finished.interrupted) return interrupted();
      const bool ok = succeeded(finished);
      if (!ok) failed_steps_.push_back(step.name);
      out_ << "      "
           << (ok ? "done" : "FAILED (" + (finished.started ? status_text(finished.status) : "not started") + ")")
           << " in " << clock_text(since(start)) << ", " << profiles_under(dirs_.profiles / step.name).size()
           << " profile(s); log " << shown(log_path) << "\n";
    }
    return std::nullopt;
  }

  // Merge: the raw profiles of every step into one indexed profile.
  EarlyExit merge_profiles() {
    const std::vector<fs::path> raw = profiles_under(dirs_.profiles);
    announce("merge: " + std::to_string(raw.size()) + " raw profile(s) with " + tools_.profdata.string());
    if (raw.empty()) {
      err_ << "poolcheck coverage: no profile was written under " << shown(dirs_.profiles)
           << ": the binaries did not run, or are not instrumented (-fprofile-instr-generate)\n";
      return 3;
    }
    const fs::path list = dirs_.out_dir / "profiles.txt";
    {
      std::ofstream list_out(list, std::ios::binary);
      for (const auto& file : raw) list_out << file.string() << "\n";
    }
    return run_tool("merge",
                    {tools_.profdata.string(), "merge", "-sparse", "--input-files=" + list.string(), "-o",
                     merged_profile().string()},
                    {});
  }

  // The figures for the files under `core`, from llvm-cov export -summary-only.
  EarlyExit export_figures(const fs::path& core) {
    announce("export: core/ figures from llvm-cov export -summary-only");
    const fs::path summary_json = dirs_.out_dir / "summary.json";
    if (const EarlyExit code = run_tool("export", llvm_cov_argv({"export", "-summary-only"}, {}), summary_json))
      return code;
    const Json exported = Json::parse(read_text(summary_json), nullptr, false);
    const auto figures = figures_under(exported, core);
    if (!figures) {
      err_ << "poolcheck coverage: " << shown(summary_json) << ": " << figures.error().message << "\n";
      return 3;
    }
    figures_ = *figures;
    return std::nullopt;
  }

  // llvm-cov report: a line per file under `core`, with its branches.
  EarlyExit report_core_files(const fs::path& core) {
    announce("report: per core/ file");
    return run_tool("report", llvm_cov_argv({"report", "-show-branch-summary"}, {core.string()}), core_report());
  }

  // llvm-cov show: the HTML report of core/, properties/, fuzz/ and cli/ under `root`.
  EarlyExit render_html(const fs::path& root) {
    announce("html: llvm-cov show for core/, properties/, fuzz/, cli/");
    std::vector<std::string> sources;
    for (const char* dir : {"core", "properties", "fuzz", "cli"})
      sources.push_back(fs::weakly_canonical(root / dir).string());
    return run_tool(
        "html",
        llvm_cov_argv({"show", "-format=html", "-show-branches=count", "-output-dir=" + dirs_.html.string()}, sources),
        {});
  }

  // Where the reports are, the core/ figures and what fell short; returns the exit code.
  int print_outcome(Clock::time_point total_start, const CoverageThresholds& fail_under) {
    out_ << "\nHTML report: " << shown(dirs_.html / "index.html") << "\n"
         << "Per core/ file: " << shown(core_report()) << "\n"
         << "Took " << clock_text(since(total_start)) << "\n"
         << summary_line("core/", figures_) << "\n";
    int code = 0;
    if (!failed_steps_.empty()) {
      out_ << "poolcheck coverage: step(s) failed, their coverage may be incomplete:";
      for (const auto& name : failed_steps_) out_ << " " << name;
      out_ << " (logs in " << shown(dirs_.logs) << ")\n";
      code = 1;
    }
    for (const auto& unmet : unmet_thresholds(figures_, fail_under)) {
      out_ << "poolcheck coverage: below threshold: " << unmet << "\n";
      code = 1;
    }
    return code;
  }

 private:
  fs::path merged_profile() const { return dirs_.out_dir / "coverage.profdata"; }
  fs::path core_report() const { return dirs_.out_dir / "core-report.txt"; }

  void announce(const std::string& what) {
    out_ << "[" << ++step_number_ << "/" << step_count_ << "] " << what << "\n";
    out_.flush();
  }

  int interrupted() {
    out_ << "poolcheck coverage: interrupted\n";
    return 130;
  }

  // Runs an llvm tool with its output in logs/NAME.log (its stdout in `stdout_file` when one is given); ends the
  // run when it is interrupted or fails, the failure said on `err`.
  EarlyExit run_tool(const std::string& name, std::vector<std::string> argv, const fs::path& stdout_file) {
    std::ofstream log(dirs_.logs / (name + ".log"), std::ios::binary);
    SpawnOptions spawn_options;
    spawn_options.stdout_file = stdout_file;
    const Finished finished = run_to_end(argv, spawn_options, sigint_, log, out_);
    if (finished.interrupted) return interrupted();
    if (succeeded(finished)) return std::nullopt;
    err_ << "poolcheck coverage: " << fs::path(argv[0]).filename().string() << " failed ("
         << (finished.started ? status_text(finished.status) : "not started") << "); see "
         << shown(dirs_.logs / (name + ".log")) << "\n";
    return 3;
  }

  // llvm-cov's command line: its subcommand and options, the merged profile, every binary, then `sources`.
  std::vector<std::string> llvm_cov_argv(std::vector<std::string> head, const std::vector<std::string>& sources) const {
    head.insert(head.begin(), tools_.llvm_cov.string());
    head.push_back("-instr-profile=" + merged_profile().string());
    head.insert(head.end(), objects_.begin(), objects_.end());
    head.insert(head.end(), sources.begin(), sources.end());
    return head;
  }

  const LlvmTools& tools_;
  const OutputDirs& dirs_;
  const std::vector<std::string> objects_;  // llvm-cov's binaries: the first, then -object and each other one
  const SigintFlag& sigint_;
  const std::size_t step_count_;
  std::size_t step_number_ = 0;
  std::ostream& out_;
  std::ostream& err_;
  std::vector<std::string> failed_steps_;
  CoverageFigures figures_;  // set by export_figures()
};

}  // namespace

double CoverageCount::percent() const {
  return total == 0 ? 100.0 : 100.0 * static_cast<double>(covered) / static_cast<double>(total);
}

Result<CoverageFigures> figures_under(const Json& export_json, const fs::path& directory) {
  const auto not_an_export = Error::internal("not an `llvm-cov export -summary-only` document");
  if (!export_json.is_object() || !export_json.contains("data") || !export_json["data"].is_array())
    return not_an_export;
  const std::string prefix = (directory.lexically_normal() / "").string();
  CoverageFigures figures;
  for (const auto& data : export_json["data"]) {
    if (!data.is_object() || !data.contains("files") || !data["files"].is_array()) return not_an_export;
    for (const auto& file : data["files"]) {
      if (!file.is_object() || !file.contains("filename") || !file["filename"].is_string() ||
          !file.contains("summary") || !file["summary"].is_object())
        return not_an_export;
      const std::string name = fs::path(file["filename"].get<std::string>()).lexically_normal().string();
      if (name.rfind(prefix, 0) != 0) continue;
      const Json& summary = file["summary"];
      if (!add_count(summary, "lines", figures.lines) || !add_count(summary, "branches", figures.branches) ||
          !add_count(summary, "functions", figures.functions))
        return Error::internal("malformed summary for " + name);
      ++figures.files;
    }
  }
  if (figures.files == 0) return Error::internal("no covered file under " + prefix);
  return figures;
}

std::string summary_line(std::string_view label, const CoverageFigures& figures) {
  auto part = [](const char* what, const CoverageCount& count) {
    return std::string(what) + " " + percent_text(count.percent()) + " (" + std::to_string(count.covered) + "/" +
           std::to_string(count.total) + ")";
  };
  return "coverage " + std::string(label) + ": " + part("lines", figures.lines) + ", " +
         part("branches", figures.branches) + ", " + part("functions", figures.functions);
}

std::vector<std::string> unmet_thresholds(const CoverageFigures& figures, const CoverageThresholds& thresholds) {
  std::vector<std::string> unmet;
  auto check = [&](const char* what, const CoverageCount& count, const std::optional<double>& minimum) {
    if (!minimum || count.percent() >= *minimum) return;
    char text[32];
    std::snprintf(text, sizeof text, "%g%%", *minimum);
    unmet.push_back(std::string(what) + " " + percent_text(count.percent()) + " < " + text);
  };
  check("lines", figures.lines, thresholds.lines);
  check("branches", figures.branches, thresholds.branches);
  return unmet;
}

std::optional<std::string> cmake_cache_value(std::string_view cache_text, std::string_view key) {
  std::size_t start = 0;
  while (start < cache_text.size()) {
    std::size_t end = cache_text.find('\n', start);
    if (end == std::string_view::npos) end = cache_text.size();
    std::string_view line = cache_text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    start = end + 1;
    if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':') continue;
    const auto equals = line.find('=', key.size());
    if (equals != std::string_view::npos) return std::string(line.substr(equals + 1));
  }
  return std::nullopt;
}

bool has_coverage_mapping(const fs::path& binary) {
  // A section of that name in the ELF section table: the name alone is in any
  // binary that mentions it, this one included.
  const std::string bytes = read_text(binary);
  Elf64_Ehdr header;
  if (bytes.size() < sizeof header || bytes.compare(0, SELFMAG, ELFMAG) != 0 || bytes[EI_CLASS] != ELFCLASS64)
    return false;
  std::memcpy(&header, bytes.data(), sizeof header);
  auto section = [&](std::size_t index, Elf64_Shdr& out) {
    const std::size_t at = header.e_shoff + index * sizeof(Elf64_Shdr);
    if (header.e_shentsize != sizeof(Elf64_Shdr) || at > bytes.size() || bytes.size() - at < sizeof out) return false;
    std::memcpy(&out, bytes.data() + at, sizeof out);
    return true;
  };
  Elf64_Shdr names;
  if (!section(header.e_shstrndx, names)) return false;
  for (std::size_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr entry;
    if (!section(i, entry)) return false;
    const std::size_t at = names.sh_offset + entry.sh_name;
    // c_str(): a name running to the end of the file still ends in a NUL.
    if (at < bytes.size() && std::strcmp(bytes.c_str() + at, "__llvm_covmap") == 0) return true;
  }
  return false;
}

std::vector<CoverageStep> coverage_steps(const fs::path& root, const fs::path& build_dir) {
  std::vector<CoverageStep> steps;
  std::vector<std::string> targets;
  std::error_code ec;
  for (auto it = fs::directory_iterator(root / "corpus", ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->is_directory() && is_known_target(it->path().filename().string()))
      targets.push_back(it->path().filename().string());
  std::sort(targets.begin(), targets.end());
  for (const auto& target : targets)
    steps.push_back({"corpus-" + target,
                     {(build_dir / "fuzz" / ("poolcheck_replay_" + target)).string(), (root / "corpus" / target).string()},
                     {}});
  steps.push_back({"properties-pr", {(build_dir / "properties" / "poolcheck_properties").string()},
                   {{"POOLCHECK_PROFILE", "pr"}}});
  steps.push_back({"unit-tests", {(build_dir / "tests" / "poolcheck_unit_tests").string()}, {}});
  return steps;
}

int run_coverage(const CoverageOptions& options, std::ostream& out, std::ostream& err) {
  const auto total_start = Clock::now();
  const fs::path build = options.build_dir;

  // The build: a CMake build whose binaries carry a coverage mapping.
  const std::string cache = read_text(build / "CMakeCache.txt");
  if (cache.empty()) {
    err << "poolcheck coverage: " << shown(build) << " is not a CMake build directory: " << kBuildIt << "\n";
    return 2;
  }
  const std::vector<CoverageStep> steps = coverage_steps(options.root, build);
  const std::vector<fs::path> binaries = instrumented_binaries(build, steps);
  if (!all_instrumented(build, binaries, err)) return 2;
  const std::optional<LlvmTools> tools = llvm_tools(cache, err);
  if (!tools) return 2;
  const std::optional<OutputDirs> dirs = fresh_output(options.output_dir, err);
  if (!dirs) return 2;

  const SigintFlag sigint;
  CoverageRun run(*tools, *dirs, binaries, sigint, steps.size() + 4, out, err);  // + merge, export, report, html
  if (const EarlyExit code = run.run_steps(steps)) return *code;
  if (const EarlyExit code = run.merge_profiles()) return *code;
  const fs::path core = fs::weakly_canonical(options.root / "core");
  if (const EarlyExit code = run.export_figures(core)) return *code;
  if (const EarlyExit code = run.report_core_files(core)) return *code;
  if (const EarlyExit code = run.render_html(options.root)) return *code;
  return run.print_outcome(total_start, options.fail_under);
}

}  // namespace poolcheck::harness
