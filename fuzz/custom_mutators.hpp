#pragma once
// The fuzz targets' custom mutators, one body for both engines: libFuzzer's
// LLVMFuzzerCustomMutator (each <T>_fuzzer.cpp) and AFL++'s afl_custom_fuzz
// (afl_custom_mutator.cpp).
//
// The mix comes from the environment variable POOLCHECK_MUTATOR (read once),
// so that a comparison run is one variable away:
//   spec   (default) half the calls draw a mutation from the property
//          generators (properties/suites/input_mutations.hpp: fields, pairs,
//          shapes, defects, coerced spellings, boundaries, as the spec knows
//          them); the other half go to the JSON tree mutator (request and
//          verify, fuzz/json_mutator.hpp) or to the engine's byte mutator
//          (token_types and params_wire).
//   json   the JSON tree mutator alone (the default before issue 12); bytes
//          for the two binary targets.
//   bytes  the engine's byte mutator alone, as without a custom mutator.
// POOLCHECK_JSON_MUTATOR=0, the older switch, still means `bytes`.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace poolcheck::fuzz {

enum class MutatorMix { Spec, Json, Bytes };
MutatorMix mutator_mix();

// A byte-level mutator with libFuzzer's LLVMFuzzerMutate contract: mutate
// data[0, size) in place, at most max_size bytes, return the new size.
using ByteMutator = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t max_size);

// Mutates data[0, size) in place as `target`'s input (request, verify,
// params_wire or token_types), at most max_size bytes, and returns the new
// size. Deterministic: the same input, seed and mix give the same output.
// `bytes` is the engine's byte mutator (null: one bit flipped instead).
// Never throws.
std::size_t custom_mutator(std::string_view target, std::uint8_t* data, std::size_t size, std::size_t max_size,
                           unsigned int seed, ByteMutator bytes);

// The same with libFuzzer's LLVMFuzzerMutate as the byte mutator (null in the
// replay drivers, which have no libFuzzer and never mutate).
std::size_t custom_mutator(std::string_view target, std::uint8_t* data, std::size_t size, std::size_t max_size,
                           unsigned int seed);

}  // namespace poolcheck::fuzz
