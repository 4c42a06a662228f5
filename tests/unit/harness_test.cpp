// The harness library behind `poolcheck repro`, `promote` and `fuzz`
// (fuzz/harness/), without libFuzzer: entry loading and unwrapping, verdicts,
// isolation of crashes and hangs, the minimiser keeping a failure signature,
// promotion and its duplicate refusal, and the parsing of libFuzzer's output.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "fuzz/harness/campaign.hpp"
#include "fuzz/harness/digest.hpp"
#include "fuzz/harness/engine.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/isolation.hpp"
#include "fuzz/harness/minimise.hpp"
#include "fuzz/harness/promote.hpp"
#include "fuzz/harness/repro.hpp"
#include "fuzz/harness/signature.hpp"
#include "fuzz/harness/verdict.hpp"
#include "properties/laws/check.hpp"

namespace poolcheck::harness {
namespace {

const fs::path kSource = POOLCHECK_SOURCE_DIR;

// ------------------------------------------------------------------ helpers

// A fresh directory under the system's temporary directory, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "poolcheck-harness-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Fake checks, standing for a target's law-library entry point with a known bug.
// "request"-like: violates keys-never-lost when the text holds "boom", and
// nothing-mutated too when it also holds "bang"; rejects non-objects.
laws::CheckResult fake_json_check(std::string_view bytes) {
  laws::CheckResult result;
  auto document = parse_bounded_json(bytes);
  if (!document || !document->is_object()) {
    result.outcome = Json{{"error", {{"message", "not an object"}}}};
    return result;
  }
  result.accepted = true;
  result.outcome = Json{{"accepted", true}};  // the same for every object
  if (bytes.find("boom") != std::string_view::npos) result.violations.push_back({"keys-never-lost", "boom"});
  if (bytes.find("bang") != std::string_view::npos) result.violations.push_back({"nothing-mutated", "bang"});
  return result;
}
// Binary: violates "compression" when a 0x02 follows a 0x01 anywhere later.
laws::CheckResult fake_bytes_check(std::string_view bytes) {
  laws::CheckResult result{{}, true, Json{{"n", bytes.size()}}};
  const auto one = bytes.find('\x01');
  if (one != std::string_view::npos && bytes.find('\x02', one) != std::string_view::npos)
    result.violations.push_back({"compression", "a 2 after a 1"});
  return result;
}
laws::CheckResult crashing_check(std::string_view) {
  std::fprintf(stderr, "about to crash\n");
  std::abort();
}
laws::CheckResult hanging_check(std::string_view) {
  std::this_thread::sleep_for(std::chrono::hours(1));
  return {};
}

#if defined(__SANITIZE_ADDRESS__)
#define POOLCHECK_HARNESS_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOLCHECK_HARNESS_TEST_ASAN 1
#endif
#endif

#ifdef POOLCHECK_HARNESS_TEST_ASAN
// A heap overflow: under AddressSanitizer the child's report names this frame.
[[gnu::noinline]] laws::CheckResult overflowing_check(std::string_view bytes) {
  std::vector<char> buffer(bytes.begin(), bytes.end());
  volatile const char* data = buffer.data();
  const char past_the_end = data[buffer.size() + 16];
  return {{}, past_the_end == 0, nullptr};
}
#endif

CheckFunction fake_resolver(std::string_view target) {
  if (target == "request") return fake_json_check;
  if (target == "token_types") return fake_bytes_check;
  if (target == "params_wire") return crashing_check;
  if (target == "verify") return hanging_check;
  return nullptr;
}

IsolatedRun completed(const laws::CheckResult& result) {
  IsolatedRun run;
  run.status = RunStatus::Completed;
  run.summary = summarise(result);
  return run;
}

// ------------------------------------------------------------------ entries

TEST(HarnessEntry, EmbeddedJsonEntryCarriesNoteExpectAndCatches) {
  const std::string bytes =
      R"({"note": "n", "catches": ["keys-never-lost"], "expect": {"verdict": "reject", "message": "m"},)"
      R"( "endpoint": "score", "request": {}})";
  auto entry = entry_from_bytes("corpus/request/regressions/x.json", bytes, "request");
  ASSERT_TRUE(entry) << entry.error().message;
  EXPECT_EQ(entry->form, EntryForm::Embedded);
  EXPECT_EQ(entry->input, bytes);  // the core gets the whole file, entry keys included
  EXPECT_EQ(entry->note, "n");
  EXPECT_EQ(entry->catches, std::vector<std::string>{"keys-never-lost"});
  ASSERT_TRUE(entry->expect);
  EXPECT_EQ(entry->expect->verdict, Verdict::Reject);
  EXPECT_EQ(entry->expect->message, "m");
}

TEST(HarnessEntry, RawFilesOfBinaryTargetsCarryNoMetadata) {
  auto entry = entry_from_bytes("x.bin", R"({"note": "n", "expect": 5})", "token_types");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->form, EntryForm::Raw);
  EXPECT_FALSE(entry->expect);
  EXPECT_TRUE(entry->note.empty());
}

TEST(HarnessEntry, WrapperUnwrapsHexAndText) {
  auto hex = entry_from_bytes(
      "a.pcentry", R"({"poolcheck_entry": 1, "note": "n", "expect": {"verdict": "accept"}, "input_hex": "00fc01FF"})",
      "token_types");
  ASSERT_TRUE(hex) << hex.error().message;
  EXPECT_EQ(hex->form, EntryForm::Wrapped);
  EXPECT_EQ(hex->input, std::string("\x00\xfc\x01\xff", 4));
  EXPECT_EQ(hex->note, "n");
  auto text = entry_from_bytes("a.pcentry", R"({"poolcheck_entry": 1, "input_text": "[1,"})", "request");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->input, "[1,");
}

TEST(HarnessEntry, MalformedEntriesAreErrorsNotSilentlyIgnored) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"a.pcentry", R"({"input_hex": "00"})"},                                           // no version
      {"a.pcentry", R"({"poolcheck_entry": 1, "input_hex": "0"})"},                      // odd hex
      {"a.pcentry", R"({"poolcheck_entry": 1, "input_hex": "zz"})"},                     // not hex
      {"a.pcentry", R"({"poolcheck_entry": 1})"},                                        // no input
      {"a.pcentry", R"({"poolcheck_entry": 1, "input_hex": "", "input_text": ""})"},     // both
      {"a.pcentry", R"({"poolcheck_entry": 1, "input_hex": "", "expected": {}})"},       // typo
      {"a.json", R"({"expect": {"verdict": "accepted"}, "endpoint": "score"})"},         // bad verdict
      {"a.json", R"({"expect": {"verdict": "accept", "message": "m"}})"},                // wrong field
      {"a.json", R"({"expect": {"verdict": "accept", "digest": "sha1:00"}})"},           // bad digest
      {"a.json", R"({"note": 3})"},
  };
  for (const auto& [name, bytes] : bad) EXPECT_FALSE(entry_from_bytes(name, bytes, "request")) << bytes;
}

TEST(HarnessEntry, TargetIsInferredFromCorpusAndWorkDirectories) {
  EXPECT_EQ(infer_target("corpus/request/regressions/x.json"), "request");
  EXPECT_EQ(infer_target("/a/corpus/token_types/seeds/y.bin"), "token_types");
  EXPECT_EQ(infer_target(".fuzz-work/params_wire/artifacts/crash-1"), "params_wire");
  EXPECT_EQ(infer_target("corpus/verify"), "verify");
  EXPECT_EQ(infer_target("/tmp/crash-1"), std::nullopt);
  EXPECT_EQ(infer_target("corpus/unknown/x"), std::nullopt);
  EXPECT_EQ(infer_target("request/x.json"), std::nullopt);
}

TEST(HarnessEntry, RenderedEntriesRoundTrip) {
  EntryMeta meta;
  meta.note = "why";
  meta.catches = {"keys-never-lost"};
  meta.expect = Expect{Verdict::Accept, digest_of_bytes("x"), std::nullopt};
  const Json input = Json::parse(R"({"endpoint": "score", "request": {"queries": "q"}})");
  auto text = render_embedded_entry(input, meta);
  ASSERT_TRUE(text);
  auto embedded = entry_from_bytes("r.json", *text, "request");
  ASSERT_TRUE(embedded);
  EXPECT_EQ(embedded->note, "why");
  EXPECT_EQ(embedded->catches, meta.catches);
  EXPECT_EQ(embedded->expect, meta.expect);
  EXPECT_EQ(content_key(embedded->input), dump_json(input));  // the entry keys do not count
  EXPECT_FALSE(render_embedded_entry(Json::parse(R"({"note": 1})"), meta));  // would collide
  EXPECT_FALSE(render_embedded_entry(Json::array(), meta));

  const std::string bytes("\x00\x01\xff{", 4);
  auto wrapped = entry_from_bytes("r.pcentry", render_wrapped_entry(bytes, meta, true), "token_types");
  ASSERT_TRUE(wrapped);
  EXPECT_EQ(wrapped->input, bytes);
  EXPECT_EQ(wrapped->expect, meta.expect);
}

// The JSON targets ignore unknown top-level keys, so "note", "expect",
// "catches" and "promoted_from" can ride inside the input: adding them to any
// shipped request or verify entry must not change what the law library sees.
TEST(HarnessEntry, EntryKeysDoNotChangeTheOutcomeOfAnyJsonEntry) {
  std::size_t checked = 0;
  for (const char* target : {"request", "verify"}) {
    auto files = collect_entry_files(kSource / "corpus" / target);
    ASSERT_TRUE(files);
    for (const auto& file : *files) {
      auto entry = load_entry(file, target);
      ASSERT_TRUE(entry) << entry.error().message;
      Json document = Json::parse(entry->input, nullptr, false);
      if (document.is_discarded() || !document.is_object() ||
          nesting_depth(entry->input, kMaxNestingDepth) > kMaxNestingDepth - 1)
        continue;
      for (const char* key : {"note", "expect", "catches", "promoted_from"}) document.erase(key);
      const CheckFunction check = laws::find_target(target)->check;
      const laws::CheckResult bare = check(dump_json(document));
      Json annotated = document;
      annotated["note"] = "a note";
      annotated["expect"] = Json{{"verdict", "reject"}, {"message", "m"}};
      annotated["catches"] = Json::array({"keys-never-lost"});
      annotated["promoted_from"] = "crash-0";
      const laws::CheckResult with_keys = check(dump_json(annotated));
      EXPECT_EQ(dump_json(bare.outcome), dump_json(with_keys.outcome)) << file;
      EXPECT_EQ(bare.accepted, with_keys.accepted) << file;
      EXPECT_EQ(bare.violations, with_keys.violations) << file;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10u);
}

TEST(HarnessEntry, EveryShippedCorpusEntryLoads) {
  auto files = collect_entry_files(kSource / "corpus");
  ASSERT_TRUE(files);
  for (const auto& file : *files) {
    const auto target = infer_target(file);
    ASSERT_TRUE(target) << file;
    auto entry = load_entry(file, *target);
    EXPECT_TRUE(entry) << entry.error().message;
    if (entry && file.parent_path().filename() == "regressions") {
      EXPECT_FALSE(entry->note.empty()) << file << ": a regression needs a note";
    }
  }
}

TEST(HarnessEntry, APathThatIsNeitherFileNorDirectoryIsNamedForWhatItIs) {
  const auto missing = collect_entry_files("/nonexistent/poolcheck-entry");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "/nonexistent/poolcheck-entry: no such file or directory");
  const auto device = collect_entry_files("/dev/null");  // exists, but holds no entry
  ASSERT_FALSE(device);
  EXPECT_EQ(device.error().message, "/dev/null: not a regular file or a directory");
}

// ------------------------------------------------------------------ verdicts

TEST(HarnessVerdict, ExpectedVerdictDigestAndMessageAreChecked) {
  const laws::CheckResult accepted{{}, true, Json{{"outputs", Json::array()}}};
  Entry entry;
  EXPECT_EQ(judge(entry, completed(accepted), 1).status, Status::Pass);  // no expectation

  entry.expect = Expect{Verdict::Accept, outcome_digest(accepted.outcome), std::nullopt};
  EXPECT_EQ(judge(entry, completed(accepted), 1).status, Status::Pass);
  entry.expect->digest = digest_of_bytes("something else");
  Judgement drift = judge(entry, completed(accepted), 1);
  EXPECT_EQ(drift.status, Status::Fail);
  ASSERT_GE(drift.details.size(), 2u);
  EXPECT_EQ(drift.details[0], "- digest:  " + digest_of_bytes("something else"));
  EXPECT_EQ(drift.details[1], "+ digest:  " + outcome_digest(accepted.outcome));

  const laws::CheckResult rejected{{}, false, Json{{"error", {{"message", "top_n: bad"}}}}};
  entry.expect = Expect{Verdict::Reject, std::nullopt, "top_n: bad"};
  EXPECT_EQ(judge(entry, completed(rejected), 1).status, Status::Pass);
  entry.expect->message = "other";
  Judgement wrong = judge(entry, completed(rejected), 1);
  EXPECT_EQ(wrong.status, Status::Fail);
  EXPECT_EQ(wrong.reason, "rejected with a different message");
  EXPECT_EQ(wrong.details.at(0), R"(- message: "other")");
  EXPECT_EQ(wrong.details.at(1), R"(+ message: "top_n: bad")");

  Judgement flipped = judge(entry, completed(accepted), 1);
  EXPECT_EQ(flipped.status, Status::Fail);
  EXPECT_EQ(flipped.reason, "expected reject, got accept");
}

TEST(HarnessVerdict, ViolationsFailAndNameTheirLaws) {
  Entry entry;
  entry.catches = {"keys-never-lost"};
  const laws::CheckResult broken{{{"keys-never-lost", "lost 'k'"}, {"determinism", "x"}}, true, Json::object()};
  Judgement judgement = judge(entry, completed(broken), 1);
  EXPECT_EQ(judgement.status, Status::Fail);
  EXPECT_EQ(judgement.laws, (std::vector<std::string>{"determinism", "keys-never-lost"}));
  EXPECT_NE(judgement.reason.find("violates determinism, keys-never-lost"), std::string::npos);
  EXPECT_NE(judgement.reason.find("promoted for is back"), std::string::npos);
  EXPECT_EQ(judgement.details.at(0), "[keys-never-lost] lost 'k'");
  // A promoted entry (catches, no expect) passes once the bug is fixed.
  EXPECT_EQ(judge(entry, completed({{}, true, Json::object()}), 1).status, Status::Pass);
}

// ------------------------------------------------------------------ isolation

TEST(HarnessIsolation, ChildReportsTheSameAsInProcess) {
  const std::string input = R"({"endpoint":"score","request":{"queries":"q","documents":["d"]}})";
  const CheckFunction check = laws::find_target("request")->check;
  const IsolatedRun run = run_isolated(check, input, 10);
  ASSERT_EQ(run.status, RunStatus::Completed);
  const CheckSummary here = run_in_process(check, input);
  EXPECT_EQ(run.summary.outcome, here.outcome);
  EXPECT_EQ(run.summary.digest, here.digest);
  EXPECT_EQ(run.summary.accepted, here.accepted);
}

TEST(HarnessIsolation, CrashesAndHangsAreOutcomes) {
  const IsolatedRun crash = run_isolated(crashing_check, "x", 10);
  EXPECT_EQ(crash.status, RunStatus::Crashed);
  EXPECT_EQ(signal_name(crash.signal), "SIGABRT");
  EXPECT_NE(crash.stderr_text.find("about to crash"), std::string::npos);
  EXPECT_EQ(signature_of(crash).describe(), "crash SIGABRT");

  const auto start = std::chrono::steady_clock::now();
  const IsolatedRun hang = run_isolated(hanging_check, "x", 0.3);
  EXPECT_EQ(hang.status, RunStatus::TimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(HarnessSignature, SanitizerReportsAndFuzzTargetViolations) {
  const std::string asan =
      "=================================================================\n"
      "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602 at pc 0x5 bp 0x7 sp 0x7\n"
      "READ of size 1 at 0x602 thread T0\n"
      "    #0 0x55 in __asan_memcpy (/x+0x1)\n"
      "    #1 0x56 in poolcheck::compress_token_types(std::vector<long> const&) /src/core/token_types.cpp:10:3\n"
      "    #2 0x57 in poolcheck::laws::(anonymous namespace)::check_token_types(std::basic_string_view<char>) /src/check.cpp:1\n"
      "    #3 0x58 in LLVMFuzzerTestOneInput /src/fuzz/token_types_fuzzer.cpp:5\n"
      "    #4 0x59 in fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) FuzzerLoop.cpp:611\n"
      "\n0x602 is located 0 bytes to the right of 1-byte region\n"
      "allocated by thread T0 here:\n"
      "    #0 0x60 in operator new(unsigned long) (/x+0x2)\n";
  const Signature crash = signature_from_report(asan, SIGABRT, 0);
  EXPECT_EQ(crash.kind, Signature::Kind::Crash);
  EXPECT_EQ(crash.crash, "heap-buffer-overflow");
  EXPECT_EQ(crash.frames, (std::vector<std::string>{"poolcheck::compress_token_types",
                                                     "poolcheck::laws::(anonymous namespace)::check_token_types"}));

  const Signature law = signature_from_report(
      "poolcheck: law violated\n[keys-never-lost] lost\n[keys-never-lost] lost again\n[packing] x\n\n"
      "==1== ERROR: libFuzzer: deadly signal\n",
      SIGABRT, 0);
  EXPECT_EQ(law.kind, Signature::Kind::Laws);
  EXPECT_EQ(law.laws, (std::vector<std::string>{"keys-never-lost", "packing"}));

  EXPECT_EQ(signature_from_report("==1== ERROR: libFuzzer: deadly signal\n", SIGSEGV, 0).crash, "SIGSEGV");
  EXPECT_EQ(signature_from_report("x.cpp:3:5: runtime error: signed integer overflow: 1 + 2\n", 0, 1).crash,
            "runtime error: signed integer overflow");
}

// A real sanitizer report from a child: its kind and top frames make the
// signature, and the same bug on another input has the same signature.
TEST(HarnessSignature, SanitizerCrashInAChildKeepsItsTopFrames) {
#ifndef POOLCHECK_HARNESS_TEST_ASAN
  GTEST_SKIP() << "needs AddressSanitizer (the clang-asan or fuzz preset)";
#else
  const IsolatedRun run = run_isolated(overflowing_check, "abc", 60);
  ASSERT_EQ(run.status, RunStatus::Crashed) << run.stderr_text;
  const Signature signature = signature_of(run);
  EXPECT_EQ(signature.crash, "heap-buffer-overflow") << run.stderr_text;
  ASSERT_FALSE(signature.frames.empty()) << run.stderr_text;
  EXPECT_NE(signature.frames[0].find("overflowing_check"), std::string::npos) << signature.describe();
  EXPECT_EQ(signature_of(run_isolated(overflowing_check, "abcdefgh", 60)), signature);
#endif
}

// ------------------------------------------------------------------ repro

TEST(HarnessRepro, EveryEntryRunsInItsOwnChildAndTheRunGoesOn) {
  TempDir dir;
  const fs::path corpus = dir.path() / "corpus";
  write(corpus / "request" / "a-pass.json", R"({"note": "fine", "x": 1})");
  write(corpus / "request" / "b-fail.json", R"({"note": "broken", "x": "boom"})");
  write(corpus / "params_wire" / "crash.bin", "c");
  write(corpus / "verify" / "hang.json", "{}");
  write(corpus / "request" / "README.md", "not an entry");
  write(corpus / "request" / ".hidden", "not an entry");
  ReproOptions options;
  options.paths = {corpus};
  options.timeout_seconds = 0.5;
  options.resolver = fake_resolver;
  auto plan = plan_repro(options);
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->size(), 4u);
  const ReproReport report = run_repro(*plan, options, nullptr);
  ASSERT_EQ(report.cases.size(), 4u);
  EXPECT_EQ(report.cases[0].judgement.status, Status::Fail);  // params_wire/crash.bin
  EXPECT_NE(report.cases[0].judgement.reason.find("crash SIGABRT"), std::string::npos);
  EXPECT_EQ(report.cases[1].judgement.status, Status::Pass);  // request/a-pass.json
  EXPECT_EQ(report.cases[2].judgement.status, Status::Fail);  // request/b-fail.json
  EXPECT_EQ(report.cases[2].judgement.laws, std::vector<std::string>{"keys-never-lost"});
  EXPECT_EQ(report.cases[3].judgement.status, Status::Timeout);
  EXPECT_FALSE(report.all_passed());

  const std::string xml = junit_xml(report);
  EXPECT_NE(xml.find(R"(<testsuites name="poolcheck repro" tests="4" failures="2" errors="1")"), std::string::npos);
  EXPECT_NE(xml.find(R"(<failure type="law" message="violates keys-never-lost">)"), std::string::npos);
  EXPECT_NE(xml.find(R"(<error type="timeout")"), std::string::npos);

  std::ostringstream text;
  print_failures_and_summary(text, report);
  EXPECT_NE(text.str().find("repro: 4 entries: 1 PASS, 2 FAIL, 1 TIMEOUT"), std::string::npos);
  EXPECT_NE(text.str().find("violated law(s): keys-never-lost"), std::string::npos);
}

TEST(HarnessRepro, TargetComesFromThePathElseFromTheOption) {
  TempDir dir;
  write(dir.path() / "loose.json", "{}");
  write(dir.path() / "corpus" / "request" / "x.json", "{}");
  ReproOptions options;
  options.resolver = fake_resolver;
  options.paths = {dir.path() / "loose.json"};
  EXPECT_FALSE(plan_repro(options));  // no target
  options.target = "token_types";
  auto plan = plan_repro(options);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->at(0).target, "token_types");
  options.paths = {dir.path() / "corpus" / "request" / "x.json"};
  EXPECT_FALSE(plan_repro(options));  // the path says request
  options.target = "nonsense";
  EXPECT_FALSE(plan_repro(options));
  options.target.reset();
  options.paths = {dir.path() / "missing"};
  EXPECT_FALSE(plan_repro(options));
}

// The shipped corpus passes (the same as the `corpus` ctest label, in process).
TEST(HarnessRepro, ShippedCorpusPasses) {
  ReproOptions options;
  options.paths = {kSource / "corpus"};
  auto plan = plan_repro(options);
  ASSERT_TRUE(plan) << plan.error().message;
  const ReproReport report = run_repro(*plan, options, nullptr);
  std::ostringstream text;
  print_failures_and_summary(text, report);
  EXPECT_TRUE(report.all_passed()) << text.str();
}

// ------------------------------------------------------------------ minimiser

TEST(HarnessMinimise, DdminFindsAOneMinimalInput) {
  MinimiseStats stats;
  auto keeps = [](std::string_view s) {
    const auto a = s.find('a');
    return a != std::string_view::npos && s.find('b', a) != std::string_view::npos;
  };
  EXPECT_EQ(ddmin_bytes("xxaxxxxxxxyyyyybzz", keeps, stats), "ab");
  EXPECT_GT(stats.evaluations, 0u);
  MinimiseStats none;
  EXPECT_EQ(ddmin_bytes("anything", [](std::string_view) { return true; }, none), "");
}

TEST(HarnessMinimise, BudgetIsRespected) {
  MinimiseStats stats;
  stats.budget = 5;
  (void)ddmin_bytes(std::string(1000, 'x'), [](std::string_view s) { return s.size() > 10; }, stats);
  EXPECT_EQ(stats.evaluations, 5u);
}

TEST(HarnessMinimise, TreePassKeepsValidJson) {
  MinimiseStats stats;
  std::size_t invalid_seen = 0;
  auto keeps = [&](std::string_view s) {
    auto document = parse_bounded_json(s);
    if (!document) {
      ++invalid_seen;
      return false;
    }
    return document->is_object() && document->contains("request") && (*document)["request"].is_object() &&
           (*document)["request"].contains("top_n");
  };
  const std::string input =
      R"({"endpoint": "rerank", "model": {"name": "m", "max_model_len": 512},
          "request": {"query": "what is it", "documents": ["a", "b", "c"], "top_n": 12345}})";
  const std::string tree = shrink_json_tree(input, keeps, stats);
  EXPECT_EQ(invalid_seen, 0u);  // every candidate of the tree pass was JSON
  EXPECT_EQ(tree, R"({"request":{"top_n":0}})");
  EXPECT_EQ(minimise(input, true, keeps, stats), R"({"request":{"top_n":0}})");
}

// The minimiser keeps the exact signature: an input violating two laws does not
// shrink into one violating only one of them, nor into a passing one.
TEST(HarnessMinimise, KeepsTheFailureSignature) {
  const std::string input =
      R"({"endpoint": "llm.score", "request": {"data_1": "boom", "data_2": ["bang", "x", "y"], "z": [1, 2, 3]}})";
  const Signature wanted = signature_of(run_in_process(fake_json_check, input));
  ASSERT_EQ(wanted.laws, (std::vector<std::string>{"keys-never-lost", "nothing-mutated"}));
  MinimiseStats stats;
  const std::string small = minimise(
      input, true, [&](std::string_view c) { return signature_of(run_in_process(fake_json_check, c)) == wanted; },
      stats);
  EXPECT_LT(small.size(), input.size());
  EXPECT_EQ(signature_of(run_in_process(fake_json_check, small)), wanted);
  EXPECT_NE(small.find("boom"), std::string::npos);
  EXPECT_NE(small.find("bang"), std::string::npos);
  EXPECT_TRUE(parse_bounded_json(small)) << small;
}

// ------------------------------------------------------------------ promote

TEST(HarnessPromote, WritesAMinimalRegressionAndRefusesDuplicates) {
  TempDir dir;
  const fs::path artifact = dir.path() / "crash-123";
  write(artifact, R"({"endpoint": "llm.score", "request": {"data_1": "q", "pooling_params": {"extra_kwargs": {"boom": 1}}}})");
  PromoteOptions options;
  options.artifact = artifact;
  options.target = "request";
  options.corpus_dir = dir.path() / "corpus";
  options.resolver = fake_resolver;
  std::ostringstream log;
  auto result = promote(options, log);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->written.parent_path(), dir.path() / "corpus" / "request" / "regressions");
  EXPECT_EQ(result->written.extension(), ".json");
  EXPECT_EQ(read(result->written).rfind("{\"note\": ", 0), 0u);  // readable: the note comes first
  EXPECT_LT(result->bytes_after, result->bytes_before);

  auto entry = load_entry(result->written, "request");
  ASSERT_TRUE(entry) << entry.error().message;
  EXPECT_EQ(entry->form, EntryForm::Embedded);
  EXPECT_EQ(entry->catches, std::vector<std::string>{"keys-never-lost"});
  EXPECT_FALSE(entry->note.empty());
  EXPECT_FALSE(entry->expect);  // the fixed core's verdict is unknown at promotion time

  // It fails repro (the bug is still there), found by directory with no edit.
  ReproOptions repro;
  repro.paths = {dir.path() / "corpus" / "request"};
  repro.resolver = fake_resolver;
  auto plan = plan_repro(repro);
  ASSERT_TRUE(plan);
  const ReproReport report = run_repro(*plan, repro, nullptr);
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_EQ(report.cases[0].judgement.status, Status::Fail);
  EXPECT_EQ(report.cases[0].judgement.laws, std::vector<std::string>{"keys-never-lost"});

  // The same finding again: the same minimised input, refused.
  auto again = promote(options, log);
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("holds the same input"), std::string::npos) << again.error().message;
  // Another input, the same laws violated with the same output: refused too.
  write(artifact, R"({"other": [1, 2], "x": "boom boom"})");
  auto same = promote(options, log);
  ASSERT_FALSE(same);
  EXPECT_NE(same.error().message.find("same laws with the same output"), std::string::npos)
      << same.error().message;

  // A different signature is no duplicate; a passing input is refused.
  write(artifact, R"({"x": "boom", "y": "bang"})");
  options.name = "two-laws";
  auto other = promote(options, log);
  ASSERT_TRUE(other) << other.error().message;
  // (Its minimised form may hold a duplicate key, which an embedded entry would
  // lose when re-serialised: then promote falls back to a wrapper.)
  EXPECT_EQ(other->written.stem(), "two-laws");
  auto two = load_entry(other->written, "request");
  ASSERT_TRUE(two);
  EXPECT_EQ(signature_of(run_in_process(fake_json_check, two->input)).laws,
            (std::vector<std::string>{"keys-never-lost", "nothing-mutated"}));
  write(artifact, R"({"x": 1})");
  options.name = "passes";
  auto passing = promote(options, log);
  ASSERT_FALSE(passing);
  EXPECT_NE(passing.error().message.find("nothing to promote"), std::string::npos);
}

TEST(HarnessPromote, BinaryFindingsAreWrappedAndCrashesKeepTheirSignature) {
  TempDir dir;
  const fs::path artifact = dir.path() / ".fuzz-work" / "token_types" / "artifacts" / "crash-1";
  write(artifact, std::string("\x00\x00\x01\x00\x00\x00\x02\x00", 8));
  PromoteOptions options;
  options.artifact = artifact;  // target inferred from .fuzz-work/token_types/
  options.corpus_dir = dir.path() / "corpus";
  options.resolver = fake_resolver;
  std::ostringstream log;
  auto result = promote(options, log);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->written.extension(), ".pcentry");
  auto entry = load_entry(result->written, "token_types");
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->input, std::string("\x01\x02", 2));
  EXPECT_EQ(entry->catches, std::vector<std::string>{"compression"});

  // A crash: minimised in a child per candidate, the signature is the crash's.
  const fs::path crash = dir.path() / "crash-2";
  write(crash, "abcdef");
  options.artifact = crash;
  options.target = "params_wire";
  options.budget = 50;
  auto crashed = promote(options, log);
  ASSERT_TRUE(crashed) << crashed.error().message;
  EXPECT_EQ(crashed->signature.describe(), "crash SIGABRT");
  EXPECT_EQ(crashed->bytes_after, 0u);
}

// ------------------------------------------------------------------ campaign

TEST(HarnessCampaign, ParsesLibFuzzerStatusLines) {
  FuzzStatus status;
  EXPECT_TRUE(parse_libfuzzer_status(
      "#815870: cov: 5 ft: 7 corp: 4 exec/s 123 oom/timeout/crash: 1/2/22 time: 4s job: 23 dft_time: 0", status));
  EXPECT_EQ(status.execs, 815870u);
  EXPECT_EQ(status.cov, 5u);
  EXPECT_EQ(status.ft, 7u);
  EXPECT_EQ(status.corpus, 4u);
  EXPECT_EQ(status.exec_per_sec, 123u);
  EXPECT_EQ(status.ooms, 1u);
  EXPECT_EQ(status.timeouts, 2u);
  EXPECT_EQ(status.crashes, 22u);
  EXPECT_TRUE(parse_libfuzzer_status(
      "#1234\tNEW    cov: 12 ft: 14 corp: 3/10b lim: 4 exec/s: 617 rss: 30Mb L: 3/3 MS: 1 ChangeBit-", status));
  EXPECT_EQ(status.execs, 1234u);
  EXPECT_EQ(status.cov, 12u);
  EXPECT_EQ(status.corpus, 3u);
  EXPECT_EQ(status.exec_per_sec, 617u);
  EXPECT_EQ(status.crashes, 22u);  // kept from before
  EXPECT_FALSE(parse_libfuzzer_status("INFO: Seed: 123", status));
  EXPECT_FALSE(parse_libfuzzer_status("==1== ERROR: libFuzzer: deadly signal", status));
}

TEST(HarnessCampaign, ParsesAflStatusFileAndStatsdLines) {
  FuzzStatus status;
  status.ooms = 3;  // not AFL++'s: kept
  long pid = 0;
  std::size_t counters = 0;
  for (const char* line : {"fuzzer_pid        : 27660", "execs_done        : 229943", "execs_per_sec     : 28685.50",
                           "corpus_count      : 4", "bitmap_cvg        : 54.55%", "saved_crashes     : 1",
                           "saved_hangs       : 2", "edges_found       : 6", "total_edges       : 11",
                           "target_mode       : persistent shmem_testcase deferred ", ""})
    counters += parse_afl_status(line, status, pid);
  EXPECT_EQ(counters, 8u);  // bitmap_cvg is computed from edges_found and total_edges
  EXPECT_EQ(pid, 27660);
  EXPECT_EQ(status, (FuzzStatus{.execs = 229943, .exec_per_sec = 28685, .cov = 6, .map_size = 11, .corpus = 4,
                                .ooms = 3, .timeouts = 2, .crashes = 1}));
  // StatsD lines (AFL_STATSD=1); "inf" before the first second of fuzzing.
  for (const char* line : {"fuzzing.execs_done:8709|g", "fuzzing.execs_per_sec:inf|g", "fuzzing.edges_found:1893|g"})
    EXPECT_TRUE(parse_afl_status(line, status, pid)) << line;
  EXPECT_FALSE(parse_afl_status("fuzzing.execs_done:|g", status, pid));
  EXPECT_EQ(status, (FuzzStatus{.execs = 8709, .exec_per_sec = 0, .cov = 1893, .map_size = 11, .corpus = 4,
                                .ooms = 3, .timeouts = 2, .crashes = 1}));
}

TEST(HarnessCampaign, OptionsFileBecomesFlags) {
  TempDir dir;
  write(dir.path() / "t.options", "# comment\n[libfuzzer]\ndict = t.dict\nmax_len = 4096\nfork = 9\n[other]\nx = 1\n");
  const auto flags = libfuzzer_option_flags(dir.path() / "t.options", {"fork"});
  EXPECT_EQ(flags, (std::vector<std::string>{"-dict=" + (dir.path() / "t.dict").string(), "-max_len=4096"}));
}

// AFL++ offers a custom mutator 1 MiB whatever -G says and cuts longer test
// cases to -G: the spec mutator is told the target's max_len itself.
TEST(HarnessCampaign, AflGetsMaxLenAsGAndAsTheMutatorsLimit) {
  TempDir dir;
  write(dir.path() / "t.options", "[libfuzzer]\nmax_len = 2048\ntimeout = 10\n");
  TargetPlan plan;
  plan.target = "verify";
  plan.binary = dir.path() / "build" / "fuzz" / "poolcheck_afl_verify";
  plan.work = dir.path() / "work";
  plan.corpus = plan.work / "corpus";
  plan.options_file = dir.path() / "t.options";
  plan.seconds = 5;
  const Launch launch = make_engine(EngineKind::Afl)->fuzz(plan);
  const auto g = std::find(launch.argv.begin(), launch.argv.end(), "-G");
  ASSERT_NE(g, launch.argv.end());
  EXPECT_EQ(*std::next(g), "2048");
  const std::pair<std::string, std::string> limit{"POOLCHECK_AFL_MAX_LEN", "2048"};
  EXPECT_NE(std::find(launch.env.begin(), launch.env.end(), limit), launch.env.end());
}

TEST(HarnessCampaign, MissingFuzzBinariesSayHowToBuildThem) {
  struct Case {
    EngineKind engine;
    std::string binary;
    std::vector<std::string> hints;
  };
  for (const auto& c : {Case{EngineKind::LibFuzzer, "poolcheck_fuzz_request",
                             {"cmake --workflow --preset fuzz", "cmake --preset fuzz && cmake --build --preset fuzz"}},
                        Case{EngineKind::Afl, "poolcheck_afl_request",
                             {"tools/campaign --engine afl", "cmake --preset afl && cmake --build --preset afl"}}}) {
    TempDir dir;
    CampaignOptions options;
    options.root = dir.path();
    options.build_dir = dir.path() / "build";
    options.engine = c.engine;
    std::ostringstream out, err;
    EXPECT_EQ(run_campaign(options, out, err), 2);
    EXPECT_NE(err.str().find("\n  " + (options.build_dir / "fuzz" / c.binary).string() + "\n"), std::string::npos)
        << err.str();
    for (const auto& hint : c.hints) EXPECT_NE(err.str().find(hint), std::string::npos) << hint;
    EXPECT_FALSE(fs::exists(dir.path() / ".fuzz-work"));  // nothing started
  }
}

}  // namespace
}  // namespace poolcheck::harness
