#pragma once
// Judging one replayed entry: PASS when the child completed, no law was
// violated and the expected verdict (when the entry has one) matches; FAIL
// on a violation, a crash or a verdict mismatch; TIMEOUT past the deadline.
// A failure carries the violated law ids and a minimal diff: expected versus
// actual verdict, message or digest, and the violations' descriptions.
#include <string>
#include <vector>

#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/isolation.hpp"

namespace poolcheck::harness {

enum class Status { Pass, Fail, Timeout };

struct Judgement {
  Status status = Status::Pass;
  std::string reason;               // one line: why it failed
  std::vector<std::string> laws;    // the violated law ids, sorted
  std::vector<std::string> details; // the diff: "- expected ...", "+ actual ...", "[law] ..."
};

// The actual verdict, as the entry format spells an expectation.
Expect actual_verdict(const CheckSummary& summary);

Judgement judge(const Entry& entry, const IsolatedRun& run, double timeout_seconds);

const char* status_name(Status status);

}  // namespace poolcheck::harness
