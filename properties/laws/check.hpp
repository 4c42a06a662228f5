#pragma once
// The three runners' entry points: RapidCheck properties, the fuzz targets and
// `poolcheck repro` all hand raw input bytes to one of these, and report what
// comes back. One function per fuzz target; each runs the core and every law
// that applies, and never throws.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck {
struct Envelope;
}

namespace poolcheck::laws {

struct CheckResult {
  Violations violations;
  bool accepted = false;
  // What the core answered: its output, or the error body. Canonical (the
  // same input gives the same bytes), so a corpus entry can pin it.
  Json outcome;
  // The input was over CheckDepth::padded_token_budget: it was decided (its
  // plan, plan_prompt_lengths) but not built, and only the laws of that
  // verdict ran. outcome is then null for an accepted input.
  bool over_budget = false;
};

// The work budget of padded prompts (fuzz/work_budget.hpp says why), for the
// fuzz targets and the properties of mutated inputs. 2^18 tokens: under ASan a
// 2^18-token input checks in about 1/80 of the time of a 2^24-token one
// (`poolcheck repro`, one run each), which had reached the 10 s timeout on a
// loaded machine.
inline constexpr std::int64_t kPaddedTokenBudget = std::int64_t{1} << 18;

// How deep a fuzz target checks an input (fuzz/work_budget.hpp says why). The
// defaults, every law on every input, are the properties' and `poolcheck
// repro`'s, and those of the one-argument entry points below.
struct CheckDepth {
  // `request` only. > 0: an envelope whose padded prompts would exceed this
  // many tokens is only planned, not built (over_budget).
  std::int64_t padded_token_budget = 0;
  // The most expensive part of each target's check, its "full check":
  //   request      the re-runs (each a whole pre-processing, rendered) and the
  //                wire round trip of every pair's params;
  //   params_wire  the `poolcheck params` commands on the decoded params;
  //   token_types  the `poolcheck compress`, `reconstruct` and `batch`
  //                commands on the types;
  //   verify       the `poolcheck verify` command on the same bytes, and the
  //                wire round trip of the verified params.
  // With n > 1 only inputs whose hash is 0 mod n get it; every other law
  // runs on every input the check is given (under an engine, the inputs the
  // law sample picks: law_sample.hpp). The choice follows from the bytes, so
  // a finding reproduces, and `poolcheck repro` (n = 1) sees it too.
  std::uint32_t full_check_one_in = 1;
  // `token_types` only. > 0: its full check hands the commands the first this
  // many types (and their batch), not the whole list.
  std::size_t command_types_limit = 0;
  // Under an engine only (fuzz/check_or_abort.hpp; the check functions do
  // not read it): the laws judge the first input of each outcome shape and
  // one in this many of the others (law_sample.hpp). 1: every input.
  std::uint32_t laws_one_in = 1;
};

// The `poolcheck preprocess` envelope: bounded parse, pre-processing, every
// law of spec section 8, and the two laws that run the input again:
// determinism (the same bytes again) and coercion invariance (one typed field
// respelled as pydantic coerces it).
CheckResult check_request_input(std::string_view bytes);
CheckResult check_request_input(std::string_view bytes, const CheckDepth& how);
// MessagePack bytes of the wire form: decode, encode, decode is a fixed point;
// object form round trip; exact errors.
CheckResult check_params_wire_input(std::string_view bytes);
CheckResult check_params_wire_input(std::string_view bytes, const CheckDepth& how);
// Bytes read as token types (see token_types_from_bytes): compression,
// reconstruction, a worker batch and packing.
CheckResult check_token_types_input(std::string_view bytes);
CheckResult check_token_types_input(std::string_view bytes, const CheckDepth& how);
// {"model": {...}, "pooling_params": {...}}: verify's laws.
CheckResult check_verify_input(std::string_view bytes);
CheckResult check_verify_input(std::string_view bytes, const CheckDepth& how);

// Each target's outcome with no law at all: the core as the check runs it,
// on the same bytes and budget (CheckResult's accepted, outcome and
// over_budget are the check's; an exception escaping the core is the one
// violation). A fuzz target runs it on every input and the check on a sample
// (law_sample.hpp); the floors of bench/fuzz_speed --core-only are request's
// and verify's.
CheckResult request_outcome(std::string_view bytes, const CheckDepth& how);
CheckResult params_wire_outcome(std::string_view bytes, const CheckDepth& how);
CheckResult token_types_outcome(std::string_view bytes, const CheckDepth& how);
CheckResult verify_outcome(std::string_view bytes, const CheckDepth& how);

// The fuzz targets by name, for runners that pick one at run time.
struct Target {
  std::string name;
  CheckResult (*check)(std::string_view bytes);
};
const std::vector<Target>& targets();
const Target* find_target(std::string_view name);

// Whether the padded prompts of `envelope` exceed `budget` tokens (0: no
// budget), so that the request target only plans it (CheckDepth).
bool over_padded_budget(const Envelope& envelope, std::int64_t budget);

// Byte b is the type b % 3 (0, 1 or 2), except 0xFC..0xFF, which are -4..-1:
// mostly near-valid lists, with the quirky negatives and the invalid 2s.
std::vector<std::int64_t> token_types_from_bytes(std::string_view bytes);

}  // namespace poolcheck::laws
