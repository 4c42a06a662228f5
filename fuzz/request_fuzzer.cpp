// Fuzz target `request`: the `poolcheck preprocess` envelope as bytes, through
// the bounded parse, pre-processing and every law of spec section 8
// (laws::check_request_input, as fuzz/work_budget.hpp configures it). JSON
// input, so the structure-aware mutator. Inputs over the work budget are
// decided, not built (their plan's laws only), and kept out of the corpus.
#include "fuzz/check_or_abort.hpp"
#include "fuzz/custom_mutators.hpp"
#include "fuzz/work_budget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_request_input, poolcheck::laws::request_outcome,
                                         poolcheck::fuzz::kRequestTargetCheck, data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator("request", data, size, max_size, seed);
}
