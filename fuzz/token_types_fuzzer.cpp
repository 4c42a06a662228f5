// Fuzz target `token_types`: bytes read as a token-type list
// (laws::token_types_from_bytes): compression, reconstruction, a worker batch
// and packing (laws::check_token_types_input). Mutated as runs of types
// (custom_mutators.hpp) and as bytes.
#include "fuzz/check_or_abort.hpp"
#include "fuzz/custom_mutators.hpp"
#include "fuzz/work_budget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_token_types_input, poolcheck::laws::token_types_outcome,
                                         poolcheck::fuzz::kTokenTypesTargetCheck, data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator("token_types", data, size, max_size, seed);
}
