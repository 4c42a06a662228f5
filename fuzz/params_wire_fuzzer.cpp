// Fuzz target `params_wire`: MessagePack bytes of the PoolingParams wire form:
// decode, encode, decode is a fixed point; object form round trip; exact
// errors (laws::check_params_wire_input). Binary input: mutated as MessagePack
// array elements (custom_mutators.hpp) and as bytes, steered by
// params_wire.dict (MessagePack type bytes, field names).
#include "fuzz/check_or_abort.hpp"
#include "fuzz/custom_mutators.hpp"
#include "fuzz/work_budget.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_params_wire_input, poolcheck::laws::params_wire_outcome,
                                         poolcheck::fuzz::kCommandsTargetCheck, data, size);
}

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator("params_wire", data, size, max_size, seed);
}
