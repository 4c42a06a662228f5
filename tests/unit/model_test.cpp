// model_from_json (spec section 4 and 10.7): defaults, every field's type
// error, the bounds, and the tokenizer style.
#include "core/model.hpp"

#include <gtest/gtest.h>

#include <string>

namespace poolcheck {
namespace {

Result<ModelConfig> read(const std::string& text) {
  const Json json = Json::parse(text);
  return model_from_json(&json);
}

// The error of reading `text`, which must fail with a 400 naming `param`.
Error error_of(const std::string& text) {
  auto model = read(text);
  EXPECT_FALSE(model.ok()) << text;
  if (model.ok()) return Error::internal("read succeeded: " + text);
  EXPECT_EQ(model.error().code, 400);
  EXPECT_EQ(model.error().type, "BadRequestError");
  return model.error();
}

void expect_defaults(const ModelConfig& model) {
  EXPECT_EQ(model.name, "cross-encoder/ms-marco-MiniLM-L-6-v2");
  EXPECT_EQ(model.architecture, "BertForSequenceClassification");
  EXPECT_EQ(model.max_model_len, 512);
  EXPECT_EQ(model.vocab_size, 30522);
  EXPECT_FALSE(model.is_multimodal);
  EXPECT_TRUE(model.tokenizer.returns_token_type_ids);
  EXPECT_TRUE(model.tokenizer.use_sep_token);
  EXPECT_EQ(model.tokenizer.truncation_side, Side::Right);
  EXPECT_EQ(model.tokenizer.pad_token_id, 0);
  EXPECT_EQ(model.pooler.pooling_type, "CLS");
  EXPECT_FALSE(model.pooler.use_activation.has_value());
  EXPECT_FALSE(model.pooler.dimensions.has_value());
  EXPECT_FALSE(model.pooler.step_tag_id.has_value());
  EXPECT_FALSE(model.pooler.returned_token_ids.has_value());
  EXPECT_FALSE(model.is_matryoshka);
  EXPECT_FALSE(model.matryoshka_dimensions.has_value());
  EXPECT_EQ(model.embedding_size, 384);
  EXPECT_EQ(model.style(), TokenizerStyle::Bert);
}

TEST(ModelFromJson, NullPointerGivesDefaults) {
  auto model = model_from_json(nullptr);
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, JsonNullGivesDefaults) {
  auto model = read("null");
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, EmptyObjectGivesDefaults) {
  auto model = read("{}");
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, NullNestedObjectsGiveTheirDefaults) {
  auto model = read(R"({"tokenizer": null, "pooler": null})");
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, EmptyNestedObjectsGiveTheirDefaults) {
  auto model = read(R"({"tokenizer": {}, "pooler": {}})");
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, UnknownKeysAreIgnoredAtEveryLevel) {
  auto model = read(R"({"colour": [1, {"x": null}], "tokenizer": {"fast": "yes"},
                        "pooler": {"normalize": 3}})");
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, ReadsEveryField) {
  auto model = read(R"({
    "name": "BAAI/bge-reranker", "architecture": "XLMRobertaForSequenceClassification",
    "max_model_len": 8192, "vocab_size": 250002, "is_multimodal": true,
    "tokenizer": {"returns_token_type_ids": false, "use_sep_token": true,
                  "truncation_side": "left", "pad_token_id": 1},
    "pooler": {"pooling_type": "STEP", "use_activation": false, "dimensions": 64,
               "step_tag_id": 7, "returned_token_ids": [3, 4]},
    "is_matryoshka": true, "matryoshka_dimensions": [256, 512], "embedding_size": 1024})");
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->name, "BAAI/bge-reranker");
  EXPECT_EQ(model->architecture, "XLMRobertaForSequenceClassification");
  EXPECT_EQ(model->max_model_len, 8192);
  EXPECT_EQ(model->vocab_size, 250002);
  EXPECT_TRUE(model->is_multimodal);
  EXPECT_FALSE(model->tokenizer.returns_token_type_ids);
  EXPECT_TRUE(model->tokenizer.use_sep_token);
  EXPECT_EQ(model->tokenizer.truncation_side, Side::Left);
  EXPECT_EQ(model->tokenizer.pad_token_id, 1);
  EXPECT_EQ(model->pooler.pooling_type, "STEP");
  EXPECT_EQ(model->pooler.use_activation, false);
  EXPECT_EQ(model->pooler.dimensions, 64);
  EXPECT_EQ(model->pooler.step_tag_id, 7);
  EXPECT_EQ(model->pooler.returned_token_ids, (std::vector<std::int64_t>{3, 4}));
  EXPECT_TRUE(model->is_matryoshka);
  EXPECT_EQ(model->matryoshka_dimensions, (std::vector<std::int64_t>{256, 512}));
  EXPECT_EQ(model->embedding_size, 1024);
  EXPECT_EQ(model->style(), TokenizerStyle::XlmR);
}

TEST(ModelFromJson, AbsentKeysKeepTheirDefaultsBesideGivenOnes) {
  auto model = read(R"({"tokenizer": {"pad_token_id": 5}, "pooler": {"pooling_type": "MEAN"}})");
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->tokenizer.pad_token_id, 5);
  EXPECT_TRUE(model->tokenizer.returns_token_type_ids);
  EXPECT_TRUE(model->tokenizer.use_sep_token);
  EXPECT_EQ(model->pooler.pooling_type, "MEAN");
  EXPECT_EQ(model->name, "cross-encoder/ms-marco-MiniLM-L-6-v2");
}

TEST(ModelFromJson, NullableFieldsAcceptNull) {
  auto model = read(R"({"matryoshka_dimensions": null,
    "pooler": {"use_activation": null, "dimensions": null, "step_tag_id": null,
               "returned_token_ids": null}})");
  ASSERT_TRUE(model.ok());
  expect_defaults(*model);
}

TEST(ModelFromJson, EmptyListsAreKeptDistinctFromNull) {
  auto model = read(R"({"matryoshka_dimensions": [], "pooler": {"returned_token_ids": []}})");
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->matryoshka_dimensions, std::vector<std::int64_t>{});
  EXPECT_EQ(model->pooler.returned_token_ids, std::vector<std::int64_t>{});
}

TEST(ModelFromJson, ANonObjectModelIsATypeError) {
  for (const char* text : {"1", "\"m\"", "[]", "true"}) {
    Error e = error_of(text);
    EXPECT_EQ(e.message, "model: Input should be a valid object") << text;
    EXPECT_EQ(e.param, "model");
  }
}

struct TypeCase {
  const char* body;
  const char* message;
};

TEST(ModelFromJson, EveryFieldHasItsTypeError) {
  const TypeCase cases[] = {
      {R"({"name": 1})", "model.name: Input should be a valid string"},
      {R"({"name": null})", "model.name: Input should be a valid string"},
      {R"({"architecture": ["Bert"]})", "model.architecture: Input should be a valid string"},
      {R"({"max_model_len": "512"})", "model.max_model_len: Input should be a valid integer"},
      {R"({"max_model_len": 512.0})", "model.max_model_len: Input should be a valid integer"},
      {R"({"max_model_len": true})", "model.max_model_len: Input should be a valid integer"},
      {R"({"max_model_len": null})", "model.max_model_len: Input should be a valid integer"},
      {R"({"max_model_len": 9223372036854775808})",
       "model.max_model_len: Input should be a valid integer"},
      {R"({"vocab_size": 1e5})", "model.vocab_size: Input should be a valid integer"},
      {R"({"is_multimodal": 0})", "model.is_multimodal: Input should be a valid boolean"},
      {R"({"is_multimodal": null})", "model.is_multimodal: Input should be a valid boolean"},
      {R"({"tokenizer": []})", "model.tokenizer: Input should be a valid object"},
      {R"({"tokenizer": "bert"})", "model.tokenizer: Input should be a valid object"},
      {R"({"tokenizer": {"returns_token_type_ids": "true"}})",
       "model.tokenizer.returns_token_type_ids: Input should be a valid boolean"},
      {R"({"tokenizer": {"use_sep_token": null}})",
       "model.tokenizer.use_sep_token: Input should be a valid boolean"},
      {R"({"tokenizer": {"truncation_side": "middle"}})",
       "model.tokenizer.truncation_side: Input should be 'left' or 'right'"},
      {R"({"tokenizer": {"truncation_side": "LEFT"}})",
       "model.tokenizer.truncation_side: Input should be 'left' or 'right'"},
      {R"({"tokenizer": {"truncation_side": 0}})",
       "model.tokenizer.truncation_side: Input should be 'left' or 'right'"},
      {R"({"tokenizer": {"truncation_side": null}})",
       "model.tokenizer.truncation_side: Input should be 'left' or 'right'"},
      {R"({"tokenizer": {"pad_token_id": "0"}})",
       "model.tokenizer.pad_token_id: Input should be a valid integer"},
      {R"({"pooler": 5})", "model.pooler: Input should be a valid object"},
      {R"({"pooler": {"pooling_type": 1}})", "model.pooler.pooling_type: Input should be a valid string"},
      {R"({"pooler": {"pooling_type": null}})",
       "model.pooler.pooling_type: Input should be a valid string"},
      {R"({"pooler": {"use_activation": "yes"}})",
       "model.pooler.use_activation: Input should be a valid boolean"},
      {R"({"pooler": {"dimensions": 1.5}})", "model.pooler.dimensions: Input should be a valid integer"},
      {R"({"pooler": {"step_tag_id": false}})", "model.pooler.step_tag_id: Input should be a valid integer"},
      {R"({"pooler": {"returned_token_ids": 3}})",
       "model.pooler.returned_token_ids: Input should be a valid list"},
      {R"({"pooler": {"returned_token_ids": [1, "2"]}})",
       "model.pooler.returned_token_ids[1]: Input should be a valid integer"},
      {R"({"is_matryoshka": "false"})", "model.is_matryoshka: Input should be a valid boolean"},
      {R"({"matryoshka_dimensions": {"a": 1}})",
       "model.matryoshka_dimensions: Input should be a valid list"},
      {R"({"matryoshka_dimensions": [256, null]})",
       "model.matryoshka_dimensions[1]: Input should be a valid integer"},
      {R"({"embedding_size": "384"})", "model.embedding_size: Input should be a valid integer"},
      {R"({"embedding_size": null})", "model.embedding_size: Input should be a valid integer"},
  };
  for (const auto& c : cases) {
    Error e = error_of(c.body);
    EXPECT_EQ(e.message, c.message) << c.body;
    // The param is the message's field path.
    const std::string message = c.message;
    EXPECT_EQ(e.param, message.substr(0, message.find(':'))) << c.body;
  }
}

TEST(ModelFromJson, MaxModelLenIsAtLeastOne) {
  EXPECT_EQ(error_of(R"({"max_model_len": 0})").message,
            "model.max_model_len: Input should be greater than or equal to 1");
  EXPECT_EQ(error_of(R"({"max_model_len": -5})").param, "model.max_model_len");
  auto one = read(R"({"max_model_len": 1})");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->max_model_len, 1);
}

TEST(ModelFromJson, VocabSizeHasALowerBound) {
  Error e = error_of(R"({"vocab_size": 1000})");
  EXPECT_EQ(e.message, "model.vocab_size: Input should be greater than or equal to 1001");
  EXPECT_EQ(e.param, "model.vocab_size");
  auto lowest = read(R"({"vocab_size": 1001})");
  ASSERT_TRUE(lowest.ok());
  EXPECT_EQ(lowest->vocab_size, 1001);
}

TEST(ModelFromJson, VocabSizeHasAnUpperBound) {
  Error e = error_of(R"({"vocab_size": 1073741825})");
  EXPECT_EQ(e.message, "model.vocab_size: Input should be less than or equal to 1073741824");
  EXPECT_EQ(e.param, "model.vocab_size");
  auto highest = read(R"({"vocab_size": 1073741824})");
  ASSERT_TRUE(highest.ok());
  EXPECT_EQ(highest->vocab_size, 1073741824);
}

TEST(ModelFromJson, TheFirstFieldInSpecOrderWins) {
  EXPECT_EQ(error_of(R"({"embedding_size": "x", "name": 1})").param, "model.name");
  EXPECT_EQ(error_of(R"({"vocab_size": 5, "max_model_len": 0})").param, "model.max_model_len");
  EXPECT_EQ(error_of(R"({"pooler": 1, "tokenizer": 1})").param, "model.tokenizer");
  EXPECT_EQ(error_of(R"({"is_matryoshka": 1, "pooler": {"dimensions": "x"}})").param,
            "model.pooler.dimensions");
}

TEST(ModelFromJson, UnboundedIntegersTakeAnyInt64) {
  auto model = read(R"({"embedding_size": -3, "tokenizer": {"pad_token_id": -1},
                        "matryoshka_dimensions": [-9223372036854775808]})");
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->embedding_size, -3);
  EXPECT_EQ(model->tokenizer.pad_token_id, -1);
  EXPECT_EQ(model->matryoshka_dimensions->at(0), INT64_MIN);
}

TEST(ModelStyle, FollowsTheSepTokenAndTokenTypes) {
  ModelConfig model;
  model.tokenizer.use_sep_token = true;
  model.tokenizer.returns_token_type_ids = true;
  EXPECT_EQ(model.style(), TokenizerStyle::Bert);
  model.tokenizer.returns_token_type_ids = false;
  EXPECT_EQ(model.style(), TokenizerStyle::XlmR);
  model.tokenizer.use_sep_token = false;
  EXPECT_EQ(model.style(), TokenizerStyle::Llm);
  // Without a sep token there are never token types, whatever the tokenizer says.
  model.tokenizer.returns_token_type_ids = true;
  EXPECT_EQ(model.style(), TokenizerStyle::Llm);
}

}  // namespace
}  // namespace poolcheck
