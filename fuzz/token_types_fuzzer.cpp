// Fuzz target `token_types`: bytes read as a token-type list
// (laws::token_types_from_bytes): compression, reconstruction, a worker batch
// and packing (laws::check_token_types_input). Byte mutations suit it as is.
#include "fuzz/check_or_abort.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return poolcheck::fuzz::check_or_abort(poolcheck::laws::check_token_types_input, data, size);
}
