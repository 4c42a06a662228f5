#pragma once
// The whole of a fuzz target: hand the bytes to the law library's entry point
// and abort, with the violated laws on stderr, when any law fails. The laws
// live in properties/laws/ only; a target never checks anything itself.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "properties/laws/check.hpp"

namespace poolcheck::fuzz {

using CheckFunction = laws::CheckResult (*)(std::string_view bytes);

inline int abort_on_violation(const laws::CheckResult& result) {
  if (!result.violations.empty()) {
    // abort(), not a return code: libFuzzer saves the input as a crash artifact
    // and the replay driver reports the file.
    std::fprintf(stderr, "poolcheck: law violated\n%s\n", laws::describe(result.violations).c_str());
    std::fflush(stderr);
    std::abort();
  }
  // -1 keeps an input over the work budget (checked only in part) out of the corpus.
  return result.over_budget ? -1 : 0;
}

inline std::string_view as_bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

inline int check_or_abort(CheckFunction check, const std::uint8_t* data, std::size_t size) {
  return abort_on_violation(check(as_bytes(data, size)));
}

// A target that checks some laws on a sample of its inputs (work_budget.hpp).
using DepthCheckFunction = laws::CheckResult (*)(std::string_view bytes, const laws::CheckDepth& how);

inline int check_or_abort(DepthCheckFunction check, const laws::CheckDepth& how, const std::uint8_t* data,
                          std::size_t size) {
  return abort_on_violation(check(as_bytes(data, size), how));
}

}  // namespace poolcheck::fuzz
