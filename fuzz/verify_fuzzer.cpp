// Fuzz target `verify`: {"model": {...}, "pooling_params": {...}} as bytes,
// through PoolingParams.verify and its laws (laws::check_verify_input). JSON
// input, so the structure-aware mutator.
#include "fuzz/check_or_abort.hpp"
#include "fuzz/custom_mutators.hpp"
#include "fuzz/work_budget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_verify_input, poolcheck::laws::verify_outcome,
                                         poolcheck::fuzz::kVerifyTargetCheck, data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator("verify", data, size, max_size, seed);
}
