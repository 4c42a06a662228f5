// Benchmark baselines, not product targets (bench/fuzz_speed, Fuzzing.md
// "Performance"): each runs only the decoding its fuzz target must do before
// any law, and checks nothing, so that a target's exec/s can be measured
// against the cheapest thing it could possibly do, with the same compiler
// flags (sanitizers and coverage), libraries and custom mutator. Built once
// per decoding and mutator (POOLCHECK_BASELINE, POOLCHECK_BASELINE_MUTATOR,
// fuzz/CMakeLists.txt):
//   poolcheck_fuzz_parse_only            the bounded JSON parse (request)
//   poolcheck_fuzz_verify_parse_only     the same, with verify's mutator (verify)
//   poolcheck_fuzz_token_types_decode    bytes to token types (token_types)
//   poolcheck_fuzz_params_wire_decode    the MessagePack wire decode (params_wire)
// and two floors, each the core's share of its target's check on the same
// bytes, parse included, with no law at all: what the target would cost if
// every law were free (bench/fuzz_speed --core-only):
//   poolcheck_fuzz_request_core_only     laws::request_outcome: the envelope,
//                                        then pre-processing and its printed
//                                        output, or only the plan of a request
//                                        over the work budget (request)
//   poolcheck_fuzz_verify_core_only      laws::verify_outcome, what `poolcheck
//                                        verify` runs (verify)
// These are the very functions the targets run on every input before their
// law sample (check_or_abort.hpp), so the floor is that share exactly.
// They are kept out of `poolcheck fuzz`'s target list and of the fuzz-smoke
// tests: they can find nothing their targets would not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/json_input.hpp"
#include "core/wire.hpp"
#include "fuzz/custom_mutators.hpp"
#include "fuzz/work_budget.hpp"
#include "properties/laws/check.hpp"

namespace {

enum class Decoding { Parse, TokenTypes, ParamsWire, Preprocess, Verify };
constexpr Decoding kDecoding = Decoding::POOLCHECK_BASELINE;

// Decodes and drops the result (reading it, so the call is not dead code).
bool decode(std::string_view bytes) {
  if constexpr (kDecoding == Decoding::Parse) return poolcheck::parse_bounded_json(bytes).ok();
  if constexpr (kDecoding == Decoding::TokenTypes) return !poolcheck::laws::token_types_from_bytes(bytes).empty();
  if constexpr (kDecoding == Decoding::ParamsWire) return poolcheck::decode_wire_msgpack(bytes).ok();
  if constexpr (kDecoding == Decoding::Preprocess)
    return poolcheck::laws::request_outcome(bytes, poolcheck::fuzz::kRequestTargetCheck).accepted;
  if constexpr (kDecoding == Decoding::Verify)
    return poolcheck::laws::verify_outcome(bytes, poolcheck::fuzz::kVerifyTargetCheck).accepted;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return decode(std::string_view(reinterpret_cast<const char*>(data), size)) ? 0 : 0;
}

// The mutator of the target it stands for, so that in a campaign both see the
// same kind of inputs and pay the same mutation cost per execution.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator(POOLCHECK_BASELINE_MUTATOR, data, size, max_size, seed);
}
