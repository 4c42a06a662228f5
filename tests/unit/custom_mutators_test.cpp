// The fuzz targets' custom mutators (fuzz/custom_mutators.hpp) and the spec
// mutations they draw from (properties/suites/input_mutations.hpp): the
// contract an engine relies on (within max_size, deterministic, never
// throwing) and what each mutation promises to make.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/integer.hpp"
#include "core/envelope.hpp"
#include "core/json_input.hpp"
#include "core/preprocess.hpp"
#include "core/token_types.hpp"
#include "fuzz/custom_mutators.hpp"
#include "properties/suites/input_mutations.hpp"
#include "properties/suites/request_generators.hpp"
#include "tests/unit/corpus_seeds.hpp"

namespace {

using poolcheck::Json;

using poolcheck::test::seeds_of;

std::string mutate(const std::string& target, const std::string& input, unsigned int seed, std::size_t max_size) {
  std::vector<std::uint8_t> buffer(std::max(max_size, input.size()));
  std::copy(input.begin(), input.end(), buffer.begin());
  const std::size_t size =
      poolcheck::fuzz::custom_mutator(target, buffer.data(), input.size(), max_size, seed, nullptr);
  EXPECT_LE(size, max_size) << target << " seed " << seed;
  return std::string(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(std::min(size, max_size)));
}

TEST(CustomMutators, StayWithinMaxSizeAndAreDeterministic) {
  for (const std::string target : {"request", "verify", "params_wire", "token_types"}) {
    const auto seeds = seeds_of(target);
    ASSERT_FALSE(seeds.empty()) << target;
    std::size_t changed = 0, runs = 0;
    for (const auto& input : seeds) {
      for (unsigned int seed = 0; seed < 40; ++seed, ++runs) {
        const std::string once = mutate(target, input, seed, 4096);
        EXPECT_EQ(mutate(target, input, seed, 4096), once) << target << " seed " << seed;
        changed += once != input;
        mutate(target, input, seed, input.size());  // no room to grow: falls back, never overflows
      }
    }
    EXPECT_GT(changed * 10, runs * 8) << target << ": most mutants differ from their input";
  }
}

// Draws of the request mutations from many seeds, from one valid envelope.
std::vector<poolcheck::props::MutatedInput> request_draws(const std::string& envelope, int count) {
  const auto parsed = poolcheck::parse_bounded_json(envelope);
  EXPECT_TRUE(parsed.ok());
  std::vector<poolcheck::props::MutatedInput> out;
  for (int i = 0; i < count; ++i)
    out.push_back(poolcheck::props::gen_request_mutation(*parsed)(rc::Random(static_cast<std::uint64_t>(i)), 30).value());
  return out;
}

const char* const kEnvelope =
    R"({"endpoint":"rerank","request":{"query":"a cat","documents":["the mat","sat on"],"top_n":1}})";

const char* const kScoreEnvelope = R"({"endpoint":"score","request":{"queries":"a cat","documents":["the mat"]}})";

const char* const kOfflineEnvelope =
    R"({"endpoint":"llm.score","request":{"data_1":"a cat","data_2":["the mat"],"pooling_params":{"task":"classify"}}})";

// The draws of request_draws(envelope, 600) whose `what` starts with `kind`.
std::vector<poolcheck::props::MutatedInput> draws_named(const std::string& envelope, std::string_view kind) {
  std::vector<poolcheck::props::MutatedInput> named;
  for (auto& draw : request_draws(envelope, 600))
    if (draw.what.rfind(kind, 0) == 0) named.push_back(std::move(draw));
  return named;
}

TEST(RequestMutations, EveryKindIsDrawnAndMostStayJson) {
  std::set<std::string> kinds;
  for (const char* envelope : {kEnvelope, kScoreEnvelope, kOfflineEnvelope}) {
    std::size_t json = 0;
    const auto draws = request_draws(envelope, 600);
    for (const auto& draw : draws) {
      json += poolcheck::parse_bounded_json(draw.bytes).ok();
      for (const auto& name : poolcheck::props::request_mutation_names())
        if (draw.what.find(name) != std::string::npos) kinds.insert(name);
    }
    EXPECT_GT(json * 10, draws.size() * 8) << envelope;
  }
  for (const auto& name : poolcheck::props::request_mutation_names()) EXPECT_TRUE(kinds.count(name)) << name;
}

// A cut lands just after the one minus sign of a text full of letters in
// about one draw in nine (seven kinds of promising byte, and the rest), not
// one in the text's length: the input that ends on a minus sign is the one
// whose reader looks for a digit past the end.
TEST(JsonCut, ARareKindOfByteIsDrawnAsOftenAsACommonOne) {
  const std::string text = R"({"endpoint":"rerank","request":{"query":"a cat","documents":["the mat"],"top_n":-1}})";
  const std::size_t after_minus = text.find('-') + 1;
  int at_minus = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::size_t cut = poolcheck::props::gen_json_cut(text)(rc::Random(static_cast<std::uint64_t>(i)), 30).value();
    ASSERT_LT(cut, text.size());
    at_minus += cut == after_minus;
  }
  EXPECT_GT(at_minus, 60);
}

TEST(RequestMutations, TextCutIsAPrefixThatNoLongerParses) {
  const auto draws = draws_named(kEnvelope, "text cut after ");
  EXPECT_FALSE(draws.empty());
  for (const auto& draw : draws)  // a proper prefix of an object's text: its closing brace is gone
    EXPECT_FALSE(poolcheck::parse_bounded_json(draw.bytes).ok()) << draw.bytes;
}

// A broken string replaces one string value of the mutated text: the text
// holds "a<broken>b" for one of the broken strings, and the reader refuses it.
// Each kind of JSON input (request, verify) is broken the same way.
void expect_broken_strings(const std::vector<poolcheck::props::MutatedInput>& draws) {
  const auto& broken = poolcheck::props::broken_json_strings();
  for (const auto& draw : draws) {
    EXPECT_FALSE(poolcheck::parse_bounded_json(draw.bytes).ok()) << draw.bytes;
    EXPECT_TRUE(std::any_of(broken.begin(), broken.end(), [&](const std::string& b) {
      return draw.bytes.find("\"a" + b + "b\"") != std::string::npos;
    })) << draw.bytes;
  }
}

TEST(RequestMutations, BrokenStringHoldsABrokenSequenceTheReaderRefuses) {
  const auto draws = draws_named(kEnvelope, "broken string after ");
  ASSERT_GE(draws.size(), 10u);
  expect_broken_strings(draws);
  // Among them ill-formed UTF-8, not only escapes: a byte at 0x80 or above.
  EXPECT_TRUE(std::any_of(draws.begin(), draws.end(), [](const auto& draw) {
    return std::any_of(draw.bytes.begin(), draw.bytes.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  }));
}

// The catalogue's broken-string defect is grafted as a marker string; the
// text the target gets holds the broken string, never the marker.
TEST(RequestMutations, BrokenStringDefectReachesTheTextBroken) {
  using poolcheck::props::kBrokenStringMarker;
  // The marker's text, without the control characters input_json escapes.
  const std::string_view marker_text = kBrokenStringMarker.substr(1, kBrokenStringMarker.size() - 2);
  std::vector<poolcheck::props::MutatedInput> defects;
  for (auto& draw : request_draws(kEnvelope, 2000)) {
    EXPECT_EQ(draw.bytes.find(marker_text), std::string::npos) << draw.what;
    if (draw.what.ends_with("defect: broken string")) defects.push_back(std::move(draw));  // escaped or not
  }
  ASSERT_FALSE(defects.empty());
  expect_broken_strings(defects);
}

TEST(VerifyMutations, BrokenStringHoldsABrokenSequenceTheReaderRefuses) {
  const auto input = poolcheck::parse_bounded_json(
      R"({"model":{"pooler":{"pooling_type":"CLS","use_activation":false}},"pooling_params":{"task":"classify"}})");
  ASSERT_TRUE(input.ok());
  std::vector<poolcheck::props::MutatedInput> draws;
  for (int i = 0; i < 600; ++i) {
    auto draw = poolcheck::props::gen_verify_mutation(*input)(rc::Random(static_cast<std::uint64_t>(i)), 30).value();
    if (draw.what.rfind("broken string after ", 0) == 0) draws.push_back(std::move(draw));
  }
  ASSERT_GE(draws.size(), 10u);
  expect_broken_strings(draws);
}

TEST(RequestMutations, BigIntegerLandsOnATypedIntField) {
  const auto draws = draws_named(kEnvelope, "big integer: ");
  EXPECT_FALSE(draws.empty());
  for (const auto& draw : draws) {
    const std::string field = draw.what.substr(13, draw.what.find(' ', 13) - 13);
    const auto parsed = poolcheck::parse_bounded_json(draw.bytes);
    ASSERT_TRUE(parsed.ok());
    const auto value = poolcheck::json_integer((*parsed)["request"][field]);
    ASSERT_TRUE(value.has_value()) << draw.bytes;
    EXPECT_FALSE(value->to_int64().has_value()) << draw.bytes;  // beyond 64 bits
  }
}

TEST(RequestMutations, UnionClassAddsASecondCompleteClass) {
  const std::vector<std::pair<std::string, std::string>> classes{
      {"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"}, {"text_1", "text_2"}};
  const auto draws = draws_named(kScoreEnvelope, "union class");
  EXPECT_FALSE(draws.empty());
  for (const auto& draw : draws) {
    const auto parsed = poolcheck::parse_bounded_json(draw.bytes);
    ASSERT_TRUE(parsed.ok());
    const Json& body = (*parsed)["request"];
    const auto complete = std::count_if(classes.begin(), classes.end(), [&](const auto& c) {
      return body.contains(c.first) && body.contains(c.second);
    });
    EXPECT_GE(complete, 2) << draw.bytes;
  }
}

// Whether `value` holds NaN, an infinity or an integer beyond int64.
bool holds_python_only_value(const Json& value) {
  if (value.is_number_float()) return !std::isfinite(value.get<double>());
  if (const auto integer = poolcheck::json_integer(value)) return !integer->to_int64().has_value();
  return value.is_structured() && std::any_of(value.begin(), value.end(), holds_python_only_value);
}

TEST(RequestMutations, PythonValueWritesWhatStrictJsonHasNot) {
  std::size_t seen = 0;
  for (const char* envelope : {kEnvelope, kScoreEnvelope}) {
    const auto draws = draws_named(envelope, "python value: ");
    seen += draws.size();
    for (const auto& draw : draws) {
      const auto parsed = poolcheck::parse_bounded_json(draw.bytes);
      ASSERT_TRUE(parsed.ok()) << draw.bytes;  // read as Python's json.loads reads it
      EXPECT_FALSE(holds_python_only_value(*poolcheck::parse_bounded_json(envelope))) << envelope;
      EXPECT_TRUE(holds_python_only_value((*parsed)["request"])) << draw.bytes;
    }
  }
  EXPECT_GT(seen, 0u);
}

TEST(RequestMutations, CallerTaskSetsOnlyAnOfflineCallersTask) {
  EXPECT_TRUE(draws_named(kEnvelope, "caller task").empty());
  std::set<std::string> tasks;
  for (const auto& draw : draws_named(kOfflineEnvelope, "caller task: ")) {
    const auto parsed = poolcheck::parse_bounded_json(draw.bytes);
    if (!parsed) continue;  // one text in ten is cut or broken on purpose
    const Json& params = (*parsed)["request"]["pooling_params"];
    const auto task = params.find("task");
    tasks.insert(task == params.end() ? "<none>" : task->get<std::string>());
  }
  EXPECT_TRUE(tasks.count("<none>"));
  EXPECT_TRUE(tasks.count("embed"));
  EXPECT_GT(tasks.size(), 4u);  // known tasks and any text
}

TEST(RequestMutations, NestingReachesExactlyTheLimitOrOnePast) {
  std::set<int> depths;
  for (const auto& draw : draws_named(kEnvelope, "nesting")) depths.insert(poolcheck::nesting_depth(draw.bytes, 100));
  EXPECT_EQ(depths, (std::set<int>{poolcheck::kMaxNestingDepth, poolcheck::kMaxNestingDepth + 1}));
}

// Below 16 keys the parser finds a repeat by a linear search, from 16 on by a
// hash index: the mutation writes both (auto-json-input-70-relational-2 broke
// the first, json-duplicate-key-index the second).
TEST(RequestMutations, RepeatedKeyIsWrittenTwiceInSmallAndWideObjects) {
  const auto draws = draws_named(kEnvelope, "repeated key");
  EXPECT_FALSE(draws.empty());
  std::size_t wide = 0;
  for (const auto& draw : draws) {
    const auto key = draw.what.substr(draw.what.find('\'') + 1);
    const std::string quoted = "\"" + key.substr(0, key.find('\'')) + "\":";
    const auto first = draw.bytes.find(quoted);
    ASSERT_NE(first, std::string::npos) << draw.bytes;
    EXPECT_NE(draw.bytes.find(quoted, first + 1), std::string::npos) << draw.bytes;
    wide += draw.bytes.find("x-filler-") != std::string::npos;
  }
  EXPECT_GT(wide, 0u);
  EXPECT_LT(wide, draws.size());
}

// An LLM.score call without extra_kwargs: the mutation makes the caller's
// extras and widens them, the one object carried whole to the outputs and the
// wire (json-duplicate-key-index shows there, and few seeds hold one).
TEST(RequestMutations, RepeatedKeyWidensTheCallersExtras) {
  const std::string call = R"({"endpoint":"llm.score","request":{"data_1":"a cat","data_2":["the mat"]}})";
  std::size_t in_extras = 0, widened = 0;
  const auto draws = draws_named(call, "repeated key");
  for (const auto& draw : draws) {
    const auto parsed = poolcheck::parse_bounded_json(draw.bytes);
    ASSERT_TRUE(parsed.ok()) << draw.bytes;
    const Json* params = &(*parsed)["request"];
    if (!params->contains("pooling_params")) continue;
    params = &(*params)["pooling_params"];
    if (!params->contains("extra_kwargs")) continue;
    ++in_extras;
    widened += (*params)["extra_kwargs"].size() >= 17;
  }
  EXPECT_GT(in_extras * 3, draws.size()) << "about half the draws take the extras";
  EXPECT_GT(widened * 6, draws.size()) << "about a quarter: half the draws take the extras, half of those widen them";
}

TEST(RequestMutations, TruncationLandsNearTheTokenCount) {
  // [CLS] a cat [SEP] the mat [SEP]: the longest prompt is 7 tokens, the target 7 - 3 to 7 + 1.
  for (const auto& draw : draws_named(kEnvelope, "truncate_prompt_tokens")) {
    const auto parsed = poolcheck::parse_bounded_json(draw.bytes);
    ASSERT_TRUE(parsed.ok());
    const auto target = (*parsed)["request"]["truncate_prompt_tokens"].get<std::int64_t>();
    EXPECT_GE(target, 4);
    EXPECT_LE(target, 8);
  }
}

TEST(RequestMutations, TokenTotalPadsThePairsToTheBound) {
  // Two pairs: padded to 2^23 - 1, 2^23 or 2^23 + 1 each, so 2^24 - 2, exactly
  // 2^24 (accepted) or 2^24 + 2 (refused) together.
  std::set<std::int64_t> totals;
  for (const auto& draw : draws_named(kEnvelope, "token total")) {
    const auto envelope = poolcheck::parse_envelope(draw.bytes);
    ASSERT_TRUE(envelope.ok()) << draw.bytes;
    EXPECT_TRUE(envelope->request.pad_to_max_length);
    const std::int64_t total = 2 * envelope->model.max_model_len;
    totals.insert(total);
    const auto lengths = poolcheck::plan_prompt_lengths(envelope->model, envelope->request);
    EXPECT_EQ(lengths.ok(), total <= poolcheck::kMaxTotalTokens) << draw.bytes;
  }
  const std::int64_t bound = poolcheck::kMaxTotalTokens;
  EXPECT_EQ(totals, (std::set<std::int64_t>{bound - 2, bound, bound + 2}));
}

}  // namespace

namespace {

// The verify mutation reads the model's sizes from the input: at the int64
// limits its edges saturate (UBSan, in the clang-asan workflow, reported the
// overflow of embedding_size - 1 on INT64_MIN before).
TEST(VerifyMutations, SizesAtTheInt64LimitsSaturate) {
  const auto input = poolcheck::parse_bounded_json(
      R"({"model":{"embedding_size":-9223372036854775808,"matryoshka_dimensions":[9223372036854775807]},"pooling_params":{}})");
  ASSERT_TRUE(input.ok());
  int dimensions = 0;
  for (int i = 0; i < 300; ++i) {
    const auto draw = poolcheck::props::gen_verify_mutation(*input)(rc::Random(static_cast<std::uint64_t>(i)), 50).value();
    dimensions += draw.what.rfind("dimensions ", 0) == 0;
  }
  EXPECT_GT(dimensions, 0);
}

}  // namespace
