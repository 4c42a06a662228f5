// The wire form of PoolingParams (spec section 2, 10.10): msgspec's
// array_like + omit_defaults struct, its JSON view and its MessagePack bytes.
#include "core/wire.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/msgpack.hpp"
#include "tests/unit/sample_params.hpp"

namespace poolcheck {
namespace {

std::shared_ptr<Json> object(const Json& value) { return std::make_shared<Json>(value); }

PoolingParams spec_example() {
  PoolingParams p;
  p.task = "classify";
  Json extra = Json::object();
  extra["compressed_token_type_ids"] = 3;
  p.extra_kwargs = object(extra);
  return p;
}

using samples::everything_set;

std::string wire(const PoolingParams& p) { return encode_wire(p).dump(); }

// The error for a wire array given as JSON text; fails when it is accepted.
Error rejection(const std::string& json) {
  auto result = decode_wire(Json::parse(json));
  if (result.ok()) {
    ADD_FAILURE() << "accepted " << json;
    return Error::internal("accepted");
  }
  EXPECT_EQ(result.error().code, 400);
  EXPECT_EQ(result.error().type, "BadRequestError");
  return result.error();
}

void expect_rejected(const std::string& json, const std::string& message,
                     const std::string& param) {
  Error e = rejection(json);
  EXPECT_EQ(e.message, message) << json;
  EXPECT_EQ(e.param, param) << json;
}

PoolingParams accepted(const std::string& json) {
  auto result = decode_wire(Json::parse(json));
  if (!result.ok()) {
    ADD_FAILURE() << "rejected " << json << ": " << result.error().message;
    return PoolingParams();
  }
  return std::move(result).value();
}

TEST(WireEncode, SpecExample) {
  EXPECT_EQ(wire(spec_example()),
            R"([null,null,null,null,"classify",false,null,null,{"compressed_token_type_ids":3}])");
}

TEST(WireEncode, SpecExampleMsgpackBytes) {
  const std::string expected = std::string(
                                   "\x99\xc0\xc0\xc0\xc0\xa8"
                                   "classify"
                                   "\xc2\xc0\xc0\x81\xb9") +
                               "compressed_token_type_ids" + "\x03";
  EXPECT_EQ(encode_wire_msgpack(spec_example()).value(), expected);
}

TEST(WireEncode, DefaultsAreAllTrimmed) {
  EXPECT_EQ(wire(PoolingParams()), "[]");
  EXPECT_EQ(encode_wire_msgpack(PoolingParams()).value(), "\x90");
}

TEST(WireEncode, TrailingDefaultRunIsTrimmedInnerDefaultsStay) {
  PoolingParams p;
  p.use_activation = false;  // false is not the default (null) of an optional field
  EXPECT_EQ(wire(p), "[false]");
  p.requires_token_ids = true;
  EXPECT_EQ(wire(p), "[false,null,null,null,null,true]");
  p.requires_token_ids = false;
  p.skip_reading_prefix_cache = false;
  EXPECT_EQ(wire(p), "[false,null,null,null,null,false,false]");
}

TEST(WireEncode, EmptyValuesAreNotDefaults) {
  PoolingParams p;
  p.extra_kwargs = object(Json::object());
  EXPECT_EQ(wire(p), "[null,null,null,null,null,false,null,null,{}]");
  PoolingParams q;
  q.returned_token_ids = std::vector<std::int64_t>{};
  EXPECT_EQ(wire(q), "[null,null,null,[]]");
}

TEST(WireEncode, LateInteractionIsAnArrayLikeStruct) {
  PoolingParams p;
  p.late_interaction_params = LateInteractionParams{"score_doc", "k", std::nullopt};
  EXPECT_EQ(wire(p), R"([null,null,null,null,null,false,null,["score_doc","k"]])");
  p.late_interaction_params->query_uses = 0;
  EXPECT_EQ(wire(p), R"([null,null,null,null,null,false,null,["score_doc","k",0]])");
}

TEST(WireEncode, AllFieldsSetKeepExtraKwargsOrder) {
  EXPECT_EQ(wire(everything_set()),
            R"([false,256,-7,[1,2,3],"token_embed",true,true,["cache_query","q-1",4],)"
            R"({"b":[1,{"c":null}],"a":"x"}])");
}

TEST(WireDecode, EmptyArrayGivesDefaults) {
  EXPECT_TRUE(deep_equal(accepted("[]"), PoolingParams()));
}

TEST(WireDecode, SpecExample) {
  PoolingParams p = accepted(
      R"([null,null,null,null,"classify",false,null,null,{"compressed_token_type_ids":3}])");
  EXPECT_TRUE(deep_equal(p, spec_example()));
}

TEST(WireDecode, ExplicitDefaultsAndOutputKindTwoAreAccepted) {
  PoolingParams p = accepted(R"([null,null,null,null,"classify",false,null,null,null,2])");
  EXPECT_EQ(p.task, "classify");
  EXPECT_EQ(p.extra_kwargs, nullptr);
  // Re-encoding is canonical: the padding goes.
  EXPECT_EQ(wire(p), R"([null,null,null,null,"classify"])");
}

TEST(WireDecode, RoundTripsThroughJsonAndMsgpack) {
  const PoolingParams cases[] = {PoolingParams(), spec_example(), everything_set()};
  for (const PoolingParams& p : cases) {
    auto from_json = decode_wire(encode_wire(p));
    ASSERT_TRUE(from_json.ok()) << from_json.error().message;
    EXPECT_TRUE(deep_equal(*from_json, p)) << wire(p);
    auto from_bytes = decode_wire_msgpack(encode_wire_msgpack(p).value());
    ASSERT_TRUE(from_bytes.ok()) << from_bytes.error().message;
    EXPECT_TRUE(deep_equal(*from_bytes, p)) << wire(p);
    EXPECT_EQ(encode_wire_msgpack(*from_bytes).value(), encode_wire_msgpack(p).value());
  }
}

TEST(WireDecode, LateInteractionWithNullQueryUses) {
  PoolingParams p = accepted(R"([null,null,null,null,null,false,null,["score_doc","k",null]])");
  ASSERT_TRUE(p.late_interaction_params.has_value());
  EXPECT_EQ(*p.late_interaction_params, (LateInteractionParams{"score_doc", "k", std::nullopt}));
}

TEST(WireDecode, RejectsNonArraysAndTooManyItems) {
  expect_rejected("{}", "$: Input should be a valid list", "$");
  expect_rejected("null", "$: Input should be a valid list", "$");
  expect_rejected("[null,null,null,null,null,false,null,null,null,2,null]",
                  "$: Input should have at most 10 items, got 11", "$");
}

TEST(WireDecode, RejectsWrongScalarTypes) {
  expect_rejected(R"(["yes"])", "$[0]: Input should be a valid boolean", "$[0]");
  expect_rejected("[1]", "$[0]: Input should be a valid boolean", "$[0]");
  expect_rejected("[null,1.0]", "$[1]: Input should be a valid integer", "$[1]");
  expect_rejected("[null,true]", "$[1]: Input should be a valid integer", "$[1]");
  expect_rejected("[null,9223372036854775808]", "$[1]: Input should be a valid integer", "$[1]");
  expect_rejected(R"([null,null,"1"])", "$[2]: Input should be a valid integer", "$[2]");
  expect_rejected("[null,null,null,null,5]", "$[4]: Input should be a valid string", "$[4]");
  expect_rejected("[null,null,null,null,null,null]", "$[5]: Input should be a valid boolean",
                  "$[5]");
  expect_rejected("[null,null,null,null,null,0]", "$[5]: Input should be a valid boolean", "$[5]");
  expect_rejected("[null,null,null,null,null,false,1]", "$[6]: Input should be a valid boolean",
                  "$[6]");
}

TEST(WireDecode, RejectsBadReturnedTokenIds) {
  expect_rejected(R"([null,null,null,"x"])", "$[3]: Input should be a valid list", "$[3]");
  expect_rejected(R"([null,null,null,[1,"a"]])", "$[3][1]: Input should be a valid integer",
                  "$[3][1]");
}

TEST(WireDecode, RejectsRemovedTasks) {
  expect_rejected(R"([null,null,null,null,"score"])",
                  "`score` task was removed; use `classify` instead.", "$[4]");
  expect_rejected(R"([null,null,null,null,"encode"])",
                  "`encode` task was removed; use `token_embed` or `token_classify` instead.",
                  "$[4]");
  EXPECT_EQ(accepted(R"([null,null,null,null,"my-plugin-task"])").task, "my-plugin-task");
}

TEST(WireDecode, RejectsBadLateInteractionParams) {
  const std::string head = "[null,null,null,null,null,false,null,";
  expect_rejected(head + R"({"mode":"score_doc","query_key":"k"}])",
                  "$[7]: Input should be a valid list", "$[7]");
  expect_rejected(head + "[]]", "$[7]: Input should have 2 or 3 items, got 0", "$[7]");
  expect_rejected(head + R"(["score_doc"]])", "$[7]: Input should have 2 or 3 items, got 1",
                  "$[7]");
  expect_rejected(head + R"(["score_doc","k",1,2]])", "$[7]: Input should have 2 or 3 items, got 4",
                  "$[7]");
  expect_rejected(head + R"(["other","k"]])",
                  "$[7][0]: Input should be 'cache_query' or 'score_doc'", "$[7][0]");
  expect_rejected(head + R"([null,"k"]])", "$[7][0]: Input should be 'cache_query' or 'score_doc'",
                  "$[7][0]");
  expect_rejected(head + R"(["score_doc",1]])", "$[7][1]: Input should be a valid string",
                  "$[7][1]");
  expect_rejected(head + R"(["score_doc",null]])", "$[7][1]: Input should be a valid string",
                  "$[7][1]");
  expect_rejected(head + R"(["score_doc","k","3"]])", "$[7][2]: Input should be a valid integer",
                  "$[7][2]");
}

TEST(WireDecode, RejectsNonObjectExtraKwargs) {
  const std::string head = "[null,null,null,null,null,false,null,null,";
  expect_rejected(head + "[]]", "$[8]: Input should be a valid object", "$[8]");
  expect_rejected(head + R"("x"])", "$[8]: Input should be a valid object", "$[8]");
}

TEST(WireDecode, OutputKindMustBeFinalOnly) {
  // Members of RequestOutputKind show as vLLM's enum repr, anything else as JSON
  // (output_kind_message).
  const std::string head = "[null,null,null,null,null,false,null,null,null,";
  const std::string message = "For pooling output_kind has to be FINAL_ONLY, got ";
  expect_rejected(head + "1]", message + "<RequestOutputKind.DELTA: 1>", "$[9]");
  expect_rejected(head + "0]", message + "<RequestOutputKind.CUMULATIVE: 0>", "$[9]");
  expect_rejected(head + "3]", message + "3", "$[9]");
  expect_rejected(head + "-2]", message + "-2", "$[9]");
  // Non-integers are type errors, as msgspec reports them for an int enum.
  const std::string not_int = "$[9]: Input should be a valid integer";
  expect_rejected(head + "2.0]", not_int, "$[9]");
  expect_rejected(head + "true]", not_int, "$[9]");
  expect_rejected(head + "null]", not_int, "$[9]");
  expect_rejected(head + R"("FINAL_ONLY"])", not_int, "$[9]");
  expect_rejected(head + "[2]]", not_int, "$[9]");
}

TEST(WireDecode, FirstFailingPositionWins) {
  expect_rejected(R"([1,"x",null,null,"score"])", "$[0]: Input should be a valid boolean", "$[0]");
  expect_rejected(R"([null,null,null,null,"score",null,null,null,null,1])",
                  "`score` task was removed; use `classify` instead.", "$[4]");
}

TEST(WireDecodeMsgpack, ParseErrorsPassThroughWithoutParam) {
  auto result = decode_wire_msgpack("\x91\xc1");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "Invalid MessagePack: reserved type byte 0xc1 at byte 1");
  EXPECT_EQ(result.error().param, std::nullopt);
}

TEST(WireDecodeMsgpack, ElementErrorsNamePositions) {
  // 11 nils.
  auto eleven = decode_wire_msgpack(std::string("\x9b") + std::string(11, '\xc0'));
  ASSERT_FALSE(eleven.ok());
  EXPECT_EQ(eleven.error().message, "$: Input should have at most 10 items, got 11");
  // dimensions = 2^63 as uint64: a number, but not a valid integer.
  auto huge = decode_wire_msgpack(std::string("\x92\xc0\xcf\x80", 4) + std::string(7, '\0'));
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message, "$[1]: Input should be a valid integer");
  EXPECT_EQ(huge.error().param, "$[1]");
  // output_kind = 1.
  auto kind = decode_wire_msgpack(std::string("\x9a\xc0\xc0\xc0\xc0\xc0\xc2\xc0\xc0\xc0\x01"));
  ASSERT_FALSE(kind.ok());
  EXPECT_EQ(kind.error().message,
            "For pooling output_kind has to be FINAL_ONLY, got <RequestOutputKind.DELTA: 1>");
  EXPECT_EQ(kind.error().param, "$[9]");
  // A map, not an array, at the top.
  auto map = decode_wire_msgpack("\x80");
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.error().param, "$");
}

TEST(WireDecodeMsgpack, AcceptsOutputKindTwo) {
  auto result = decode_wire_msgpack(std::string("\x9a\xc0\xc0\xc0\xc0\xc0\xc2\xc0\xc0\xc0\x02"));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(deep_equal(*result, PoolingParams()));
}

}  // namespace
}  // namespace poolcheck
