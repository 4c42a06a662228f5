#pragma once
// A finding's failure signature: what `promote` keeps while minimising and
// what tells two findings apart. Either the set of violated law ids, or a
// crash (its kind and the top frames of the sanitizer report), or a timeout.
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/harness/isolation.hpp"

namespace poolcheck::harness {

struct Signature {
  enum class Kind { Pass, Laws, Crash, Timeout };
  Kind kind = Kind::Pass;
  std::vector<std::string> laws;    // Laws: sorted, unique law ids
  std::string crash;                // Crash: e.g. "SIGSEGV", "heap-buffer-overflow", "exit 1"
  std::vector<std::string> frames;  // Crash: top frames (function names), innermost first

  bool failing() const { return kind != Kind::Pass; }
  // "laws keys-never-lost,nothing-mutated", "crash heap-buffer-overflow in f < g < h", ...
  std::string describe() const;
  // For the entry's "catches": the law ids, or one "crash: ..." / "timeout" item.
  std::vector<std::string> catches() const;
  bool operator==(const Signature&) const = default;
};

Signature signature_of(const CheckSummary& summary);
Signature signature_of(const IsolatedRun& run);

// A crash signature out of a child's stderr: the sanitizer's error kind
// ("==N==ERROR: AddressSanitizer: heap-buffer-overflow ...", "runtime error: ...")
// or libFuzzer's ("deadly signal"), and the top `frames` stack frames' function
// names, runtime frames (sanitizer, libc, libFuzzer) skipped. A law violation
// reported by a fuzz target ("[law] description" lines after "poolcheck: law
// violated") gives a Laws signature instead.
Signature signature_from_report(std::string_view report, int signal, int exit_code, std::size_t frames = 3);

}  // namespace poolcheck::harness
