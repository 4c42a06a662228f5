// AFL++'s custom mutator (AFL_CUSTOM_MUTATOR_LIBRARY): the same mutations as
// the libFuzzer targets' LLVMFuzzerCustomMutator (custom_mutators.hpp), so a
// campaign on the second engine draws from the property generators too.
// `poolcheck fuzz --engine afl` loads it (libpoolcheck_afl_mutator.so) and
// names the target in POOLCHECK_AFL_TARGET; by hand:
//
//   AFL_CUSTOM_MUTATOR_LIBRARY=build/afl-mutator/fuzz/libpoolcheck_afl_mutator.so \
//   POOLCHECK_AFL_TARGET=request POOLCHECK_AFL_MAX_LEN=4096 \
//   afl-fuzz -i corpus/request/seeds -o out -G 4096 -- build/afl/fuzz/poolcheck_afl_request
//
// POOLCHECK_AFL_MAX_LEN is the target's max_len (fuzz/<T>.options), the value
// of -G. AFL++ offers the custom mutator its MAX_FILE (1 MiB) as max_size
// whatever -G says, then cuts a longer test case to -G's length: a JSON text
// cut so is JSON no more, and a spec mutation is lost. With the variable the
// mutations keep within max_len, as under libFuzzer; `poolcheck fuzz --engine
// afl` and bench/time_to_find set it.
//
// AFL++ keeps its own havoc stage alongside (AFL_CUSTOM_MUTATOR_ONLY=1 turns it
// off). There is no libFuzzer here, so the byte half of the mix is AFL++'s own
// havoc; this library flips one bit where custom_mutators.hpp would call the
// engine's byte mutator.
//
// Left to itself, AFL++ sizes the custom stage of an entry as its havoc stage
// or smaller (HAVOC_CYCLES = 256 executions at the default score; newer
// versions take less), then runs havoc: at most half of a campaign's
// executions were spec mutations, where under libFuzzer every execution goes
// through custom_mutators.hpp's mix. afl_custom_fuzz_count asks for
// POOLCHECK_AFL_FUZZ_COUNT executions of each entry instead (default
// kFuzzCount), so the spec mix leads, as under libFuzzer, and havoc still runs.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/custom_mutators.hpp"
#include "fuzz/json_mutator.hpp"

namespace {

constexpr std::string_view kTargets[] = {"request", "verify", "params_wire", "token_types"};
constexpr std::uint32_t kFuzzCount = 768;  // three times HAVOC_CYCLES

struct MutatorState {
  std::string target;
  std::uint64_t seed;
  std::size_t max_len;      // 0: AFL++'s max_size as given
  std::uint32_t fuzz_count;  // executions of each entry in the custom stage
  std::vector<std::uint8_t> buffer;
};

// The environment variable `name` as a number; `fallback` when unset or not one.
std::uint64_t number_from_environment(const char* name, std::uint64_t fallback, std::uint64_t most) {
  const char* text = std::getenv(name);
  if (text == nullptr) return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || *text == '-' || value > most) {
    std::fprintf(stderr, "libpoolcheck_afl_mutator: %s must be a number up to %llu; got '%s', so %llu\n", name,
                 static_cast<unsigned long long>(most), text, static_cast<unsigned long long>(fallback));
    return fallback;
  }
  return value;
}

}  // namespace

extern "C" void* afl_custom_init(void* /*afl*/, unsigned int seed) {
  const char* target = std::getenv("POOLCHECK_AFL_TARGET");
  for (std::string_view known : kTargets)
    if (target != nullptr && known == target)
      return new (std::nothrow) MutatorState{
          std::string(known), seed, number_from_environment("POOLCHECK_AFL_MAX_LEN", 0, SIZE_MAX),
          static_cast<std::uint32_t>(number_from_environment("POOLCHECK_AFL_FUZZ_COUNT", kFuzzCount, UINT32_MAX)),
          {}};
  std::fprintf(stderr,
               "libpoolcheck_afl_mutator: set POOLCHECK_AFL_TARGET to the fuzz target's name "
               "(request, verify, params_wire or token_types); got %s\n",
               target != nullptr ? target : "nothing");
  return nullptr;
}

extern "C" std::size_t afl_custom_fuzz(void* data, std::uint8_t* buf, std::size_t buf_size, std::uint8_t** out_buf,
                                       std::uint8_t* /*add_buf*/, std::size_t /*add_buf_size*/, std::size_t max_size) {
  auto& state = *static_cast<MutatorState*>(data);
  // Never below the entry's own size: custom_mutator's contract is size <= max_size.
  const std::size_t limit = std::max(buf_size, state.max_len > 0 ? std::min(max_size, state.max_len) : max_size);
  state.buffer.assign(buf, buf + buf_size);
  state.buffer.resize(limit);
  const auto seed = static_cast<unsigned int>(poolcheck::fuzz::splitmix64(state.seed));  // one per call
  const std::size_t size =
      poolcheck::fuzz::custom_mutator(state.target, state.buffer.data(), buf_size, limit, seed, nullptr);
  *out_buf = state.buffer.data();
  return size;
}

extern "C" std::uint32_t afl_custom_fuzz_count(void* data, const std::uint8_t* /*buf*/, std::size_t /*buf_size*/) {
  return static_cast<MutatorState*>(data)->fuzz_count;
}

extern "C" const char* afl_custom_describe(void* data, std::size_t /*max_description_len*/) {
  return static_cast<MutatorState*>(data)->target == "request" ? "poolcheck-spec" : "poolcheck";
}

extern "C" void afl_custom_deinit(void* data) { delete static_cast<MutatorState*>(data); }
