#include "fuzz/harness/mutation_workspace.hpp"

#include <algorithm>
#include <fstream>
#include <thread>

#include "core/json.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/report_text.hpp"

namespace poolcheck::harness {
namespace {

// What the mirror holds: everything the build reads, nothing it writes.
const std::vector<std::string> kMirrored = {"CMakeLists.txt", "core", "properties", "fuzz", "cli", "tests"};

// The mirror's optimisation: the gcc preset's -O2, so the properties run as
// fast as there, but no debug information. Every mutant recompiles one file
// and relinks three binaries; without -g that costs about 40% less to compile
// and far less to link (nobody debugs a mirror; a kill reproduces in the
// repository's own build with the printed command).
constexpr const char* kMirrorFlags = "-O2 -DNDEBUG";

// Rewrites `to` only when its bytes differ from `from`, so that an unchanged
// file keeps its timestamp and the mirror's build does not recompile it.
bool sync_file(const fs::path& from, const fs::path& to) {
  std::string source, existing;
  if (!read_file(from, source)) return false;
  if (read_file(to, existing) && existing == source) return true;
  return write_file(to, source);
}

MaybeError copy_error(const fs::path& from, const fs::path& to) {
  return Error::bad_request("cannot copy " + from.string() + " to " + to.string());
}

// Mirrors the directory `from` into `to`, file by file.
MaybeError mirror_directory(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  std::set<fs::path> wanted;
  fs::create_directories(to, ec);
  for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path relative = fs::relative(it->path(), from, ec);
    if (it->is_directory(ec)) {
      fs::create_directories(to / relative, ec);
    } else if (it->is_regular_file(ec)) {
      wanted.insert(relative);
      if (!sync_file(it->path(), to / relative)) return copy_error(it->path(), to / relative);
    }
  }
  if (ec) return Error::bad_request("cannot read " + from.string() + ": " + ec.message());
  std::vector<fs::path> stale;
  for (auto it = fs::recursive_directory_iterator(to, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    if (it->is_regular_file(ec) && !wanted.count(fs::relative(it->path(), to, ec))) stale.push_back(it->path());
  for (const auto& path : stale) fs::remove(path, ec);
  return std::nullopt;
}

// The failed tests of a GoogleTest JSON report, "Suite.Name"; all of them in `all`.
std::vector<std::string> failed_tests(const fs::path& report, std::set<std::string>& all) {
  std::vector<std::string> failed;
  std::string text;
  if (!read_file(report, text)) return failed;
  const Json json = Json::parse(text, nullptr, false);
  if (!json.is_object() || !json.contains("testsuites")) return failed;
  for (const auto& suite : json["testsuites"]) {
    for (const auto& test : suite.value("testsuite", Json::array())) {
      const std::string name = suite.value("name", "") + "." + test.value("name", "");
      all.insert(name);
      if (test.contains("failures")) failed.push_back(name);
    }
  }
  return failed;
}

struct FailedEntry {
  std::string path;
  bool timed_out = false;  // `poolcheck repro` writes a timeout as <error>, a failure as <failure>
};

// The failed (or timed out) cases of `poolcheck repro --junit`.
std::vector<FailedEntry> failed_entries(const fs::path& junit, std::size_t& cases) {
  std::vector<FailedEntry> failed;
  std::string text;
  if (!read_file(junit, text)) return failed;
  constexpr std::string_view kCase = "<testcase ", kName = " name=\"", kEnd = "</testcase>";  // not classname=
  for (auto at = text.find(kCase); at != std::string::npos; at = text.find(kCase, at + 1)) {
    ++cases;
    const auto tag_end = text.find('>', at);
    const auto name_at = text.find(kName, at);
    if (tag_end == std::string::npos || name_at == std::string::npos || name_at > tag_end) continue;
    if (text[tag_end - 1] == '/') continue;  // <testcase .../>: passed
    const auto name_end = text.find('"', name_at + kName.size());
    const auto case_end = text.find(kEnd, tag_end);
    const auto error_at = text.find("<error ", tag_end);
    failed.push_back({text.substr(name_at + kName.size(), name_end - name_at - kName.size()),
                      error_at != std::string::npos && error_at < case_end});
  }
  return failed;
}

// One check of a mutant (a property shard, the law tests, the corpus replay):
// its command and the report it writes (GoogleTest JSON, or JUnit XML).
struct CheckRun {
  LoggedCommand command;
  fs::path report;
};

// `binary` under the tree, with its report and log named `name` for the mutant `label`.
CheckRun gtest_run(const Workspace& workspace, const Tree& tree, const fs::path& binary, const std::string& name,
                   const std::string& label, double timeout) {
  const fs::path report = workspace.results / (label + "." + name + ".json");
  fs::remove(report);
  return {{{(tree.dir / binary).string(), "--gtest_output=json:" + report.string()},
           {},
           workspace.logs / (label + "." + name + ".log"),
           timeout},
          report};
}

// The property suite as `shards` shards, each with its own report and log
// (`shards` 1: one command, the plain names).
std::vector<CheckRun> property_shards(const Workspace& workspace, const Tree& tree, double timeout, int shards,
                                      const std::string& label) {
  std::vector<CheckRun> all;
  for (int shard = 0; shard < shards; ++shard) {
    const std::string suffix = shards == 1 ? "" : "." + std::to_string(shard);
    CheckRun run = gtest_run(workspace, tree, fs::path("properties") / "poolcheck_properties",
                             "properties" + suffix, label, timeout);
    run.command.environment = {
        {"POOLCHECK_PROFILE", "pr"},
        {"RC_PARAMS", "noshrink=1"},  // a kill needs one failing case, not the smallest
        {"POOLCHECK_COUNTEREXAMPLE_DIR", (workspace.dir / "counterexamples" / label).string()}};
    if (shards > 1)
      run.command.environment.insert(run.command.environment.end(), {{"GTEST_TOTAL_SHARDS", std::to_string(shards)},
                                                                     {"GTEST_SHARD_INDEX", std::to_string(shard)}});
    all.push_back(std::move(run));
  }
  return all;
}

// The tests of the laws themselves, against known-bad outputs: a mutant that
// blinds a law (a comparator in core/ that the laws lean on) changes no output
// of the core, and only these see it.
CheckRun law_tests_run(const Workspace& workspace, const Tree& tree, double timeout, const std::string& label) {
  return gtest_run(workspace, tree, fs::path("tests") / "poolcheck_law_tests", "law-tests", label, timeout);
}

// The failing tests of one GoogleTest run into `failed` (every test seen into
// `all`), or how the binary died; the run's seconds into `seconds` (the longest).
void read_gtest(const CheckRun& gtest, const CommandOutcome& outcome, std::set<std::string>& all,
                std::vector<std::string>& failed, double& seconds, MutantRun& run) {
  const auto failing = failed_tests(gtest.report, all);
  failed.insert(failed.end(), failing.begin(), failing.end());
  seconds = std::max(seconds, outcome.seconds);
  if (outcome.succeeded() || !failing.empty()) return;
  failed.push_back(fs::path(gtest.command.argv.front()).filename().string() + " (" + outcome.describe() + ")");
  if (outcome.timed_out) run.timeouts.push_back(failed.back());
}

CheckRun corpus_run(const Workspace& workspace, const Tree& tree, double timeout, const std::string& label) {
  const fs::path junit = workspace.results / (label + ".corpus.xml");
  fs::remove(junit);
  return {{{(tree.dir / "cli" / "poolcheck").string(), "repro", (workspace.root / "corpus").string(), "--junit",
            junit.string()},
           {},
           workspace.logs / (label + ".corpus.log"),
           timeout},
          junit};
}

void read_corpus(const Workspace& workspace, const CheckRun& corpus, const CommandOutcome& outcome, MutantRun& run) {
  run.corpus_seconds = outcome.seconds;
  for (const auto& entry : failed_entries(corpus.report, run.corpus_cases)) {
    run.entries.push_back(fs::path(entry.path).lexically_relative(workspace.root).string());
    if (entry.timed_out) run.timeouts.push_back(run.entries.back());
  }
  if (outcome.succeeded() || !run.entries.empty()) return;
  run.entries.push_back("poolcheck repro (" + outcome.describe() + ")");
  if (outcome.timed_out) run.timeouts.push_back(run.entries.back());
}

}  // namespace

std::string seconds_text(double seconds) { return fixed(seconds, 1); }

std::string short_list(const std::vector<std::string>& items, std::size_t shown) {
  if (items.empty()) return "-";
  std::string text;
  for (std::size_t i = 0; i < std::min(shown, items.size()); ++i) text += (i == 0 ? "" : ", ") + items[i];
  if (items.size() > shown) text += " (+" + std::to_string(items.size() - shown) + " more)";
  return text;
}

bool write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

Workspace workspace_at(const fs::path& root, const fs::path& dir) {
  Workspace workspace{root, dir, dir / "src", dir / "logs", dir / "results"};
  std::error_code ec;
  for (const auto& sub : {workspace.src, workspace.logs, workspace.results}) fs::create_directories(sub, ec);
  return workspace;
}

Tree checks_tree(const Workspace& workspace, const std::string& cxx_compiler) {
  Tree tree{workspace.dir / "build", {}, {"poolcheck_properties", "poolcheck_law_tests", "poolcheck"}};
  if (!cxx_compiler.empty()) tree.configure_args.push_back("-DCMAKE_CXX_COMPILER=" + cxx_compiler);
  tree.configure_args.insert(tree.configure_args.end(),
                             {"-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_FLAGS_RELEASE=" + std::string(kMirrorFlags),
                              "-DPOOLCHECK_TESTS=ON", "-DPOOLCHECK_FUZZ=OFF", "-DPOOLCHECK_SANITIZE=OFF",
                              "-DPOOLCHECK_BENCH=OFF"});
  return tree;
}

MaybeError mirror_sources(const Workspace& workspace) {
  std::error_code ec;
  for (const auto& name : kMirrored) {
    const fs::path from = workspace.root / name, to = workspace.src / name;
    if (!fs::is_regular_file(from, ec)) {
      if (auto e = mirror_directory(from, to)) return e;
      continue;
    }
    fs::create_directories(to.parent_path(), ec);
    if (!sync_file(from, to)) return copy_error(from, to);
  }
  return std::nullopt;
}

// Runs CMake on an existing tree as well (seconds when nothing changed), so a
// tree made by an older poolcheck takes today's flags.
MaybeError configure(const Workspace& workspace, const Tree& tree, std::ostream& out) {
  if (!fs::exists(tree.dir / "build.ninja")) out << "poolcheck mutate: configuring " << tree.dir.string() << std::endl;
  std::vector<std::string> argv = {"cmake", "-S", workspace.src.string(), "-B", tree.dir.string(), "-G", "Ninja"};
  argv.insert(argv.end(), tree.configure_args.begin(), tree.configure_args.end());
  const fs::path log = workspace.logs / (tree.dir.filename().string() + ".configure.log");
  const CommandOutcome outcome = run_logged(argv, {}, log, 0);
  if (outcome.succeeded()) return std::nullopt;
  return Error::bad_request("configuring " + tree.dir.string() + " failed (" + outcome.describe() + "); see " +
                            log.string());
}

CommandOutcome build(const Workspace& workspace, const Tree& tree, const std::string& label) {
  std::vector<std::string> argv = {"cmake", "--build", tree.dir.string()};
  if (tree.parallel > 0) argv.insert(argv.end(), {"--parallel", std::to_string(tree.parallel)});
  argv.push_back("--target");
  argv.insert(argv.end(), tree.targets.begin(), tree.targets.end());
  return run_logged(argv, {}, workspace.logs / (label + "." + tree.dir.filename().string() + ".log"), 0);
}

Result<double> prepare(const Workspace& workspace, const Tree& tree, std::ostream& out) {
  if (auto e = mirror_sources(workspace)) return *e;
  if (auto e = configure(workspace, tree, out)) return *e;
  const CommandOutcome built = build(workspace, tree, "baseline");
  if (built.succeeded()) return built.seconds;
  return Error::bad_request("the unmutated source does not build in " + tree.dir.string() + " (" + built.describe() +
                            "); see " + (workspace.logs / ("baseline." + tree.dir.filename().string() + ".log")).string());
}

int available_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void run_checks(const Workspace& workspace, const Tree& tree, const CheckLimits& limits,
                std::set<std::string>& all_properties, MutantRun& run) {
  const auto shards =
      property_shards(workspace, tree, limits.properties_seconds, std::max(1, limits.property_shards), run.label);
  // The law tests take milliseconds, as the corpus replay does: the corpus's limit serves both.
  const CheckRun law_tests = law_tests_run(workspace, tree, limits.corpus_seconds, run.label);
  const CheckRun corpus = corpus_run(workspace, tree, limits.corpus_seconds, run.label);
  std::vector<LoggedCommand> commands;
  for (const auto& shard : shards) commands.push_back(shard.command);
  commands.push_back(law_tests.command);
  commands.push_back(corpus.command);
  const std::vector<CommandOutcome> outcomes = run_logged_together(commands);
  for (std::size_t i = 0; i < shards.size(); ++i)
    read_gtest(shards[i], outcomes[i], all_properties, run.properties, run.properties_seconds, run);
  std::set<std::string> law_test_names;  // not properties: the gate asks no law test to kill a mutant
  double law_tests_seconds = 0;
  read_gtest(law_tests, outcomes[shards.size()], law_test_names, run.law_tests, law_tests_seconds, run);
  read_corpus(workspace, corpus, outcomes.back(), run);
}

Result<MutantRun> build_baseline(const Workspace& workspace, const Tree& tree, std::ostream& out) {
  auto built = prepare(workspace, tree, out);
  if (!built) return built.error();
  MutantRun baseline;
  baseline.label = "baseline";
  baseline.built = true;
  baseline.build_seconds = *built;
  return baseline;
}

MaybeError check_baseline(const Workspace& workspace, const MutantRun& baseline,
                          const std::set<std::string>& all_properties) {
  if (!baseline.killed() && !all_properties.empty()) return std::nullopt;
  return Error::bad_request("the unmutated baseline fails: properties " + short_list(baseline.properties, 5) +
                            "; law tests " + short_list(baseline.law_tests, 5) +
                            "; corpus " + short_list(baseline.entries, 5) + ". Fix that first (logs in " +
                            workspace.logs.string() + ").");
}

Result<MutantRun> run_mutant(const Workspace& workspace, const Tree& tree, const Mutant& mutant,
                             const CheckLimits& limits, std::set<std::string>& all_properties,
                             const std::function<void(MutantRun&)>& while_applied) {
  const fs::path file = workspace.src / mutant.file;
  std::string original;
  if (!read_file(file, original)) return Error::bad_request("cannot read " + file.string());
  auto mutated = apply_mutant(mutant, original);
  if (!mutated) return mutated.error();
  if (!write_file(file, *mutated)) return Error::bad_request("cannot write " + file.string());
  MutantRun run;
  run.label = mutant.id;
  const CommandOutcome built = build(workspace, tree, mutant.id);
  run.build_seconds = built.seconds;
  run.built = built.succeeded();
  if (run.built) {
    run_checks(workspace, tree, limits, all_properties, run);
    if (while_applied) while_applied(run);
  }
  if (!write_file(file, original)) return Error::bad_request("cannot restore " + file.string());
  return run;
}

}  // namespace poolcheck::harness
