#include "fuzz/harness/campaign.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/harness/digest.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/process.hpp"
#include "fuzz/harness/progress_text.hpp"
#include "fuzz/harness/repro.hpp"
#include "fuzz/harness/signature.hpp"

namespace poolcheck::harness {
namespace {

const std::vector<std::string> kAllTargets = {"request", "params_wire", "token_types", "verify"};
const char* const kArtifactPrefixes[] = {"crash-", "leak-", "timeout-", "oom-", "slow-unit-"};

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::size_t count_files(const fs::path& dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    n += it->is_regular_file();
  return n;
}

std::set<std::string> artifact_names(const fs::path& dir) {
  std::set<std::string> names;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    for (const char* prefix : kArtifactPrefixes)
      if (name.rfind(prefix, 0) == 0) names.insert(name);
  }
  return names;
}

struct TargetRun {
  std::string target;
  fs::path binary, work, corpus, artifacts;
  std::ofstream log;
  std::vector<std::string> option_flags;
  std::set<std::string> artifacts_before;
  std::size_t seeded = 0, corpus_start = 0, corpus_end = 0;
  FuzzStatus status;
  bool status_seen = false;
  enum class Phase { Waiting, Fuzzing, Merging, Done } phase = Phase::Waiting;
  Process process;
  Clock::time_point started, last_progress, last_status;
  double seconds = 0, fuzz_seconds = 0;
  int forks = 1;
  bool failed = false;
  std::string merge_note;
};

std::string progress_line(const TargetRun& run) {
  const double elapsed = since(run.started);
  std::uint64_t rate = run.status.exec_per_sec;
  if (rate == 0 && elapsed > 0.5) rate = static_cast<std::uint64_t>(static_cast<double>(run.status.execs) / elapsed);
  const std::size_t findings = artifact_names(run.artifacts).size() - run.artifacts_before.size();
  return "[" + padded(run.target, 11) + " " + clock_text(elapsed) + "/" + clock_text(run.seconds) + "] execs " +
         grouped(run.status.execs) + "  exec/s " + grouped(rate) + "  cov " + grouped(run.status.cov) + "  ft " +
         grouped(run.status.ft) + "  corpus " + grouped(run.status.corpus) + "  findings " + std::to_string(findings) +
         " (crash/timeout/oom " + std::to_string(run.status.crashes) + "/" + std::to_string(run.status.timeouts) +
         "/" + std::to_string(run.status.ooms) + ")" +
         // In fork mode libFuzzer reports when a job ends, and jobs grow longer.
         (since(run.last_status) >= 2 ? "  [last report " + clock_text(since(run.last_status)) + " ago]" : "");
}

}  // namespace

std::size_t seed_working_corpus(const fs::path& root, const std::string& target, const fs::path& corpus,
                                std::ostream& err) {
  std::size_t seeded = 0;
  for (const char* kind : {"seeds", "regressions"}) {
    const fs::path dir = root / "corpus" / target / kind;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    auto files = collect_entry_files(dir);
    if (!files) continue;
    for (const auto& file : *files) {
      auto entry = load_entry(file, target);
      if (!entry) {
        err << "poolcheck fuzz: skipping " << entry.error().message << "\n";
        continue;
      }
      const fs::path out = corpus / ("seed-" + digest_of_bytes(entry->input).substr(kDigestPrefix.size()));
      std::ofstream(out, std::ios::binary) << entry->input;
      ++seeded;
    }
  }
  return seeded;
}

namespace {

// Reads what is available; each complete line goes to the log and the parser.
// Returns false at end of file.
bool pump(TargetRun& run) {
  char buffer[16384];
  while (true) {
    const ssize_t n = ::read(run.process.fd, buffer, sizeof buffer);
    if (n > 0) {
      run.process.pending.append(buffer, static_cast<std::size_t>(n));
      std::size_t start = 0;
      for (std::size_t end; (end = run.process.pending.find('\n', start)) != std::string::npos; start = end + 1) {
        const std::string_view line(run.process.pending.data() + start, end - start);
        run.log << line << '\n';
        if (run.phase == TargetRun::Phase::Fuzzing && parse_libfuzzer_status(line, run.status)) {
          run.status_seen = true;
          run.last_status = Clock::now();
        }
      }
      run.process.pending.erase(0, start);
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

void finish_process(TargetRun& run) {
  (void)pump(run);
  if (!run.process.pending.empty()) run.log << run.process.pending << '\n';
  run.process.pending.clear();
  ::close(run.process.fd);
  run.process.fd = -1;
  ::kill(-run.process.pid, SIGKILL);  // stragglers of the group, if any
  if (!run.process.exited) {
    while (::waitpid(run.process.pid, &run.process.status, 0) < 0 && errno == EINTR) {
    }
    run.process.exited = true;
  }
  run.log.flush();
}

struct Finding {
  std::string target;
  fs::path binary;
  fs::path path;
  Signature signature;
  std::size_t size = 0;
};

}  // namespace

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

std::vector<std::string> libfuzzer_option_flags(const fs::path& options_file, const std::vector<std::string>& skip) {
  std::vector<std::string> flags;
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
    if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
    if (key == "dict" && fs::path(value).is_relative()) value = (options_file.parent_path() / value).string();
    flags.push_back("-" + key + "=" + value);
  }
  return flags;
}

std::optional<fs::path> find_project_root(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (fs::is_directory(dir / "corpus", ec) && fs::is_regular_file(dir / "CMakeLists.txt", ec)) return dir;
    if (dir == dir.root_path()) break;
  }
  return std::nullopt;
}

fs::path fuzzer_binary(const fs::path& build_dir, std::string_view target) {
  return build_dir / "fuzz" / ("poolcheck_fuzz_" + std::string(target));
}

int run_campaign(const CampaignOptions& options, std::ostream& out, std::ostream& err) {
  const std::vector<std::string> targets = options.targets.empty() ? kAllTargets : options.targets;
  for (const auto& target : targets) {
    if (!is_known_target(target)) {
      err << "poolcheck fuzz: unknown target '" << target << "' (targets: request, params_wire, token_types, verify)\n";
      return 2;
    }
  }
  std::vector<std::string> missing;
  for (const auto& target : targets)
    if (::access(fuzzer_binary(options.build_dir, target).c_str(), X_OK) != 0)
      missing.push_back(fuzzer_binary(options.build_dir, target).string());
  if (!missing.empty()) {
    err << "poolcheck fuzz: no libFuzzer binary at";
    for (const auto& path : missing) err << "\n  " << path;
    err << "\nBuild the fuzz targets first (Clang with libFuzzer), from the repository root:\n"
           "  cmake --workflow --preset fuzz\n"
           "or\n"
           "  cmake --preset fuzz && cmake --build --preset fuzz\n"
           "or point --build-dir at a build configured with -DPOOLCHECK_FUZZ=ON.\n";
    return 2;
  }

  const int jobs = std::max(1, options.jobs);
  const std::size_t concurrency = std::min<std::size_t>(static_cast<std::size_t>(jobs), targets.size());
  const std::size_t waves = (targets.size() + concurrency - 1) / concurrency;
  const double per_target = std::max(1.0, std::floor(options.seconds / static_cast<double>(waves)));
  const int forks = std::max(1, jobs / static_cast<int>(concurrency));

  std::vector<std::unique_ptr<TargetRun>> runs;
  for (const auto& target : targets) {
    auto run = std::make_unique<TargetRun>();
    run->target = target;
    run->binary = fs::absolute(fuzzer_binary(options.build_dir, target));
    run->work = options.root / ".fuzz-work" / target;
    run->corpus = run->work / "corpus";
    run->artifacts = run->work / "artifacts";
    std::error_code ec;
    fs::create_directories(run->corpus, ec);
    fs::create_directories(run->artifacts, ec);
    if (ec) {
      err << "poolcheck fuzz: cannot create " << run->work.string() << ": " << ec.message() << "\n";
      return 2;
    }
    run->log.open(run->work / "fuzz.log", std::ios::app);
    run->seeded = seed_working_corpus(options.root, target, run->corpus, err);
    run->corpus_start = count_files(run->corpus);
    run->artifacts_before = artifact_names(run->artifacts);
    const fs::path options_file = options.root / "fuzz" / (target + ".options");
    const std::vector<std::string> ours = {"fork", "jobs", "workers", "ignore_crashes", "ignore_timeouts",
                                           "ignore_ooms", "max_total_time", "artifact_prefix", "merge", "runs"};
    if (fs::is_regular_file(options_file, ec)) {
      run->option_flags = libfuzzer_option_flags(options_file, ours);
    } else if (fs::is_regular_file(options.root / "fuzz" / (target + ".dict"), ec)) {
      run->option_flags.push_back("-dict=" + (options.root / "fuzz" / (target + ".dict")).string());
    }
    run->seconds = per_target;
    run->forks = forks;
    runs.push_back(std::move(run));
  }

  out << "poolcheck fuzz: " << targets.size() << " target(s), " << clock_text(options.seconds) << " in all: "
      << (waves == 1 ? "all at once" : std::to_string(waves) + " after one another") << ", " << clock_text(per_target)
      << " each, " << forks << " worker(s) each (-fork=" << forks << ")\n";
  for (const auto& run : runs)
    out << "  " << padded(run->target, 12) << shown(run->corpus) << ": " << run->corpus_start << " inputs ("
        << run->seeded << " from corpus/" << run->target << "), artifacts in " << shown(run->artifacts) << "/\n";
  out.flush();

  SigintFlag sigint;
  bool forwarded = false;

  auto start_fuzzing = [&](TargetRun& run) {
    std::vector<std::string> argv = {run.binary.string(),
                                     "-fork=" + std::to_string(run.forks),
                                     "-ignore_crashes=1",
                                     "-ignore_timeouts=1",
                                     "-ignore_ooms=1",
                                     "-max_total_time=" + std::to_string(static_cast<long>(run.seconds)),
                                     "-artifact_prefix=" + fs::absolute(run.artifacts).string() + "/"};
    argv.insert(argv.end(), run.option_flags.begin(), run.option_flags.end());
    argv.push_back(fs::absolute(run.corpus).string());
    run.log << "==== poolcheck fuzz: ";
    for (const auto& arg : argv) run.log << arg << ' ';
    run.log << '\n';
    run.process = spawn(argv);
    run.started = run.last_progress = run.last_status = Clock::now();
    run.phase = TargetRun::Phase::Fuzzing;
    if (run.process.pid < 0) {
      run.failed = true;
      run.phase = TargetRun::Phase::Done;
    }
  };
  auto start_merging = [&](TargetRun& run) {
    const fs::path merged = run.work / "corpus.merging";
    std::error_code ec;
    fs::remove_all(merged, ec);
    fs::create_directories(merged, ec);
    std::vector<std::string> argv = {run.binary.string(), "-merge=1",
                                     "-artifact_prefix=" + fs::absolute(run.artifacts).string() + "/"};
    for (const auto& flag : run.option_flags)
      if (flag.rfind("-dict=", 0) != 0) argv.push_back(flag);
    argv.push_back(fs::absolute(merged).string());
    argv.push_back(fs::absolute(run.corpus).string());
    run.log << "==== poolcheck fuzz: merging into " << merged.string() << '\n';
    run.process = spawn(argv);
    run.phase = run.process.pid < 0 ? TargetRun::Phase::Done : TargetRun::Phase::Merging;
  };
  auto finish_merging = [&](TargetRun& run) {
    const fs::path merged = run.work / "corpus.merging";
    std::error_code ec;
    const bool ok = WIFEXITED(run.process.status) && WEXITSTATUS(run.process.status) == 0 &&
                    (count_files(merged) > 0 || count_files(run.corpus) == 0);
    if (ok) {
      const fs::path old = run.work / "corpus.old";
      fs::remove_all(old, ec);
      fs::rename(run.corpus, old, ec);
      if (!ec) fs::rename(merged, run.corpus, ec);
      if (!ec) fs::remove_all(old, ec);
      run.merge_note = ec ? "merge: " + ec.message() : "merged";
    } else {
      fs::remove_all(merged, ec);
      run.merge_note = "merge failed, corpus kept unmerged (see fuzz.log)";
    }
  };

  auto active = [&] {
    std::size_t n = 0;
    for (const auto& run : runs)
      n += run->phase == TargetRun::Phase::Fuzzing || run->phase == TargetRun::Phase::Merging;
    return n;
  };

  while (std::any_of(runs.begin(), runs.end(), [](const auto& run) { return run->phase != TargetRun::Phase::Done; })) {
    if (!sigint.raised()) {
      for (auto& run : runs) {
        if (active() >= concurrency) break;
        if (run->phase == TargetRun::Phase::Waiting) start_fuzzing(*run);
      }
    } else {
      for (auto& run : runs)
        if (run->phase == TargetRun::Phase::Waiting) run->phase = TargetRun::Phase::Done;
      if (!forwarded) {
        out << "poolcheck fuzz: interrupted; stopping the fuzzers\n";
        for (auto& run : runs)
          if (run->process.pid > 0 && run->phase != TargetRun::Phase::Done) ::kill(-run->process.pid, SIGINT);
        forwarded = true;
      }
    }

    std::vector<pollfd> fds;
    std::vector<TargetRun*> owners;
    for (auto& run : runs) {
      if ((run->phase == TargetRun::Phase::Fuzzing || run->phase == TargetRun::Phase::Merging) && run->process.fd >= 0) {
        fds.push_back({run->process.fd, POLLIN, 0});
        owners.push_back(run.get());
      }
    }
    if (!fds.empty()) ::poll(fds.data(), fds.size(), 250);

    for (auto* run : owners) {
      const bool open = pump(*run);
      if (!run->process.exited && ::waitpid(run->process.pid, &run->process.status, WNOHANG) == run->process.pid)
        run->process.exited = true;
      if (run->phase == TargetRun::Phase::Fuzzing && !run->process.exited &&
          since(run->started) > run->seconds + 60) {  // libFuzzer ignored -max_total_time
        ::kill(-run->process.pid, SIGKILL);
      }
      if (open && !run->process.exited) {
        if (run->phase == TargetRun::Phase::Fuzzing && since(run->last_progress) >= options.progress_seconds &&
            run->status_seen) {
          out << progress_line(*run) << "\n";
          out.flush();
          run->last_progress = Clock::now();
        }
        continue;
      }
      finish_process(*run);
      if (run->phase == TargetRun::Phase::Fuzzing) {
        run->fuzz_seconds = since(run->started);
        if (!run->status_seen) run->failed = true;
        run->last_status = Clock::now();
        out << progress_line(*run) << (run->failed ? "  FAILED to run (see fuzz.log)" : "  done") << "\n";
        if (options.merge && !sigint.raised() && !run->failed) start_merging(*run);
        else run->phase = TargetRun::Phase::Done;
      } else {
        finish_merging(*run);
        run->phase = TargetRun::Phase::Done;
      }
      run->corpus_end = count_files(run->corpus);
    }
  }
  sigint.restore();

  // Findings: the artifacts this campaign added, classified by replaying them
  // through the law library in a child (as `poolcheck repro` would).
  std::vector<Finding> findings;
  for (const auto& run : runs) {
    for (const auto& name : artifact_names(run->artifacts)) {
      if (run->artifacts_before.count(name)) continue;
      Finding finding;
      finding.target = run->target;
      finding.binary = run->binary;
      finding.path = run->artifacts / name;
      std::error_code ec;
      finding.size = static_cast<std::size_t>(fs::file_size(finding.path, ec));
      auto entry = load_entry(finding.path, run->target);
      if (entry) finding.signature = signature_of(run_isolated(law_library_check(run->target), entry->input, 10));
      findings.push_back(std::move(finding));
    }
  }

  out << "\npoolcheck fuzz: summary\n";
  out << "  " << padded("TARGET", 13) << padded("TIME", 7) << padded("EXECS", 14) << padded("EXEC/S", 10)
      << padded("COV", 8) << padded("FT", 8) << padded("CORPUS", 16) << "FINDINGS\n";
  bool any_failed = false;
  for (const auto& run : runs) {
    std::size_t found = 0;
    for (const auto& finding : findings) found += finding.target == run->target;
    std::uint64_t rate = run->status.exec_per_sec;
    if (rate == 0 && run->fuzz_seconds > 0.5)
      rate = static_cast<std::uint64_t>(static_cast<double>(run->status.execs) / run->fuzz_seconds);
    any_failed = any_failed || run->failed;
    out << "  " << padded(run->target, 13) << padded(clock_text(run->fuzz_seconds), 7)
        << padded(grouped(run->status.execs), 14) << padded(grouped(rate), 10) << padded(grouped(run->status.cov), 8)
        << padded(grouped(run->status.ft), 8)
        << padded(std::to_string(run->corpus_start) + " -> " + std::to_string(run->corpus_end), 16) << found
        << (run->failed ? "  (fuzzer FAILED to run: " + shown(run->work / "fuzz.log") + ")" : "")
        << (run->merge_note.empty() || run->merge_note == "merged" ? "" : "  (" + run->merge_note + ")") << "\n";
  }
  out << "  working corpora and logs: " << shown(options.root / ".fuzz-work") << "/<target>/{corpus,artifacts,fuzz.log}\n";

  if (findings.empty()) {
    out << "\nNo findings.\n";
    return any_failed ? 3 : sigint.raised() ? 130 : 0;
  }
  // One block per distinct (target, signature); the smallest artifact stands for the others.
  std::map<std::pair<std::string, std::string>, std::vector<const Finding*>> groups;
  for (const auto& finding : findings)
    groups[{finding.target, finding.signature.describe()}].push_back(&finding);
  out << "\nFindings: " << findings.size() << " artifact(s), " << groups.size() << " distinct\n";
  for (auto& [key, members] : groups) {
    std::sort(members.begin(), members.end(), [](const Finding* a, const Finding* b) {
      return a->size != b->size ? a->size < b->size : a->path < b->path;
    });
    const Finding& first = *members.front();
    const std::string what = first.signature.failing()
                                 ? first.signature.describe()
                                 : "passes when replayed by this poolcheck build; a sanitizer-only finding? "
                                   "Replay it with: " + shown(first.binary) + " " + shown(first.path);
    out << "\n  [" << first.target << "] " << what << "\n";
    out << "    " << shown(first.path) << " (" << first.size << " bytes)";
    if (members.size() > 1) out << " and " << members.size() - 1 << " more like it";
    out << "\n";
    out << "    Reproduce with: poolcheck repro " << shown(first.path) << " --target " << first.target << "\n";
    out << "    Promote with:   poolcheck promote " << shown(first.path) << " --target " << first.target << "\n";
  }
  return 1;
}

}  // namespace poolcheck::harness
