// Fuzz target `params_wire`: MessagePack bytes of the PoolingParams wire form:
// decode, encode, decode is a fixed point; object form round trip; exact
// errors (laws::check_params_wire_input). Binary input: libFuzzer's own byte
// mutations, steered by params_wire.dict (MessagePack type bytes, field names).
#include "fuzz/check_or_abort.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_params_wire_input, data, size);
}
