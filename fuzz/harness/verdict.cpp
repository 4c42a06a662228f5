#include "fuzz/harness/verdict.hpp"

#include <algorithm>

#include "core/json_input.hpp"
#include "fuzz/harness/signature.hpp"

namespace poolcheck::harness {
namespace {

std::string quoted(const std::string& text) { return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string excerpt(const std::string& text, std::size_t limit = 400) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string describe_verdict(const Expect& verdict) {
  if (verdict.verdict == Verdict::Reject)
    return "reject" + (verdict.message ? " " + quoted(*verdict.message) : std::string());
  return "accept" + (verdict.digest ? ", digest " + *verdict.digest : std::string());
}

// The lines of `text` worth showing from a crashed child: the sanitizer's
// summary and the first frames, or the start of whatever it wrote.
std::vector<std::string> crash_excerpt(const std::string& text, std::size_t max_lines = 12) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size() && lines.size() < max_lines) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty()) lines.push_back("  | " + excerpt(line, 200));
    start = end + 1;
  }
  return lines;
}

}  // namespace

const char* status_name(Status status) {
  switch (status) {
    case Status::Pass: return "PASS";
    case Status::Fail: return "FAIL";
    case Status::Timeout: return "TIMEOUT";
  }
  return "?";
}

Expect actual_verdict(const CheckSummary& summary) {
  Expect actual;
  actual.verdict = summary.accepted ? Verdict::Accept : Verdict::Reject;
  if (summary.accepted) {
    actual.digest = summary.digest;
  } else {
    auto parsed = parse_bounded_json(summary.outcome);  // an error body: small, read as the core reads
    const Json outcome = parsed ? std::move(*parsed) : Json(Json::value_t::discarded);
    if (!outcome.is_discarded() && outcome.contains("error") && outcome["error"].contains("message") &&
        outcome["error"]["message"].is_string())
      actual.message = outcome["error"]["message"].get<std::string>();
  }
  return actual;
}

Judgement judge(const Entry& entry, const IsolatedRun& run, double timeout_seconds) {
  Judgement judgement;
  if (run.status == RunStatus::TimedOut) {
    judgement.status = Status::Timeout;
    judgement.reason = "no answer within " + std::to_string(static_cast<long long>(timeout_seconds * 1000)) + " ms";
    return judgement;
  }
  if (run.status == RunStatus::Crashed) {
    const Signature signature = signature_of(run);
    judgement.status = Status::Fail;
    judgement.laws = signature.laws;
    judgement.reason = signature.kind == Signature::Kind::Laws ? "crashed after violating " + signature.describe()
                                                               : signature.describe();
    judgement.details = crash_excerpt(run.stderr_text);
    return judgement;
  }

  const CheckSummary& summary = run.summary;
  for (const auto& v : summary.violations) {
    judgement.laws.push_back(v.law);
    judgement.details.push_back("[" + v.law + "] " + v.description);
  }
  std::sort(judgement.laws.begin(), judgement.laws.end());
  judgement.laws.erase(std::unique(judgement.laws.begin(), judgement.laws.end()), judgement.laws.end());

  std::vector<std::string> reasons;
  if (!judgement.laws.empty()) {
    std::string laws;
    for (const auto& law : judgement.laws) laws += (laws.empty() ? "" : ", ") + law;
    reasons.push_back("violates " + laws);
  }
  if (entry.expect) {
    const Expect actual = actual_verdict(summary);
    const Expect& expected = *entry.expect;
    if (expected.verdict != actual.verdict) {
      reasons.push_back(std::string("expected ") + (expected.verdict == Verdict::Accept ? "accept" : "reject") +
                        ", got " + (actual.verdict == Verdict::Accept ? "accept" : "reject"));
      judgement.details.push_back("- expected: " + describe_verdict(expected));
      judgement.details.push_back("+ actual:   " + describe_verdict(actual));
      judgement.details.push_back("+ outcome:  " + excerpt(summary.outcome));
    } else if (expected.verdict == Verdict::Accept && expected.digest && expected.digest != actual.digest) {
      reasons.push_back("accepted with a different output");
      judgement.details.push_back("- digest:  " + *expected.digest);
      judgement.details.push_back("+ digest:  " + *actual.digest);
      judgement.details.push_back("+ outcome: " + excerpt(summary.outcome));
    } else if (expected.verdict == Verdict::Reject && expected.message && expected.message != actual.message) {
      reasons.push_back("rejected with a different message");
      judgement.details.push_back("- message: " + quoted(*expected.message));
      judgement.details.push_back("+ message: " + (actual.message ? quoted(*actual.message) : "(none)"));
    }
  }
  if (!entry.catches.empty() && !judgement.laws.empty()) {
    bool back = false;
    for (const auto& law : entry.catches)
      back = back || std::binary_search(judgement.laws.begin(), judgement.laws.end(), law);
    if (back) reasons.push_back("the bug this entry was promoted for is back");
  }
  if (!reasons.empty()) {
    judgement.status = Status::Fail;
    for (const auto& reason : reasons) judgement.reason += (judgement.reason.empty() ? "" : "; ") + reason;
  }
  return judgement;
}

}  // namespace poolcheck::harness
