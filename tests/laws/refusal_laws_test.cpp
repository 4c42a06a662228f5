// The laws that judge the JSON door, what is printed, and a refusal without
// knowing its defect: each holds on the core's real answers and fires on an
// answer broken the way a slip in the core would break it.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "core/envelope.hpp"
#include "core/integer.hpp"
#include "core/json_api.hpp"
#include "core/json_input.hpp"
#include "core/msgpack.hpp"
#include "core/output_json.hpp"
#include "core/wire.hpp"
#include "properties/laws/check.hpp"
#include "properties/laws/cache_salt_laws.hpp"
#include "properties/laws/coercion_laws.hpp"
#include "properties/laws/config_laws.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/escape_laws.hpp"
#include "properties/laws/json_spelling.hpp"
#include "properties/laws/key_laws.hpp"
#include "properties/laws/msgpack_items.hpp"
#include "properties/laws/msgpack_refusal_laws.hpp"
#include "properties/laws/nesting_laws.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/laws/rendered_laws.hpp"
#include "properties/laws/repr_laws.hpp"
#include "properties/laws/size_laws.hpp"
#include "properties/laws/verify_laws.hpp"
#include "core/preprocess.hpp"
#include "core/python_repr.hpp"
#include "core/token_types.hpp"
#include "core/verify.hpp"
#include "properties/laws/request_laws.hpp"
#include "properties/laws/utf8_laws.hpp"
#include "tests/laws/law_test_support.hpp"

namespace poolcheck::laws {
namespace {

std::string nested(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

const Error kTooDeep = Error::bad_request("Input nests JSON containers more than 64 levels deep.");

TEST(NestingLimit, HoldsOnTheDoorAndFiresOnEachSideOfTheLimit) {
  for (int depth : {1, 2, 63, 64, 65, 66, 127, 128, 129, 500}) {
    const std::string bytes = nested(depth);
    EXPECT_HOLDS(nesting_limit_exact(bytes, parse_bounded_json(bytes))) << depth;
  }
  // Brackets in strings open nothing: many of them, one real container.
  const std::string in_a_string = "[\"" + std::string(100, '[') + "\"]";
  EXPECT_HOLDS(nesting_limit_exact(in_a_string, parse_bounded_json(in_a_string)));
  // A door that refuses exactly 64, and one that lets 65 through.
  EXPECT_FIRES(nesting_limit_exact(nested(64), Result<Json>(kTooDeep)), "nesting-limit");
  const std::string past = nested(65);
  const auto let_through = parse_bounded_json(past, 65);
  ASSERT_TRUE(let_through.ok());
  EXPECT_FIRES(nesting_limit_exact(past, let_through), "nesting-limit");
  // Other refusals are not the law's.
  EXPECT_HOLDS(nesting_limit_exact("[", parse_bounded_json("[")));
}

// An object of `members` keys k0, k1, ... with `key` appended once more, as a
// door that misses the repeat would hold it.
Json with_key_twice(const std::string& key, int members) {
  Json object = Json::object();
  for (int i = 0; i < members; ++i) object["k" + std::to_string(i)] = i;
  static_cast<Json::object_t::Container&>(object.get_ref<Json::object_t&>()).emplace_back(key, -1);
  return object;
}

TEST(KeysOnce, HoldsOnTheDoorAndFiresOnAKeyHeldTwice) {
  // The door folds each repeat, in small objects and in wide ones, at any depth.
  std::string wide = R"({"k0": 0)";
  for (int i = 1; i < 20; ++i) wide += ", \"k" + std::to_string(i) + "\": " + std::to_string(i);
  wide += R"(, "k3": "last"})";
  for (const std::string& text : {std::string(R"({"a": 1, "b": 2, "a": 3})"), std::string(R"([{"x": {"a": 1, "a": 2}}])"),
                                 wide, std::string("[1, 2]"), std::string("{")}) {
    EXPECT_HOLDS(keys_once(parse_bounded_json(text))) << text;
  }
  for (const int members : {1, 3, 15, 16, 20}) {
    EXPECT_FIRES(keys_once(Result<Json>(with_key_twice("k0", members))), "keys-once") << members;
    EXPECT_HOLDS(keys_once(Result<Json>(with_key_twice("new", members)))) << members;
  }
  Json nested = Json::array({1, Json::object()});
  nested[1]["inner"] = with_key_twice("k1", 4);
  const auto found = keys_once(Result<Json>(nested));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].description.find("$[1].inner"), std::string::npos) << found[0].description;
  EXPECT_NE(found[0].description.find("\"k1\""), std::string::npos) << found[0].description;
}

TEST(NestingLimit, CountsContainersAsWritten) {
  EXPECT_EQ(written_depth("1"), 0);
  EXPECT_EQ(written_depth("[]"), 1);
  EXPECT_EQ(written_depth("{}"), 1);
  EXPECT_EQ(written_depth(R"([{"a": [1]}, 2, [[], {}]])"), 3);
  EXPECT_EQ(written_depth(R"(["[[[\"[{", {"]]": "\\"}])"), 2);  // brackets and escaped quotes in strings
  EXPECT_EQ(written_depth(nested(64)), 64);
}

// A repeated key keeps its last value, but the door counts the text: a deep
// value written first, then replaced, is still refused, and rightly.
TEST(NestingLimit, ARepeatedKeyDoesNotHideTheDepthItReplaced) {
  const std::string bytes = R"({"a": )" + nested(65) + R"(, "a": 1})";
  const auto parsed = parse_bounded_json(bytes);
  ASSERT_FALSE(parsed.ok());
  EXPECT_HOLDS(nesting_limit_exact(bytes, parsed));
  EXPECT_EQ(written_depth(bytes), 66);
}

Result<Json> utf8_refusal(const std::string& position) {
  return Error::bad_request("Invalid JSON: Invalid UTF-8 byte: " + position);
}

TEST(Utf8Refusal, HoldsOnTheDoorAndFiresOnATakenOrMisplacedSequence) {
  // "é" is one character of two bytes; a newline starts line 2. The bad
  // sequence (0xE4 0xB8 0xC0) starts at character 9, counted from 0.
  const std::string bytes = "{\n\"\xc3\xa9\": \"x\xe4\xb8\xc0\"}";
  EXPECT_HOLDS(utf8_refusal_exact(bytes, parse_bounded_json(bytes)));
  EXPECT_HOLDS(utf8_refusal_exact(bytes, utf8_refusal("line 2 column 8 (char 9)")));
  EXPECT_HOLDS(utf8_refusal_exact("\xef\xbb\xbf\"\xc0\x80\"", utf8_refusal("line 1 column 2 (char 1)")));
  // One character late, as if the lead byte had been taken alone; or a line off.
  EXPECT_FIRES(utf8_refusal_exact(bytes, utf8_refusal("line 2 column 9 (char 10)")), "utf8-refusal");
  EXPECT_FIRES(utf8_refusal_exact(bytes, utf8_refusal("line 1 column 10 (char 9)")), "utf8-refusal");
  // Taken, where each of these is ill formed: a continuation byte just outside
  // 0x80..0xBF, an overlong form, a surrogate, past U+10FFFF, a lone continuation.
  for (const std::string bad : {"\xc3\x7f", "\xc3\xc0", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80"})
    EXPECT_FIRES(utf8_refusal_exact("\"" + bad + "\"", Result<Json>(Json("taken"))), "utf8-refusal") << bad;
  // A well-formed text refused as invalid UTF-8.
  EXPECT_FIRES(utf8_refusal_exact("\"\xf4\x8f\xbf\xbf\"", utf8_refusal("line 1 column 2 (char 1)")), "utf8-refusal");
  // Other refusals are not the law's.
  EXPECT_HOLDS(utf8_refusal_exact("[\xc3", parse_bounded_json("[\xc3")));
}

TEST(PrintedReadsBack, HoldsOnThePrinterAndFiresOnEachPrintingSlip) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Json big = Integer::from_decimal("123456789012345678901234567890").to_json();
  const Json value = {{"nan", nan},
                      {"inf", inf},
                      {"ninf", -inf},
                      {"big", big},
                      {"u64", std::numeric_limits<std::uint64_t>::max()},
                      {"negative", -5},
                      {"float", 0.1},
                      {"text", "\u00e9\u2028\"\\\x01"},
                      {"nested", Json::array({Json::array({1, 2}), Json::object()})}};
  EXPECT_HOLDS(printed_reads_back(dump_json(value), value));
  // A NaN printed as null, a big integer printed as a float, a cut text, a changed key.
  EXPECT_FIRES(printed_reads_back(R"({"nan":null})", Json{{"nan", nan}}), "printed-reads-back");
  EXPECT_FIRES(printed_reads_back(R"({"big":1.2345678901234568e+29})", Json{{"big", big}}), "printed-reads-back");
  EXPECT_FIRES(printed_reads_back(R"({"a":1)", Json{{"a", 1}}), "printed-reads-back");
  EXPECT_FIRES(printed_reads_back(R"({"b":1})", Json{{"a", 1}}), "printed-reads-back");
  // The core's own outcomes, accepted and refused, with Python's values in them.
  const std::string request =
      R"({"endpoint":"llm.score","request":{"data_1":"a","data_2":["b","c"],)"
      R"("pooling_params":{"extra_kwargs":{"x":NaN,"y":123456789012345678901234567890,"z":-Infinity}}}})";
  const auto accepted = preprocess_json(request);
  ASSERT_TRUE(accepted.ok()) << accepted.error().message;
  EXPECT_HOLDS(printed_reads_back(dump_json(*accepted), *accepted));
  const auto refused = preprocess_json(R"({"endpoint":"score","request":{"queries":NaN}})");
  ASSERT_FALSE(refused.ok());
  const Json body = error_body(refused.error());
  EXPECT_HOLDS(printed_reads_back(dump_json(body), body));
}

// The values that make printed-reads-back run on every input, not only on a
// full check: those the printer writes by hand, at any depth.
TEST(PrintedReadsBack, HandPrintedValuesAreFoundAtAnyDepth) {
  const double inf = std::numeric_limits<double>::infinity();
  const Json big = Integer::from_decimal("-9223372036854775809").to_json();
  for (const Json& held : {Json(std::numeric_limits<double>::quiet_NaN()), Json(inf), Json(-inf), big}) {
    EXPECT_TRUE(holds_hand_printed_value(held)) << dump_json(held);
    EXPECT_TRUE(holds_hand_printed_value(Json{{"a", Json::array({1, Json{{"b", held}}})}})) << dump_json(held);
  }
  const Json plain = {{"u64", std::numeric_limits<std::uint64_t>::max()},
                      {"i64", std::numeric_limits<std::int64_t>::min()},
                      {"floats", Json::array({-0.0, 1e308, 5e-324})},
                      {"text", "NaN Infinity"},
                      {"null", nullptr}};
  EXPECT_FALSE(holds_hand_printed_value(plain));
}

// The score union's classes, in the union's order.
const std::vector<std::pair<std::string, std::string>> kClasses{
    {"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"}, {"text_1", "text_2"}};

// A union that stops at the first complete class: its answer, right or wrong.
Result<ScoringRequest> first_class_only(const Json& body, Endpoint endpoint) {
  for (const auto& [first, second] : kClasses) {
    if (!body.contains(first) || !body.contains(second)) continue;
    Json only = body;
    for (const auto& [a, b] : kClasses)
      for (const std::string& key : {a, b})
        if (key != first && key != second) only.erase(key);
    return parse_online_request(only, endpoint);
  }
  return parse_online_request(body, endpoint);
}

TEST(ScoreUnionRefusal, HoldsOnTheCoreAndFiresOnAUnionThatStopsAtTheFirstClass) {
  const Json bad = 5;  // no side takes a number
  const std::vector<Json> bodies{
      {{"queries", bad}, {"documents", "d"}, {"data_1", "q"}, {"data_2", "d"}},
      {{"queries", "q"}, {"documents", bad}, {"items", "d"}},
      {{"queries", "q"}, {"documents", bad}, {"text_1", bad}, {"text_2", "d"}},
      {{"queries", "q"}, {"documents", "d"}, {"data_1", "q"}, {"data_2", "d"}, {"priority", "high"}},
      {{"queries", bad}, {"documents", "d"}}};
  for (const Json& body : bodies) EXPECT_HOLDS(score_union_refusal(envelope("score", body))) << body.dump();
  // The union's order is the core's: the first body is accepted on {data_1, data_2}.
  EXPECT_TRUE(envelope_from_json(envelope("score", bodies[0])).ok());
  EXPECT_FIRES(score_union_refusal(envelope("score", bodies[0]), first_class_only), "score-union");
  EXPECT_FIRES(score_union_refusal(envelope("score", bodies[1]), first_class_only), "score-union");
  // No class validates, a common field fails, one class only, another endpoint: nothing to judge.
  for (std::size_t i : {2u, 3u, 4u}) EXPECT_HOLDS(score_union_refusal(envelope("score", bodies[i]), first_class_only));
  EXPECT_HOLDS(score_union_refusal(envelope("rerank", bodies[0]), first_class_only));
}

// A union that, when no class validates, reports the last complete class's
// error instead of the first's.
Result<ScoringRequest> last_class_error(const Json& body, Endpoint endpoint) {
  auto whole = parse_online_request(body, endpoint);
  if (whole) return whole;
  std::optional<Error> last;
  for (const auto& [first, second] : kClasses)
    if (body.contains(first) && body.contains(second))
      if (auto alone = parse_online_request(Json{{first, body[first]}, {second, body[second]}}, endpoint); !alone)
        last = alone.error();
  return last ? Result<ScoringRequest>(*last) : whole;
}

TEST(ScoreUnionRefusal, WhenNoShapeValidatesTheFirstCompleteShapesErrorIsTheOne) {
  const Json bad = 5;
  // A lone side of another class, however wrong, is an unknown key once a class is complete.
  const Json stray{{"data_1", bad}, {"text_1", "q"}, {"text_2", bad}};
  const Json two{{"queries", "q"}, {"documents", bad}, {"text_1", bad}, {"text_2", "d"}};
  for (const Json& body : {stray, two}) EXPECT_HOLDS(score_union_refusal(envelope("score", body))) << body.dump();
  EXPECT_EQ(envelope_from_json(envelope("score", stray)).error().param, "text_2");
  EXPECT_FIRES(score_union_refusal(envelope("score", two), last_class_error), "score-union");
  // No complete class: spec 10.5's errors, not this law's.
  EXPECT_HOLDS(score_union_refusal(envelope("score", Json{{"data_1", bad}, {"text_2", bad}}), last_class_error));
}

TEST(TypedValuesTaken, HoldsOnTheCoreAndFiresOnATypeErrorForAValueOfTheType) {
  const std::vector<Json> integers{Integer::from_decimal("18446744073709551616").to_json(),
                                   Integer::from_decimal("-9223372036854775809").to_json(), Json(5), Json(-5)};
  int refusals_judged = 0;
  for (const auto& field : typed_fields()) {
    const std::string endpoint = field.rerank_only ? "rerank" : "score";
    Json body = field.rerank_only ? Json{{"query", "q"}, {"documents", {"d"}}} : Json{{"queries", "q"}, {"documents", "d"}};
    for (const Json& value : field.is_bool ? std::vector<Json>{true, false} : integers) {
      body[std::string(field.name)] = value;
      const Json env = envelope(endpoint, body);
      const auto parsed = envelope_from_json(env);
      if (parsed) continue;
      ++refusals_judged;
      EXPECT_HOLDS(typed_values_taken(env, parsed.error())) << env.dump();
    }
  }
  EXPECT_GT(refusals_judged, 0) << "no refusal was judged: the test would show nothing";

  const Json big = Integer::from_decimal("18446744073709551616").to_json();
  const Json with_big = envelope("score", {{"queries", "q"}, {"documents", "d"}, {"priority", big}});
  EXPECT_FIRES(typed_values_taken(with_big, Error::bad_request("priority: Input should be a valid integer", "priority")),
               "typed-values-taken");
  EXPECT_FIRES(typed_values_taken(with_big, Error::bad_request(
                                                "priority: Unable to parse input string as an integer, exceeded maximum size",
                                                "priority")),
               "typed-values-taken");
  const Json with_true = envelope("score", {{"queries", "q"}, {"documents", "d"}, {"use_activation", true}});
  EXPECT_FIRES(typed_values_taken(with_true, Error::bad_request("use_activation: Input should be a valid boolean",
                                                                "use_activation")),
               "typed-values-taken");
  // A value not of the field's type, another field's error, a bound: not the law's.
  const Json with_text = envelope("score", {{"queries", "q"}, {"documents", "d"}, {"priority", "high"}});
  EXPECT_HOLDS(typed_values_taken(with_text, Error::bad_request("priority: Input should be a valid integer", "priority")));
  EXPECT_HOLDS(typed_values_taken(with_big, Error::bad_request("model: Input should be a valid string", "model")));
  EXPECT_HOLDS(
      typed_values_taken(with_big, Error::bad_request("priority: Input should be greater than or equal to 0", "priority")));
}

TEST(SizeBound, HoldsOnTheDoorAndFiresOnEachSideOfTheBound) {
  EXPECT_HOLDS(input_size_bound());
  const Result<Json> too_deep = kTooDeep;
  const Result<Json> too_big = Error::bad_request(size_refusal_message(kMaxInputBytes + 1));
  EXPECT_HOLDS(input_size_bound(too_deep, too_big));
  // A door that refuses exactly 8 MiB for its size, one that reads 8 MiB + 1.
  EXPECT_FIRES(input_size_bound(Result<Json>(Error::bad_request(size_refusal_message(kMaxInputBytes))), too_big),
               "size-bound");
  EXPECT_FIRES(input_size_bound(too_deep, too_deep), "size-bound");
  EXPECT_FIRES(input_size_bound(too_deep, Result<Json>(Json::array())), "size-bound");
}

TEST(ReconstructLenTaken, HoldsUpToTheLimitAndFiresPastIt) {
  for (const std::int64_t len : {std::int64_t{0}, std::int64_t{1}, kMaxTotalTokens - 1, kMaxTotalTokens})
    EXPECT_HOLDS(reconstruct_len_taken(len)) << len;
  // The law judges the bound the command checks: past it, or below 0, it fires.
  EXPECT_FIRES(reconstruct_len_taken(kMaxTotalTokens + 1), "reconstruct-bounds");
  EXPECT_FIRES(reconstruct_len_taken(-1), "reconstruct-bounds");
}

// A request decided by its plan alone (the fuzz targets' work budget).
struct Planned {
  Envelope envelope;
  std::optional<PoolingParams> before;
  PreprocessOutput none;
  Json nothing;
  RequestRun run() const { return {envelope, before, none, nothing}; }
};

Planned planned_run(const Json& env) {
  auto parsed = parse_envelope(env.dump());
  EXPECT_TRUE(parsed.ok()) << env.dump();
  return {parsed ? std::move(*parsed) : Envelope{}, std::nullopt, {}, nullptr};
}

TEST(PlannedLengthsExact, HoldsOnTheCoresPlanAndFiresOnAWrongLengthCountOrTotal) {
  const std::int64_t half = std::int64_t{1} << 23;
  const Json two_pairs{{"query", "q"}, {"documents", {"d1", "d2"}}, {"padding", "max_length"}};
  const Planned at_bound = planned_run(envelope("rerank", two_pairs, {{"max_model_len", half}}));
  const auto lengths = plan_prompt_lengths(at_bound.envelope.model, at_bound.envelope.request);
  ASSERT_TRUE(lengths.ok());
  EXPECT_HOLDS(planned_lengths_exact(at_bound.run(), *lengths));
  EXPECT_FIRES(planned_lengths_exact(at_bound.run(), std::vector<std::int64_t>{half, half - 1}), "prompt-exact");
  EXPECT_FIRES(planned_lengths_exact(at_bound.run(), std::vector<std::int64_t>{half}), "lengths-and-order");
  // Pairs of 2^23 + 1 each, as a bound applied to each pair alone would accept them.
  const Planned past = planned_run(envelope("rerank", two_pairs, {{"max_model_len", half + 1}}));
  EXPECT_FIRES(planned_lengths_exact(past.run(), std::vector<std::int64_t>{half + 1, half + 1}), "token-total");
}

// ------------------------------------------------------------------ bounds

TEST(CompareDecimal, OrdersBySignLengthAndDigits) {
  const std::vector<std::string> ascending{"-340282366920938463463374607431768211456", "-9223372036854775809",
                                           "-10", "-9", "-1", "0", "1", "9", "10", "512",
                                           "9223372036854775807", "18446744073709551616",
                                           "340282366920938463463374607431768211456"};
  for (std::size_t i = 0; i < ascending.size(); ++i)
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      const int want = i < j ? -1 : i > j ? 1 : 0;
      const int got = compare_decimal(ascending[i], ascending[j]);
      EXPECT_EQ((got > 0) - (got < 0), want) << ascending[i] << " vs " << ascending[j];
    }
}

TEST(BoundsKept, FiresOnAnAcceptedValueAboveItsUpperBoundOfAnySize) {
  const Json big = Integer::from_decimal("1000000000000000000000000000000").to_json();
  const Json negative_big = Integer::from_decimal("-1000000000000000000000000000000").to_json();
  EXPECT_HOLDS(bounds_kept(Json{{"truncate_prompt_tokens", 512}, {"max_tokens_per_query", 511}}, false, 512));
  EXPECT_HOLDS(bounds_kept(Json{{"max_tokens_per_doc", 0}, {"priority", big}}, false, 512));
  EXPECT_FIRES(bounds_kept(Json{{"truncate_prompt_tokens", 513}}, false, 512), "bounds");
  EXPECT_FIRES(bounds_kept(Json{{"truncate_prompt_tokens", big}}, false, 512), "bounds");
  EXPECT_FIRES(bounds_kept(Json{{"max_tokens_per_query", 512}}, false, 512), "bounds");
  EXPECT_FIRES(bounds_kept(Json{{"max_tokens_per_doc", big}}, false, 512), "bounds");
  EXPECT_FIRES(bounds_kept(Json{{"top_n", negative_big}}, true), "bounds");
  EXPECT_FIRES(bounds_kept(Json{{"truncate_prompt_tokens", negative_big}}, false), "bounds");
  // Without max_model_len only the lower bounds are judged.
  EXPECT_HOLDS(bounds_kept(Json{{"truncate_prompt_tokens", big}}, false));
}

TEST(BoundsRefusal, HoldsOnTheCoresRefusalsOfEverySizeAndFiresOnAnUnjustifiedOne) {
  const Json model{{"max_model_len", 512}};
  const std::vector<std::string> values{"-1000000000000000000000000000000", "-9223372036854775809", "-2", "-1", "0",
                                        "1", "511", "512", "513", "9223372036854775808",
                                        "1000000000000000000000000000000"};
  int refusals_judged = 0;
  for (const auto& field : typed_fields()) {
    if (field.is_bool) continue;
    const std::string endpoint = field.rerank_only ? "rerank" : "score";
    Json body = field.rerank_only ? Json{{"query", "q"}, {"documents", {"d"}}} : Json{{"queries", "q"}, {"documents", "d"}};
    for (const std::string& value : values) {
      body[std::string(field.name)] = Integer::from_decimal(value).to_json();
      const Json env = envelope(endpoint, body, model);
      const auto parsed = envelope_from_json(env);
      const auto output = parsed ? preprocess(parsed->model, parsed->request) : Result<PreprocessOutput>(parsed.error());
      if (output) {
        EXPECT_HOLDS(bounds_kept(body, field.rerank_only, 512)) << env.dump();
        continue;
      }
      ++refusals_judged;
      EXPECT_HOLDS(bounds_refusal(env, output.error())) << env.dump() << " " << output.error().message;
    }
  }
  EXPECT_GT(refusals_judged, 10) << "too few refusals judged: the test would show little";

  const auto refused = [&](const char* field, const char* value) {
    return envelope("score", Json{{"queries", "q"}, {"documents", "d"}, {field, Integer::from_decimal(value).to_json()}},
                    model);
  };
  const auto error = [](const std::string& message, const char* param) { return Error::bad_request(message, param); };
  // Each bound's message given for a value that keeps it.
  EXPECT_FIRES(bounds_refusal(refused("truncate_prompt_tokens", "1000000000000000000000000000000"),
                              error("truncate_prompt_tokens: Input should be greater than or equal to -1",
                                    "truncate_prompt_tokens")),
               "bounds");
  EXPECT_FIRES(bounds_refusal(refused("max_tokens_per_query", "1000000000000000000000000000000"),
                              error("max_tokens_per_query must be a non-negative integer", "max_tokens_per_query")),
               "bounds");
  EXPECT_FIRES(bounds_refusal(refused("max_tokens_per_doc", "-1000000000000000000000000000000"),
                              error("max_tokens_per_doc (-1000000000000000000000000000000) must be less than "
                                    "max_model_len (512).",
                                    "max_tokens_per_doc")),
               "bounds");
  EXPECT_FIRES(bounds_refusal(refused("max_tokens_per_doc", "600"),
                              error("max_tokens_per_doc (601) must be less than max_model_len (512).",
                                    "max_tokens_per_doc")),
               "bounds");
  EXPECT_FIRES(bounds_refusal(refused("truncate_prompt_tokens", "512"),
                              error("truncate_prompt_tokens value is greater than max_model_len. Please request a "
                                    "smaller truncation size.",
                                    "truncate_prompt_tokens")),
               "bounds");
  // A spelling, another field's error or a message citing no bound: other laws'.
  const Json spelled = envelope("score", Json{{"queries", "q"}, {"documents", "d"}, {"max_tokens_per_doc", "600"}}, model);
  EXPECT_HOLDS(bounds_refusal(spelled, error("max_tokens_per_doc must be a non-negative integer", "max_tokens_per_doc")));
  EXPECT_HOLDS(bounds_refusal(refused("max_tokens_per_doc", "600"), error("model: Input should be a valid string", "model")));
  EXPECT_HOLDS(bounds_refusal(refused("max_tokens_per_doc", "600"),
                              error("max_tokens_per_doc: Input should be a valid integer", "max_tokens_per_doc")));
}

TEST(BoundsKept, IntegersBeyond64BitsThroughTheRequestCheck) {
  // spec 11.2: 10^30 is above every bound, -10^30 below; no false alarm either way.
  for (const char* field : {"truncate_prompt_tokens", "max_tokens_per_query", "top_n", "priority"})
    for (const char* value : {"1000000000000000000000000000000", "-1000000000000000000000000000000"}) {
      const std::string input = std::string(R"({"endpoint":"rerank","model":{"max_model_len":512},"request":{"query":"q","documents":["d"],")") +
                                field + "\":" + value + "}}";
      const auto result = check_request_input(input);
      EXPECT_TRUE(result.violations.empty()) << input << "\n" << describe(result.violations);
    }
}

// ----------------------------------------------------------- JSON spelling

TEST(RespelledJson, ReadsBackAsTheSameDocumentInEveryForm) {
  const Json document = Json::parse(
      "{\"endpoint\": \"score\", \"request\": {\"queries\": [\"caf\xC3\xA9 \xF0\x9F\x98\x80\", \"a\\\"b\\\\c/d\\n\\t\\u0001\"], "
      "\"documents\": \"\xE2\x80\xA8 x\", \"priority\": -5, \"big\": 1e300, \"f\": 0.1, \"t\": true, \"n\": null, "
      "\"o\": {}, \"l\": [], \"floats\": [0.001, 100.0, -2.5e-7, 0.0, -0.0, 123456.789, 5e-324, 1.7976931348623157e308]}}");
  bool escaped = false, pair = false, mark = false, spaced = false, upper = false, exponent = false;
  for (std::uint64_t choice = 0; choice < 64; ++choice) {
    const std::string text = respelled_json(document, choice);
    const auto read = parse_bounded_json(text);
    ASSERT_TRUE(read.ok()) << text;
    EXPECT_EQ(read->dump(), document.dump()) << text;
    // nlohmann's reader, apart from the core's: the text is plain JSON (its byte order mark aside).
    const std::string plain = text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
    EXPECT_EQ(Json::parse(plain).dump(), document.dump()) << text;
    escaped |= text.find("\\u00") != std::string::npos;
    pair |= text.find("\\ud83d") != std::string::npos || text.find("\\uD83D") != std::string::npos;
    upper |= text.find("\\u00E9") != std::string::npos;
    mark |= plain.size() != text.size();
    spaced |= text.find('\n') != std::string::npos;
    exponent |= text.find("1E+2") != std::string::npos || text.find("1e2") != std::string::npos;
  }
  EXPECT_TRUE(escaped && pair && mark && spaced && upper && exponent)
      << escaped << pair << mark << spaced << upper << exponent << ": some form never drawn in 64 choices";
}

TEST(SpellingInvariance, HoldsOnTheCoreAndFiresOnAnotherOutcome) {
  EXPECT_HOLDS(spelling_invariance("{\"a\":1}", "{\"a\":1}"));
  EXPECT_FIRES(spelling_invariance("{\"a\":1}", "{\"error\":{}}"), "spelling-invariance");
  // The full check runs it: every law holds on a request that is escaped, spaced and marked somewhere.
  const auto result = check_request_input(
      R"({"endpoint":"score","request":{"queries":["caf\u00e9 \ud83d\ude00 q"],"documents":["d\n e"],"priority":3}})");
  EXPECT_TRUE(result.accepted);
  EXPECT_TRUE(result.violations.empty()) << describe(result.violations);
}

// ------------------------------------------------ UTF-8 at the MessagePack door

TEST(MsgpackUtf8Refusal, HoldsOnTheDecoderAndFiresOnARefusalOfAWellFormedStringOrAtAnotherByte) {
  using namespace std::string_literals;
  // A map {"k": <string>} in each str form, then a fixarray of a float32, a bin8 and the string.
  const auto documents = [](const std::string& text) {
    std::vector<std::string> out;
    out.push_back("\x81\xa1k"s + static_cast<char>(0xa0 + text.size()) + text);
    out.push_back("\x81\xa1k\xd9"s + static_cast<char>(text.size()) + text);
    out.push_back("\x81\xa1k\xda\x00"s + static_cast<char>(text.size()) + text);
    out.push_back("\x93\xca\x3f\x00\x00\x00\xc4\x02\xff\xfe"s + static_cast<char>(0xa0 + text.size()) + text);
    return out;
  };
  int refusals = 0, acceptances = 0;
  for (const std::string& text : {"plain"s, "\xc2\xa9 \xc2\x85"s, "\xe2\x80\xa8"s, "\xf0\x9f\x98\x80"s, "a\xc2"s,
                                  "ab\xe0\x80\x80"s, "\xed\xa0\x80"s, "x\xf4\x90\x80\x80"s, "\x80"s, "\xc0\xaf"s,
                                  "\xf0\x9f\x98"s}) {
    for (const std::string& bytes : documents(text)) {
      const auto decoded = from_msgpack(bytes);
      (decoded ? acceptances : refusals) += 1;
      EXPECT_HOLDS(msgpack_utf8_refusal_exact(bytes, decoded)) << (decoded ? "accepted" : decoded.error().message);
    }
  }
  EXPECT_GT(refusals, 20);
  EXPECT_GT(acceptances, 10);

  const std::string well_formed = "\x81\xa1k\xa2\xc2\xa9"s;  // {"k": "©"}: the string's bytes are 4 and 5
  const auto refusal = [](std::size_t at) {
    return Result<Json>(Error::bad_request("Invalid MessagePack: invalid UTF-8 in string at byte " + std::to_string(at)));
  };
  EXPECT_FIRES(msgpack_utf8_refusal_exact(well_formed, refusal(4)), "utf8-refusal");
  // A string of 2 bytes, "x" and the first byte of "©", whose second byte follows it: ill-formed from byte 5.
  const std::string cut = "\x81\xa1k\xa2x\xc2\xa9"s;
  EXPECT_HOLDS(msgpack_utf8_refusal_exact(cut, refusal(5)));
  EXPECT_FIRES(msgpack_utf8_refusal_exact(cut, refusal(4)), "utf8-refusal");
  EXPECT_FIRES(msgpack_utf8_refusal_exact(well_formed, refusal(1)), "utf8-refusal");  // a header, no string's bytes
  EXPECT_FIRES(msgpack_utf8_refusal_exact(well_formed, Result<Json>(Json{{"k", "\xc2"}})), "utf8-refusal");
  EXPECT_HOLDS(msgpack_utf8_refusal_exact(well_formed, Result<Json>(Json{{"k", "\xc2\xa9"}})));
}

// --------------------------------------------------- MessagePack values, exactly

TEST(MsgpackValuesExact, HoldsOnTheDecoderAndFiresOnEachMisreadValue) {
  using namespace std::string_literals;
  // Every integer form at both signs, float32 and float64 (NaN, -0.0), nil, booleans, strings, bin-free nesting.
  const std::vector<std::string> documents{
      "\xdc\x00\x10\x05\xe0\xcc\xff\xcd\x01\x00\xce\x00\x01\x00\x00\xcf\xff\xff\xff\xff\xff\xff\xff\xff\xd0\x80\xd1\xff\x7f"
      "\xd2\x80\x00\x00\x00\xd3\x80\x00\x00\x00\x00\x00\x00\x00\xd0\x05\xca\xbf\xc0\x00\x00\xcb\x80\x00\x00\x00\x00\x00"
      "\x00\x00\xcb\x7f\xf8\x00\x00\x00\x00\x00\x01\xc0\xc2"s,
      "\x83\xa1" "a\x92\xc3\xa0\xa1" "b\x81\xd9\x02xy\xdc\x00\x01\x01\xa2\xc2\xa9\xde\x00\x00"s,
      // A map with a repeated key (the decoder keeps two entries of three), then a sibling.
      "\x93\x83\xa1k\x01\xa1k\x02\xa1j\x03\xa5" "after\x07"s,
  };
  for (const std::string& bytes : documents) {
    const auto decoded = from_msgpack(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.error().message;
    EXPECT_HOLDS(msgpack_values_exact(bytes, *decoded)) << decoded->dump();
  }
  const std::string list = documents[0];
  const Json right = *from_msgpack(list);
  const auto changed = [&](std::size_t i, Json v) {
    Json wrong = right;
    wrong[i] = std::move(v);
    return wrong;
  };
  // Items: 5, -32, 255, 256, 65536, 2^64-1, -128, -129, -2^31, -2^63, 5 (int8), -1.5f, -0.0, NaN, nil, false.
  EXPECT_FIRES(msgpack_values_exact(list, changed(6, std::uint64_t{0} - 128)), "msgpack-values-exact");  // int8 as unsigned
  EXPECT_FIRES(msgpack_values_exact(list, changed(1, std::uint64_t{0} - 32)), "msgpack-values-exact");   // fixint too
  EXPECT_FIRES(msgpack_values_exact(list, changed(9, std::int64_t{0})), "msgpack-values-exact");
  EXPECT_HOLDS(msgpack_values_exact(list, changed(10, std::int64_t{5})));  // signed or unsigned 5: one integer
  EXPECT_FIRES(msgpack_values_exact(list, changed(11, -1.25)), "msgpack-values-exact");
  EXPECT_FIRES(msgpack_values_exact(list, changed(12, 0.0)), "msgpack-values-exact");  // -0.0 lost its sign
  EXPECT_FIRES(msgpack_values_exact(list, changed(13, 1.0)), "msgpack-values-exact");
  EXPECT_FIRES(msgpack_values_exact(list, changed(14, false)), "msgpack-values-exact");
  EXPECT_FIRES(msgpack_values_exact(list, changed(15, true)), "msgpack-values-exact");
  Json shorter = right;
  shorter.erase(shorter.size() - 1);
  EXPECT_FIRES(msgpack_values_exact(list, shorter), "msgpack-values-exact");
  const std::string map = documents[1];
  Json renamed = *from_msgpack(map);
  renamed["b"]["xz"] = renamed["b"]["xy"];
  renamed["b"].erase("xy");
  EXPECT_FIRES(msgpack_values_exact(map, renamed), "msgpack-values-exact");
  // Past a map judged by its count alone, the siblings are still read in their place.
  Json after_repeated = *from_msgpack(documents[2]);
  after_repeated[1] = "other";
  EXPECT_FIRES(msgpack_values_exact(documents[2], after_repeated), "msgpack-values-exact");
  after_repeated = *from_msgpack(documents[2]);
  after_repeated[2] = 8;
  EXPECT_FIRES(msgpack_values_exact(documents[2], after_repeated), "msgpack-values-exact");
}

// ------------------------------------------------- MessagePack refusals, exactly

TEST(MsgpackRefusalExact, HoldsOnTheDecodersRefusalsAndFiresOnAWrongOne) {
  using namespace std::string_literals;
  const std::string nested_65 = std::string(65, '\x91') + "\xc0"s;
  const std::vector<std::pair<std::string, std::string>> refused{
      {""s, "unexpected end of input, a value was expected at byte 0"},
      {"\x92\x01"s, "array declares 2 items but only 1 byte follows at byte 0"},
      {"\x81\xa1k\x91"s, "array declares 1 items but only 0 bytes follow at byte 3"},
      {"\x82\xa1k\x01"s, "map declares 2 entries but only 3 bytes follow at byte 0"},
      {"\x81\x01\x02"s, "map key is not a string at byte 1"},
      {"\x82\xa1k\x01\xc0\x02"s, "map key is not a string at byte 4"},
      {"\xc1"s, "reserved type byte 0xc1 at byte 0"},
      {"\x91\xc4\x00"s, "unsupported type bin8 (0xc4) at byte 1"},
      {"\x91\xd6"s, "unsupported type fixext4 (0xd6) at byte 1"},
      {"\xcd\x01"s, "truncated uint16 at byte 0"},
      {"\x91\xdb\x00\x00"s, "truncated str32 at byte 1"},
      {"\xa3" "ab"s, "string of 3 bytes runs past the end of input at byte 0"},
      {"\xda\x00\x05" "abc"s, "string of 5 bytes runs past the end of input at byte 0"},
      {"\x91\xa1\xff"s, "invalid UTF-8 in string at byte 2"},
      {nested_65, "containers nested more than 64 deep at byte 64"},
      {"\x01\x02"s, "trailing data after the value at byte 1"},
      {"\x81\xa1k\x90\xc0"s, "trailing data after the value at byte 4"},
  };
  for (const auto& [bytes, reason] : refused) {
    const auto decoded = from_msgpack(bytes);
    ASSERT_FALSE(decoded.ok()) << testing::PrintToString(bytes);
    EXPECT_EQ(decoded.error().message, "Invalid MessagePack: " + reason) << testing::PrintToString(bytes);
    EXPECT_HOLDS(msgpack_refusal_exact(bytes, decoded)) << testing::PrintToString(bytes);
  }
  // A str32 key, a repeated key, nesting exactly 64 deep, float32: whole documents.
  const std::string str32_key = "\x81\xdb\x00\x00\x00\x01k\x01"s;
  for (const std::string& bytes : {str32_key, "\x82\xa1k\x01\xa1k\x02"s, std::string(64, '\x91') + "\xc0"s,
                                   "\x92\xca\x3f\x80\x00\x00\x80"s}) {
    const auto decoded = from_msgpack(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.error().message;
    EXPECT_HOLDS(msgpack_refusal_exact(bytes, decoded)) << testing::PrintToString(bytes);
  }
  const auto refusal = [](const std::string& reason) {
    return Result<Json>(Error::bad_request("Invalid MessagePack: " + reason));
  };
  EXPECT_FIRES(msgpack_refusal_exact(str32_key, refusal("map key is not a string at byte 1")), "msgpack-refusal-exact");
  EXPECT_FIRES(msgpack_refusal_exact("\x01\x02"s, Result<Json>(Json(1))), "msgpack-refusal-exact");
  EXPECT_FIRES(msgpack_refusal_exact("\x91\xc4\x00"s, refusal("unsupported type bin8 (0xc4) at byte 0")),
               "msgpack-refusal-exact");
  EXPECT_FIRES(msgpack_refusal_exact("\x92\x01"s, refusal("truncated uint8 at byte 1")), "msgpack-refusal-exact");
  EXPECT_FIRES(msgpack_refusal_exact(nested_65, refusal("containers nested more than 64 deep at byte 65")),
               "msgpack-refusal-exact");
  // Ill-formed UTF-8 first: the reason is judged here, its byte (and an acceptance) by utf8-refusal.
  EXPECT_HOLDS(msgpack_refusal_exact("\x91\xa1\xff"s, refusal("invalid UTF-8 in string at byte 7")));
  EXPECT_HOLDS(msgpack_refusal_exact("\x91\xa1\xff"s, Result<Json>(Json::array({"\xff"}))));
  EXPECT_FIRES(msgpack_refusal_exact("\x91\xa1\xff"s, refusal("trailing data after the value at byte 2")),
               "msgpack-refusal-exact");
}

// ------------------------------------------------------------- JSON escapes

TEST(EscapeRefusal, HoldsOnTheDoorsEscapeRefusalsAndFiresOnAGoodEscapeRefused) {
  // Good escapes (a pair above U+FFFF in either case, after a byte order mark
  // and a two-byte character), then one of each defect, each at a known place.
  const std::vector<std::string> good{R"(["\ud83d\ude00"])", R"(["\uD83D\uDE00\u00e9\n\/"])",
                                      "\xEF\xBB\xBF[\"\xC3\xA9\\ud83d\\ude00\"]"};
  for (const std::string& text : good) {
    const auto parsed = parse_bounded_json(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error().message;
    EXPECT_HOLDS(escape_refusal_exact(text, parsed));
  }
  const std::vector<std::pair<std::string, std::string>> bad{
      {R"(["\x"])", "Invalid \\escape: line 1 column 3 (char 2)"},
      {"[\"\xC3\xA9\\x\"]", "Invalid \\escape: line 1 column 4 (char 3)"},
      {R"(["\u12g4"])", "Invalid \\uXXXX escape: line 1 column 4 (char 3)"},
      {R"(["\u0041)", "Invalid \\uXXXX escape: line 1 column 4 (char 3)"},  // no character after the digits
      {R"(["\ud83d\u12g4"])", "Invalid \\uXXXX escape: line 1 column 10 (char 9)"},
      {R"(["\ude00"])", "Lone surrogate escape (rejected, spec 10.4): line 1 column 3 (char 2)"},
      {R"(["\ud83d"])", "Lone surrogate escape (rejected, spec 10.4): line 1 column 3 (char 2)"},
      {R"(["\ud83d\ud83d"])", "Lone surrogate escape (rejected, spec 10.4): line 1 column 3 (char 2)"},
      {"\xEF\xBB\xBF[\"\\ude00\"]", "Lone surrogate escape (rejected, spec 10.4): line 1 column 3 (char 2)"},
  };
  for (const auto& [text, reason] : bad) {
    const auto parsed = parse_bounded_json(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_EQ(parsed.error().message, "Invalid JSON: " + reason) << text;
    EXPECT_HOLDS(escape_refusal_exact(text, parsed)) << text;
  }
  const auto refused = [](const std::string& reason) { return Result<Json>(Error::bad_request("Invalid JSON: " + reason)); };
  EXPECT_FIRES(escape_refusal_exact(good[0], refused("Invalid \\uXXXX escape: line 1 column 10 (char 9)")),
               "escape-refusal");  // a good pair's second half
  EXPECT_FIRES(escape_refusal_exact(good[0], refused("Lone surrogate escape (rejected, spec 10.4): line 1 column 3 (char 2)")),
               "escape-refusal");
  EXPECT_FIRES(escape_refusal_exact(R"(["\n"])", refused("Invalid \\escape: line 1 column 3 (char 2)")), "escape-refusal");
  EXPECT_FIRES(escape_refusal_exact(R"(["\x"])", refused("Invalid \\escape: line 1 column 4 (char 3)")), "escape-refusal");
  EXPECT_FIRES(escape_refusal_exact(good[2], refused("Invalid \\uXXXX escape: line 1 column 5 (char 4)")),
               "escape-refusal");  // counted after the byte order mark, é one character
  EXPECT_HOLDS(escape_refusal_exact(good[0], refused("Expecting value: line 1 column 1 (char 0)")));  // not an escape's
}

// ------------------------------------------------------------- wire lengths

TEST(WireLengthsDue, HoldOnTheDecodersAnswersAndFireOnACountJudgedWrongly) {
  const auto nils = [](std::size_t n) { return Json(std::vector<Json>(n, nullptr)); };
  // Ten fields the decoder takes (null where null is allowed); then each field
  // in turn a list of 0 to 4 items, and lists of 11 and 40 items.
  const Json ten = Json::array({nullptr, nullptr, nullptr, nullptr, nullptr, false, nullptr, nullptr, nullptr, 2});
  ASSERT_TRUE(decode_wire(ten).ok());
  std::vector<Json> arrays{ten, nils(0), nils(11), nils(40)};
  for (std::size_t i = 0; i < 10; ++i)
    for (std::size_t n : {0, 1, 2, 3, 4}) {
      Json raw = ten;
      raw[i] = Json::array({"score_doc", "k", 1, 1});
      raw[i].erase(raw[i].begin() + static_cast<std::ptrdiff_t>(n), raw[i].end());
      arrays.push_back(raw);
    }
  std::size_t length_refusals = 0;
  for (const Json& raw : arrays) {
    const auto decoded = decode_wire(raw);
    length_refusals += !decoded && decoded.error().message.find(" items, got ") != std::string::npos;
    EXPECT_HOLDS(wire_lengths_due(raw, decoded)) << raw.dump();
  }
  EXPECT_EQ(length_refusals, 5u);  // 11 and 40 items, and late_interaction_params of 0, 1 or 4
  const auto refused = [](const std::string& message) { return Result<PoolingParams>(Error::bad_request(message)); };
  EXPECT_FIRES(wire_lengths_due(ten, refused("$: Input should have at most 10 items, got 10")), "wire-length");
  EXPECT_FIRES(wire_lengths_due(nils(11), refused("$: Input should have at most 10 items, got 12")), "wire-length");
  EXPECT_FIRES(wire_lengths_due(nils(11), refused("$: Input should have at most 11 items, got 11")), "wire-length");
  EXPECT_HOLDS(wire_lengths_due(nils(11), refused("$: Input should have at most 10 items, got 11")));
  Json late = nils(10);
  late[8] = Json::array({"score_doc", "k"});
  EXPECT_FIRES(wire_lengths_due(late, refused("$[8]: Input should have 2 or 3 items, got 2")), "wire-length");
  EXPECT_FIRES(wire_lengths_due(late, refused("$[7]: Input should have 2 or 3 items, got 2")), "wire-length");
  late[8] = Json::array({"score_doc"});
  EXPECT_HOLDS(wire_lengths_due(late, refused("$[8]: Input should have 2 or 3 items, got 1")));
  EXPECT_FIRES(wire_lengths_due(nils(11), Result<PoolingParams>(PoolingParams{})), "wire-length");
}

// ------------------------------------------------------------- cache_salt

namespace {

// `count` copies of `unit`.
std::string repeated(const std::string& unit, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += unit;
  return out;
}

}  // namespace

TEST(CacheSaltRules, HoldOnTheCoresAnswersAndFireOnASaltJudgedWrongly) {
  const auto with_salt = [](const Json& salt) {
    return envelope("rerank", Json{{"query", "q"}, {"documents", {"d"}}, {"cache_salt", salt}});
  };
  // Taken: up to 128 code points of every UTF-8 length. Refused: the rest.
  const std::vector<Json> salts{"s", repeated("a", 128), repeated("\xc3\xa9", 128), repeated("\xe2\x82\xac", 128),
                                repeated("\xf0\x9f\x98\x80", 128), repeated("a", 129), repeated("\xc3\xa9", 129),
                                "a@b", "a/b", "a\\b", std::string("a\0b", 3), "", 5, true, Json::array(), nullptr};
  std::size_t taken = 0;
  for (const Json& salt : salts) {
    const Json document = with_salt(salt);
    const auto parsed = envelope_from_json(document);
    taken += parsed.ok();
    EXPECT_HOLDS(cache_salt_rules(document, parsed ? nullptr : &parsed.error())) << salt.dump();
    EXPECT_HOLDS(check_request_input(dump_json(document)).violations) << salt.dump();
  }
  EXPECT_EQ(taken, 6u);  // five good salts and the null one
  const Error empty = Error::bad_request("Parameter 'cache_salt' must be a non-empty string if provided.", "cache_salt");
  const Error chars = Error::bad_request(
      "Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\\\', or NUL.",
      "cache_salt");
  EXPECT_FIRES(cache_salt_rules(with_salt(repeated("a", 128)), &chars), "cache-salt-rules");  // a good salt refused
  EXPECT_FIRES(cache_salt_rules(with_salt(repeated("\xc3\xa9", 128)), &chars), "cache-salt-rules");
  EXPECT_FIRES(cache_salt_rules(with_salt("a@b"), nullptr), "cache-salt-rules");               // a bad one taken
  EXPECT_FIRES(cache_salt_rules(with_salt(""), nullptr), "cache-salt-rules");
  EXPECT_FIRES(cache_salt_rules(with_salt(""), &chars), "cache-salt-rules");                   // the other rule's message
  EXPECT_FIRES(cache_salt_rules(with_salt(repeated("a", 129)), &empty), "cache-salt-rules");
  EXPECT_FIRES(cache_salt_rules(with_salt(nullptr), &empty), "cache-salt-rules");              // no salt to refuse
  // Refused for another field, a bad salt is not judged here; LLM.score's extras are not validated.
  const Error normalize = Error::bad_request("Parameter `normalize` was removed; use `use_activation` instead.", "normalize");
  EXPECT_HOLDS(cache_salt_rules(with_salt(""), &normalize));
  EXPECT_HOLDS(cache_salt_rules(envelope("llm.score", Json{{"cache_salt", ""}}), nullptr));
}

// ------------------------------------------------- multimodal inputs in pairing

TEST(PairingRejection, MultimodalRefusalsAreDueAndNameTheArchitecture) {
  const Json content{{"content", {{{"type", "text"}, {"text", "t"}}}}};
  const Json image{{"type", "image_url"}, {"image_url", {{"url", "u"}}}};
  const Json two_images{{"content", {image, image}}};
  const Json multimodal{{"is_multimodal", true}, {"architecture", "MMScorer"}};
  const auto body = [](const Json& query, const Json& document) {
    return Json{{"queries", query}, {"documents", Json::array({document})}};
  };
  const std::vector<Json> documents{envelope("score", body("q", "d")), envelope("score", body(content, "d")),
                                    envelope("score", body("q", content), multimodal),
                                    envelope("score", body(two_images, "d"), multimodal),
                                    envelope("score", body("q", two_images), multimodal)};
  for (const Json& document : documents) EXPECT_HOLDS(check_request_input(dump_json(document)).violations) << document;
  const auto parsed = [](const Json& document) { return *envelope_from_json(document); };
  const auto text_only = parsed(documents[0]);
  const auto with_content = parsed(documents[1]);
  const Error unsupported = Error::bad_request("MultiModalParam is not supported for " + text_only.model.architecture);
  const Error one_item = Error::bad_request("Only one multi-modal item is supported");
  EXPECT_HOLDS(pairing_rejection(with_content, unsupported));
  EXPECT_FIRES(pairing_rejection(text_only, unsupported), "pairing-cardinality");  // text pairs legally
  EXPECT_FIRES(pairing_rejection(with_content, Error::bad_request("MultiModalParam is not supported for X")),
               "pairing-cardinality");                                             // another architecture
  EXPECT_FIRES(pairing_rejection(parsed(documents[2]), unsupported), "pairing-cardinality");  // a multimodal model
  EXPECT_FIRES(pairing_rejection(with_content, Error::bad_request("At least one text element must be given")),
               "pairing-cardinality");
  EXPECT_HOLDS(pairing_rejection(parsed(documents[3]), one_item));
  EXPECT_FIRES(pairing_rejection(parsed(documents[2]), one_item), "pairing-cardinality");  // one image at most
}

// ------------------------------------------------------------- type refusals

TEST(TypeRefusalsDue, HoldsOnTheCoresTypeRefusalsAndFiresOnOneOfAValueOfTheKind) {
  const Json body{{"queries", "q"}, {"documents", "d"}};
  std::vector<Json> envelopes{Json(5), Json::array()};
  for (const Json& wrong : {Json(5), Json("x"), Json::array(), Json(nullptr), Json(true)}) {
    envelopes.push_back(envelope("score", body, Json{{"max_model_len", 512}, {"name", wrong}}));
    envelopes.push_back(envelope("score", wrong));
    for (const char* field : {"model", "user", "request_id", "mm_processor_kwargs", "truncation_side", "queries"}) {
      Json b = body;
      b[field] = wrong;
      envelopes.push_back(envelope("score", b));
    }
    Json with_model = envelope("score", body);
    with_model["model"] = wrong;
    envelopes.push_back(with_model);
    envelopes.push_back(envelope("llm.score", Json{{"data_1", "a"}, {"data_2", "b"}, {"pooling_params", wrong}}));
  }
  int judged = 0;
  for (const Json& env : envelopes) {
    const auto parsed = envelope_from_json(env);
    if (parsed) continue;
    judged += parsed.error().message.find(": Input should be a valid ") != std::string::npos;
    EXPECT_HOLDS(type_refusals_due(env, parsed.error())) << env.dump() << "\n" << parsed.error().message;
  }
  EXPECT_GT(judged, 20) << "too few type refusals judged: the test would show little";

  const auto error = [](const std::string& message, const char* param) { return Error::bad_request(message, param); };
  Json with_config = envelope("score", body, Json{{"max_model_len", 512}});
  EXPECT_FIRES(type_refusals_due(with_config, error("model: Input should be a valid object", "model")),
               "type-refusals-due");
  with_config["model"]["name"] = "m";
  EXPECT_FIRES(type_refusals_due(with_config, error("model.name: Input should be a valid string", "model.name")),
               "type-refusals-due");
  EXPECT_HOLDS(type_refusals_due(with_config, error("model.max_model_len: Input should be a valid string", "model.max_model_len")));
  EXPECT_FIRES(type_refusals_due(envelope("score", Json{{"queries", "q"}, {"documents", "d"}, {"user", "u"}}),
                                 error("user: Input should be a valid string", "user")),
               "type-refusals-due");
  EXPECT_FIRES(type_refusals_due(with_config, error("body: Input should be a valid object", "body")), "type-refusals-due");
  // The body's model name and the envelope's config share the path: a string there keeps an object refusal due.
  Json both = with_config;
  both["request"]["model"] = "m";
  EXPECT_HOLDS(type_refusals_due(both, error("model: Input should be a valid object", "model")));
  // Indexed paths and the lax kinds are not this law's.
  EXPECT_HOLDS(type_refusals_due(with_config, error("queries[0]: Input should be a valid string", "queries[0]")));
  EXPECT_HOLDS(type_refusals_due(with_config, error("model.max_model_len: Input should be a valid integer", "model.max_model_len")));
}

TEST(MissingFieldNamed, HoldsOnTheCoresMissingRefusalsAndFiresOnAMisspelledOrPresentField) {
  const Json offline{{"data_1", "a"}, {"data_2", "b"}};
  std::vector<Json> envelopes{Json{{"model", Json::object()}, {"request", offline}},
                              Json{{"endpoint", "score"}, {"model", Json::object()}}};
  for (const char* key : {"data_1", "data_2"}) {
    Json call = offline;
    call.erase(key);
    envelopes.push_back(envelope("llm.score", call));
    call[key] = nullptr;
    envelopes.push_back(envelope("llm.score", call));
  }
  for (const char* key : {"mode", "query_key"}) {
    Json late{{"mode", "cache_query"}, {"query_key", "k"}};
    late.erase(key);
    Json call = offline;
    call["pooling_params"] = Json{{"late_interaction_params", late}};
    envelopes.push_back(envelope("llm.score", call));
  }
  envelopes.push_back(envelope("rerank", Json{{"query", "q"}}));
  envelopes.push_back(envelope("score", Json{{"queries", Json::array({Json{{"content", Json::array({Json::object()})}}})},
                                             {"documents", "d"}}, Json{{"is_multimodal", true}}));
  int judged = 0;
  for (const Json& env : envelopes) {
    const auto parsed = envelope_from_json(env);
    ASSERT_FALSE(parsed) << env.dump();
    judged += parsed.error().message.find(": Field required") != std::string::npos;
    EXPECT_HOLDS(missing_field_named(env, parsed.error())) << env.dump() << "\n" << parsed.error().message;
  }
  EXPECT_GE(judged, 8) << "too few missing refusals judged: the test would show little";

  const auto error = [](const std::string& message) { return Error::bad_request(message, message.substr(0, message.find(':'))); };
  Json late_call = offline;
  late_call["pooling_params"] = Json{{"late_interaction_params", Json{{"mode", "cache_query"}}}};
  const Json env = envelope("llm.score", late_call);
  EXPECT_HOLDS(missing_field_named(env, error("pooling_params.late_interaction_params.query_key: Field required")));
  // auto-pooling-params-72-string-literal-1: the required key misspelled in the refusal.
  EXPECT_FIRES(missing_field_named(env, error("pooling_params.late_interaction_params.uery_key: Field required")),
               "missing-field-named");
  // A field the input holds is not missing.
  EXPECT_FIRES(missing_field_named(env, error("pooling_params.late_interaction_params.mode: Field required")),
               "missing-field-named");
  EXPECT_FIRES(missing_field_named(env, error("data_2: Field required")), "missing-field-named");
  // An envelope nested as the body of one without an endpoint: its missing
  // endpoint is the outer one's, whatever the body holds (a fuzz finding).
  const Json nested{{"request", envelope("rerank", Json{{"query", "q"}})}};
  const auto refused = envelope_from_json(nested);
  ASSERT_FALSE(refused);
  EXPECT_HOLDS(missing_field_named(nested, refused.error()));
  // A verify document has no body: its `request` key is nothing of the core's (a fuzz finding).
  const Json verify_doc{{"request", Json{{"pooling_params", Json::object()}}}, {"model", Json::object()}};
  EXPECT_HOLDS(missing_field_named(verify_doc, nullptr, error("pooling_params: Field required")));
  EXPECT_FIRES(missing_field_named(Json{{"pooling_params", Json::object()}}, nullptr, error("pooling_params: Field required")),
               "missing-field-named");
  EXPECT_FIRES(missing_field_named(envelope("rerank", Json{{"query", "q"}, {"documents", "d"}}),
                                   error("documents: Field required")),
               "missing-field-named");
  // Other refusals are not this law's.
  EXPECT_HOLDS(missing_field_named(env, error("data_3: Input should be a valid string")));
}

TEST(RefusalNamesAPlace, HoldsOnTheCoresRefusalsAndFiresOnAPathBuiltWrong) {
  const Json part{{"type", "image_url"}, {"image_url", Json::object()}};
  const Json parts = Json::array({Json{{"type", "text"}, {"text", "y"}}, part});
  std::vector<Json> envelopes{
      envelope("score", Json{{"queries", Json::array({"q", Json{{"content", parts}}})}, {"documents", "d"}},
               Json{{"is_multimodal", true}}),
      envelope("score", Json{{"queries", "q"}, {"documents", Json::array({"d", 5})}}),
      envelope("llm.score", Json{{"data_1", "a"}, {"data_2", "b"}, {"pooling_params", Json{{"late_interaction_params", Json{{"mode", "cache_query"}}}}}}),
      envelope("score", Json{{"queries", "q"}, {"documents", "d"}, {"user", 5}}),
      envelope("score", Json{{"queries", "q"}, {"documents", "d"}}, Json{{"name", 5}})};
  for (const Json& env : envelopes) {
    const auto parsed = envelope_from_json(env);
    ASSERT_FALSE(parsed) << env.dump();
    EXPECT_HOLDS(refusal_names_a_place(env, parsed.error())) << env.dump() << "\n" << parsed.error().message;
  }
  const auto error = [](const std::string& message) { return Error::bad_request(message, message.substr(0, message.find(':'))); };
  const Json& env = envelopes[0];
  EXPECT_HOLDS(refusal_names_a_place(env, error("queries[1].content[1].image_url.url: Field required")));
  // auto-request-11-string-literal-1: indexes written without their '['.
  EXPECT_FIRES(refusal_names_a_place(env, error("queries1].content1].image_url.url: Field required")),
               "refusal-names-a-place");
  EXPECT_FIRES(refusal_names_a_place(env, error("queries[2]: Input should be a valid string")), "refusal-names-a-place");
  EXPECT_FIRES(refusal_names_a_place(env, error("queries[1].content[0].image_url.url: Field required")),
               "refusal-names-a-place");
  EXPECT_HOLDS(refusal_names_a_place(env, error("data_3: Input should be greater than or equal to 1")));
  // auto-verify-157-string-literal-1: the document's own refusal without its `$`.
  EXPECT_HOLDS(refusal_names_a_place(env, error("$: Input should be a valid object")));
  EXPECT_FIRES(refusal_names_a_place(env, error(": Input should be a valid object")), "refusal-names-a-place");
}

// What Python 3.11 printed for repr() of each text.
TEST(PythonStrRepr, QuotesAsPythonDoes) {
  const std::vector<std::pair<std::string, std::string>> shown{
      {"embed", "'embed'"},           {"it's", "\"it's\""},       {"a'b\"c", "'a\\'b\"c'"},
      {"a\\b", "'a\\\\b'"},           {"\n\r\t", "'\\n\\r\\t'"},  {std::string("\x01\x7f", 2), "'\\x01\\x7f'"},
      {"\xc3\xa9\xc2\xa0\xc2\xad\xc2\x85", "'\xc3\xa9\\xa0\\xad\\x85'"},
      {"\xe2\x82\xac", "'\xe2\x82\xac'"}, {"say \"hi\"", "'say \"hi\"'"}, {"", "''"},
      // Above U+00FF, what str.isprintable() rejects in \u or \U hex (values printed by Python 3.11).
      {"\u2028", "'\\u2028'"}, {"a\u200bb", "'a\\u200bb'"}, {"\ufeff", "'\\ufeff'"}, {"\ue000", "'\\ue000'"},
      {"\U000e0001", "'\\U000e0001'"}, {"\u0378", "'\\u0378'"}, {"\U0010ffff", "'\\U0010ffff'"},
      {"\u4e00\U0001f600", "'\u4e00\U0001f600'"}, {"\u00ff\u0100", "'\u00ff\u0100'"},
      {"\U0001f600\U000e007f", "'\U0001f600\\U000e007f'"},
      // Each side of the hex widths' edges: U+FFFF is the last \u, U+10000 prints.
      {"\ufffe\uffff\U00010000", "'\\ufffe\\uffff\U00010000'"}};
  for (const auto& [text, repr] : shown) {
    EXPECT_EQ(python_str_repr(text), repr) << text;
    EXPECT_EQ(python_repr(text), repr) << text;  // the core's, which the law does not call
  }
  EXPECT_EQ(python_str_repr("\xff"), std::nullopt);  // not UTF-8: not judged
}

TEST(TaskOverwrite, HoldsOnTheCoresAnswersAndFiresOnATaskQuotedOrJudgedWrongly) {
  const auto offline = [](const Json& task) {
    Json params = Json::object();
    if (!task.is_null()) params["task"] = task;
    return envelope("llm.score", Json{{"data_1", "a"}, {"data_2", "b"}, {"pooling_params", params}});
  };
  std::size_t refused = 0;
  for (const Json& task : {Json("embed"), Json("it's"), Json("a\nb\\"), Json("\xc2\x85"), Json("classify"), Json()}) {
    const Json document = offline(task);
    const auto parsed = envelope_from_json(document);
    ASSERT_TRUE(parsed.ok()) << document.dump();
    const auto output = preprocess(parsed->model, parsed->request);
    refused += !output.ok();
    EXPECT_HOLDS(task_overwrite_refusal(parsed->request.caller_params.get(), output ? nullptr : &output.error()))
        << task.dump();
    EXPECT_HOLDS(check_request_input(dump_json(document)).violations) << task.dump();
  }
  EXPECT_EQ(refused, 4u);
  PoolingParams caller;
  caller.task = "it's";
  const Error quoted = Error::bad_request("You cannot overwrite self.task=\"it's\" with task='classify'!");
  const Error misquoted = Error::bad_request("You cannot overwrite self.task='it's' with task='classify'!");
  EXPECT_HOLDS(task_overwrite_refusal(&caller, &quoted));
  EXPECT_FIRES(task_overwrite_refusal(&caller, &misquoted), "task-overwrite");
  EXPECT_FIRES(task_overwrite_refusal(&caller, nullptr), "task-overwrite");       // a conflict accepted
  EXPECT_FIRES(task_overwrite_refusal(nullptr, &quoted), "task-overwrite");  // no task to conflict
  caller.task = "classify";
  EXPECT_FIRES(task_overwrite_refusal(&caller, &quoted), "task-overwrite");
}

// Each Matryoshka message, the model's name quoted as Python 3.11's repr()
// quoted it, and the lists as str() prints them.
TEST(RefusedDimensionsInvalid, TheMessageIsTheSpecsByteForByte) {
  ModelConfig model;
  PoolingParams params;
  params.task = "embed";
  const std::string unsupported = " does not support Matryoshka embeddings; dimensions must be unset. ";
  struct Case {
    std::string name;
    bool matryoshka;
    std::optional<std::vector<std::int64_t>> listed;
    std::int64_t d;
    std::string message;
  };
  const std::vector<Case> cases{
      {"m", false, std::nullopt, 5,
       "Model 'm'" + unsupported + "Numeric dimensions are valid only for Matryoshka models in range [1, 384]."},
      {"it's", false, std::vector<std::int64_t>{}, 0,
       "Model \"it's\"" + unsupported + "Received dimensions=0, outside valid numeric range [1, 384]."},
      {"a\tb", true, std::nullopt, 385, "Model 'a\\tb' only supports dimensions in range [1, 384], got 385."},
      {"\xc2\xa0", false, std::vector<std::int64_t>{256, 128}, 5,
       "Model '\\xa0' only supports Matryoshka dimensions [256, 128], got 5."},
      {"m", true, std::vector<std::int64_t>{}, 5, "Model 'm' only supports Matryoshka dimensions [], got 5."}};
  for (const Case& c : cases) {
    model.name = c.name;
    model.is_matryoshka = c.matryoshka;
    model.matryoshka_dimensions = c.listed;
    params.dimensions = c.d;
    const auto verified = verify_params(params, model);
    ASSERT_FALSE(verified.ok()) << c.message;
    EXPECT_EQ(verified.error().message, c.message);
    EXPECT_HOLDS(refused_dimensions_invalid(model, params, verified.error())) << c.message;
    const auto replaced = [&](const std::string& from, const std::string& to) {
      std::string wrong = c.message;
      wrong.replace(wrong.find(from), from.size(), to);
      return Error::bad_request(wrong);
    };
    EXPECT_FIRES(refused_dimensions_invalid(model, params, replaced("Model ", "Model  ")), "verify-dimensions")
        << c.message;
    if (c.message.find("[256, 128]") != std::string::npos) {  // the list as the family regex takes any
      EXPECT_FIRES(refused_dimensions_invalid(model, params, replaced("[256, 128]", "[256,128]")), "verify-dimensions");
    }
    EXPECT_FIRES(refused_dimensions_invalid(model, params, replaced("Model ", "Model \\n")), "verify-dimensions");
  }
  model.name = "it's";
  model.is_matryoshka = false;
  model.matryoshka_dimensions = std::nullopt;
  params.dimensions = 5;
  EXPECT_FIRES(refused_dimensions_invalid(
                   model, params, Error::bad_request("Model 'it's'" + unsupported +
                                                     "Numeric dimensions are valid only for Matryoshka models in "
                                                     "range [1, 384].")),
               "verify-dimensions");
}

TEST(RejectedSpellingsRefused, HoldsOnTheCoresAnswersAndFiresOnASpellingTakenOrMisnamed) {
  std::size_t judged = 0;
  for (const auto& field : typed_fields()) {
    for (const auto& spelling : field.is_bool ? rejected_bool_spellings() : rejected_int_spellings()) {
      Json document = envelope("rerank", Json{{"query", "q"}, {"documents", {"d"}}});
      document["request"][std::string(field.name)] = spelling.value;
      const auto parsed = envelope_from_json(document);
      ASSERT_FALSE(parsed.ok()) << document.dump();
      EXPECT_HOLDS(rejected_spellings_refused(document, &parsed.error()));
      ++judged;
    }
  }
  EXPECT_GT(judged, 200u);
  const Json plus_minus = envelope("rerank", Json{{"query", "q"}, {"documents", {"d"}}, {"priority", "+-5"}});
  EXPECT_FIRES(rejected_spellings_refused(plus_minus, nullptr), "spellings-refused");  // taken
  const Error as_int = Error::bad_request("priority: Input should be a valid integer", "priority");
  EXPECT_FIRES(rejected_spellings_refused(plus_minus, &as_int), "spellings-refused");  // another message
  const Error elsewhere = Error::bad_request("top_n: Input should be a valid integer", "top_n");
  EXPECT_HOLDS(rejected_spellings_refused(plus_minus, &elsewhere));  // refused first for another field
  // A spelling pydantic takes, or one of another JSON type, is not judged here.
  for (const Json& taken : {Json("-5"), Json(" 5"), Json(std::uint64_t{10000000000000000000U}), Json(2.0)}) {
    Json document = envelope("score", Json{{"queries", "q"}, {"documents", {"d"}}, {"priority", taken}});
    EXPECT_HOLDS(rejected_spellings_refused(document, nullptr)) << taken.dump();
  }
  // top_n is no field of a score body.
  EXPECT_HOLDS(rejected_spellings_refused(envelope("score", Json{{"queries", "q"}, {"documents", {"d"}}, {"top_n", "+-5"}}), nullptr));
}

TEST(ModelName, TheOne404IsForAnotherNameAndOnlyForIt) {
  ModelConfig model;
  model.name = "served";
  const Error other_400 = Error::bad_request("truncate_prompt_tokens value is greater than max_model_len.");
  const Error not_found_other = Error::not_found("The model `other` does not exist.", "model");
  const Error not_found_served = Error::not_found("The model `served` does not exist.", "model");
  const Json none = Json::object(), null_name{{"model", nullptr}}, served{{"model", "served"}}, other{{"model", "other"}};
  for (const Json* body : {&none, &null_name, &served}) {
    EXPECT_HOLDS(model_name_rule(*body, model, nullptr)) << dump_json(*body);
    EXPECT_HOLDS(model_name_rule(*body, model, &other_400)) << dump_json(*body);
    EXPECT_FIRES(model_name_rule(*body, model, &not_found_served), "model-name") << dump_json(*body);
  }
  EXPECT_HOLDS(model_name_rule(other, model, &not_found_other));
  EXPECT_FIRES(model_name_rule(other, model, nullptr), "model-name");  // auto-preprocess-158-equality-1
  EXPECT_FIRES(model_name_rule(other, model, &other_400), "model-name");
  EXPECT_FIRES(model_name_rule(other, model, &not_found_served), "model-name");
  // Through the check: the core's own 404, and its acceptance of the served name.
  for (const std::string name : {"other", ""}) {
    const Json envelope{{"endpoint", "score"}, {"request", {{"queries", "q"}, {"documents", "d"}, {"model", name}}}};
    const auto result = check_request_input(dump_json(envelope));
    EXPECT_FALSE(result.accepted) << name;
    EXPECT_TRUE(result.violations.empty()) << name << ": " << result.violations.front().description;
  }
  const Json envelope{{"endpoint", "rerank"},
                      {"request", {{"query", "q"}, {"documents", {"d"}}, {"model", ModelConfig().name}}}};
  const auto result = check_request_input(dump_json(envelope));
  EXPECT_TRUE(result.accepted);
  EXPECT_TRUE(result.violations.empty()) << result.violations.front().description;
}

TEST(ModelReadAsWritten, HoldsOnTheCoresReadingAndFiresOnAFieldReadOtherwise) {
  const Json model{{"name", "m\xc2\xa0"},
                   {"architecture", "XLMRobertaForSequenceClassification"},
                   {"max_model_len", 300},
                   {"vocab_size", 40000},
                   {"is_multimodal", true},
                   {"tokenizer", {{"returns_token_type_ids", false}, {"truncation_side", "left"}, {"pad_token_id", 1}}},
                   {"pooler", {{"pooling_type", "STEP"}, {"dimensions", 64}, {"returned_token_ids", {3, 4}}}},
                   {"is_matryoshka", true},
                   {"matryoshka_dimensions", {64, 128}},
                   {"embedding_size", 256}};
  const Json document = envelope("score", Json{{"queries", "q"}, {"documents", {"d"}}}, model);
  const auto parsed = envelope_from_json(document);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_HOLDS(model_read_as_written(document, parsed->model));
  EXPECT_HOLDS(check_request_input(dump_json(document)).violations);
  for (const char* side : {"left", "right"}) {  // and a side read either way
    Json one = document;
    one["model"]["tokenizer"]["truncation_side"] = side;
    EXPECT_HOLDS(model_read_as_written(one, envelope_from_json(one)->model)) << side;
  }
  const auto fires = [&](void (*change)(ModelConfig&)) {
    ModelConfig read = parsed->model;
    change(read);
    return fired(model_read_as_written(document, read), "model-read-as-written");
  };
  EXPECT_TRUE(fires([](ModelConfig& m) { m.tokenizer.truncation_side = Side::Right; }));
  EXPECT_TRUE(fires([](ModelConfig& m) { m.name = "m"; }));
  EXPECT_TRUE(fires([](ModelConfig& m) { m.max_model_len = 512; }));
  EXPECT_TRUE(fires([](ModelConfig& m) { m.tokenizer.returns_token_type_ids = true; }));
  EXPECT_TRUE(fires([](ModelConfig& m) { m.pooler.dimensions.reset(); }));
  EXPECT_TRUE(fires([](ModelConfig& m) { m.pooler.returned_token_ids = std::vector<std::int64_t>{4, 3}; }));
  EXPECT_TRUE(fires([](ModelConfig& m) { m.matryoshka_dimensions.reset(); }));
  // Coerced or null values are not judged here: true is no int, null no value.
  Json coerced = document;
  coerced["model"]["tokenizer"]["pad_token_id"] = true;
  coerced["model"]["pooler"]["dimensions"] = nullptr;
  ModelConfig read = parsed->model;
  read.pooler.dimensions.reset();
  EXPECT_HOLDS(model_read_as_written(coerced, read));
  // The verify input names its model the same way.
  const std::string verify = R"({"model":{"name":"x","embedding_size":16},"pooling_params":{"task":"embed"}})";
  EXPECT_HOLDS(check_verify_input(verify).violations);
}

TEST(ParamsReadAsWritten, HoldsOnTheCoresReadingAndFiresOnAFieldReadOtherwise) {
  const Json written{{"use_activation", false},
                     {"dimensions", 64},
                     {"step_tag_id", -3},
                     {"returned_token_ids", {5, 2}},
                     {"task", "embed"},
                     {"requires_token_ids", true},
                     {"skip_reading_prefix_cache", true},
                     {"late_interaction_params", {{"mode", "score_doc"}, {"query_key", "k"}, {"query_uses", 2}}},
                     {"extra_kwargs", {{"cache_salt", "s"}, {"nested", {{"x", {1, 2}}}}}},
                     {"output_kind", "FINAL_ONLY"}};
  const auto read = params_from_object(written, "pooling_params");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_HOLDS(params_read_as_written(written, &*read));
  // Through both targets: an llm.score caller's params, and verify's.
  const Json call{{"data_1", "q"}, {"data_2", "d"}, {"pooling_params", {{"dimensions", 8}, {"task", "classify"}}}};
  EXPECT_HOLDS(check_request_input(dump_json(envelope("llm.score", call))).violations);
  EXPECT_HOLDS(check_verify_input(R"({"model":{"name":"x"},"pooling_params":{"dimensions":8}})").violations);
  const auto fires = [&](void (*change)(PoolingParams&)) {
    PoolingParams slipped = read->clone();
    change(slipped);
    return fired(params_read_as_written(written, &slipped), "params-read-as-written");
  };
  EXPECT_TRUE(fires([](PoolingParams& p) { p.dimensions.reset(); }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.use_activation = true; }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.step_tag_id = 3; }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.returned_token_ids = std::vector<std::int64_t>{2, 5}; }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.task = "classify"; }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.requires_token_ids = false; }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.skip_reading_prefix_cache.reset(); }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.late_interaction_params->query_uses.reset(); }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.late_interaction_params.reset(); }));
  EXPECT_TRUE(fires([](PoolingParams& p) { (*p.extra_kwargs)["nested"]["x"] = {1}; }));
  EXPECT_TRUE(fires([](PoolingParams& p) { p.extra_kwargs.reset(); }));
  EXPECT_TRUE(fired(params_read_as_written(written, nullptr), "params-read-as-written"));
  // Coerced or null values are not judged here, nor a pooling_params that is no object.
  Json coerced = written;
  coerced["dimensions"] = "64";
  coerced["step_tag_id"] = nullptr;
  PoolingParams none = read->clone();
  none.step_tag_id.reset();
  EXPECT_HOLDS(params_read_as_written(coerced, &none));
  EXPECT_HOLDS(params_read_as_written(Json(nullptr), nullptr));
  // NaN is equal to itself in the kwargs a caller wrote (Python's JSON reads it).
  const auto nan = check_request_input(
      R"({"endpoint":"llm.score","request":{"data_1":"q","data_2":"d","pooling_params":{"extra_kwargs":{"v":NaN}}}})");
  EXPECT_TRUE(nan.accepted);
  EXPECT_FALSE(fired(nan.violations, "params-read-as-written")) << describe(nan.violations);
}

TEST(WireTypeRefusalsDue, HoldOnTheDecodersAnswersAndFireOnAPathJudgedWrongly) {
  const Json ten = Json::array({nullptr, nullptr, nullptr, nullptr, nullptr, false, nullptr, nullptr, nullptr, 2});
  // Each field in turn, and each item of late_interaction_params, of each kind.
  std::vector<Json> arrays{ten, Json("x"), Json::object()};
  const std::vector<Json> kinds{Json(5),      Json("x"),         Json::array(),
                                Json::object(), Json(true),     Json("score_doc"),
                                Json(2.5),    Json(std::uint64_t{1} << 63), Json(std::int64_t{-1} << 63)};
  for (std::size_t i = 0; i < 10; ++i)
    for (const Json& kind : kinds) {
      Json raw = ten;
      raw[i] = kind;
      arrays.push_back(raw);
    }
  for (std::size_t item = 0; item < 3; ++item)
    for (const Json& kind : kinds) {
      Json raw = ten;
      raw[7] = Json::array({"score_doc", "k", 1});
      raw[7][item] = kind;
      arrays.push_back(raw);
    }
  std::size_t judged = 0;
  for (const Json& raw : arrays) {
    const auto decoded = decode_wire(raw);
    judged += !decoded && decoded.error().message.find(": Input should be ") != std::string::npos;
    EXPECT_HOLDS(wire_type_refusals_due(raw, decoded)) << raw.dump();
  }
  EXPECT_GT(judged, 15u);
  const auto refused = [](const std::string& message) { return Result<PoolingParams>(Error::bad_request(message)); };
  Json late = ten;
  late[7] = Json::array({"score_doc", 5});
  EXPECT_FIRES(wire_type_refusals_due(late, refused("$[7][0]: Input should be a valid string")), "type-refusals-due");
  EXPECT_HOLDS(wire_type_refusals_due(late, refused("$[7][1]: Input should be a valid string")));
  EXPECT_FIRES(wire_type_refusals_due(late, refused("$[7]: Input should be a valid list")), "type-refusals-due");
  EXPECT_FIRES(wire_type_refusals_due(late, refused("$[7][0]: Input should be 'cache_query' or 'score_doc'")),
               "type-refusals-due");
  EXPECT_HOLDS(wire_type_refusals_due(late, refused("$[7][0]: Input should be 'cache_query'")));
  // A type refusal is about a value that is there (auto-wire-85-int-literal-4: the mode's refusal at [2^64 - 1]).
  EXPECT_FIRES(wire_type_refusals_due(late, refused("$[7][7]: Input should be a valid string")), "type-refusals-due");
  EXPECT_FIRES(wire_type_refusals_due(late, refused("$[7][18446744073709551615]: Input should be 'cache_query' or "
                                                    "'score_doc'")),
               "type-refusals-due");
  EXPECT_FIRES(wire_type_refusals_due(late, refused("$[7][0][0]: Input should be a valid string")), "type-refusals-due");
  // Integers (int64 only) and booleans (auto-wire-91-int-literal-4 refused query_uses 5 as no integer).
  Json three = ten;
  three[7] = Json::array({"score_doc", "k", 5});
  three[5] = true;
  three[1] = Json(std::uint64_t{1} << 63);
  EXPECT_FIRES(wire_type_refusals_due(three, refused("$[7][2]: Input should be a valid integer")), "type-refusals-due");
  EXPECT_HOLDS(wire_type_refusals_due(three, refused("$[7][1]: Input should be a valid integer")));
  EXPECT_HOLDS(wire_type_refusals_due(three, refused("$[1]: Input should be a valid integer")));  // past int64
  EXPECT_FIRES(wire_type_refusals_due(three, refused("$[5]: Input should be a valid boolean")), "type-refusals-due");
  EXPECT_HOLDS(wire_type_refusals_due(three, refused("$[7][2]: Input should be a valid boolean")));
}

TEST(SidesReadAsWritten, HoldsOnTheCoresReadingAndFiresOnASideReadOtherwise) {
  const Json multimodal{{"is_multimodal", true}};
  const Json content{{"content", {{{"type", "text"}, {"text", "a cat"}}, {{"type", "image_url"}, {"image_url", {{"url", "u"}}}}}}};
  const std::vector<Json> documents{
      envelope("rerank", Json{{"query", "q"}, {"documents", {"d1", "d2", "d3"}}}),
      envelope("rerank", Json{{"query", content}, {"documents", {content, "d"}}}, multimodal),
      envelope("score", Json{{"queries", {"a", "b"}}, {"documents", {"c", "d"}}}),
      envelope("score", Json{{"queries", "q"}, {"items", "i"}, {"text_1", "t"}, {"text_2", "u"}}),
      envelope("score", Json{{"queries", 5}, {"documents", "d"}, {"data_1", "x"}, {"data_2", {"y", "z"}}}),
      envelope("score", Json{{"queries", "q"}, {"documents", nullptr}, {"text_1", "t"}, {"text_2", Json::array()}}),
      envelope("llm.score", Json{{"data_1", "q"}, {"data_2", {"d1", "d2"}}})};
  for (const Json& document : documents) {
    const auto parsed = envelope_from_json(document);
    ASSERT_TRUE(parsed.ok()) << document.dump() << ": " << parsed.error().message;
    EXPECT_HOLDS(sides_read_as_written(document["request"], parsed->request)) << document.dump();
    EXPECT_HOLDS(check_request_input(dump_json(document)).violations) << document.dump();
  }
  const Json& rerank = documents[0]["request"];
  auto read = envelope_from_json(documents[0])->request;
  const auto fires = [&](const Json& body, const ScoringRequest& request) {
    return fired(sides_read_as_written(body, request), "sides-read-as-written");
  };
  auto first_skipped = read;
  first_skipped.documents.erase(first_skipped.documents.begin());
  EXPECT_TRUE(fires(rerank, first_skipped));
  auto changed = read;
  changed.documents[1].text = "d";
  EXPECT_TRUE(fires(rerank, changed));
  auto as_object = read;
  as_object.queries[0].is_object = true;
  EXPECT_TRUE(fires(rerank, as_object));
  const Json& with_parts = documents[1]["request"];
  auto parts = envelope_from_json(documents[1])->request;
  parts.queries[0].parts.pop_back();
  EXPECT_TRUE(fires(with_parts, parts));
  // The union: {data_1, data_2} when {queries, documents} does not validate, never the other.
  const Json& union_body = documents[4]["request"];
  auto other_shape = envelope_from_json(documents[4])->request;
  other_shape.documents = {ScoreInput{false, "d", {}}};
  EXPECT_TRUE(fires(union_body, other_shape));
}

}  // namespace
}  // namespace poolcheck::laws

namespace poolcheck::laws {
namespace {

// A token limit's refusal names the field the limit was read from: the body's
// field online, the caller's extra_kwargs key for LLM.score (automatic mutant
// auto-preprocess-80-negate-condition-1 swapped the two).
TEST(TokenLimitParam, HoldsOnTheCoreAndFiresOnTheOtherEndpointsPath) {
  const auto refusal = [](const char* envelope) {
    const auto outcome = check_request_input(envelope);
    EXPECT_TRUE(outcome.violations.empty()) << describe(outcome.violations);
    return outcome;
  };
  const auto online = refusal(R"({"endpoint": "score", "request": {"queries": "q", "documents": ["d"], "max_tokens_per_query": -1}})");
  const auto offline = refusal(
      R"({"endpoint": "llm.score", "request": {"data_1": "q", "data_2": ["d"], "pooling_params": {"extra_kwargs": {"max_tokens_per_doc": 100000}}}})");
  EXPECT_FALSE(online.accepted);
  EXPECT_FALSE(offline.accepted);

  const Error negative = Error::bad_request("max_tokens_per_query must be a non-negative integer", "max_tokens_per_query");
  EXPECT_HOLDS(token_limit_param(negative, false));
  EXPECT_FIRES(token_limit_param(negative, true), "errors-exact");
  const Error too_large = Error::bad_request("max_tokens_per_doc (9) must be less than max_model_len (8).",
                                             "pooling_params.extra_kwargs.max_tokens_per_doc");
  EXPECT_HOLDS(token_limit_param(too_large, true));
  EXPECT_FIRES(token_limit_param(too_large, false), "errors-exact");
  EXPECT_FIRES(token_limit_param(Error::bad_request(too_large.message), true), "errors-exact");  // no param at all
  EXPECT_HOLDS(token_limit_param(Error::bad_request("top_n must be a non-negative integer", "top_n"), true));
}

}  // namespace
}  // namespace poolcheck::laws
