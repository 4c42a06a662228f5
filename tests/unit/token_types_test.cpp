// Token-type compression, reconstruction, worker batches and packing (spec
// section 3, edges 10.14 and 10.15). Expected values are written out by hand.
#include "core/token_types.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json_api.hpp"

namespace poolcheck {
namespace {

using Ints = std::vector<std::int64_t>;

constexpr const char* kOrderMessage =
    "Token type ids are expected to be a sequence of zeros followed by a sequence of ones";
constexpr std::int64_t kBit30 = std::int64_t{1} << 30;

std::int64_t compressed(const Ints& types) {
  auto k = compress_token_types(types);
  if (!k.ok()) {
    ADD_FAILURE() << "compress rejected the list: " << k.error().message;
    return -12345;
  }
  return *k;
}

void expect_order_error(const Ints& types) {
  auto k = compress_token_types(types);
  ASSERT_FALSE(k.ok()) << "compress accepted a list that is not 0*1*, as " << *k;
  EXPECT_EQ(k.error().message, kOrderMessage);
  EXPECT_EQ(k.error().code, 400);
  EXPECT_EQ(k.error().type, "BadRequestError");
  EXPECT_EQ(k.error().param, std::nullopt);  // spec 10.1: token-type errors have param null
}

// ---------------------------------------------------------------- compress

TEST(Compress, SpecExamples) {
  EXPECT_EQ(compressed({}), 0);
  EXPECT_EQ(compressed({0, 0, 0}), 3);
  EXPECT_EQ(compressed({1, 1}), 0);
  EXPECT_EQ(compressed({0, 0, 1, 1}), 2);
}

TEST(Compress, SpecFailingExamplesGiveTheExactMessage) {
  expect_order_error({0, 1, 0});
  expect_order_error({2});
}

TEST(Compress, MoreValidLists) {
  EXPECT_EQ(compressed({0}), 1);
  EXPECT_EQ(compressed({1}), 0);
  EXPECT_EQ(compressed({0, 1}), 1);
  EXPECT_EQ(compressed({0, 0, 0, 0, 1}), 4);
}

TEST(Compress, ZeroAfterAOneOrAValueAboveOneFails) {
  expect_order_error({1, 0});
  expect_order_error({0, 1, 1, 0});
  expect_order_error({1, 1, 1, 0});
  expect_order_error({3});
  expect_order_error({0, 0, 2});
  expect_order_error({0, 1, 2});
  expect_order_error({std::numeric_limits<std::int64_t>::max()});
}

TEST(Compress, NegativeValuesPassSilently_VllmQuirk) {
  EXPECT_EQ(compressed({-1}), 1);  // no 1: the length
  EXPECT_EQ(compressed({-1, -2, -3}), 3);
  EXPECT_EQ(compressed({-5, 0, 1, -3, 1}), 2);
  EXPECT_EQ(compressed({1, -1}), 0);
  EXPECT_EQ(compressed({0, -1, 0}), 3);  // no 1, so the zeros are fine
  EXPECT_EQ(compressed({std::numeric_limits<std::int64_t>::min(), 1}), 1);
  // A negative does not reset anything: a 0 after the first 1 still fails.
  expect_order_error({1, -1, 0});
}

TEST(Compress, ThroughTheJsonBoundary) {
  auto out = compress_json("[0,0,1,1]");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->dump(), R"({"compressed_token_type_ids":2})");

  auto empty = compress_json("[]");
  ASSERT_TRUE(empty.ok()) << empty.error().message;
  EXPECT_EQ(empty->dump(), R"({"compressed_token_type_ids":0})");

  auto bad = compress_json("[0,1,0]");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, kOrderMessage);
  EXPECT_EQ(bad.error().param, std::nullopt);
}

TEST(Compress, NonIntegerInputIsATypeErrorThroughTheJsonBoundary) {
  auto element = compress_json("[0, true]");
  ASSERT_FALSE(element.ok());
  EXPECT_EQ(element.error().message, "$[1]: Input should be a valid integer");
  EXPECT_EQ(element.error().param, "$[1]");
  auto real = compress_json("[1.0]");
  ASSERT_FALSE(real.ok());
  EXPECT_EQ(real.error().message, "$[0]: Input should be a valid integer");
  auto not_list = compress_json("{}");
  ASSERT_FALSE(not_list.ok());
  EXPECT_EQ(not_list.error().message, "$: Input should be a valid list");
}

// ------------------------------------------------------------- reconstruct

TEST(Reconstruct, OnesFromTheBoundary) {
  EXPECT_EQ(reconstruct_token_types(2, 5), (Ints{0, 0, 1, 1, 1}));
  EXPECT_EQ(reconstruct_token_types(0, 3), (Ints{1, 1, 1}));
  EXPECT_EQ(reconstruct_token_types(3, 3), (Ints{0, 0, 0}));
  EXPECT_EQ(reconstruct_token_types(1, 1), (Ints{0}));
  EXPECT_EQ(reconstruct_token_types(0, 0), Ints{});
  EXPECT_EQ(reconstruct_token_types(5, 0), Ints{});
}

TEST(Reconstruct, NegativeBoundaryGivesAllOnes) {
  EXPECT_EQ(reconstruct_token_types(-1, 3), (Ints{1, 1, 1}));
  EXPECT_EQ(reconstruct_token_types(-100, 2), (Ints{1, 1}));
  EXPECT_EQ(reconstruct_token_types(std::numeric_limits<std::int64_t>::min(), 2), (Ints{1, 1}));
}

TEST(Reconstruct, BoundaryBeyondTheLengthGivesAllZeros) {
  EXPECT_EQ(reconstruct_token_types(7, 3), (Ints{0, 0, 0}));
  EXPECT_EQ(reconstruct_token_types(std::numeric_limits<std::int64_t>::max(), 2), (Ints{0, 0}));
}

TEST(Reconstruct, RoundTripsEveryZerosThenOnesList) {
  for (std::int64_t len = 0; len <= 8; ++len) {
    for (std::int64_t ones = 0; ones <= len; ++ones) {
      Ints types(static_cast<std::size_t>(len - ones), 0);
      types.insert(types.end(), static_cast<std::size_t>(ones), 1);
      const std::int64_t k = compressed(types);
      EXPECT_EQ(k, len - ones);
      EXPECT_EQ(reconstruct_token_types(k, len), types) << "len " << len << " ones " << ones;
    }
  }
}

TEST(Reconstruct, ThroughTheJsonBoundary) {
  auto out = reconstruct_json(-3, 4);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->dump(), R"({"token_type_ids":[1,1,1,1]})");

  auto beyond = reconstruct_json(9, 2);
  ASSERT_TRUE(beyond.ok()) << beyond.error().message;
  EXPECT_EQ(beyond->dump(), R"({"token_type_ids":[0,0]})");
}

TEST(Reconstruct, NegativeLengthIsRejected) {
  auto out = reconstruct_json(0, -1);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, 400);
  EXPECT_EQ(out.error().message, "LEN: Input should be greater than or equal to 0");
  EXPECT_EQ(out.error().param, "LEN");
}

TEST(Reconstruct, LengthAboveTheResourceBoundIsRejected) {
  auto out = reconstruct_json(0, (std::int64_t{1} << 24) + 1);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, 400);
  EXPECT_EQ(out.error().type, "BadRequestError");
  EXPECT_EQ(out.error().message, "LEN may be at most 16777216.");
  EXPECT_EQ(out.error().param, "LEN");

  auto huge = reconstruct_json(0, std::numeric_limits<std::int64_t>::max());
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().code, 400);
}

// ------------------------------------------------------------------- batch

BatchRequest with_boundary(const Json& k, std::int64_t len) {
  BatchRequest request;
  request.params = PoolingParams{};
  request.params->extra_kwargs = std::make_shared<Json>(Json{{"compressed_token_type_ids", k}});
  request.seq_len = len;
  return request;
}

BatchRequest without_params(std::int64_t len) {
  BatchRequest request;
  request.seq_len = len;
  return request;
}

BatchRequest with_extras(const Json& extras, std::int64_t len) {
  BatchRequest request;
  request.params = PoolingParams{};
  request.params->extra_kwargs = std::make_shared<Json>(extras);
  request.seq_len = len;
  return request;
}

std::optional<Ints> batch_types(const std::vector<BatchRequest>& batch) {
  auto out = batch_token_types(batch);
  if (!out.ok()) {
    ADD_FAILURE() << "batch rejected: " << out.error().message;
    return Ints{-999};
  }
  return *out;
}

Error batch_error(const std::vector<BatchRequest>& batch) {
  auto out = batch_token_types(batch);
  if (out.ok()) {
    ADD_FAILURE() << "batch accepted";
    return Error::internal("accepted");
  }
  return out.error();
}

TEST(Batch, SpecExample) {
  // keys [2, none], lengths [5, 4]: "none" as a request without params, and as
  // params whose extra_kwargs lack the key.
  EXPECT_EQ(batch_types({with_boundary(2, 5), without_params(4)}),
            (Ints{0, 0, 1, 1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(batch_types({with_boundary(2, 5), with_extras(Json{{"other", 1}}, 4)}),
            (Ints{0, 0, 1, 1, 1, 0, 0, 0, 0}));
  BatchRequest bare;  // params without extra_kwargs at all
  bare.params = PoolingParams{};
  bare.seq_len = 4;
  EXPECT_EQ(batch_types({with_boundary(2, 5), bare}), (Ints{0, 0, 1, 1, 1, 0, 0, 0, 0}));
}

TEST(Batch, SpecExampleThroughTheJsonBoundary) {
  auto out = batch_json(R"([{"pooling_params": {"extra_kwargs": {"compressed_token_type_ids": 2}}, "seq_len": 5},
                            {"pooling_params": null, "seq_len": 4}])");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->dump(), R"({"token_type_ids":[0,0,1,1,1,0,0,0,0]})");
}

TEST(Batch, NoKeyAnywhereGivesNoTensor) {
  EXPECT_EQ(batch_types({}), std::nullopt);
  EXPECT_EQ(batch_types({without_params(3), without_params(0)}), std::nullopt);
  EXPECT_EQ(batch_types({with_extras(Json{{"a", 1}}, 3)}), std::nullopt);
  EXPECT_EQ(batch_types({with_extras(Json::object(), 2)}), std::nullopt);

  auto out = batch_json(R"([{"pooling_params": null, "seq_len": 3}])");
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->dump(), R"({"token_type_ids":null})");
}

TEST(Batch, NullKeyCountsAsAbsent) {
  EXPECT_EQ(batch_types({with_boundary(nullptr, 3)}), std::nullopt);
  EXPECT_EQ(batch_types({with_boundary(nullptr, 3), with_boundary(1, 2)}), (Ints{0, 0, 0, 0, 1}));
}

TEST(Batch, EveryRequestContributesItsLength) {
  EXPECT_EQ(batch_types({with_boundary(0, 2), with_boundary(1, 3), without_params(0), with_boundary(3, 3)}),
            (Ints{1, 1, 0, 1, 1, 0, 0, 0}));
  // A negative boundary gives all ones, one beyond the length all zeros.
  EXPECT_EQ(batch_types({with_boundary(-1, 3), with_boundary(10, 2)}), (Ints{1, 1, 1, 0, 0}));
}

TEST(Batch, NonIntegerBoundaryIsRejected) {
  const std::string field = "$[1].pooling_params.extra_kwargs.compressed_token_type_ids";
  // Spec 10.4: JSON integer literals within signed 64-bit range only.
  for (const Json& bad : {Json(1.5), Json(2.0), Json("2"), Json(true), Json::array({2}), Json::object(),
                          Json(std::numeric_limits<std::uint64_t>::max())}) {
    Error e = batch_error({with_boundary(2, 5), with_boundary(bad, 4)});
    EXPECT_EQ(e.code, 400) << bad.dump();
    EXPECT_EQ(e.message, field + ": Input should be a valid integer") << bad.dump();
    EXPECT_EQ(e.param, field) << bad.dump();
  }
}

TEST(Batch, NonIntegerBoundaryIsRejectedThroughTheJsonBoundary) {
  for (const char* k : {"2.0", "1e2", "true", "\"2\"", "9223372036854775808"}) {
    const std::string input = std::string(R"([{"pooling_params": {"extra_kwargs": {"compressed_token_type_ids": )") +
                              k + R"(}}, "seq_len": 3}])";
    auto out = batch_json(input);
    ASSERT_FALSE(out.ok()) << input;
    EXPECT_EQ(out.error().message,
              "$[0].pooling_params.extra_kwargs.compressed_token_type_ids: Input should be a valid integer")
        << input;
  }
}

TEST(Batch, NegativeSeqLenIsRejected) {
  Error e = batch_error({without_params(1), with_boundary(0, -1)});
  EXPECT_EQ(e.code, 400);
  EXPECT_EQ(e.message, "$[1].seq_len: Input should be greater than or equal to 0");
  EXPECT_EQ(e.param, "$[1].seq_len");

  auto json = batch_json(R"([{"pooling_params": null, "seq_len": -5}])");
  ASSERT_FALSE(json.ok());
  EXPECT_EQ(json.error().message, "$[0].seq_len: Input should be greater than or equal to 0");
}

TEST(Batch, TotalAboveTwoToThe24IsRejected) {
  const std::int64_t bound = std::int64_t{1} << 24;
  // Exactly 2^24 passes (no key: nothing is allocated).
  EXPECT_EQ(batch_types({without_params(bound - 1), without_params(1)}), std::nullopt);

  const std::string message = "The batch has more than 16777216 tokens in total.";
  Error over = batch_error({without_params(bound), with_boundary(0, 1)});
  EXPECT_EQ(over.code, 400);
  EXPECT_EQ(over.message, message);
  // No overflow on huge lengths.
  Error huge = batch_error({with_boundary(0, std::numeric_limits<std::int64_t>::max())});
  EXPECT_EQ(huge.message, message);
  Error two_huge = batch_error({without_params(std::numeric_limits<std::int64_t>::max()),
                                without_params(std::numeric_limits<std::int64_t>::max())});
  EXPECT_EQ(two_huge.message, message);
}

// ----------------------------------------------------------------- packing

TEST(Packing, TypeGoesIntoBit30OfTheFirstLenTypesIds) {
  auto packed = pack_token_types(Ints{5, 6, 7}, Ints{0, 1});
  ASSERT_TRUE(packed.ok()) << packed.error().message;
  EXPECT_EQ(*packed, (Ints{5, 6 + kBit30, 7}));

  auto all = pack_token_types(Ints{101, 2000, 102}, Ints{0, 1, 1});
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(*all, (Ints{101, 1073743824, 1073741926}));

  auto none = pack_token_types(Ints{1, 2}, Ints{});
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_EQ(*none, (Ints{1, 2}));

  auto top = pack_token_types(Ints{kBit30 - 1}, Ints{1});
  ASSERT_TRUE(top.ok()) << top.error().message;
  EXPECT_EQ(*top, (Ints{2 * kBit30 - 1}));
}

TEST(Packing, UnpackTakesBit30Back) {
  const auto out = unpack_token_types(Ints{5, 6 + kBit30, 7, kBit30});
  EXPECT_EQ(out.ids, (Ints{5, 6, 7, 0}));
  EXPECT_EQ(out.types, (Ints{0, 1, 0, 1}));
  // The spec's formulas literally: only bit 30 is the type, other high bits stay in the id.
  const std::int64_t high = (std::int64_t{3} << 30) | 9;
  const auto odd = unpack_token_types(Ints{high});
  EXPECT_EQ(odd.types, Ints{1});
  EXPECT_EQ(odd.ids, Ints{(std::int64_t{2} << 30) | 9});
}

TEST(Packing, PackThenUnpackRoundTrips) {
  const Ints ids{101, 1234, 5678, 102, 999999, 102, 0};
  const Ints types{0, 0, 0, 0, 1, 1};
  auto packed = pack_token_types(ids, types);
  ASSERT_TRUE(packed.ok()) << packed.error().message;
  const auto out = unpack_token_types(*packed);
  EXPECT_EQ(out.ids, ids);
  EXPECT_EQ(out.types, (Ints{0, 0, 0, 0, 1, 1, 0}));
}

TEST(Packing, TypesLongerThanIdsAreAnInternalError) {
  auto packed = pack_token_types(Ints{5}, Ints{0, 1});
  ASSERT_FALSE(packed.ok());
  EXPECT_EQ(packed.error().code, 500);
  EXPECT_EQ(packed.error().type, "InternalServerError");

  auto empty_ids = pack_token_types(Ints{}, Ints{0});
  ASSERT_FALSE(empty_ids.ok());
  EXPECT_EQ(empty_ids.error().code, 500);
}

TEST(Packing, IdsAtOrAbove2To30AndNonBitTypesAreInternalErrors) {
  auto big = pack_token_types(Ints{kBit30}, Ints{0});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, 500);
  auto negative = pack_token_types(Ints{-1}, Ints{});
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error().code, 500);
  auto two = pack_token_types(Ints{1}, Ints{2});
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().code, 500);
}

}  // namespace
}  // namespace poolcheck
