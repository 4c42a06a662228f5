// The bounded JSON door (spec 6, 10.4): BOM, duplicate keys, rejected values,
// the 8 MiB and depth-64 limits, and what counts as an integer (fields.hpp).
#include "core/json_input.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <string_view>

#include "core/envelope.hpp"
#include "core/fields.hpp"
#include "core/json_api.hpp"
#include "core/output_json.hpp"

namespace poolcheck {
namespace {

using namespace std::string_literals;

constexpr std::size_t kEightMiB = std::size_t{8} * 1024 * 1024;

// parse_bounded_json must never throw; an escaping exception is reported as a
// test failure (not a crash) and turned into a 500 so the checks below fail too.
Result<Json> parse(std::string_view bytes) {
  try {
    return parse_bounded_json(bytes);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "exception escaped parse_bounded_json: " << e.what();
    return Error::internal(e.what());
  }
}

void expect_rejected(const Result<Json>& result, std::string_view what) {
  SCOPED_TRACE(std::string(what));
  ASSERT_FALSE(result.ok()) << "accepted: " << result.value().dump();
  EXPECT_EQ(result.error().code, 400);
  EXPECT_EQ(result.error().type, "BadRequestError");
  EXPECT_EQ(result.error().param, std::nullopt);
  EXPECT_FALSE(result.error().message.empty());
}

void expect_rejected(std::string_view bytes) { expect_rejected(parse(bytes), bytes); }

Json expect_accepted(std::string_view bytes) {
  auto result = parse(bytes);
  EXPECT_TRUE(result.ok()) << "rejected: " << std::string(bytes.substr(0, 200)) << " -> "
                           << (result.ok() ? "" : result.error().message);
  return result.ok() ? result.value() : Json();
}

std::string nested_arrays(int depth, std::string_view inner = "") {
  return std::string(static_cast<std::size_t>(depth), '[') + std::string(inner) +
         std::string(static_cast<std::size_t>(depth), ']');
}

std::string nested_objects(int depth) {
  std::string out;
  for (int i = 0; i < depth; ++i) out += "{\"k\":";
  out += "1";
  for (int i = 0; i < depth; ++i) out += "}";
  // the innermost container holds a scalar: depth objects in total
  return out;
}

// ---- BOM -------------------------------------------------------------------

TEST(JsonInputBom, LeadingUtf8BomIsSkipped) {
  Json value = expect_accepted("\xEF\xBB\xBF{\"a\":[1,2]}");
  EXPECT_EQ(value, Json::parse(R"({"a":[1,2]})"));
  EXPECT_EQ(expect_accepted("\xEF\xBB\xBF[0,1]"), Json::parse("[0,1]"));
}

TEST(JsonInputBom, OnlyOneLeadingBomIsSkipped) {
  expect_rejected("\xEF\xBB\xBF\xEF\xBB\xBF{}");
  expect_rejected("{}\xEF\xBB\xBF");
  expect_rejected(" \xEF\xBB\xBF{}");
  expect_rejected("\xEF\xBB{}");  // a truncated BOM is not a BOM
}

TEST(JsonInputBom, BomCountsTowardsTheSizeLimit) {
  // "\xEF\xBB\xBF" + a string filling the rest of 8 MiB exactly passes; one byte more fails.
  std::string body = "\xEF\xBB\xBF\"" + std::string(kEightMiB - 5, 'a') + "\"";
  ASSERT_EQ(body.size(), kEightMiB);
  expect_accepted(body);
  body.insert(4, "a");
  ASSERT_EQ(body.size(), kEightMiB + 1);
  expect_rejected(parse(body), "8 MiB + 1 with BOM");
}

// ---- duplicate keys --------------------------------------------------------

TEST(JsonInputDuplicateKeys, LastValueWinsAtFirstKeysPosition) {
  Json value = expect_accepted(R"({"a":1,"b":2,"a":3})");
  EXPECT_EQ(value.dump(), R"({"a":3,"b":2})");
  EXPECT_EQ(value.size(), 2u);
}

TEST(JsonInputDuplicateKeys, NestedAndRepeatedManyTimes) {
  Json value = expect_accepted(R"({"x":{"b":1,"c":2,"b":{"d":4},"b":[5]},"y":0,"x":{"z":true}})");
  EXPECT_EQ(value.dump(), R"({"x":{"z":true},"y":0})");
  Json inner = expect_accepted(R"({"o":{"b":1,"c":2,"b":{"d":4},"b":[5]}})");
  EXPECT_EQ(inner.dump(), R"({"o":{"b":[5],"c":2}})");
}

// Objects of 16 keys and more keep a hash index of their keys (json_input.cpp);
// a duplicate of any earlier key, on either side of that size, is still found.
TEST(JsonInputDuplicateKeys, LastWinsInObjectsWithManyKeys) {
  for (int size : {15, 16, 17, 40}) {
    for (int repeated = 0; repeated < size; ++repeated) {
      std::string text = "{";
      Json expected = Json::object();
      for (int i = 0; i < size; ++i) {
        text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
        expected["k" + std::to_string(i)] = i;
      }
      text += "\"k" + std::to_string(repeated) + "\":-1}";
      expected["k" + std::to_string(repeated)] = -1;
      EXPECT_EQ(expect_accepted(text).dump(), expected.dump()) << size << " keys, k" << repeated << " repeated";
    }
  }
}

TEST(JsonInputDuplicateKeys, LastWinsInARequestToo) {
  // An empty cache_salt first, a valid one last: the valid one is the value.
  auto out = preprocess_json(
      R"({"endpoint":"score","request":{"cache_salt":"","queries":"q","documents":"d","cache_salt":"ok"}})");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out.value()["outputs"][0]["prompt"]["cache_salt"], "ok");
  // And the other way round: the empty one wins and is rejected.
  auto bad = preprocess_json(
      R"({"endpoint":"score","request":{"cache_salt":"ok","queries":"q","documents":"d","cache_salt":""}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "Parameter 'cache_salt' must be a non-empty string if provided.");
}

// ---- rejected values -------------------------------------------------------

// Python's json.loads reads NaN, Infinity and -Infinity as floats (spec 11.3).
TEST(JsonInputAccepts, NaNAndInfinityAsPythonReadsThem) {
  const Json value = expect_accepted(R"([NaN, Infinity, -Infinity, {"a": NaN}])");
  EXPECT_TRUE(std::isnan(value[0].get<double>()));
  EXPECT_EQ(value[1].get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(value[2].get<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(value[3]["a"].get<double>()));
  EXPECT_TRUE(std::isnan(expect_accepted("NaN").get<double>()));
  // Only Python's spellings.
  for (const char* text : {"[nan]", "[inf]", "[-inf]", "[infinity]", "[+Infinity]", "[-NaN]", "[NaNa]"})
    expect_rejected(text);
}

TEST(JsonInputAccepts, NumbersBeyondDoubleRangeAreInfinite) {
  EXPECT_EQ(expect_accepted("[1e400]")[0].get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(expect_accepted("[-1e400]")[0].get<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(expect_accepted("1E309").get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(expect_accepted("[1e-400]")[0].get<double>(), 0.0);
  EXPECT_EQ(expect_accepted("[1.5]")[0].get<double>(), 1.5);
}

TEST(JsonInputAccepts, IntegersKeepEveryDigit) {
  const std::string digits = "1" + std::string(400, '0');
  const Json value = expect_accepted("[" + digits + ", -" + digits + "]");
  EXPECT_EQ(dump_json(value), "[" + digits + ",-" + digits + "]");
  EXPECT_EQ(json_integer(value[0])->to_string(), digits);
}

TEST(JsonInputRejects, IntegersOfMoreThan4300Digits) {
  // Python's int() limit, which json.loads hits (a ValueError, so a 400 in vLLM).
  expect_accepted("-" + std::string(4300, '7'));
  auto result = parse("[" + std::string(4301, '7') + "]");
  expect_rejected(result, "4301 digits");
  EXPECT_NE(result.error().message.find("value has 4301 digits"), std::string::npos) << result.error().message;
}

TEST(JsonInputRejects, MessagesArePythonsWithThePosition) {
  EXPECT_EQ(parse("[1,]").error().message, "Invalid JSON: Expecting value: line 1 column 4 (char 3)");
  EXPECT_EQ(parse("{\"a\" 1}").error().message, "Invalid JSON: Expecting ':' delimiter: line 1 column 6 (char 5)");
  EXPECT_EQ(parse("{\"a\":1,}").error().message,
            "Invalid JSON: Expecting property name enclosed in double quotes: line 1 column 8 (char 7)");
  EXPECT_EQ(parse("[1 2]").error().message, "Invalid JSON: Expecting ',' delimiter: line 1 column 4 (char 3)");
  EXPECT_EQ(parse("{}\n x").error().message, "Invalid JSON: Extra data: line 2 column 2 (char 4)");
  EXPECT_EQ(parse("").error().message, "Invalid JSON: Expecting value: line 1 column 1 (char 0)");
}

TEST(JsonInputRejects, NonFiniteNumbersNeverEscapeAsExceptions) {
  // Through the library boundary, a huge or non-finite number is a value, never a 500:
  // where an integer is wanted, the typed readers reject it with their message.
  auto out = compress_json("[1e400]");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, 400) << out.error().message;
  EXPECT_EQ(out.error().type, "BadRequestError");
  auto pre = preprocess_json(
      R"({"endpoint":"score","request":{"queries":"q","documents":"d","priority":1e400}})");
  ASSERT_FALSE(pre.ok());
  EXPECT_EQ(pre.error().message, "priority: Input should be a finite number");
  EXPECT_EQ(pre.error().param, "priority");
}

TEST(JsonInputRejects, LoneSurrogateEscapes) {
  for (const char* text : {R"(["\ud800"])", R"(["\udc00"])", R"(["\uDBFF"])", R"(["\uDFFF"])",
                           R"(["\ud800\u0041"])", R"(["\ud800x"])", R"(["\udc00\ud800"])",
                           R"(["\ud800\ud800"])", R"({"\ud800":1})"})
    expect_rejected(text);
}

TEST(JsonInputRejects, ValidSurrogatePairIsAccepted) {
  Json value = expect_accepted(R"(["\ud83d\ude00"])");
  EXPECT_EQ(value[0].get<std::string>(), "\xF0\x9F\x98\x80");
}

TEST(JsonInputRejects, RawControlCharactersInStrings) {
  for (char c : {'\x01', '\x08', '\t', '\n', '\r', '\x1f'}) {
    std::string text = "[\"a"s + c + "b\"]";
    expect_rejected(parse(text), "control char " + std::to_string(static_cast<int>(c)));
    std::string key = "{\"a"s + c + "\":1}";
    expect_rejected(parse(key), "control char in key " + std::to_string(static_cast<int>(c)));
  }
  // Escaped forms are fine, as is DEL (0x7f), which JSON does not treat as a control.
  Json value = expect_accepted(R"(["a\tb\n\u0001"])");
  EXPECT_EQ(value[0].get<std::string>(), "a\tb\n\x01");
  expect_accepted("[\"a\x7f\"]");
}

TEST(JsonInputRejects, InvalidUtf8) {
  for (std::string text : {"[\"\xff\"]"s, "[\"\xc0\xaf\"]"s /* overlong '/' */,
                           "[\"\xed\xa0\x80\"]"s /* UTF-8 encoded surrogate */,
                           "[\"\xf4\x90\x80\x80\"]"s /* above U+10FFFF */,
                           "[\"\xe2\x82\"]"s /* truncated sequence */, "[\"\x80\"]"s,
                           "{\"\xfe\":1}"s, "[\"a\"]\xff"s})
    expect_rejected(parse(text), "invalid UTF-8");
  Json ok = expect_accepted("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]");
  EXPECT_EQ(ok[0].get<std::string>(), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}

TEST(JsonInputRejects, EscapeMessagesAreCPythonsAndNameNoInputByte) {
  // json.loads (CPython's C scanner): a bad escape is not named, so the message
  // stays ASCII whatever byte followed the backslash; a backslash at the end
  // leaves the string unterminated from its opening quote.
  auto result = parse("[\"caf\\\xc3\xa9\"]");
  expect_rejected(result, "invalid escape");
  EXPECT_EQ(result.error().message, "Invalid JSON: Invalid \\escape: line 1 column 6 (char 5)");
  EXPECT_EQ(parse("{\"a\":\"\\\x7f\"}").error().message, "Invalid JSON: Invalid \\escape: line 1 column 7 (char 6)");
  EXPECT_EQ(parse("[\"ab\\").error().message, "Invalid JSON: Unterminated string starting at: line 1 column 2 (char 1)");
  expect_rejected(parse("\"caf\xc3\xa9"), "unterminated string");
}

TEST(JsonInputRejects, TrailingData) {
  for (const char* text : {"{} {}", "[1]x", "1 2", "{}]", "[0],", R"({"a":1}"b")", "nulll"})
    expect_rejected(text);
  EXPECT_EQ(expect_accepted("{} \n\t\r "), Json::object());
}

TEST(JsonInputRejects, EmptyAndWhitespaceOnly) {
  expect_rejected("");
  expect_rejected("   \n");
  expect_rejected("\xEF\xBB\xBF");
}

TEST(JsonInputRejects, NulByteInsideAString) {
  expect_rejected(parse("[\"a\0b\"]"s), "raw NUL in string");
  expect_rejected(parse("{\"a\0\":1}"s), "raw NUL in key");
}

TEST(JsonInputRejects, NulByteOutsideStrings) {
  expect_rejected(parse("\0"s), "lone NUL");
  expect_rejected(parse("\0[0]"s), "leading NUL");
  expect_rejected(parse("[0,\0 1]"s), "NUL in array");
}

TEST(JsonInputRejects, NulByteAfterTheDocument) {
  // A NUL after a complete document is trailing data, not an end of input.
  expect_rejected(parse("[0]\0"s), "trailing NUL");
  expect_rejected(parse("[0]\0[1]"s), "trailing NUL and data");
  expect_rejected(parse("{}\0garbage"s), "trailing NUL and garbage");
}

TEST(JsonInputRejects, NulByteAfterARequestIsRejectedByPreprocess) {
  auto out = preprocess_json(
      "{\"endpoint\":\"score\",\"request\":{\"queries\":\"q\",\"documents\":\"d\"}}\0{"s);
  ASSERT_FALSE(out.ok()) << "accepted a request followed by a NUL byte and garbage";
  EXPECT_EQ(out.error().code, 400);
  EXPECT_EQ(out.error().param, std::nullopt);
}

TEST(JsonInputAccepts, EscapedNulInAString) {
  Json value = expect_accepted(R"(["a\u0000b"])");
  EXPECT_EQ(value[0].get<std::string>(), "a\0b"s);
}

// ---- size limit ------------------------------------------------------------

TEST(JsonInputSize, ExactlyEightMiBPasses) {
  std::string body = "\"" + std::string(kEightMiB - 2, 'x') + "\"";
  ASSERT_EQ(body.size(), kEightMiB);
  Json value = expect_accepted(body);
  EXPECT_EQ(value.get_ref<const std::string&>().size(), kEightMiB - 2);
}

TEST(JsonInputSize, EightMiBPlusOneFails) {
  std::string body = "\"" + std::string(kEightMiB - 1, 'x') + "\"";
  ASSERT_EQ(body.size(), kEightMiB + 1);
  expect_rejected(parse(body), "8 MiB + 1");
  // Whitespace counts too.
  std::string padded = "[]" + std::string(kEightMiB - 1, ' ');
  ASSERT_EQ(padded.size(), kEightMiB + 1);
  expect_rejected(parse(padded), "8 MiB + 1 of mostly whitespace");
}

TEST(JsonInputSize, TheLimitCountsTheWholeEnvelope) {
  const std::string envelope =
      R"({"endpoint":"score","request":{"queries":"q","documents":"d"}})";
  std::string exact = envelope + std::string(kEightMiB - envelope.size(), ' ');
  ASSERT_EQ(exact.size(), kEightMiB);
  auto ok = parse_envelope(exact);
  EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().message);
  auto bad = parse_envelope(exact + " ");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, 400);
  EXPECT_EQ(bad.error().param, std::nullopt);
}

TEST(JsonInputSize, LimitConstantIsEightMiB) { EXPECT_EQ(kMaxInputBytes, kEightMiB); }

// ---- depth limit -----------------------------------------------------------

TEST(JsonInputDepth, SixtyFourArraysPassSixtyFiveFail) {
  Json value = expect_accepted(nested_arrays(64));
  int depth = 0;
  const Json* v = &value;
  while (v->is_array()) {
    ++depth;
    if (v->empty()) break;
    v = &(*v)[0];
  }
  EXPECT_EQ(depth, 64);
  expect_rejected(parse(nested_arrays(65)), "65 arrays");
  expect_rejected(parse(nested_arrays(1000)), "1000 arrays");
}

TEST(JsonInputDepth, SixtyFourObjectsPassSixtyFiveFail) {
  expect_accepted(nested_objects(64));
  expect_rejected(parse(nested_objects(65)), "65 objects");
}

TEST(JsonInputDepth, MixedContainers) {
  std::string mixed;
  for (int i = 0; i < 32; ++i) mixed += "{\"a\":[";
  std::string close;
  for (int i = 0; i < 32; ++i) close += "]}";
  expect_accepted(mixed + close);  // 64 levels
  expect_rejected(parse(mixed + "[]" + close), "65 mixed levels");
}

TEST(JsonInputDepth, DepthIsTheMaximumNotTheCount) {
  // Many siblings at depth 64 are fine.
  std::string siblings = "[" + nested_arrays(63) + "," + nested_arrays(63) + "," + nested_arrays(63) + "]";
  expect_accepted(siblings);
  // A deep branch after a shallow one still counts.
  std::string late = "[[]," + nested_arrays(64) + "]";
  expect_rejected(parse(late), "65 in a later branch");
}

TEST(JsonInputDepth, BracketsInsideStringsAreNotCounted) {
  // 64 real levels, with a string full of openers at the bottom.
  expect_accepted(nested_arrays(64, R"("[[[[[[[[{{{{{{{{")"));
  // Escaped quotes do not end the string.
  expect_accepted(nested_arrays(64, R"("\"[[[[\\\"{{{{")"));
  // Closers inside a string must not lower the depth either: 60 + 5 = 65 fails.
  std::string text = std::string(60, '[') + R"("]]]]]]]]]]",)" + nested_arrays(5) +
                     std::string(60, ']');
  expect_rejected(parse(text), "closers inside a string");
  // A string with an escaped backslash before the closing quote ends there.
  std::string backslash = std::string(60, '[') + R"("a\\",)" + nested_arrays(5) + std::string(60, ']');
  expect_rejected(parse(backslash), "escaped backslash then quote");
  std::string backslash_ok =
      std::string(60, '[') + R"("a\\",)" + nested_arrays(4) + std::string(60, ']');
  expect_accepted(backslash_ok);
}

TEST(JsonInputDepth, KeysWithBracketsAreNotCounted) {
  std::string text;
  for (int i = 0; i < 64; ++i) text += "{\"[{[{\":";
  text += "0";
  for (int i = 0; i < 64; ++i) text += "}";
  expect_accepted(text);
}

TEST(JsonInputDepth, TheLimitCountsTheWholeEnvelope) {
  // envelope {1} -> request {2} -> mm_processor_kwargs {3} -> 61 more levels = 64.
  auto envelope_with = [](int extra) {
    std::string inner = nested_arrays(extra);
    return R"({"endpoint":"score","request":{"queries":"q","documents":"d","mm_processor_kwargs":{"x":)" +
           inner + "}}}";
  };
  auto ok = parse_envelope(envelope_with(61));
  EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().message);
  auto bad = parse_envelope(envelope_with(62));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, 400);
  EXPECT_EQ(bad.error().param, std::nullopt);
}

TEST(JsonInputDepth, NestingDepthFunction) {
  EXPECT_EQ(nesting_depth("", 64), 0);
  EXPECT_EQ(nesting_depth("1", 64), 0);
  EXPECT_EQ(nesting_depth("[]", 64), 1);
  EXPECT_EQ(nesting_depth("[[],{}]", 64), 2);
  EXPECT_EQ(nesting_depth(R"({"a":[{"b":"[[[["}]})", 64), 3);
  EXPECT_EQ(nesting_depth(R"(["\"[[["])", 64), 1);
  EXPECT_EQ(nesting_depth(R"(["\\"])", 64), 1);
  EXPECT_EQ(nesting_depth(nested_arrays(64), 64), 64);
  // Stops early once past the limit.
  EXPECT_GT(nesting_depth(nested_arrays(100000), 64), 64);
  EXPECT_LE(nesting_depth(nested_arrays(100000), 64), 65);
  EXPECT_EQ(kMaxNestingDepth, 64);
}

TEST(JsonInputDepth, DeepInputIsRejectedBeforeParsing) {
  // Far too deep for a recursive parser's stack if it were parsed; must be a clean 400.
  std::string deep(2'000'000, '[');
  expect_rejected(parse(deep), "2e6 openers");
}

// ---- integers (fields.hpp as_int64) -----------------------------------------

std::optional<std::int64_t> int_of(std::string_view text) {
  auto value = parse(text);
  EXPECT_TRUE(value.ok()) << text;
  return value.ok() ? as_int64(value.value()) : std::nullopt;
}

TEST(JsonInputIntegers, IntegerLiteralsWithinSixtyFourBits) {
  EXPECT_EQ(int_of("0"), 0);
  EXPECT_EQ(int_of("-0"), 0);
  EXPECT_EQ(int_of("1"), 1);
  EXPECT_EQ(int_of("-1"), -1);
  EXPECT_EQ(int_of("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(int_of("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
}

TEST(JsonInputIntegers, BeyondSixtyFourBitsIsNotAnInteger) {
  EXPECT_EQ(int_of("9223372036854775808"), std::nullopt);
  EXPECT_EQ(int_of("18446744073709551615"), std::nullopt);
  EXPECT_EQ(int_of("18446744073709551616"), std::nullopt);
  EXPECT_EQ(int_of("-9223372036854775809"), std::nullopt);
  EXPECT_EQ(int_of("123456789012345678901234567890"), std::nullopt);
}

TEST(JsonInputIntegers, NonIntegerLiteralsAreNotIntegers) {
  EXPECT_EQ(int_of("true"), std::nullopt);
  EXPECT_EQ(int_of("false"), std::nullopt);
  EXPECT_EQ(int_of("1.0"), std::nullopt);
  EXPECT_EQ(int_of("1e2"), std::nullopt);
  EXPECT_EQ(int_of("1E2"), std::nullopt);
  EXPECT_EQ(int_of("-0.0"), std::nullopt);
  EXPECT_EQ(int_of("\"1\""), std::nullopt);
  EXPECT_EQ(int_of("null"), std::nullopt);
  EXPECT_EQ(int_of("[1]"), std::nullopt);
  EXPECT_EQ(int_of("{}"), std::nullopt);
}

TEST(JsonInputIntegers, ReadIntGivesTheGenericMessage) {
  for (const char* text : {"true", "1.0", "1e2", "\"7\"", "null", "9223372036854775808"}) {
    SCOPED_TRACE(text);
    auto n = read_int(Json::parse(text), "priority");
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error().message, "priority: Input should be a valid integer");
    EXPECT_EQ(n.error().param, "priority");
    EXPECT_EQ(n.error().code, 400);
    EXPECT_EQ(n.error().type, "BadRequestError");
  }
  auto ok = read_int(Json::parse("-42"), "priority");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value(), -42);
}

TEST(JsonInputIntegers, BoundedParseKeepsIntegersIntegers) {
  // Through the real parser: integers beyond 64 bits reach the request's
  // fields exactly, as Python ints (spec 11.2).
  for (const char* priority : {"9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"}) {
    auto out = preprocess_json(std::string(R"({"endpoint":"score","request":{"queries":"q","documents":"d","priority":)") +
                               priority + "}}");
    EXPECT_TRUE(out.ok()) << priority << ": " << (out.ok() ? "" : out.error().message);
  }
  auto limit = preprocess_json(
      R"({"endpoint":"score","request":{"queries":"q","documents":"d","max_tokens_per_doc":123456789012345678901234567890}})");
  ASSERT_FALSE(limit.ok());
  EXPECT_EQ(limit.error().message,
            "max_tokens_per_doc (123456789012345678901234567890) must be less than max_model_len (512).");
}

}  // namespace
}  // namespace poolcheck
