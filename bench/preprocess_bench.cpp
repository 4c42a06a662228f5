// poolcheck::preprocess_json of a 1:1000 rerank body (1000 documents of 100
// words, default BERT-like model) against nlohmann's parse of the same bytes:
// the parse is the floor, since preprocess_json starts with one.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_api.hpp"

namespace {

constexpr int kDocuments = 1000;
constexpr int kWordsPerDocument = 100;
constexpr int kQueryWords = 8;

// Deterministic lower-case words of 2..9 letters from a fixed 64-bit LCG.
class Words {
 public:
  std::string next() {
    const int length = 2 + static_cast<int>(draw() % 8);
    std::string word;
    for (int i = 0; i < length; ++i) word += static_cast<char>('a' + draw() % 26);
    return word;
  }
  std::string sentence(int words) {
    std::string out;
    for (int i = 0; i < words; ++i) {
      if (i > 0) out += ' ';
      out += next();
    }
    return out;
  }

 private:
  std::uint64_t draw() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return state_ >> 33;
  }
  std::uint64_t state_ = 42;
};

const std::string& rerank_body() {
  static const std::string body = [] {
    Words words;
    nlohmann::ordered_json documents = nlohmann::ordered_json::array();
    const std::string query = words.sentence(kQueryWords);
    for (int i = 0; i < kDocuments; ++i) documents.push_back(words.sentence(kWordsPerDocument));
    nlohmann::ordered_json envelope{
        {"endpoint", "rerank"},
        {"request", {{"query", query}, {"documents", std::move(documents)}}}};
    return envelope.dump();
  }();
  return body;
}

void BM_Preprocess(benchmark::State& state) {
  const std::string& body = rerank_body();
  for (auto _ : state) {
    auto out = poolcheck::preprocess_json(body);
    if (!out || (*out)["outputs"].size() != kDocuments) {
      state.SkipWithError(out ? "preprocess_json gave the wrong number of outputs"
                              : out.error().message.c_str());
      break;
    }
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}
BENCHMARK(BM_Preprocess)->Unit(benchmark::kMillisecond);

void BM_NlohmannParse(benchmark::State& state) {
  const std::string& body = rerank_body();
  for (auto _ : state) {
    auto parsed = nlohmann::ordered_json::parse(body);
    benchmark::DoNotOptimize(parsed);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(body.size()));
}
BENCHMARK(BM_NlohmannParse)->Unit(benchmark::kMillisecond);

}  // namespace
