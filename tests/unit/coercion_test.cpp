// pydantic 2's lax int and bool (spec 11.1), as core/fields.cpp writes them:
// every example the spec gives, and the edges of pydantic-core's string
// reader. tests/fidelity/ checks the same rules against pydantic itself.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "core/fields.hpp"
#include "core/json_input.hpp"

namespace poolcheck {
namespace {

const std::string kIntParsing = "Input should be a valid integer, unable to parse string as an integer";
const std::string kIntFromFloat = "Input should be a valid integer, got a number with a fractional part";
const std::string kIntSize = "Unable to parse input string as an integer, exceeded maximum size";
const std::string kBoolParsing = "Input should be a valid boolean, unable to interpret input";

Json js(const std::string& text) { return parse_bounded_json(text).value(); }

std::string int_of(const std::string& json) {
  auto n = coerce_int(js(json), "f");
  return n ? n->to_string() : "error: " + n.error().message;
}

std::string bool_of(const std::string& json) {
  auto b = coerce_bool(js(json), "f");
  return b ? (*b ? "true" : "false") : "error: " + b.error().message;
}

TEST(CoerceInt, TheSpecsAcceptedExamples) {
  const std::pair<const char*, const char*> cases[] = {
      {"5", "5"},         {"true", "1"},        {"false", "0"},    {"1.0", "1"},          {"-2.0", "-2"},
      {"1e2", "100"},     {"\"5\"", "5"},       {"\" 5 \"", "5"},  {"\"+5\"", "5"},       {"\"1_000\"", "1000"},
      {"\"5.00\"", "5"},  {"\"05\"", "5"},      {"\"\\u00a05\"", "5"}, {"\" 0007 \"", "7"}, {"-0.0", "0"},
  };
  for (const auto& [json, value] : cases) EXPECT_EQ(int_of(json), value) << json;
}

TEST(CoerceInt, TheSpecsRefusedExamples) {
  EXPECT_EQ(int_of("1.5"), "error: f: " + kIntFromFloat);
  for (const char* json : {"\"5.5\"", "\"1e2\"", "\"0x10\"", "\"1__0\"", "\"\"", "\"7.5\""})
    EXPECT_EQ(int_of(json), "error: f: " + kIntParsing) << json;
  for (const char* json : {"[]", "{}", "null"}) EXPECT_EQ(int_of(json), "error: f: Input should be a valid integer") << json;
  EXPECT_EQ(int_of("NaN"), "error: f: Input should be a finite number");
  EXPECT_EQ(int_of("-Infinity"), "error: f: Input should be a finite number");
  EXPECT_EQ(int_of("1e308"), "error: f: " + kIntSize);
}

TEST(CoerceInt, IntegersOfAnySize) {
  EXPECT_EQ(int_of("9223372036854775808"), "9223372036854775808");
  EXPECT_EQ(int_of("-9223372036854775809"), "-9223372036854775809");
  EXPECT_EQ(int_of("\"18446744073709551616\""), "18446744073709551616");
  EXPECT_EQ(int_of("\"-000123456789012345678901234567890.000\""), "-123456789012345678901234567890");
}

// Floats: integral and strictly inside the int64 range (pydantic-core's float_as_int).
TEST(CoerceInt, FloatsInsideTheInt64Range) {
  EXPECT_EQ(int_of("9.2e18"), "9200000000000000000");
  EXPECT_EQ(int_of("9223372036854774784.0"), "9223372036854774784");
  EXPECT_EQ(int_of("9223372036854775808.0"), "error: f: " + kIntSize);
  EXPECT_EQ(int_of("-9223372036854775808.0"), "error: f: " + kIntSize);
  EXPECT_EQ(int_of("1e19"), "error: f: " + kIntSize);
}

// The string reader: jiter's integer literal first, then clean_int_str.
TEST(CoerceInt, StringEdges) {
  EXPECT_EQ(int_of("\"" + std::string(4300, '1') + "\""), std::string(4300, '1'));
  EXPECT_EQ(int_of("\"" + std::string(4301, '1') + "\""), "error: f: " + kIntSize);
  EXPECT_EQ(int_of("\"-" + std::string(4300, '1') + "\""), "error: f: " + kIntSize);  // the sign counts
  EXPECT_EQ(int_of("\"+" + std::string(4300, '1') + "\""), std::string(4300, '1'));  // the '+' is cleaned first
  EXPECT_EQ(int_of("\" " + std::string(4301, '1') + "\""), "error: f: " + kIntParsing);
  EXPECT_EQ(int_of("\"" + std::string(10000, '0') + "\""), "0");
  EXPECT_EQ(int_of("\"0__1\""), "1");  // underscores among leading zeros go with them
  EXPECT_EQ(int_of("\"1_0.0\""), "10");
  EXPECT_EQ(int_of("\"-0_0\""), "0");
  EXPECT_EQ(int_of("\"\\u20285\""), "5");  // U+2028 is White_Space
  for (const char* refused : {"\"5.\"", "\".5\"", "\"+-5\"", "\"--5\"", "\"-_1\"", "\"1.0_0\"", "\"5 .0\"",
                              "\"\\u200b5\"", "\"\\ufeff5\"", "\"\\u001c5\"", "\"\\u0663\"", "\"\\uff15\"", "\"0_\""})
    EXPECT_EQ(int_of(refused), "error: f: " + kIntParsing) << refused;
}

TEST(CoerceBool, TheSpecsExamples) {
  for (const char* json : {"true", "1", "1.0", "\"true\"", "\"TRUE\"", "\"yes\"", "\"on\"", "\"t\"", "\"y\"", "\"1\""})
    EXPECT_EQ(bool_of(json), "true") << json;
  for (const char* json : {"false", "0", "0.0", "-0.0", "\"off\"", "\"no\"", "\"f\"", "\"n\"", "\"0\""})
    EXPECT_EQ(bool_of(json), "false") << json;
  for (const char* json : {"2", "-1", "2.0", "\" true \"", "\"\"", "\"1.0\"", "\"01\"", "\"\\u00a0true\""})
    EXPECT_EQ(bool_of(json), "error: f: " + kBoolParsing) << json;
  for (const char* json : {"0.5", "1e20", "NaN", "18446744073709551616", "[]", "{}"})
    EXPECT_EQ(bool_of(json), "error: f: Input should be a valid boolean") << json;
}

}  // namespace
}  // namespace poolcheck
