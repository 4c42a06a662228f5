// The bytes-in boundary (core/json_api.hpp) on inputs it must reject before
// any model work: JSON that does not parse, documents of the wrong shape, and
// the batch items of `poolcheck batch` (spec 3 "Worker batch", 10.14). Each
// rejection is one 400 error body with the field as param.
#include "core/json_api.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "core/json_input.hpp"

namespace poolcheck {
namespace {

template <class T>
void expect_error(const Result<T>& result, const std::string& message, const std::optional<std::string>& param) {
  ASSERT_FALSE(result.ok()) << "accepted";
  EXPECT_EQ(result.error().message, message);
  EXPECT_EQ(result.error().param, param);
  EXPECT_EQ(result.error().code, 400);
  EXPECT_EQ(result.error().type, "BadRequestError");
}

template <class T>
std::optional<Error> error_of(const Result<T>& result) {
  return result ? std::nullopt : std::optional<Error>(result.error());
}

TEST(JsonApi, EveryJsonEntryPointReportsTheParseErrorAsItIs) {
  const std::string broken = "[1,";
  const auto parse_error = parse_bounded_json(broken);
  ASSERT_FALSE(parse_error.ok());
  const std::string message = parse_error.error().message;
  const std::vector<std::pair<const char*, std::function<std::optional<Error>(std::string_view)>>> entry_points = {
      {"preprocess", [](std::string_view in) { return error_of(preprocess_json(in)); }},
      {"compress", [](std::string_view in) { return error_of(compress_json(in)); }},
      {"batch", [](std::string_view in) { return error_of(batch_json(in)); }},
      {"params encode", [](std::string_view in) { return error_of(params_encode_json(in)); }},
      {"params encode --msgpack", [](std::string_view in) { return error_of(params_encode_msgpack(in)); }},
      {"params decode", [](std::string_view in) { return error_of(params_decode_json(in)); }},
      {"verify", [](std::string_view in) { return error_of(verify_json(in)); }},
  };
  for (const auto& [name, run] : entry_points) {
    const auto error = run(broken);
    ASSERT_TRUE(error.has_value()) << name << " accepted " << broken;
    EXPECT_EQ(*error, parse_error.error()) << name;
  }
  EXPECT_EQ(message.rfind("Invalid JSON: ", 0), 0u) << message;
}

TEST(JsonApi, ParamsEncodeRejectsInvalidObjectFormInBothEncodings) {
  const std::string input = R"({"task":"encode"})";
  const std::string message = "`encode` task was removed; use `token_embed` or `token_classify` instead.";
  expect_error(params_encode_json(input), message, "pooling_params.task");
  expect_error(params_encode_msgpack(input), message, "pooling_params.task");
  expect_error(params_encode_msgpack("[]"), "pooling_params: Input should be a valid object", "pooling_params");
}

TEST(JsonApi, VerifyInputMustBeAnObject) {
  expect_error(verify_json("[]"), "$: Input should be a valid object", "$");
  expect_error(verify_json(R"("model")"), "$: Input should be a valid object", "$");
}

TEST(JsonApi, TheEnvelopeMustBeAnObject) {
  expect_error(preprocess_json("[]"), "envelope: Input should be a valid object", "envelope");
  expect_error(preprocess_json("null"), "envelope: Input should be a valid object", "envelope");
  expect_error(preprocess_json(R"({"endpoint":"score"})"), "request: Field required", "request");
  expect_error(preprocess_json(R"({"request":{}})"), "endpoint: Field required", "endpoint");
}

TEST(JsonApiBatch, EachItemMustBeAnObject) {
  expect_error(batch_json("[1]"), "$[0]: Input should be a valid object", "$[0]");
  expect_error(batch_json(R"([{"seq_len":1},null])"), "$[1]: Input should be a valid object", "$[1]");
}

TEST(JsonApiBatch, PoolingParamsAreReadInObjectForm) {
  expect_error(batch_json(R"([{"pooling_params":{"task":"score"},"seq_len":1}])"),
               "`score` task was removed; use `classify` instead.", "$[0].pooling_params.task");
  expect_error(batch_json(R"([{"seq_len":2},{"pooling_params":{"extra_kwargs":[]},"seq_len":1}])"),
               "$[1].pooling_params.extra_kwargs: Input should be a valid object", "$[1].pooling_params.extra_kwargs");
}

TEST(JsonApiBatch, SeqLenIsARequiredInteger) {
  expect_error(batch_json("[{}]"), "$[0].seq_len: Field required", "$[0].seq_len");
  expect_error(batch_json(R"([{"pooling_params":null}])"), "$[0].seq_len: Field required", "$[0].seq_len");
  for (const char* bad : {R"([{"seq_len":"1"}])", R"([{"seq_len":null}])", R"([{"seq_len":1.0}])",
                          R"([{"seq_len":true}])"})
    expect_error(batch_json(bad), "$[0].seq_len: Input should be a valid integer", "$[0].seq_len");
}

}  // namespace
}  // namespace poolcheck
