// Benchmark baseline, not a product target: `poolcheck_fuzz_parse_only` runs
// only the bounded JSON parse (core/json_input.hpp) on the bytes and checks no
// law. It exists so the `request` target's exec/s can be measured against the
// cheapest thing any JSON target must do, with the same compiler flags
// (sanitizers and coverage), the same dictionary, limits and custom mutator
// (issue 4, "Performance"; the figures are in Fuzzing.md, "Performance").
// It is kept out of `poolcheck fuzz`'s target list and of the fuzz-smoke
// tests: it can find nothing the `request` target would not.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/json_input.hpp"
#include "fuzz/json_mutator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parsed =
      poolcheck::parse_bounded_json(std::string_view(reinterpret_cast<const char*>(data), size));
  // Read the result so the call is not dead code; the value itself is dropped.
  return parsed ? 0 : 0;
}

// The same mutator as `request`, so both targets see the same kind of inputs
// (mostly valid JSON) and pay the same mutation cost per execution.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  return poolcheck::fuzz::custom_mutator(data, size, max_size, seed);
}
