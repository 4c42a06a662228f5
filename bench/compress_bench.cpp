// compress_token_types over 10^6 ids against a plain linear scan of the same
// buffer. Both read every element once: the scan is the floor that compress
// (which must also check the 0*1* order) is measured against.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/token_types.hpp"

namespace {

constexpr std::size_t kIds = 1'000'000;

// A realistic BERT pair: zeros for [CLS] query [SEP], ones for document [SEP],
// the boundary in the middle.
const std::vector<std::int64_t>& token_types() {
  static const std::vector<std::int64_t> types = [] {
    std::vector<std::int64_t> v(kIds, 1);
    std::fill_n(v.begin(), kIds / 2, 0);
    return v;
  }();
  return types;
}

void BM_Compress(benchmark::State& state) {
  const auto& types = token_types();
  for (auto _ : state) {
    benchmark::DoNotOptimize(types.data());
    auto k = poolcheck::compress_token_types(types);
    if (!k || *k != static_cast<std::int64_t>(kIds / 2)) {
      state.SkipWithError("compress_token_types gave the wrong boundary");
      break;
    }
    benchmark::DoNotOptimize(*k);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kIds));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kIds * sizeof(std::int64_t)));
}
BENCHMARK(BM_Compress);

// std::find for the first 1, then a loop that reads every remaining element:
// the same memory traffic as compress, with the least possible work per element.
void BM_LinearScan(benchmark::State& state) {
  const auto& types = token_types();
  for (auto _ : state) {
    // The buffer "may have changed": neither the scan nor its result can be
    // hoisted out of the loop or folded at compile time.
    benchmark::DoNotOptimize(types.data());
    benchmark::ClobberMemory();
    const auto first = std::find(types.begin(), types.end(), std::int64_t{1});
    std::int64_t not_one = 0;
    for (auto it = first; it != types.end(); ++it) not_one |= *it ^ 1;
    auto k = static_cast<std::int64_t>(first - types.begin());
    benchmark::DoNotOptimize(k);
    benchmark::DoNotOptimize(not_one);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kIds));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kIds * sizeof(std::int64_t)));
}
BENCHMARK(BM_LinearScan);

}  // namespace
