// MessagePack as msgspec writes it (spec 10.11), and the untrusted-input
// decoder: exact bytes for known values, round trips, every rejection.
#include "core/msgpack.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

#include "core/integer.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"

namespace poolcheck {
namespace {

std::string bytes(std::initializer_list<int> list) {
  std::string out;
  for (int b : list) out.push_back(static_cast<char>(b));
  return out;
}

// Hex text, so that a failed comparison shows the bytes.
std::string hex(const std::string& data) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char ch : data) {
    const auto c = static_cast<unsigned char>(ch);
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string encoded(const Json& value) { return hex(to_msgpack(value).value()); }

// The message of a rejected input; fails the test when the input is accepted
// or the error is not a plain parse error (400, no param).
std::string rejection(const std::string& input) {
  auto result = from_msgpack(input);
  if (result.ok()) {
    ADD_FAILURE() << "accepted " << hex(input) << " as " << result->dump();
    return "";
  }
  EXPECT_EQ(result.error().code, 400);
  EXPECT_EQ(result.error().type, "BadRequestError");
  EXPECT_EQ(result.error().param, std::nullopt);
  return result.error().message;
}

Json decoded(const std::string& input) {
  auto result = from_msgpack(input);
  if (!result.ok()) {
    ADD_FAILURE() << "rejected " << hex(input) << ": " << result.error().message;
    return Json();
  }
  return *result;
}

// Containers nested `depth` deep: `depth - 1` one-element arrays around an empty one.
std::string nested_arrays(int depth) {
  return std::string(static_cast<std::size_t>(depth - 1), static_cast<char>(0x91)) +
         static_cast<char>(0x90);
}

TEST(MsgpackEncode, NilAndBooleans) {
  EXPECT_EQ(encoded(nullptr), "c0");
  EXPECT_EQ(encoded(true), "c3");
  EXPECT_EQ(encoded(false), "c2");
}

TEST(MsgpackEncode, NonNegativeIntegersTakeTheShortestUnsignedForm) {
  EXPECT_EQ(encoded(0), "00");
  EXPECT_EQ(encoded(127), "7f");
  EXPECT_EQ(encoded(128), "cc80");
  EXPECT_EQ(encoded(255), "ccff");
  EXPECT_EQ(encoded(256), "cd0100");
  EXPECT_EQ(encoded(65535), "cdffff");
  EXPECT_EQ(encoded(65536), "ce00010000");
  EXPECT_EQ(encoded(std::int64_t{4294967295}), "ceffffffff");
  // msgspec: 2^32..INT64_MAX is uint64, never int64.
  EXPECT_EQ(encoded(std::int64_t{4294967296}), "cf0000000100000000");
  EXPECT_EQ(encoded(std::numeric_limits<std::int64_t>::max()), "cf7fffffffffffffff");
  EXPECT_EQ(encoded(std::numeric_limits<std::uint64_t>::max()), "cfffffffffffffffff");
}

TEST(MsgpackEncode, SignedAndUnsignedJsonIntegersEncodeAlike) {
  EXPECT_EQ(encoded(Json(std::int64_t{200})), encoded(Json(std::uint64_t{200})));
  EXPECT_EQ(encoded(Json(std::int64_t{5})), "05");
}

TEST(MsgpackEncode, NegativeIntegersTakeTheShortestSignedForm) {
  EXPECT_EQ(encoded(-1), "ff");
  EXPECT_EQ(encoded(-32), "e0");
  EXPECT_EQ(encoded(-33), "d0df");
  EXPECT_EQ(encoded(-128), "d080");
  EXPECT_EQ(encoded(-129), "d1ff7f");
  EXPECT_EQ(encoded(-32768), "d18000");
  EXPECT_EQ(encoded(-32769), "d2ffff7fff");
  EXPECT_EQ(encoded(std::int64_t{-2147483648}), "d280000000");
  EXPECT_EQ(encoded(std::int64_t{-2147483649}), "d3ffffffff7fffffff");
  EXPECT_EQ(encoded(std::numeric_limits<std::int64_t>::min()), "d38000000000000000");
}

TEST(MsgpackEncode, FloatsAreAlwaysFloat64) {
  // 1.0 and 0.5 fit float32 losslessly; msgspec still writes float64.
  EXPECT_EQ(encoded(1.0), "cb3ff0000000000000");
  EXPECT_EQ(encoded(0.5), "cb3fe0000000000000");
  EXPECT_EQ(encoded(-0.0), "cb8000000000000000");
}

TEST(MsgpackEncode, StringHeaders) {
  EXPECT_EQ(encoded(""), "a0");
  EXPECT_EQ(encoded("a"), "a161");
  EXPECT_EQ(encoded(std::string(31, 'x')).substr(0, 2), "bf");
  EXPECT_EQ(encoded(std::string(32, 'x')).substr(0, 4), "d920");
  EXPECT_EQ(encoded(std::string(255, 'x')).substr(0, 4), "d9ff");
  EXPECT_EQ(encoded(std::string(256, 'x')).substr(0, 6), "da0100");
  EXPECT_EQ(encoded(std::string(65535, 'x')).substr(0, 6), "daffff");
  EXPECT_EQ(encoded(std::string(65536, 'x')).substr(0, 10), "db00010000");
  EXPECT_EQ(to_msgpack(std::string(300, 'x')).value().size(), 3u + 300u);
}

TEST(MsgpackEncode, ArrayHeaders) {
  EXPECT_EQ(encoded(Json::array()), "90");
  EXPECT_EQ(encoded(Json::array({1, -1, nullptr})), "9301ffc0");
  EXPECT_EQ(encoded(Json(std::vector<int>(15, 0))).substr(0, 2), "9f");
  EXPECT_EQ(encoded(Json(std::vector<int>(16, 0))).substr(0, 6), "dc0010");
  EXPECT_EQ(encoded(Json(std::vector<int>(65535, 0))).substr(0, 6), "dcffff");
  EXPECT_EQ(encoded(Json(std::vector<int>(65536, 0))).substr(0, 10), "dd00010000");
}

TEST(MsgpackEncode, MapsKeepInsertionOrder) {
  Json map = Json::object();
  map["b"] = 1;
  map["a"] = 2;
  EXPECT_EQ(encoded(Json::object()), "80");
  EXPECT_EQ(encoded(map), "82a16201a16102");
  Json sixteen = Json::object();
  for (int i = 0; i < 16; ++i) sixteen[std::string(1, static_cast<char>('a' + i))] = i;
  EXPECT_EQ(encoded(sixteen).substr(0, 10), "de0010a161");
}

TEST(MsgpackEncode, BinaryValuesUseBinFormat) {
  EXPECT_EQ(encoded(Json::binary({1, 2})), "c4020102");
}

TEST(MsgpackEncode, SpecWireExample) {
  Json extra = Json::object();
  extra["compressed_token_type_ids"] = 3;
  Json array =
      Json::array({nullptr, nullptr, nullptr, nullptr, "classify", false, nullptr, nullptr, extra});
  EXPECT_EQ(encoded(array),
            "99c0c0c0c0a8636c617373696679c2c0c081b9" + hex("compressed_token_type_ids") + "03");
}

TEST(MsgpackDecode, KnownBytes) {
  EXPECT_EQ(decoded(bytes({0xc0})), Json(nullptr));
  EXPECT_EQ(decoded(bytes({0xc3})), Json(true));
  EXPECT_EQ(decoded(bytes({0xc2})), Json(false));
  EXPECT_EQ(decoded(bytes({0x7f})), Json(127));
  EXPECT_EQ(decoded(bytes({0xe0})), Json(-32));
  EXPECT_EQ(decoded(bytes({0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0})), Json(1.0));
  EXPECT_EQ(decoded(bytes({0x92, 0xa1, 0x61, 0x80})), Json::array({"a", Json::object()}));
}

TEST(MsgpackDecode, AcceptsNonShortestFormsAndFloat32) {
  EXPECT_EQ(decoded(bytes({0xd0, 0x05})), Json(5));
  EXPECT_EQ(decoded(bytes({0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe})), Json(-2));
  EXPECT_EQ(decoded(bytes({0xcd, 0x00, 0x01})), Json(1));
  EXPECT_EQ(decoded(bytes({0xd9, 0x01, 0x61})), Json("a"));
  EXPECT_EQ(decoded(bytes({0xdc, 0x00, 0x01, 0x07})), Json::array({7}));
  EXPECT_EQ(decoded(bytes({0xdf, 0, 0, 0, 1, 0xa1, 0x6b, 0xc0})), Json({{"k", nullptr}}));
  EXPECT_EQ(decoded(bytes({0xca, 0x3f, 0xc0, 0x00, 0x00})), Json(1.5));
}

TEST(MsgpackDecode, IntegerKindsMatchTheJsonParser) {
  // Non-negative integers are unsigned and negative ones signed, as nlohmann's
  // JSON parser makes them.
  EXPECT_TRUE(decoded(bytes({0x05})).is_number_unsigned());
  EXPECT_TRUE(decoded(bytes({0xd0, 0x05})).is_number_unsigned());
  EXPECT_TRUE(decoded(bytes({0xff})).is_number_integer());
  EXPECT_FALSE(decoded(bytes({0xff})).is_number_unsigned());
}

TEST(MsgpackDecode, Uint64AboveInt64MaxStaysANumber) {
  Json value = decoded(bytes({0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(value.is_number_unsigned());
  EXPECT_EQ(value.get<std::uint64_t>(), std::uint64_t{1} << 63);
}

TEST(MsgpackDecode, RoundTrips) {
  Json extra = Json::object();
  extra["z"] = Json::array({1, -1, 1.25, "é€😀", nullptr, true, Json::object()});
  extra["a"] = {{"nested", std::string(70000, 'q')}};
  extra["compressed_token_type_ids"] = 3;
  const Json values[] = {
      nullptr,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::uint64_t>::max(),
      -0.0,
      1e300,
      std::string(40, 'x'),
      Json(std::vector<int>(70000, 300)),
      extra,
  };
  for (const Json& value : values) {
    const std::string packed = to_msgpack(value).value();
    const Json back = decoded(packed);
    EXPECT_EQ(back, value) << value.dump().substr(0, 80);
    EXPECT_EQ(to_msgpack(back).value(), packed);
  }
  // Key order survives.
  EXPECT_EQ(decoded(to_msgpack(extra).value()).begin().key(), "z");
}

TEST(MsgpackDecode, DuplicateKeysKeepFirstPositionAndLastValue) {
  // {"a": 1, "b": 2, "a": 3}
  Json value = decoded(bytes({0x83, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0x02, 0xa1, 0x61, 0x03}));
  EXPECT_EQ(value.dump(), R"({"a":3,"b":2})");
}

TEST(MsgpackDecode, RejectsEmptyAndTruncatedInput) {
  EXPECT_EQ(rejection(""),
            "Invalid MessagePack: unexpected end of input, a value was expected at byte 0");
  EXPECT_EQ(rejection(bytes({0x92, 0xcc, 0x01})),
            "Invalid MessagePack: unexpected end of input, a value was expected at byte 3");
  EXPECT_EQ(rejection(bytes({0x92, 0x01})),
            "Invalid MessagePack: array declares 2 items but only 1 byte follows at byte 0");
  EXPECT_EQ(rejection(bytes({0x81, 0xa1, 0x61})),
            "Invalid MessagePack: unexpected end of input, a value was expected at byte 3");
  EXPECT_EQ(rejection(bytes({0x91, 0xce, 0x00, 0x01})),
            "Invalid MessagePack: truncated uint32 at byte 1");
  EXPECT_EQ(rejection(bytes({0xcb, 0x3f, 0xf0})),
            "Invalid MessagePack: truncated float64 at byte 0");
  EXPECT_EQ(rejection(bytes({0xd1, 0x00})), "Invalid MessagePack: truncated int16 at byte 0");
  EXPECT_EQ(rejection(bytes({0xd9})), "Invalid MessagePack: truncated str8 at byte 0");
  EXPECT_EQ(rejection(bytes({0xdd, 0x00, 0x00})),
            "Invalid MessagePack: truncated array32 at byte 0");
  EXPECT_EQ(rejection(bytes({0xde, 0x00})), "Invalid MessagePack: truncated map16 at byte 0");
  EXPECT_EQ(rejection(bytes({0xa3, 0x61})),
            "Invalid MessagePack: string of 3 bytes runs past the end of input at byte 0");
}

TEST(MsgpackDecode, RejectsTrailingBytes) {
  EXPECT_EQ(rejection(bytes({0x01, 0x02})),
            "Invalid MessagePack: trailing data after the value at byte 1");
  EXPECT_EQ(rejection(bytes({0x90, 0xc0})),
            "Invalid MessagePack: trailing data after the value at byte 1");
}

TEST(MsgpackDecode, NestingDepthSixtyFourPassesSixtyFiveFails) {
  EXPECT_TRUE(from_msgpack(nested_arrays(kMaxNestingDepth)).ok());
  EXPECT_EQ(rejection(nested_arrays(kMaxNestingDepth + 1)),
            "Invalid MessagePack: containers nested more than 64 deep at byte 64");
  // Non-empty innermost containers and maps count alike.
  std::string deep_scalar(64, static_cast<char>(0x91));
  deep_scalar += static_cast<char>(0xc0);
  EXPECT_TRUE(from_msgpack(deep_scalar).ok());
  std::string maps;
  for (int i = 0; i < 65; ++i) maps += bytes({0x81, 0xa1, 0x6b});
  maps += bytes({0xc0});
  EXPECT_EQ(rejection(maps),
            "Invalid MessagePack: containers nested more than 64 deep at byte 192");
}

TEST(MsgpackDecode, DeepInputIsRejectedWithoutRecursion) {
  // A million opening bytes: refused at the 65th, not by exhausting the stack.
  EXPECT_EQ(rejection(std::string(1000000, static_cast<char>(0x91))),
            "Invalid MessagePack: containers nested more than 64 deep at byte 64");
}

TEST(MsgpackDecode, RejectsBinExtAndReservedTypes) {
  EXPECT_EQ(rejection(bytes({0xc4, 0x01, 0x00})),
            "Invalid MessagePack: unsupported type bin8 (0xc4) at byte 0");
  EXPECT_EQ(rejection(bytes({0x91, 0xc5, 0x00, 0x00})),
            "Invalid MessagePack: unsupported type bin16 (0xc5) at byte 1");
  EXPECT_EQ(rejection(bytes({0xc6})),
            "Invalid MessagePack: unsupported type bin32 (0xc6) at byte 0");
  EXPECT_EQ(rejection(bytes({0xc7, 0x01, 0x01, 0x00})),
            "Invalid MessagePack: unsupported type ext8 (0xc7) at byte 0");
  EXPECT_EQ(rejection(bytes({0xc8})),
            "Invalid MessagePack: unsupported type ext16 (0xc8) at byte 0");
  EXPECT_EQ(rejection(bytes({0xc9})),
            "Invalid MessagePack: unsupported type ext32 (0xc9) at byte 0");
  EXPECT_EQ(rejection(bytes({0xd4, 0x01, 0x00})),
            "Invalid MessagePack: unsupported type fixext1 (0xd4) at byte 0");
  EXPECT_EQ(rejection(bytes({0xd5})),
            "Invalid MessagePack: unsupported type fixext2 (0xd5) at byte 0");
  EXPECT_EQ(rejection(bytes({0xd6})),
            "Invalid MessagePack: unsupported type fixext4 (0xd6) at byte 0");
  EXPECT_EQ(rejection(bytes({0xd7})),
            "Invalid MessagePack: unsupported type fixext8 (0xd7) at byte 0");
  EXPECT_EQ(rejection(bytes({0xd8})),
            "Invalid MessagePack: unsupported type fixext16 (0xd8) at byte 0");
  EXPECT_EQ(rejection(bytes({0xc1})), "Invalid MessagePack: reserved type byte 0xc1 at byte 0");
}

// msgspec decodes NaN and the infinities as floats; JSON output spells them as
// Python's json.dumps does (spec 11.3).
TEST(MsgpackDecode, NonFiniteFloatsAreFloats) {
  EXPECT_TRUE(std::isnan(decoded(bytes({0xcb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0})).get<double>()));
  EXPECT_EQ(decoded(bytes({0xcb, 0xff, 0xf0, 0, 0, 0, 0, 0, 0})).get<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(decoded(bytes({0xca, 0x7f, 0x80, 0x00, 0x00})).get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(dump_json(decoded(bytes({0x92, 0xca, 0x7f, 0xc0, 0x00, 0x00, 0xcb, 0xff, 0xf0, 0, 0, 0, 0, 0, 0}))),
            "[NaN,-Infinity]");
}

// msgspec raises OverflowError on a Python int beyond [-2**63, 2**64 - 1]; so does the encoder.
TEST(MsgpackEncode, IntegersBeyondSixtyFourBitsAreAnError) {
  EXPECT_EQ(encoded(Integer::from_decimal("18446744073709551615").to_json()), "cfffffffffffffffff");
  EXPECT_EQ(encoded(Integer::from_decimal("-9223372036854775808").to_json()), "d38000000000000000");
  for (const char* digits : {"18446744073709551616", "-9223372036854775809", "123456789012345678901234567890"}) {
    auto out = to_msgpack(Json::object({{"k", Json::array({Integer::from_decimal(digits).to_json()})}}));
    ASSERT_FALSE(out.ok()) << digits;
    EXPECT_EQ(out.error().message, std::string("Cannot encode the integer ") + digits +
                                       " as MessagePack: msgspec raises OverflowError for ints below -2**63 or "
                                       "above 2**64 - 1.");
  }
}

TEST(MsgpackDecode, AcceptsWellFormedUtf8) {
  EXPECT_EQ(decoded(to_msgpack("é€😀\xf4\x8f\xbf\xbf").value()), Json("é€😀\xf4\x8f\xbf\xbf"));
}

TEST(MsgpackDecode, RejectsInvalidUtf8) {
  auto message = [](int at) {
    return "Invalid MessagePack: invalid UTF-8 in string at byte " + std::to_string(at);
  };
  EXPECT_EQ(rejection(bytes({0xa2, 0xc3, 0x28})), message(1));              // bad continuation
  EXPECT_EQ(rejection(bytes({0xa2, 0x61, 0x80})), message(2));              // lone continuation
  EXPECT_EQ(rejection(bytes({0xa2, 0xc0, 0x80})), message(1));              // overlong NUL
  EXPECT_EQ(rejection(bytes({0xa3, 0xe0, 0x80, 0x80})), message(1));        // overlong 3-byte
  EXPECT_EQ(rejection(bytes({0xa3, 0xed, 0xa0, 0x80})), message(1));        // surrogate U+D800
  EXPECT_EQ(rejection(bytes({0xa4, 0xf4, 0x90, 0x80, 0x80})), message(1));  // above U+10FFFF
  EXPECT_EQ(rejection(bytes({0xa1, 0xff})), message(1));
  EXPECT_EQ(rejection(bytes({0xa2, 0x61, 0xe2})), message(2));        // cut sequence
  EXPECT_EQ(rejection(bytes({0xa3, 0xe2, 0x82, 0x28})), message(1));  // bad third byte
  // In a map key too.
  EXPECT_EQ(rejection(bytes({0x81, 0xa1, 0xff, 0xc0})), message(2));
}

TEST(MsgpackDecode, RejectsNonStringMapKeys) {
  EXPECT_EQ(rejection(bytes({0x81, 0x01, 0x02})),
            "Invalid MessagePack: map key is not a string at byte 1");
  EXPECT_EQ(rejection(bytes({0x81, 0xc0, 0x02})),
            "Invalid MessagePack: map key is not a string at byte 1");
  EXPECT_EQ(rejection(bytes({0x82, 0xa1, 0x61, 0x01, 0x90, 0x02})),
            "Invalid MessagePack: map key is not a string at byte 4");
  EXPECT_EQ(rejection(bytes({0x81, 0xc4, 0x01, 0x61, 0x02})),
            "Invalid MessagePack: map key is not a string at byte 1");
}

TEST(MsgpackDecode, EveryStrFormIsAMapKey) {
  // fixstr, str8, str16, str32; msgspec writes the shortest, a decoder takes any.
  EXPECT_EQ(decoded(bytes({0x81, 0xa1, 0x6b, 0x01})), Json({{"k", 1}}));
  EXPECT_EQ(decoded(bytes({0x81, 0xd9, 0x01, 0x6b, 0x01})), Json({{"k", 1}}));
  EXPECT_EQ(decoded(bytes({0x81, 0xda, 0x00, 0x01, 0x6b, 0x01})), Json({{"k", 1}}));
  EXPECT_EQ(decoded(bytes({0x81, 0xdb, 0x00, 0x00, 0x00, 0x01, 0x6b, 0x01})), Json({{"k", 1}}));
  // The tags either side of str8..str32 (ext32, array16) are not keys.
  EXPECT_EQ(rejection(bytes({0x81, 0xc9, 0, 0, 0, 1, 0x01, 0x6b, 0x01})),
            "Invalid MessagePack: map key is not a string at byte 1");
  EXPECT_EQ(rejection(bytes({0x81, 0xdc, 0x00, 0x00, 0x01})),
            "Invalid MessagePack: map key is not a string at byte 1");
}

TEST(MsgpackDecode, RejectsHugeDeclaredLengthsWithoutAllocating) {
  // Ten bytes claiming four billion items: refused from the header alone.
  EXPECT_EQ(
      rejection(bytes({0xdd, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0})),
      "Invalid MessagePack: array declares 4294967295 items but only 5 bytes follow at byte 0");
  EXPECT_EQ(
      rejection(bytes({0xdf, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0})),
      "Invalid MessagePack: map declares 4294967295 entries but only 5 bytes follow at byte 0");
  EXPECT_EQ(rejection(bytes({0xdb, 0xff, 0xff, 0xff, 0xff, 0x61})),
            "Invalid MessagePack: string of 4294967295 bytes runs past the end of input at byte 0");
  // A map entry needs two bytes at least.
  EXPECT_EQ(rejection(bytes({0x82, 0xa0, 0xc0, 0xa0})),
            "Invalid MessagePack: map declares 2 entries but only 3 bytes follow at byte 0");
  EXPECT_EQ(decoded(bytes({0x81, 0xa0, 0xc0})), Json({{"", nullptr}}));
}

TEST(MsgpackDecode, ManyDistinctKeysDecodeInInsertionOrder) {
  Json map = Json::object();
  for (int i = 0; i < 2000; ++i) map["k" + std::to_string(1999 - i)] = i;
  Json back = decoded(to_msgpack(map).value());
  EXPECT_EQ(back, map);
  EXPECT_EQ(back.begin().key(), "k1999");
}

}  // namespace
}  // namespace poolcheck
