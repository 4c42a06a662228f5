#include "fuzz/custom_mutators.hpp"

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "core/json_input.hpp"
#include "fuzz/json_mutator.hpp"
#include "properties/suites/input_mutations.hpp"

// libFuzzer's byte mutator. Declared weak so that the same target sources also
// link into the replay drivers and the AFL++ mutator library, which have no
// libFuzzer: there the address is null.
extern "C" __attribute__((weak)) std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size,
                                                              std::size_t max_size);

namespace poolcheck::fuzz {
namespace {

MutatorMix read_mix() {
  const char* old_switch = std::getenv("POOLCHECK_JSON_MUTATOR");
  if (old_switch != nullptr && std::string_view(old_switch) == "0") return MutatorMix::Bytes;
  const char* value = std::getenv("POOLCHECK_MUTATOR");
  const std::string_view mix = value != nullptr ? value : "spec";
  if (mix == "json") return MutatorMix::Json;
  if (mix == "bytes") return MutatorMix::Bytes;
  return MutatorMix::Spec;
}

bool json_target(std::string_view target) { return target == "request" || target == "verify"; }

// A draw from the property generators' mutation of `target`'s input, with a
// Random seeded from the engine's seed. The generators' size grows with the
// seed's high bits, so small and large draws both happen.
props::MutatedInput spec_mutation(std::string_view target, const std::string& input, unsigned int seed) {
  const rc::Random random(seed);
  const int size = static_cast<int>((seed >> 8) % 101);
  if (target == "params_wire") return props::gen_params_wire_mutation(input)(random, size).value();
  if (target == "token_types") return props::gen_token_types_mutation(input)(random, size).value();
  auto parsed = parse_bounded_json(input);
  const Json document = parsed ? std::move(*parsed) : Json(nullptr);
  if (target == "verify") return props::gen_verify_mutation(document)(random, size).value();
  return props::gen_request_mutation(document)(random, size).value();
}

// The other half of the spec mix, and all of the json mix.
std::size_t non_spec_mutation(std::string_view target, std::uint8_t* data, std::size_t size, std::size_t max_size,
                              unsigned int seed, ByteMutator bytes) {
  if (json_target(target)) return mutate_json(data, size, max_size, seed, bytes);
  return mutate_bytes(data, size, max_size, seed, bytes);
}

}  // namespace

MutatorMix mutator_mix() {
  static const MutatorMix mix = read_mix();
  return mix;
}

std::size_t custom_mutator(std::string_view target, std::uint8_t* data, std::size_t size, std::size_t max_size,
                           unsigned int seed, ByteMutator bytes) {
  const MutatorMix mix = mutator_mix();
  if (mix == MutatorMix::Bytes) return mutate_bytes(data, size, max_size, seed, bytes);
  if (mix == MutatorMix::Json || seed % 2 == 0) return non_spec_mutation(target, data, size, max_size, seed, bytes);
  try {
    const auto mutated = spec_mutation(target, std::string(reinterpret_cast<const char*>(data), size), seed / 2);
    if (mutated.bytes.size() <= max_size) {
      if (!mutated.bytes.empty()) std::memcpy(data, mutated.bytes.data(), mutated.bytes.size());
      return mutated.bytes.size();
    }
  } catch (const std::exception&) {
    // A generator gave up (RapidCheck's GenerationFailure) or nlohmann refused
    // an operation: never on the fuzzer's time.
  }
  return non_spec_mutation(target, data, size, max_size, seed, bytes);
}

std::size_t custom_mutator(std::string_view target, std::uint8_t* data, std::size_t size, std::size_t max_size,
                           unsigned int seed) {
  return custom_mutator(target, data, size, max_size, seed, LLVMFuzzerMutate);
}

}  // namespace poolcheck::fuzz
