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
//   poolcheck_fuzz_request_core_only     the envelope, then pre-processing and
//                                        its printed output, or only the plan
//                                        of a request over the work budget, as
//                                        the target decides it (request)
//   poolcheck_fuzz_verify_core_only      `poolcheck verify` (verify)
// They are kept out of `poolcheck fuzz`'s target list and of the fuzz-smoke
// tests: they can find nothing their targets would not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/envelope.hpp"
#include "core/json_api.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "core/preprocess.hpp"
#include "core/wire.hpp"
#include "fuzz/custom_mutators.hpp"
#include "fuzz/work_budget.hpp"
#include "properties/laws/check.hpp"

namespace {

// The core's share of the request target's first run (laws::check_request_input).
// The error body of a refusal is left out: a floor may be a little low, never high.
bool preprocess_as_the_target_does(std::string_view bytes) {
  auto document = poolcheck::parse_bounded_json(bytes);
  auto envelope = document ? poolcheck::envelope_from_json(*document) : document.error();
  if (!envelope) return false;
  if (poolcheck::laws::over_padded_budget(*envelope, poolcheck::fuzz::kRequestTargetCheck.padded_token_budget))
    return poolcheck::plan_prompt_lengths(envelope->model, envelope->request).ok();
  auto output = poolcheck::preprocess(envelope->model, envelope->request);
  return output && !poolcheck::preprocess_output_to_json(*output, envelope->request).is_null();
}

enum class Decoding { Parse, TokenTypes, ParamsWire, Preprocess, Verify };
constexpr Decoding kDecoding = Decoding::POOLCHECK_BASELINE;

// Decodes and drops the result (reading it, so the call is not dead code).
bool decode(std::string_view bytes) {
  if constexpr (kDecoding == Decoding::Parse) return poolcheck::parse_bounded_json(bytes).ok();
  if constexpr (kDecoding == Decoding::TokenTypes) return !poolcheck::laws::token_types_from_bytes(bytes).empty();
  if constexpr (kDecoding == Decoding::ParamsWire) return poolcheck::decode_wire_msgpack(bytes).ok();
  if constexpr (kDecoding == Decoding::Preprocess) return preprocess_as_the_target_does(bytes);
  if constexpr (kDecoding == Decoding::Verify) return poolcheck::verify_json(bytes).ok();
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
