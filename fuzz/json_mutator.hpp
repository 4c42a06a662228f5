#pragma once
// A structure-aware mutator for the JSON fuzz targets (`request`, `verify`).
// Byte mutations mostly break JSON syntax, and a broken document only ever
// reaches the parser; this one parses the input with the core's bounded parser,
// changes the tree the way the spec's edges suggest (boundary numbers, spec
// field names and literals, dropped / duplicated / nested members, changed
// types) and writes it back, so most mutants get past validation.
#include <cstddef>
#include <cstdint>

namespace poolcheck::fuzz {

// A byte-level mutator with libFuzzer's LLVMFuzzerMutate contract: mutate
// data[0, size) in place, at most max_size bytes, return the new size.
using ByteMutator = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t max_size);

// Mutates the JSON document in data[0, size) in place and returns its new size
// (at most max_size). Unparsable input, a mutant that does not fit and, now and
// then, parsable input too (byte-level diversity: broken syntax, odd escapes)
// go to `bytes`; a null `bytes` flips one byte instead. Deterministic: the
// same input and seed give the same output. Nesting never exceeds one level
// past the parser's limit, so the limit itself gets tested but trees cannot
// grow without bound.
std::size_t mutate_json(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed,
                        ByteMutator bytes);

// `bytes`, or without one (replay drivers, tests) one flipped bit, or a `{`
// into an empty input.
// splitmix64: the next number of `state`. Tiny, and the same sequence with
// every standard library (the <random> distributions are not), so a seed
// replays anywhere.
std::uint64_t splitmix64(std::uint64_t& state);

std::size_t mutate_bytes(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed,
                         ByteMutator bytes);

}  // namespace poolcheck::fuzz
