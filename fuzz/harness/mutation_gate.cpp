#include "fuzz/harness/mutation_gate.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "fuzz/harness/campaign.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/mutants.hpp"
#include "fuzz/harness/mutation_workspace.hpp"
#include "fuzz/harness/report_text.hpp"

namespace poolcheck::harness {
namespace {

constexpr std::string_view kFuzzTargetPrefix = "poolcheck_fuzz_";

// The gate's trees over its one mirror.
struct Gate {
  Workspace workspace;
  Tree checks;
  Tree fuzz;  // what the `fuzz` preset builds, for the mutants' targets only
  double fuzz_seconds = 0;
  CheckLimits limits;
  bool with_fuzz() const { return fuzz_seconds > 0; }
};

using KillsByProperty = std::map<std::string, std::vector<std::string>>;

Gate gate_for(const GateOptions& options, const std::vector<Mutant>& mutants) {
  Gate gate;
  gate.workspace = workspace_at(options.root, options.work_dir.empty() ? options.root / "build" / "mutation"
                                                                       : options.work_dir);
  gate.checks = checks_tree(gate.workspace, options.cxx_compiler);
  gate.fuzz = {gate.workspace.dir / "build-fuzz",
               {"-DCMAKE_CXX_COMPILER=clang++", "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g",
                "-DPOOLCHECK_TESTS=OFF", "-DPOOLCHECK_FUZZ=ON", "-DPOOLCHECK_BENCH=OFF"},
               {}};
  for (const auto& m : mutants) {
    const std::string target = std::string(kFuzzTargetPrefix) + m.target;
    if (std::find(gate.fuzz.targets.begin(), gate.fuzz.targets.end(), target) == gate.fuzz.targets.end())
      gate.fuzz.targets.push_back(target);
  }
  gate.fuzz_seconds = options.fuzz_seconds;
  gate.limits.property_shards = available_cores();  // one mutant at a time: its suite in a shard per core
  return gate;
}

// One libFuzzer worker of the mutant's target from the shipped seeds, until
// its first finding or `seconds`: "12.3 s (crash)" or "> 60 s".
std::string time_to_find(const Workspace& workspace, const Tree& fuzz_tree, const std::string& label,
                         const std::string& target, double seconds) {
  Tree one_target = fuzz_tree;  // link only the fuzzer that runs: four ASan links cost more than the compile
  one_target.targets = {std::string(kFuzzTargetPrefix) + target};
  const CommandOutcome built = build(workspace, one_target, label);
  if (!built.succeeded()) return "build failed";
  // The shipped seeds only: the regressions already hold the historical bugs.
  const fs::path seeds = workspace.dir / "fuzz-seeds" / target;
  std::error_code ec;
  fs::remove_all(seeds, ec);
  fs::create_directories(seeds, ec);
  std::ostringstream skipped;
  if (seed_working_corpus(workspace.root, target, seeds, skipped, {"seeds"}) == 0) return "no seeds: " + skipped.str();
  const fs::path work = workspace.dir / "fuzz" / label;
  fs::remove_all(work, ec);
  fs::create_directories(work / "corpus", ec);
  std::vector<std::string> argv = {make_libfuzzer_engine()->binary(fuzz_tree.dir, target).string(), "-seed=1",
                                   "-max_total_time=" + std::to_string(static_cast<long>(seconds)),
                                   "-print_final_stats=1", "-artifact_prefix=" + (work / "").string()};
  for (auto& flag : libfuzzer_option_flags(workspace.root / "fuzz" / (target + ".options"), {"max_total_time"}))
    argv.push_back(flag);
  argv.push_back((work / "corpus").string());
  argv.push_back(seeds.string());
  const CommandOutcome run = run_logged(argv, {}, work / "fuzz.log", seconds + 60);
  for (const auto& file : fs::directory_iterator(work, ec)) {
    const std::string name = file.path().filename().string();
    for (const char* kind : {"crash", "timeout", "oom", "leak"})
      if (name.rfind(std::string(kind) + "-", 0) == 0) return seconds_text(run.seconds) + " s (" + kind + ")";
  }
  return "> " + std::to_string(static_cast<long>(seconds)) + " s";
}

// The baseline's time-to-find per fuzz target: what a mutant's is compared with.
std::string baseline_time_to_find(const Gate& gate) {
  std::string text;
  for (const auto& target : std::set<std::string>(gate.fuzz.targets.begin(), gate.fuzz.targets.end())) {
    const std::string name = target.substr(kFuzzTargetPrefix.size());
    text += (text.empty() ? "" : "; ") + name + " " +
            time_to_find(gate.workspace, gate.fuzz, "baseline-" + name, name, gate.fuzz_seconds);
  }
  return text;
}

std::string kill_summary(const MutantRun& verdict) {
  if (!verdict.built) return "DOES NOT BUILD";
  if (!verdict.killed()) return "SURVIVED";
  return "killed by " + std::to_string(verdict.properties.size()) + " properties, " +
         (verdict.law_tests.empty() ? "" : std::to_string(verdict.law_tests.size()) + " law tests, ") +
         std::to_string(verdict.entries.size()) + " corpus entries";
}

std::string times(const MutantRun& verdict) {
  std::string text = "build " + seconds_text(verdict.build_seconds) + " s, properties " +
                     seconds_text(verdict.properties_seconds) + " s, corpus " + seconds_text(verdict.corpus_seconds) +
                     " s";
  if (!verdict.fuzz.empty()) text += ", fuzz " + verdict.fuzz;
  return text;
}

std::string report_markdown(const std::vector<Mutant>& mutants, const std::vector<MutantRun>& verdicts,
                            const KillsByProperty& kills_by_property, bool with_fuzz) {
  std::ostringstream md;
  md << "| mutant | module | killed by properties | killed by law tests | killed by corpus entries | build s | "
        "properties s | corpus s"
     << (with_fuzz ? " | fuzz time-to-find |" : " |") << "\n|---|---|---|---|---|---|---|---"
     << (with_fuzz ? "|---|" : "|") << "\n";
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const MutantRun& v = verdicts[i];
    md << "| " << mutants[i].id << " | " << mutants[i].module << " | " << (v.killed() ? short_list(v.properties, 20) : "**SURVIVED**")
       << " | " << short_list(v.law_tests, 3) << " | " << short_list(v.entries, 3) << " | " << seconds_text(v.build_seconds) << " | "
       << seconds_text(v.properties_seconds) << " | " << seconds_text(v.corpus_seconds) << " |"
       << (with_fuzz ? " " + v.fuzz + " |" : "") << "\n";
  }
  md << "\n| property | mutants killed |\n|---|---|\n";
  for (const auto& [property, killed] : kills_by_property)
    md << "| " << property << " | " << killed.size() << (killed.empty() ? " **(kills nothing)**" : "") << " |\n";
  return md.str();
}

Result<std::vector<Mutant>> selected_mutants(const GateOptions& options, const fs::path& catalogue) {
  auto mutants = load_catalogue(catalogue);
  if (!mutants) return mutants.error();
  if (auto e = check_catalogue_applies(*mutants, options.root)) return *e;
  if (options.only.empty()) return mutants;
  std::vector<Mutant> chosen;
  for (const auto& id : options.only) {
    auto it = std::find_if(mutants->begin(), mutants->end(), [&](const Mutant& m) { return m.id == id; });
    if (it == mutants->end()) return Error::bad_request("no mutant \"" + id + "\" in " + catalogue.string());
    chosen.push_back(*it);
  }
  return chosen;
}

void print_catalogue(const std::vector<Mutant>& mutants, std::ostream& out) {
  for (const auto& m : mutants)
    out << padded(m.id, 34) << padded(m.module, 18) << padded(m.target, 12) << m.description << "\n"
        << std::string(34, ' ') << m.file << "; " << m.provenance << "\n";
}

// The unmutated mirror, built and checked: it must pass everything, or no
// kill means anything. Every property it runs goes into `all_properties`.
Result<MutantRun> run_baseline(const Gate& gate, std::set<std::string>& all_properties, std::ostream& out) {
  auto baseline = build_baseline(gate.workspace, gate.checks, out);
  if (!baseline) return baseline;
  if (gate.with_fuzz())
    if (auto e = configure(gate.workspace, gate.fuzz, out)) return *e;
  run_checks(gate.workspace, gate.checks, gate.limits, all_properties, *baseline);
  if (gate.with_fuzz()) baseline->fuzz = baseline_time_to_find(gate);
  out << "[baseline] " << baseline->corpus_cases << " corpus entries, " << all_properties.size()
      << " property tests; " << times(*baseline) << std::endl;
  if (auto e = check_baseline(gate.workspace, *baseline, all_properties)) return *e;
  return baseline;
}

// Each mutant alone, in catalogue order, with a progress line each.
Result<std::vector<MutantRun>> run_catalogue(const Gate& gate, const std::vector<Mutant>& mutants,
                                             std::set<std::string>& all_properties, std::ostream& out) {
  std::vector<MutantRun> verdicts;
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const Mutant& mutant = mutants[i];
    auto verdict = run_mutant(gate.workspace, gate.checks, mutant, gate.limits, all_properties, [&](MutantRun& run) {
      if (gate.with_fuzz())
        run.fuzz = time_to_find(gate.workspace, gate.fuzz, mutant.id, mutant.target, gate.fuzz_seconds);
    });
    if (!verdict) return verdict.error();
    const std::string total = std::to_string(mutants.size()), index = std::to_string(i + 1);
    out << "[" << std::string(total.size() - index.size(), ' ') << index << "/" << total << "] " << padded(mutant.id + " ", 34)
        << padded(kill_summary(*verdict), 58) << times(*verdict) << std::endl;
    verdicts.push_back(std::move(*verdict));
  }
  // Leave the mirror as the source is, so the next run starts from a clean build.
  build(gate.workspace, gate.checks, "restore");
  return verdicts;
}

KillsByProperty kills_by_property(const std::vector<Mutant>& mutants, const std::vector<MutantRun>& verdicts,
                                  const std::set<std::string>& all_properties) {
  KillsByProperty kills;
  for (const auto& property : all_properties) kills[property];
  for (std::size_t i = 0; i < mutants.size(); ++i)
    for (const auto& property : verdicts[i].properties)
      if (kills.count(property)) kills[property].push_back(mutants[i].id);
  return kills;
}

void print_kill_matrix(const std::vector<Mutant>& mutants, const std::vector<MutantRun>& verdicts,
                       const KillsByProperty& kills, const fs::path& report, std::ostream& out) {
  out << "\nKill matrix (also in " << report.string() << "):\n";
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const MutantRun& v = verdicts[i];
    out << "  " << padded(mutants[i].id, 34) << "properties: " << short_list(v.properties, 20) << "\n"
        << "  " << std::string(34, ' ') << "law tests:  " << short_list(v.law_tests, 3) << "\n"
        << "  " << std::string(34, ' ') << "corpus:     " << short_list(v.entries, 3) << "\n";
  }
  out << "Kills per property:\n";
  for (const auto& [property, killed] : kills) out << "  " << padded(property, 56) << killed.size() << "\n";
}

// What to do about each survivor, each mutant that does not build and (for the
// whole catalogue) each property that kills nothing; then PASS or FAIL. The exit code.
int print_verdict(const GateOptions& options, const Gate& gate, const std::vector<Mutant>& mutants,
                  const std::vector<MutantRun>& verdicts, const KillsByProperty& kills, std::ostream& out) {
  std::size_t survivors = 0, not_built = 0, idle = 0;
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    if (verdicts[i].killed() || !verdicts[i].built) continue;
    ++survivors;
    const Mutant& m = mutants[i];
    out << "SURVIVED: " << m.id << " (" << m.file << ": " << m.description
        << "): no property, law test or corpus entry fails against it. Add the law, generator case or corpus regression "
           "that catches it. Reproduce with: poolcheck mutate --mutant "
        << m.id << "\n";
  }
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    if (verdicts[i].built) continue;
    ++not_built;
    out << "DOES NOT BUILD: " << mutants[i].id << ": fix the mutant (log: "
        << (gate.workspace.logs / (mutants[i].id + ".build.log")).string() << ")\n";
  }
  if (options.only.empty()) {
    for (const auto& [property, killed] : kills) {
      if (!killed.empty()) continue;
      ++idle;
      out << "KILLS NOTHING: property " << property
          << " fails against no catalogued mutant: give it a mutant it alone should catch, or fold it into another\n";
    }
  }
  out << "poolcheck mutate: " << mutants.size() - survivors - not_built << "/" << mutants.size() << " mutants killed";
  if (options.only.empty())
    out << "; " << (kills.size() - idle) << "/" << kills.size() << " properties kill at least one";
  const bool passed = survivors == 0 && not_built == 0 && idle == 0;
  out << (passed ? ". PASS" : ". FAIL") << std::endl;
  if (not_built > 0) return 2;
  return passed ? 0 : 1;
}

}  // namespace

int run_mutation_gate(const GateOptions& options, std::ostream& out, std::ostream& err) {
  const fs::path catalogue = options.root / "tests" / "mutation" / "catalogue.txt";
  auto mutants = selected_mutants(options, catalogue);
  if (!mutants) {
    err << "poolcheck mutate: " << mutants.error().message << "\n";
    return 2;
  }
  if (options.list) {
    print_catalogue(*mutants, out);
    return 0;
  }
  const Gate gate = gate_for(options, *mutants);
  out << "poolcheck mutate: " << mutants->size() << " mutant(s) from " << catalogue.lexically_relative(options.root).string()
      << "; work directory " << gate.workspace.dir.string() << std::endl;
  std::set<std::string> all_properties;
  if (auto baseline = run_baseline(gate, all_properties, out); !baseline) {
    err << "poolcheck mutate: " << baseline.error().message << "\n";
    return 3;
  }
  auto verdicts = run_catalogue(gate, *mutants, all_properties, out);
  if (!verdicts) {
    err << "poolcheck mutate: " << verdicts.error().message << "\n";
    return 2;
  }
  const KillsByProperty kills = kills_by_property(*mutants, *verdicts, all_properties);
  const fs::path report = gate.workspace.dir / "report.md";
  write_file(report, report_markdown(*mutants, *verdicts, kills, gate.with_fuzz()));
  print_kill_matrix(*mutants, *verdicts, kills, report, out);
  return print_verdict(options, gate, *mutants, *verdicts, kills, out);
}

}  // namespace poolcheck::harness
