// The harness commands: repro, promote, fuzz, mutate. Argument parsing and printing
// only; the work is in fuzz/harness/ (poolcheck_harness), whose every check
// is the law library's.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "fuzz/harness/auto_sweep.hpp"
#include "fuzz/harness/campaign.hpp"
#include "fuzz/harness/mutation_gate.hpp"
#include "fuzz/harness/promote.hpp"
#include "fuzz/harness/repro.hpp"

namespace poolcheck::cli {
namespace {

namespace fs = std::filesystem;
namespace h = poolcheck::harness;

std::optional<double> parse_seconds(const std::string& text) {
  const auto value = parse_number(text);
  if (!value || !(*value > 0)) return std::nullopt;
  return value;
}

std::optional<long> parse_count(const std::string& text) {
  long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1) return std::nullopt;
  return value;
}

int run_repro(const Args& args) {
  auto options = parse_options("repro", args, {"--target", "--junit", "--timeout"}, {"--verbose"});
  if (!options) return kExitUsage;
  if (options->positional.empty()) return usage_error("repro", "expects at least one PATH");
  h::ReproOptions repro;
  for (const auto& path : options->positional) repro.paths.emplace_back(path);
  repro.target = value_of(*options, "--target");
  repro.verbose = options->switches.count("--verbose") > 0;
  if (auto timeout = value_of(*options, "--timeout")) {
    auto seconds = parse_seconds(*timeout);
    if (!seconds) return usage_error("repro", "--timeout takes a positive number of seconds");
    repro.timeout_seconds = *seconds;
  }
  auto plan = h::plan_repro(repro);
  if (!plan) return usage_error("repro", plan.error().message);
  if (plan->empty()) return usage_error("repro", "no entries under the given path(s)");

  h::print_table_header(std::cout, repro.verbose);
  const h::ReproReport report = h::run_repro(*plan, repro, &std::cout);
  h::print_failures_and_summary(std::cout, report);
  if (auto junit = value_of(*options, "--junit")) {
    std::ofstream out(*junit, std::ios::binary);
    out << h::junit_xml(report);
    if (!out) {
      std::cerr << "poolcheck repro: cannot write " << *junit << "\n";
      return kExitUsage;
    }
    std::cout << "JUnit XML: " << *junit << "\n";
  }
  return report.all_passed() ? kExitOk : kExitRejected;
}

int run_promote(const Args& args) {
  auto options = parse_options("promote", args,
                               {"--target", "--name", "--note", "--corpus", "--timeout", "--budget"}, {});
  if (!options) return kExitUsage;
  if (options->positional.size() != 1) return usage_error("promote", "expects exactly one ARTIFACT");
  h::PromoteOptions promote;
  promote.artifact = options->positional[0];
  promote.target = value_of(*options, "--target");
  promote.name = value_of(*options, "--name");
  promote.note = value_of(*options, "--note");
  if (auto corpus = value_of(*options, "--corpus")) {
    promote.corpus_dir = *corpus;
  } else {
    auto root = h::find_project_root(fs::current_path());
    if (!root) return usage_error("promote", "no corpus/ here or above the current directory: pass --corpus DIR");
    promote.corpus_dir = *root / "corpus";
  }
  if (auto timeout = value_of(*options, "--timeout")) {
    auto seconds = parse_seconds(*timeout);
    if (!seconds) return usage_error("promote", "--timeout takes a positive number of seconds");
    promote.timeout_seconds = *seconds;
  }
  if (auto budget = value_of(*options, "--budget")) {
    auto count = parse_count(*budget);
    if (!count) return usage_error("promote", "--budget takes a positive count of runs");
    promote.budget = static_cast<std::size_t>(*count);
  }
  auto result = h::promote(promote, std::cerr);
  if (!result) {
    std::cerr << "poolcheck promote: " << result.error().message << "\n";
    return kExitRejected;
  }
  std::error_code ec;
  const fs::path shown = fs::proximate(result->written, fs::current_path(), ec);
  std::cout << "Wrote " << (ec ? result->written : shown).string() << " (" << result->bytes_after
            << " bytes; catches " << result->signature.describe() << ")\n"
            << "Replay it with: poolcheck repro " << (ec ? result->written : shown).string() << "\n"
            << "It fails until the bug is fixed; `ctest -L corpus` (test repro-" << result->target
            << ") picks it up with no edit.\n";
  return kExitOk;
}

int run_fuzz(const Args& args) {
  auto options =
      parse_options("fuzz", args, {"--time", "--jobs", "--build-dir", "--progress", "--engine"}, {"--no-merge"});
  if (!options) return kExitUsage;
  h::CampaignOptions campaign;
  auto root = h::find_project_root(fs::current_path());
  if (!root) return usage_error("fuzz", "run it inside the repository (no corpus/ here or above)");
  campaign.root = *root;
  const std::string engine = value_of(*options, "--engine").value_or("libfuzzer");
  if (engine != "libfuzzer" && engine != "afl") return usage_error("fuzz", "--engine takes libfuzzer or afl");
  campaign.engine = engine == "afl" ? h::EngineKind::Afl : h::EngineKind::LibFuzzer;
  campaign.build_dir = value_of(*options, "--build-dir") ? fs::absolute(*value_of(*options, "--build-dir"))
                                                         : *root / "build" / (engine == "afl" ? "afl" : "fuzz");
  if (auto time = value_of(*options, "--time")) {
    auto seconds = parse_seconds(*time);
    if (!seconds) return usage_error("fuzz", "--time takes a positive number of seconds");
    campaign.seconds = *seconds;
  }
  if (auto jobs = value_of(*options, "--jobs")) {
    auto count = parse_count(*jobs);
    if (!count || *count > 256) return usage_error("fuzz", "--jobs takes a count from 1 to 256");
    campaign.jobs = static_cast<int>(*count);
  }
  if (auto progress = value_of(*options, "--progress")) {
    auto seconds = parse_seconds(*progress);
    if (!seconds) return usage_error("fuzz", "--progress takes a positive number of seconds");
    campaign.progress_seconds = *seconds;
  }
  campaign.merge = options->switches.count("--no-merge") == 0;
  campaign.targets = options->positional;
  return h::run_campaign(campaign, std::cout, std::cerr);
}

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= text.size();) {
    const auto comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// `poolcheck mutate --auto`: the automatic mutants' own options.
int run_auto_mutate(const Options& options, const Args& args, const fs::path& root) {
  if (value_of(options, "--fuzz-seconds")) return usage_error("mutate", "--fuzz-seconds is for the catalogue, not --auto");
  h::AutoOptions sweep;
  sweep.root = root;
  sweep.command = "poolcheck mutate";
  for (const auto& arg : args) sweep.command += " " + arg;
  if (auto dir = value_of(options, "--work-dir")) sweep.work_dir = fs::absolute(*dir);
  if (auto compiler = value_of(options, "--compiler")) sweep.cxx_compiler = *compiler;
  if (auto ids = value_of(options, "--mutant")) sweep.only = comma_list(*ids);
  if (auto files = value_of(options, "--file")) sweep.files = comma_list(*files);
  for (const auto& name : comma_list(value_of(options, "--operator").value_or(""))) {
    auto op = h::operator_named(name);
    if (!op) return usage_error("mutate", "unknown --operator " + name + " (see poolcheck mutate --help)");
    sweep.operators.push_back(*op);
  }
  sweep.changed_since = value_of(options, "--changed-since").value_or("");
  if (auto count = value_of(options, "--count")) {
    auto value = parse_count(*count);
    if (!value) return usage_error("mutate", "--count takes a positive count of mutants");
    sweep.count = static_cast<std::size_t>(*value);
  }
  if (auto seed = value_of(options, "--seed")) {
    const char* end = seed->data() + seed->size();
    auto [ptr, ec] = std::from_chars(seed->data(), end, sweep.seed);
    if (ec != std::errc() || ptr != end) return usage_error("mutate", "--seed takes a non-negative integer");
  }
  if (auto jobs = value_of(options, "--jobs")) {
    auto count = parse_count(*jobs);
    if (!count || *count > 64) return usage_error("mutate", "--jobs takes a count from 1 to 64");
    sweep.jobs = static_cast<int>(*count);
  }
  sweep.all = options.switches.count("--all") > 0;
  sweep.list = options.switches.count("--list") > 0;
  if (sweep.all && sweep.count > 0) return usage_error("mutate", "--all and --count exclude each other");
  if (auto junit = value_of(options, "--junit")) sweep.junit = fs::absolute(*junit);
  return h::run_auto_mutation(sweep, std::cout, std::cerr);
}

int run_mutate(const Args& args) {
  auto options = parse_options("mutate", args,
                               {"--mutant", "--work-dir", "--compiler", "--fuzz-seconds", "--seed", "--count", "--file",
                                "--operator", "--jobs", "--changed-since", "--junit"},
                               {"--list", "--auto", "--all"});
  if (!options) return kExitUsage;
  if (!options->positional.empty()) return usage_error("mutate", "takes no positional argument");
  auto root = h::find_project_root(fs::current_path());
  if (!root) return usage_error("mutate", "run it inside the repository (no corpus/ here or above)");
  if (options->switches.count("--auto")) return run_auto_mutate(*options, args, *root);
  for (const char* name : {"--seed", "--count", "--file", "--operator", "--jobs", "--changed-since", "--junit"})
    if (value_of(*options, name)) return usage_error("mutate", std::string(name) + " needs --auto");
  if (options->switches.count("--all")) return usage_error("mutate", "--all needs --auto");
  h::GateOptions gate;
  gate.root = *root;
  if (auto dir = value_of(*options, "--work-dir")) gate.work_dir = fs::absolute(*dir);
  if (auto compiler = value_of(*options, "--compiler")) gate.cxx_compiler = *compiler;
  if (auto ids = value_of(*options, "--mutant")) gate.only = comma_list(*ids);
  if (auto fuzz = value_of(*options, "--fuzz-seconds")) {
    auto seconds = parse_seconds(*fuzz);
    if (!seconds) return usage_error("mutate", "--fuzz-seconds takes a positive number of seconds");
    gate.fuzz_seconds = *seconds;
  }
  gate.list = options->switches.count("--list") > 0;
  return h::run_mutation_gate(gate, std::cout, std::cerr);
}

// A failed pipe(), fork() or write is an environment problem, not a finding.
std::function<int(const Args&)> guarded(const char* name, int (*run)(const Args&)) {
  return [name, run](const Args& args) {
    try {
      return run(args);
    } catch (const std::exception& e) {
      std::cerr << "poolcheck " << name << ": " << e.what() << "\n";
      return kExitInternal;
    }
  };
}

}  // namespace

std::vector<Command> harness_commands() {
  return {
      Command{"repro", "replay corpus entries or fuzz artifacts through every law",
              "Usage: poolcheck repro PATH... [--target T] [--timeout S] [--junit FILE] [--verbose]\n\n"
              "Replays each file, or every entry under each directory (recursively; dot files and\n"
              "*.md skipped), through its target's laws, each in its own child process: a crash or a\n"
              "sanitizer abort is reported and the run goes on; an entry that takes longer than\n"
              "--timeout seconds (default 10) is killed and reported as TIMEOUT. The target comes from\n"
              "the path (corpus/<T>/... or .fuzz-work/<T>/...), else from --target (request,\n"
              "params_wire, token_types, verify). An entry passes when no law is violated, it does not\n"
              "crash, and its \"expect\" verdict, when it has one, matches (corpus/README.md).\n\n"
              "Prints a PASS/FAIL/TIMEOUT table, then per failure the violated law(s) and a minimal\n"
              "diff (expected vs actual verdict, message or digest; the violations' descriptions).\n"
              "--junit FILE also writes JUnit XML; --verbose shows each entry's actual verdict and\n"
              "digest (what an \"expect\" would pin).\n"
              "Exit codes: 0 all passed, 1 a failure or timeout, 2 usage error.\n\n"
              "Examples:\n"
              "  poolcheck repro corpus\n"
              "  poolcheck repro .fuzz-work/request/artifacts/crash-0123abcd --target request\n",
              guarded("repro", run_repro)},
      Command{"promote", "minimise a fuzz finding into a corpus regression entry",
              "Usage: poolcheck promote ARTIFACT [--target T] [--name NAME] [--note TEXT]\n"
              "                         [--corpus DIR] [--timeout S] [--budget N]\n\n"
              "Replays ARTIFACT in a child process to get its failure signature (the violated law\n"
              "ids, or a crash's kind and top stack frames), minimises it keeping that signature\n"
              "(JSON targets: a tree pass that keeps the input valid JSON, then delta debugging over\n"
              "bytes; at most --budget runs, default 20000), refuses a duplicate of an existing\n"
              "regression (same input, or same laws with the same output), and writes\n"
              "DIR/<target>/regressions/NAME.json (or NAME.pcentry for binary inputs) with the note,\n"
              "\"catches\" and \"promoted_from\". DIR defaults to the repository's corpus/.\n"
              "The entry fails `poolcheck repro` (and `ctest -L corpus`) until the bug is fixed.\n"
              "Exit codes: 0 written, 1 refused (passes, duplicate, name taken), 2 usage error.\n\n"
              "Example:\n"
              "  poolcheck promote .fuzz-work/request/artifacts/crash-0123abcd --name 47082-overwrite \\\n"
              "    --note \"user extra_kwargs lost when token types are compressed\"\n",
              guarded("promote", run_promote)},
      Command{"fuzz", "run a libFuzzer or AFL++ campaign over the shipped corpus",
              "Usage: poolcheck fuzz [--engine libfuzzer|afl] [--time S] [--jobs N] [--build-dir DIR]\n"
              "                      [--progress S] [--no-merge] [TARGET...]\n\n"
              "Fuzzes TARGETs (default: request params_wire token_types verify). Each target's working\n"
              "corpus .fuzz-work/<T>/corpus is seeded from corpus/<T>/seeds and regressions.\n"
              "--engine libfuzzer (default): the binaries DIR/fuzz/poolcheck_fuzz_<T> (DIR default:\n"
              "build/fuzz; build them with `cmake --workflow --preset fuzz`) in fork mode, so a crash is\n"
              "saved under .fuzz-work/<T>/artifacts/ and fuzzing goes on; new coverage is merged into\n"
              "the working corpus (-merge=1) at the end (--no-merge skips that).\n"
              "--engine afl: afl-fuzz over DIR/fuzz/poolcheck_afl_<T> (DIR default: build/afl; build\n"
              "them with `tools/campaign --engine afl` or `cmake --preset afl && cmake --build --preset\n"
              "afl`), one afl-fuzz per target, from the working corpus, output in a directory per\n"
              "campaign .fuzz-work/<T>/afl/<campaign>/ (findings in default/crashes/ and\n"
              "default/hangs/); the inputs AFL++ adds to its queue are copied into the working corpus.\n"
              "--time S is the total (default 60): with --jobs 1 (default) the targets run one after\n"
              "another, S split between them; with --jobs N they run side by side, N at a time, and\n"
              "libFuzzer gives each target N/targets workers (start-up and the final merge add a few\n"
              "seconds per target). A progress line every --progress seconds (default 5); a summary\n"
              "with, per distinct finding, \"Reproduce with:\" and \"Promote with:\" commands; a chart of\n"
              "coverage and corpus size over time in .fuzz-work/report.svg. The fuzzer's output:\n"
              ".fuzz-work/<T>/fuzz.log.\n"
              "Exit codes: 0 no finding, 1 findings, 2 usage error or missing binaries, 3 a fuzzer\n"
              "failed to run, 130 interrupted by Ctrl-C (the fuzzers get SIGINT and, after 5 s, SIGKILL;\n"
              "no merge; the summary is still printed).\n\n"
              "Example:\n"
              "  poolcheck fuzz --time 60\n"
              "  poolcheck fuzz --time 600 --jobs 2 request\n"
              "  poolcheck fuzz --engine afl --time 60 request\n",
              guarded("fuzz", run_fuzz)},
      Command{"mutate", "the mutation gate: every catalogued core bug must be caught; --auto: generated ones",
              "Usage: poolcheck mutate [--mutant ID[,ID...]] [--work-dir DIR] [--compiler CXX]\n"
              "                        [--fuzz-seconds S] [--list]\n"
              "       poolcheck mutate --auto (--all | --count K [--seed N] | --mutant ID[,ID...])\n"
              "                        [--file core/x.cpp[,...]] [--operator OP[,...]] [--changed-since REV]\n"
              "                        [--jobs N] [--junit FILE] [--work-dir DIR] [--compiler CXX] [--list]\n\n"
              "Applies each mutant of tests/mutation/catalogue.txt (a known bug put back into core/)\n"
              "alone to a mirror of the source under DIR/src (default build/mutation), rebuilds only\n"
              "what it changes (DIR/build: -O2 without debug info, compiler CXX or CMake's default), and runs\n"
              "the `pr` property profile (RC_PARAMS=noshrink=1) and `poolcheck repro corpus` against\n"
              "it. Prints a line per mutant with its killers and times, then the kill matrix (also\n"
              "DIR/report.md). The unmutated baseline runs first and must pass.\n"
              "Fails when a mutant survives, when a mutant no longer applies or does not build, and,\n"
              "for the whole catalogue, when a property kills no mutant.\n"
              "--fuzz-seconds S also measures, per mutant, the seconds one libFuzzer worker of the\n"
              "mutant's target needs from corpus/<T>/seeds to find it, capped at S (DIR/build-fuzz:\n"
              "Clang, libFuzzer, ASan+UBSan). --list prints the catalogue.\n"
              "Exit codes: 0 all killed, 1 a survivor or a property that kills nothing, 2 usage or\n"
              "catalogue error, 3 the baseline fails or a build cannot be configured.\n\n"
              "--auto generates the mutants instead, from clang's AST of core/*.cpp (operators in\n"
              "strings, comments, headers, macros and implicit code are never touched), and runs them\n"
              "the same way (DIR default build/mutation-auto; tests/mutation/README.md). Operators:\n"
              "  relational        < <= > >=, each to its two neighbours (< to <= and >)\n"
              "  equality          == with !=\n"
              "  logical           && with ||\n"
              "  drop-not          a unary ! dropped\n"
              "  int-literal       an integer literal +1 and -1\n"
              "  plus-minus        binary + with - on integers\n"
              "  true-false        true with false\n"
              "  delete-statement  an assignment or insert/erase/push_back/emplace_back statement deleted\n"
              "  arithmetic        * with /, % to / on integers\n"
              "  bitwise           & with |, ^ to |, << with >> on integers\n"
              "  compound-assign   += with -=, *= with /=, &= with |=, <<= with >>= (built-in)\n"
              "  increment         ++ with -- (built-in)\n"
              "  negate-condition  an if's, a loop's or a ?:'s condition c to !(c) (not !x, == or !=)\n"
              "  void-call         a statement that only calls a void function deleted (not reserve)\n"
              "  string-literal    a string literal's first character dropped (\"x\" before \"\" or an escape)\n"
              "--all runs every candidate; --count K a sample of K chosen by --seed N (default 1); the\n"
              "ids of --mutant are looked up among all candidates (reproduce a survivor with it).\n"
              "--file, --operator and --changed-since REV (the lines `git diff -U0 REV` touched in\n"
              "core/) narrow the candidates. --list writes the chosen mutants to stdout in\n"
              "catalogue form (a block can be moved into catalogue.txt as it is) and runs nothing.\n"
              "--jobs N workers (default 1), each with its own mirror and build tree (DIR/worker-N),\n"
              "building with cores/N compile jobs. A mutant's checks may take 3 x N x the baseline's\n"
              "+ 60 s, then it counts as a timeout.\n"
              "Mutants listed in tests/mutation/equivalent.txt are not run and are counted apart; an\n"
              "entry whose mutant is no longer generated is an error. Prints a line per mutant, then\n"
              "the report per file and per operator (killed, survived, timeout, equivalent, did not\n"
              "build) with each survivor's diff (also DIR/report.md); --junit FILE writes JUnit XML.\n"
              "Exit codes: 0 no survivor, 1 a survivor, 2 usage error, stale equivalent entry or a\n"
              "mutant that fails to apply, 3 clang cannot read the core or the baseline fails.\n\n"
              "Examples:\n"
              "  poolcheck mutate --list\n"
              "  poolcheck mutate\n"
              "  poolcheck mutate --mutant h47082-overwrite,clone-shallow\n"
              "  poolcheck mutate --fuzz-seconds 60\n"
              "  poolcheck mutate --auto --list --file core/pairing.cpp > /tmp/pairing-mutants.txt\n"
              "  poolcheck mutate --auto --seed 1 --count 20 --jobs 2\n"
              "  poolcheck mutate --auto --all --jobs 2 --junit mutants.xml      # the nightly sweep\n"
              "  poolcheck mutate --auto --changed-since origin/main --all --operator relational,equality\n"
              "  poolcheck mutate --auto --mutant auto-pairing-26-relational-1\n",
              guarded("mutate", run_mutate)},
  };
}

}  // namespace poolcheck::cli
