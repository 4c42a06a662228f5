#include "fuzz/harness/auto_sweep.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "fuzz/harness/auto_mutants.hpp"
#include "fuzz/harness/auto_report.hpp"
#include "fuzz/harness/changed_lines.hpp"
#include "fuzz/harness/equivalent_list.hpp"
#include "fuzz/harness/mutation_workspace.hpp"
#include "fuzz/harness/report_text.hpp"
#include "fuzz/harness/site_analysis.hpp"
#include "fuzz/harness/worker_pool.hpp"

namespace poolcheck::harness {
namespace {

// A hung mutant's checks are stopped at this multiple of the baseline's (times
// the workers, which share the cores the baseline had alone), plus the margin.
constexpr double kTimeoutFactor = 3;
constexpr double kTimeoutMarginSeconds = 60;

using Equivalents = std::map<std::string, std::string>;  // id -> reason

Result<std::vector<AutoMutant>> generate(const AutoOptions& options, const fs::path& work, std::ostream& progress) {
  auto files = analyse_files(options.root, core_sources(options.root), work / "sites", options.jobs, progress);
  if (!files) return files.error();
  std::vector<AutoMutant> all;
  for (const auto& file : *files) {
    auto mutants = mutants_of_file(file.file, file.source, file.sites);
    all.insert(all.end(), std::make_move_iterator(mutants.begin()), std::make_move_iterator(mutants.end()));
  }
  return all;
}

// Reads equivalent.txt; an entry for a mutant that is not generated any more is an error.
Result<Equivalents> load_equivalents(const fs::path& root, const std::vector<AutoMutant>& all) {
  const fs::path path = root / "tests" / "mutation" / "equivalent.txt";
  auto entries = load_equivalent_list(path);
  if (!entries) return entries.error();
  std::set<std::string> ids;
  for (const auto& m : all) ids.insert(m.mutant.id);
  if (auto e = check_equivalent_entries(*entries, ids, "tests/mutation/equivalent.txt")) return *e;
  Equivalents equivalents;
  for (const auto& entry : *entries) equivalents[entry.id] = entry.reason;
  return equivalents;
}

Result<std::vector<AutoMutant>> chosen_by_id(const AutoOptions& options, const std::vector<AutoMutant>& all) {
  std::vector<AutoMutant> chosen;
  for (const auto& id : options.only) {
    auto it = std::find_if(all.begin(), all.end(), [&](const AutoMutant& m) { return m.mutant.id == id; });
    if (it == all.end()) return Error::bad_request("no automatic mutant \"" + id + "\" (see --list)");
    chosen.push_back(*it);
  }
  return chosen;
}

// The candidates --file, --operator and --changed-since leave.
Result<std::vector<AutoMutant>> filtered(const AutoOptions& options, const std::vector<AutoMutant>& all,
                                         const fs::path& work) {
  const auto sources = core_sources(options.root);
  for (const auto& file : options.files)
    if (std::find(sources.begin(), sources.end(), file) == sources.end())
      return Error::bad_request("--file " + file + " is not one of core/*.cpp");
  std::optional<ChangedLines> changed;
  if (!options.changed_since.empty()) {
    auto lines = changed_since(options.root, options.changed_since, work / "changed-since.log");
    if (!lines) return lines.error();
    changed = std::move(*lines);
  }
  std::vector<AutoMutant> kept;
  for (const auto& m : all) {
    const auto& files = options.files;
    const auto& operators = options.operators;
    if (!files.empty() && std::find(files.begin(), files.end(), m.mutant.file) == files.end()) continue;
    if (!operators.empty() && std::find(operators.begin(), operators.end(), m.op) == operators.end()) continue;
    if (changed && !touches(*changed, m.mutant.file, m.first_line, m.last_line)) continue;
    kept.push_back(m);
  }
  return kept;
}

Result<std::vector<AutoMutant>> choose_mutants(const AutoOptions& options, const std::vector<AutoMutant>& all,
                                       const fs::path& work) {
  if (!options.only.empty()) return chosen_by_id(options, all);
  auto kept = filtered(options, all, work);
  if (!kept || options.all || (options.list && options.count == 0)) return kept;
  if (options.count == 0) return Error::bad_request("choose the mutants: --all, --count K (a sample) or --mutant ID");
  std::vector<AutoMutant> sample;
  for (std::size_t index : seeded_sample(kept->size(), options.count, options.seed)) sample.push_back((*kept)[index]);
  return sample;
}

std::string selection_text(const AutoOptions& options) {
  std::string text = !options.only.empty()             ? "chosen by id"
                     : options.all || options.count == 0 ? "all candidates"
                                                         : "a sample of " + std::to_string(options.count) + ", seed " +
                                                 std::to_string(options.seed);
  if (!options.files.empty()) text += "; files " + short_list(options.files, 8);
  if (!options.operators.empty()) {
    std::vector<std::string> names;
    for (Operator op : options.operators) names.emplace_back(operator_name(op));
    text += "; operators " + short_list(names, 8);
  }
  if (!options.changed_since.empty()) text += "; lines changed since " + options.changed_since;
  return text;
}

Json run_json(const MutantRun& run) {
  return Json{{"label", run.label},
              {"built", run.built},
              {"build_seconds", run.build_seconds},
              {"properties_seconds", run.properties_seconds},
              {"corpus_seconds", run.corpus_seconds},
              {"properties", run.properties},
              {"law_tests", run.law_tests},
              {"entries", run.entries},
              {"timeouts", run.timeouts},
              {"corpus_cases", run.corpus_cases}};
}

MutantRun run_of_json(const Json& json) {
  MutantRun run;
  run.label = json.value("label", "");
  run.built = json.value("built", false);
  run.build_seconds = json.value("build_seconds", 0.0);
  run.properties_seconds = json.value("properties_seconds", 0.0);
  run.corpus_seconds = json.value("corpus_seconds", 0.0);
  run.properties = json.value("properties", std::vector<std::string>{});
  run.law_tests = json.value("law_tests", std::vector<std::string>{});
  run.entries = json.value("entries", std::vector<std::string>{});
  run.timeouts = json.value("timeouts", std::vector<std::string>{});
  run.corpus_cases = json.value("corpus_cases", std::size_t{0});
  return run;
}

Workspace worker_workspace(const AutoOptions& options, const fs::path& work, int index) {
  return workspace_at(options.root, work / ("worker-" + std::to_string(index)));
}

int cores_per_worker(const AutoOptions& options) { return std::max(1, available_cores() / options.jobs); }

// The workers' builds share the cores: Ninja's default of cores + 2 jobs each
// would make the checks running beside a build crawl, and time out.
Tree worker_tree(const AutoOptions& options, const Workspace& workspace) {
  Tree tree = checks_tree(workspace, options.cxx_compiler);
  tree.parallel = cores_per_worker(options);
  return tree;
}

// The baseline in worker-0's workspace; what it took sets the timeouts.
Result<CheckLimits> run_baseline(const AutoOptions& options, const fs::path& work, std::string& line,
                                 std::ostream& out) {
  const Workspace workspace = worker_workspace(options, work, 0);
  const Tree tree = worker_tree(options, workspace);
  auto baseline = build_baseline(workspace, tree, out);
  if (!baseline) return baseline.error();
  std::set<std::string> all_properties;
  CheckLimits unlimited;
  unlimited.property_shards = cores_per_worker(options);
  run_checks(workspace, tree, unlimited, all_properties, *baseline);
  const double factor = kTimeoutFactor * options.jobs;
  const CheckLimits limits{factor * baseline->properties_seconds + kTimeoutMarginSeconds,
                           factor * baseline->corpus_seconds + kTimeoutMarginSeconds, unlimited.property_shards};
  line = std::to_string(baseline->corpus_cases) + " corpus entries, " + std::to_string(all_properties.size()) +
         " property tests; build " + seconds_text(baseline->build_seconds) + " s, properties " +
         seconds_text(baseline->properties_seconds) + " s, corpus " + seconds_text(baseline->corpus_seconds) +
         " s; timeouts " + seconds_text(limits.properties_seconds) + " s and " + seconds_text(limits.corpus_seconds) +
         " s";
  out << "[baseline] " << line << std::endl;
  if (auto e = check_baseline(workspace, *baseline, all_properties)) return *e;
  return limits;
}

std::string progress_summary(Verdict verdict, const MutantRun& run) {
  std::string text = verdict_name(verdict);
  if (verdict == Verdict::Killed)
    text += " (props " + std::to_string(run.properties.size()) + ", law tests " + std::to_string(run.law_tests.size()) +
            ", corpus " + std::to_string(run.entries.size()) + ")";
  return text;
}

// Runs the mutants that are not equivalent on the workers; the others are
// judged without a run. Errors (a mutant that does not apply) go to `errors`.
std::vector<SweepResult> run_sweep(const AutoOptions& options, const fs::path& work,
                                   const std::vector<AutoMutant>& mutants, const Equivalents& equivalents,
                                   const CheckLimits& limits, std::vector<std::string>& errors, std::ostream& out) {
  std::vector<SweepResult> results(mutants.size());
  std::vector<Json> requests;
  std::vector<std::size_t> requested;
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    results[i].mutant = mutants[i];
    if (auto it = equivalents.find(mutants[i].mutant.id); it != equivalents.end()) {
      results[i].verdict = Verdict::Equivalent;
      results[i].equivalent = it->second;
    } else {
      requests.push_back(Json{{"mutant", i}});
      requested.push_back(i);
    }
  }
  bool prepared = false;  // per worker: each one is a forked process with its own copy
  auto task = [&](int worker, const Json& request) -> Json {
    const Workspace workspace = worker_workspace(options, work, worker);
    const Tree tree = worker_tree(options, workspace);
    std::ostream quiet(nullptr);
    if (!prepared && worker != 0)  // worker-0's tree is the baseline's
      if (auto built = prepare(workspace, tree, quiet); !built) return Json{{"error", built.error().message}};
    prepared = true;
    std::set<std::string> all_properties;
    auto run = run_mutant(workspace, tree, mutants[request.at("mutant").get<std::size_t>()].mutant, limits,
                          all_properties);
    return run ? run_json(*run) : Json{{"error", run.error().message}};
  };
  std::size_t done = 0;
  const std::string total = std::to_string(requests.size());
  run_in_workers(options.jobs, requests, task, [&](std::size_t index, const Json& reply) {
    SweepResult& result = results[requested[index]];
    const std::string id = result.mutant.mutant.id;
    const std::string count = std::to_string(++done);
    out << "[" << std::string(total.size() - count.size(), ' ') << count << "/" << total << "] " << padded(id + " ", 44);
    if (reply.contains("error")) {
      errors.push_back(id + ": " + reply.value("error", ""));
      out << "error: " << errors.back() << std::endl;
      return;
    }
    result.run = run_of_json(reply);
    result.verdict = verdict_of(result.run);
    const double seconds = result.run.build_seconds + result.run.properties_seconds + result.run.corpus_seconds;
    out << padded(progress_summary(result.verdict, result.run), 44) << seconds_text(seconds) << " s" << std::endl;
  });
  return results;
}

int report(const AutoOptions& options, const fs::path& work, const std::vector<SweepResult>& results,
           const SweepContext& context, const std::vector<std::string>& errors, std::ostream& out,
           std::ostream& err) {
  const std::string markdown = sweep_report(results, context);
  write_file(work / "report.md", markdown);
  out << "\n" << markdown << "(also in " << (work / "report.md").string() << ")\n";
  if (!options.junit.empty() && !write_file(options.junit, sweep_junit(results))) {
    err << "poolcheck mutate: cannot write " << options.junit.string() << "\n";
    return 2;
  }
  for (const auto& error : errors) err << "poolcheck mutate: " << error << "\n";
  if (!errors.empty()) return 2;
  const bool survivor = std::any_of(results.begin(), results.end(),
                                    [](const SweepResult& r) { return r.verdict == Verdict::Survived; });
  return survivor ? 1 : 0;
}

}  // namespace

int run_auto_mutation(const AutoOptions& options, std::ostream& out, std::ostream& err) {
  const fs::path work = options.work_dir.empty() ? options.root / "build" / "mutation-auto" : options.work_dir;
  std::ostream& progress = options.list ? err : out;  // --list writes the catalogue to stdout
  auto all = generate(options, work, progress);
  if (!all) {
    err << "poolcheck mutate: " << all.error().message << "\n";
    return 3;
  }
  auto equivalents = load_equivalents(options.root, *all);
  auto chosen = equivalents ? choose_mutants(options, *all, work) : Result<std::vector<AutoMutant>>(equivalents.error());
  if (!chosen) {
    err << "poolcheck mutate: " << chosen.error().message << "\n";
    return 2;
  }
  const SweepContext context{options.command, all->size(), core_sources(options.root).size(),
                             selection_text(options), ""};
  progress << "poolcheck mutate: " << chosen->size() << " of " << all->size() << " automatic mutants ("
           << context.selection << "); work directory " << work.string() << std::endl;
  if (options.list) {
    for (const auto& m : *chosen) out << catalogue_block(m.mutant);
    return 0;
  }
  if (chosen->empty()) return 0;
  SweepContext with_baseline = context;
  auto limits = run_baseline(options, work, with_baseline.baseline, out);
  if (!limits) {
    err << "poolcheck mutate: " << limits.error().message << "\n";
    return 3;
  }
  std::vector<std::string> errors;
  const auto results = run_sweep(options, work, *chosen, *equivalents, *limits, errors, out);
  return report(options, work, results, with_baseline, errors, out, err);
}

}  // namespace poolcheck::harness
