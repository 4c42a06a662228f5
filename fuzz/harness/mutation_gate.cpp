#include "fuzz/harness/mutation_gate.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/json.hpp"
#include "fuzz/harness/campaign.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/logged_command.hpp"
#include "fuzz/harness/mutants.hpp"
#include "fuzz/harness/report_text.hpp"

namespace poolcheck::harness {
namespace {

// What the mirror holds: everything the build reads, nothing it writes.
const std::vector<std::string> kMirrored = {"CMakeLists.txt", "core", "properties", "fuzz", "cli", "tests"};
constexpr double kPropertiesTimeout = 1200;  // a mutant may make a property loop
constexpr double kCorpusTimeout = 900;

std::string seconds_text(double seconds) { return fixed(seconds, 1); }

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : std::string(separator)) + item;
  return out;
}

bool write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

// Rewrites `to` only when its bytes differ from `from`, so that an unchanged
// file keeps its timestamp and the mirror's build does not recompile it.
bool sync_file(const fs::path& from, const fs::path& to) {
  std::string source, existing;
  if (!read_file(from, source)) return false;
  if (read_file(to, existing) && existing == source) return true;
  return write_file(to, source);
}

// Makes <work>/src a copy of the mirrored part of <root>, removing files the
// source no longer has (and so undoing any mutant an interrupted run left).
MaybeError mirror_sources(const fs::path& root, const fs::path& src) {
  std::error_code ec;
  for (const auto& name : kMirrored) {
    const fs::path from = root / name, to = src / name;
    if (fs::is_regular_file(from, ec)) {
      fs::create_directories(to.parent_path(), ec);
      if (!sync_file(from, to)) return Error::bad_request("cannot copy " + from.string() + " to " + to.string());
      continue;
    }
    std::set<fs::path> wanted;
    fs::create_directories(to, ec);
    for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const fs::path relative = fs::relative(it->path(), from, ec);
      if (it->is_directory(ec)) {
        fs::create_directories(to / relative, ec);
      } else if (it->is_regular_file(ec)) {
        wanted.insert(relative);
        if (!sync_file(it->path(), to / relative))
          return Error::bad_request("cannot copy " + it->path().string() + " to " + (to / relative).string());
      }
    }
    if (ec) return Error::bad_request("cannot read " + from.string() + ": " + ec.message());
    std::vector<fs::path> stale;
    for (auto it = fs::recursive_directory_iterator(to, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->is_regular_file(ec) && !wanted.count(fs::relative(it->path(), to, ec))) stale.push_back(it->path());
    for (const auto& path : stale) fs::remove(path, ec);
  }
  return std::nullopt;
}

struct Paths {
  fs::path root, work, src, build, fuzz_build, logs, results;
};

// One build tree over the mirror: configured once, then rebuilt incrementally.
struct Tree {
  fs::path dir;
  std::vector<std::string> configure_args;
  std::vector<std::string> targets;
};

MaybeError configure(const Paths& paths, const Tree& tree, std::ostream& out) {
  if (fs::exists(tree.dir / "build.ninja")) return std::nullopt;
  out << "poolcheck mutate: configuring " << tree.dir.string() << std::endl;
  std::vector<std::string> argv = {"cmake", "-S", paths.src.string(), "-B", tree.dir.string(), "-G", "Ninja"};
  argv.insert(argv.end(), tree.configure_args.begin(), tree.configure_args.end());
  const fs::path log = paths.logs / (tree.dir.filename().string() + ".configure.log");
  const CommandOutcome outcome = run_logged(argv, {}, log, 0);
  if (outcome.succeeded()) return std::nullopt;
  return Error::bad_request("configuring " + tree.dir.string() + " failed (" + outcome.describe() + "); see " +
                            log.string());
}

CommandOutcome build(const Paths& paths, const Tree& tree, const std::string& label) {
  std::vector<std::string> argv = {"cmake", "--build", tree.dir.string(), "--target"};
  argv.insert(argv.end(), tree.targets.begin(), tree.targets.end());
  return run_logged(argv, {}, paths.logs / (label + "." + tree.dir.filename().string() + ".log"), 0);
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

// The failed (or timed out) cases of `poolcheck repro --junit`: their paths.
std::vector<std::string> failed_entries(const fs::path& junit, std::size_t& cases) {
  std::vector<std::string> failed;
  std::string text;
  if (!read_file(junit, text)) return failed;
  constexpr std::string_view kCase = "<testcase ", kName = " name=\"";  // not classname=
  for (auto at = text.find(kCase); at != std::string::npos; at = text.find(kCase, at + 1)) {
    ++cases;
    const auto tag_end = text.find('>', at);
    const auto name_at = text.find(kName, at);
    if (tag_end == std::string::npos || name_at == std::string::npos || name_at > tag_end) continue;
    if (text[tag_end - 1] == '/') continue;  // <testcase .../>: passed
    const auto name_end = text.find('"', name_at + kName.size());
    failed.push_back(text.substr(name_at + kName.size(), name_end - name_at - kName.size()));
  }
  return failed;
}

struct MutantRun {
  std::string label;
  bool built = false;
  double build_seconds = 0, properties_seconds = 0, corpus_seconds = 0;
  std::vector<std::string> properties;  // failing properties (or how the binary died)
  std::vector<std::string> entries;     // failing corpus entries, relative to the root
  std::size_t corpus_cases = 0;
  std::string fuzz;                     // time-to-find, when measured
  bool killed() const { return !properties.empty() || !entries.empty(); }
};

void run_checks(const Paths& paths, std::set<std::string>& all_properties, MutantRun& verdict) {
  const fs::path properties_json = paths.results / (verdict.label + ".properties.json");
  const fs::path corpus_xml = paths.results / (verdict.label + ".corpus.xml");
  fs::remove(properties_json);
  fs::remove(corpus_xml);
  const CommandOutcome properties = run_logged(
      {(paths.build / "properties" / "poolcheck_properties").string(), "--gtest_output=json:" + properties_json.string()},
      {{"POOLCHECK_PROFILE", "pr"},
       {"RC_PARAMS", "noshrink=1"},  // a kill needs one failing case, not the smallest
       {"POOLCHECK_COUNTEREXAMPLE_DIR", (paths.work / "counterexamples" / verdict.label).string()}},
      paths.logs / (verdict.label + ".properties.log"), kPropertiesTimeout);
  verdict.properties_seconds = properties.seconds;
  verdict.properties = failed_tests(properties_json, all_properties);
  if (!properties.succeeded() && verdict.properties.empty())
    verdict.properties.push_back("poolcheck_properties (" + properties.describe() + ")");

  const CommandOutcome corpus =
      run_logged({(paths.build / "cli" / "poolcheck").string(), "repro", (paths.root / "corpus").string(), "--junit",
                  corpus_xml.string()},
                 {}, paths.logs / (verdict.label + ".corpus.log"), kCorpusTimeout);
  verdict.corpus_seconds = corpus.seconds;
  for (const auto& entry : failed_entries(corpus_xml, verdict.corpus_cases))
    verdict.entries.push_back(fs::path(entry).lexically_relative(paths.root).string());
  if (!corpus.succeeded() && verdict.entries.empty())
    verdict.entries.push_back("poolcheck repro (" + corpus.describe() + ")");
}

// One libFuzzer worker of the mutant's target from the shipped seeds, until
// its first finding or `seconds`: "12.3 s (crash)" or "> 60 s".
std::string time_to_find(const Paths& paths, const Tree& fuzz_tree, const std::string& label,
                         const std::string& target, double seconds) {
  Tree one_target = fuzz_tree;  // link only the fuzzer that runs: four ASan links cost more than the compile
  one_target.targets = {"poolcheck_fuzz_" + target};
  const CommandOutcome built = build(paths, one_target, label);
  if (!built.succeeded()) return "build failed";
  // The shipped seeds only: the regressions already hold the historical bugs.
  const fs::path seeds = paths.work / "fuzz-seeds" / target;
  std::error_code ec;
  fs::remove_all(seeds, ec);
  fs::create_directories(seeds, ec);
  std::ostringstream skipped;
  if (seed_working_corpus(paths.root, target, seeds, skipped, {"seeds"}) == 0) return "no seeds: " + skipped.str();
  const fs::path work = paths.work / "fuzz" / label;
  fs::remove_all(work, ec);
  fs::create_directories(work / "corpus", ec);
  std::vector<std::string> argv = {make_libfuzzer_engine()->binary(fuzz_tree.dir, target).string(), "-seed=1",
                                   "-max_total_time=" + std::to_string(static_cast<long>(seconds)),
                                   "-print_final_stats=1", "-artifact_prefix=" + (work / "").string()};
  for (auto& flag : libfuzzer_option_flags(paths.root / "fuzz" / (target + ".options"), {"max_total_time"}))
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

std::string kill_summary(const MutantRun& verdict) {
  if (!verdict.built) return "DOES NOT BUILD";
  if (!verdict.killed()) return "SURVIVED";
  return "killed by " + std::to_string(verdict.properties.size()) + " properties, " +
         std::to_string(verdict.entries.size()) + " corpus entries";
}

std::string times(const MutantRun& verdict) {
  std::string text = "build " + seconds_text(verdict.build_seconds) + " s, properties " +
                     seconds_text(verdict.properties_seconds) + " s, corpus " + seconds_text(verdict.corpus_seconds) +
                     " s";
  if (!verdict.fuzz.empty()) text += ", fuzz " + verdict.fuzz;
  return text;
}

std::string short_list(const std::vector<std::string>& items, std::size_t shown) {
  if (items.empty()) return "-";
  std::vector<std::string> head(items.begin(), items.begin() + static_cast<long>(std::min(shown, items.size())));
  std::string text = joined(head, ", ");
  if (items.size() > shown) text += " (+" + std::to_string(items.size() - shown) + " more)";
  return text;
}

std::string report_markdown(const std::vector<Mutant>& mutants, const std::vector<MutantRun>& verdicts,
                            const std::map<std::string, std::vector<std::string>>& kills_by_property,
                            bool with_fuzz) {
  std::ostringstream md;
  md << "| mutant | module | killed by properties | killed by corpus entries | build s | properties s | corpus s"
     << (with_fuzz ? " | fuzz time-to-find |" : " |") << "\n|---|---|---|---|---|---|---" << (with_fuzz ? "|---|" : "|")
     << "\n";
  for (std::size_t i = 0; i < mutants.size(); ++i) {
    const MutantRun& v = verdicts[i];
    md << "| " << mutants[i].id << " | " << mutants[i].module << " | " << (v.killed() ? short_list(v.properties, 20) : "**SURVIVED**")
       << " | " << short_list(v.entries, 3) << " | " << seconds_text(v.build_seconds) << " | "
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
  Paths paths;
  paths.root = options.root;
  paths.work = options.work_dir.empty() ? options.root / "build" / "mutation" : options.work_dir;
  paths.src = paths.work / "src";
  paths.build = paths.work / "build";
  paths.fuzz_build = paths.work / "build-fuzz";
  paths.logs = paths.work / "logs";
  paths.results = paths.work / "results";
  std::error_code ec;
  for (const auto& dir : {paths.src, paths.logs, paths.results}) fs::create_directories(dir, ec);

  std::vector<std::string> compiler;
  if (!options.cxx_compiler.empty()) compiler.push_back("-DCMAKE_CXX_COMPILER=" + options.cxx_compiler);
  Tree gate{paths.build, compiler, {"poolcheck_properties", "poolcheck"}};
  gate.configure_args.insert(gate.configure_args.end(),
                             {"-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DPOOLCHECK_TESTS=ON", "-DPOOLCHECK_FUZZ=OFF",
                              "-DPOOLCHECK_SANITIZE=OFF", "-DPOOLCHECK_BENCH=OFF"});
  // The fuzz tree builds what the `fuzz` preset builds, for the mutants' targets only.
  Tree fuzz{paths.fuzz_build,
            {"-DCMAKE_CXX_COMPILER=clang++", "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g",
             "-DPOOLCHECK_TESTS=OFF", "-DPOOLCHECK_FUZZ=ON", "-DPOOLCHECK_BENCH=OFF"},
            {}};
  const bool with_fuzz = options.fuzz_seconds > 0;
  for (const auto& m : *mutants)
    if (std::find(fuzz.targets.begin(), fuzz.targets.end(), "poolcheck_fuzz_" + m.target) == fuzz.targets.end())
      fuzz.targets.push_back("poolcheck_fuzz_" + m.target);

  out << "poolcheck mutate: " << mutants->size() << " mutant(s) from " << catalogue.lexically_relative(options.root).string()
      << "; work directory " << paths.work.string() << std::endl;
  if (auto e = mirror_sources(options.root, paths.src)) {
    err << "poolcheck mutate: " << e->message << "\n";
    return 3;
  }
  for (const Tree* tree : {&gate, &fuzz}) {
    if (tree == &fuzz && !with_fuzz) continue;
    if (auto e = configure(paths, *tree, out)) {
      err << "poolcheck mutate: " << e->message << "\n";
      return 3;
    }
  }

  // The baseline: the unmutated core must pass everything, or no kill means anything.
  std::set<std::string> all_properties;
  MutantRun baseline;
  baseline.label = "baseline";
  const CommandOutcome baseline_build = build(paths, gate, "baseline");
  baseline.build_seconds = baseline_build.seconds;
  if (!baseline_build.succeeded()) {
    err << "poolcheck mutate: the unmutated source does not build (" << baseline_build.describe() << "); see "
        << (paths.logs / "baseline.build.log").string() << "\n";
    return 3;
  }
  baseline.built = true;
  run_checks(paths, all_properties, baseline);
  if (with_fuzz) {
    for (const auto& target : std::set<std::string>(fuzz.targets.begin(), fuzz.targets.end())) {
      const std::string name = target.substr(std::string("poolcheck_fuzz_").size());
      baseline.fuzz += (baseline.fuzz.empty() ? "" : "; ") + name + " " +
                       time_to_find(paths, fuzz, "baseline-" + name, name, options.fuzz_seconds);
    }
  }
  out << "[baseline] " << baseline.corpus_cases << " corpus entries, " << all_properties.size() << " property tests; "
      << times(baseline) << std::endl;
  if (baseline.killed() || all_properties.empty()) {
    err << "poolcheck mutate: the unmutated baseline fails: properties " << short_list(baseline.properties, 5)
        << "; corpus " << short_list(baseline.entries, 5) << ". Fix that first (logs in " << paths.logs.string()
        << ").\n";
    return 3;
  }

  std::vector<MutantRun> verdicts;
  std::map<std::string, std::vector<std::string>> kills_by_property;
  for (const auto& property : all_properties) kills_by_property[property];
  int not_built = 0;
  for (std::size_t i = 0; i < mutants->size(); ++i) {
    const Mutant& mutant = (*mutants)[i];
    MutantRun verdict;
    verdict.label = mutant.id;
    const fs::path file = paths.src / mutant.file;
    std::string original;
    read_file(file, original);
    auto mutated = apply_mutant(mutant, original);
    if (!mutated || !write_file(file, *mutated)) {
      err << "poolcheck mutate: " << (mutated ? "cannot write " + file.string() : mutated.error().message) << "\n";
      return 2;
    }
    const CommandOutcome built = build(paths, gate, mutant.id);
    verdict.build_seconds = built.seconds;
    verdict.built = built.succeeded();
    if (verdict.built) {
      run_checks(paths, all_properties, verdict);
      if (with_fuzz) verdict.fuzz = time_to_find(paths, fuzz, mutant.id, mutant.target, options.fuzz_seconds);
    }
    write_file(file, original);
    not_built += !verdict.built;
    for (const auto& property : verdict.properties)
      if (kills_by_property.count(property)) kills_by_property[property].push_back(mutant.id);
    const std::string total = std::to_string(mutants->size()), index = std::to_string(i + 1);
    out << "[" << std::string(total.size() - index.size(), ' ') << index << "/" << total << "] " << padded(mutant.id, 34)
        << padded(kill_summary(verdict), 44) << times(verdict) << std::endl;
    verdicts.push_back(std::move(verdict));
  }
  // Leave the mirror as the source is, so the next run starts from a clean build.
  build(paths, gate, "restore");

  const std::string report = report_markdown(*mutants, verdicts, kills_by_property, with_fuzz);
  write_file(paths.work / "report.md", report);
  out << "\nKill matrix (also in " << (paths.work / "report.md").string() << "):\n";
  for (std::size_t i = 0; i < mutants->size(); ++i) {
    const MutantRun& v = verdicts[i];
    out << "  " << padded((*mutants)[i].id, 34) << "properties: " << short_list(v.properties, 20) << "\n"
        << "  " << std::string(34, ' ') << "corpus:     " << short_list(v.entries, 3) << "\n";
  }
  out << "Kills per property:\n";
  for (const auto& [property, killed] : kills_by_property)
    out << "  " << padded(property, 56) << killed.size() << "\n";

  std::size_t survivors = 0;
  for (std::size_t i = 0; i < mutants->size(); ++i) {
    if (verdicts[i].killed() || !verdicts[i].built) continue;
    ++survivors;
    const Mutant& m = (*mutants)[i];
    out << "SURVIVED: " << m.id << " (" << m.file << ": " << m.description
        << "): no property and no corpus entry fails against it. Add the law, generator case or corpus regression "
           "that catches it. Reproduce with: poolcheck mutate --mutant "
        << m.id << "\n";
  }
  for (std::size_t i = 0; i < mutants->size(); ++i)
    if (!verdicts[i].built)
      out << "DOES NOT BUILD: " << (*mutants)[i].id << ": fix the mutant (log: "
          << (paths.logs / ((*mutants)[i].id + ".build.log")).string() << ")\n";
  std::size_t idle = 0;
  if (options.only.empty()) {
    for (const auto& [property, killed] : kills_by_property) {
      if (!killed.empty()) continue;
      ++idle;
      out << "KILLS NOTHING: property " << property
          << " fails against no catalogued mutant: give it a mutant it alone should catch, or fold it into another\n";
    }
  }
  const std::size_t killed = mutants->size() - survivors - static_cast<std::size_t>(not_built);
  out << "poolcheck mutate: " << killed << "/" << mutants->size() << " mutants killed";
  if (options.only.empty()) out << "; " << (kills_by_property.size() - idle) << "/" << kills_by_property.size()
                                << " properties kill at least one";
  const bool passed = survivors == 0 && not_built == 0 && idle == 0;
  out << (passed ? ". PASS" : ". FAIL") << std::endl;
  if (not_built > 0) return 2;
  return passed ? 0 : 1;
}

}  // namespace poolcheck::harness
