// Fuzz target `request`: the `poolcheck preprocess` envelope as bytes, through
// the bounded parse, pre-processing and every law of spec section 8
// (laws::check_request_input). JSON input, so the structure-aware mutator.
// Inputs over the work budget (fuzz/work_budget.hpp) are skipped.
#include "fuzz/check_or_abort.hpp"
#include "fuzz/json_mutator.hpp"
#include "fuzz/work_budget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (poolcheck::fuzz::over_work_budget(std::string_view(reinterpret_cast<const char*>(data), size))) return -1;
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_request_input, data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator(data, size, max_size, seed);
}
