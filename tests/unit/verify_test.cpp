// verify_params (spec section 2 "verify(model)", 10.1, 10.7): every rule and
// message, plus idempotence and the untouched input.
#include "core/verify.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace poolcheck {
namespace {

using Ids = std::vector<std::int64_t>;

const char* const kDefaultName = "cross-encoder/ms-marco-MiniLM-L-6-v2";

PoolingParams with_task(std::string task) {
  PoolingParams params;
  params.task = std::move(task);
  return params;
}

PoolingParams embed_with_dimensions(std::int64_t dimensions, std::string task = "embed") {
  PoolingParams params = with_task(std::move(task));
  params.dimensions = dimensions;
  return params;
}

ModelConfig matryoshka_model(std::optional<Ids> listed = std::nullopt, std::int64_t size = 1024) {
  ModelConfig model;
  model.is_matryoshka = true;
  model.matryoshka_dimensions = std::move(listed);
  model.embedding_size = size;
  return model;
}

ModelConfig step_model() {
  ModelConfig model;
  model.pooler.pooling_type = "STEP";
  model.pooler.step_tag_id = 12;
  model.pooler.returned_token_ids = Ids{3, 4};
  return model;
}

PoolingParams verified(const PoolingParams& params, const ModelConfig& model = {}) {
  auto out = verify_params(params, model);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message);
  return out.ok() ? std::move(out).value() : params;
}

// The message of a verify that must fail; verify errors are 400s with `param: null` (spec 10.1).
std::string failure(const PoolingParams& params, const ModelConfig& model = {}) {
  auto out = verify_params(params, model);
  EXPECT_FALSE(out.ok());
  if (out.ok()) return "<verify passed>";
  EXPECT_EQ(out.error().code, 400);
  EXPECT_EQ(out.error().type, "BadRequestError");
  EXPECT_FALSE(out.error().param.has_value());
  return out.error().message;
}

// A params with every field set, to show verify leaves what it does not own alone.
PoolingParams everything(std::string task) {
  PoolingParams params = with_task(std::move(task));
  params.use_activation = false;
  params.dimensions = 100000;
  params.step_tag_id = 9;
  params.returned_token_ids = Ids{1, 2};
  params.requires_token_ids = true;
  params.late_interaction_params = LateInteractionParams{"score_doc", "q", 3};
  params.extra_kwargs = std::make_shared<Json>(Json{{"a", {{"b", 1}}}});
  return params;
}

const char* const kVerifiedTasks[] = {"embed", "classify", "token_embed", "token_classify"};

// ---- step 1: plugin -------------------------------------------------------

TEST(VerifyPlugin, DefaultsSkipReadingPrefixCacheToTrueOnly) {
  PoolingParams out = verified(with_task("plugin"));
  EXPECT_EQ(out.skip_reading_prefix_cache, true);
  EXPECT_FALSE(out.use_activation.has_value());
  EXPECT_FALSE(out.dimensions.has_value());
  PoolingParams expected = with_task("plugin");
  expected.skip_reading_prefix_cache = true;
  EXPECT_TRUE(deep_equal(out, expected));
}

TEST(VerifyPlugin, KeepsAnExplicitSkipReadingPrefixCache) {
  PoolingParams params = with_task("plugin");
  params.skip_reading_prefix_cache = false;
  EXPECT_EQ(verified(params).skip_reading_prefix_cache, false);
}

TEST(VerifyPlugin, ChecksNothingElse) {
  // Step parameters on a CLS pooler and dimensions on a non-Matryoshka model pass.
  PoolingParams params = everything("plugin");
  ModelConfig model;
  model.pooler.use_activation = true;
  model.pooler.dimensions = 5;
  PoolingParams out = verified(params, model);
  PoolingParams expected = params.clone();
  expected.skip_reading_prefix_cache = true;
  EXPECT_TRUE(deep_equal(out, expected));
}

// ---- step 2: null and other tasks ---------------------------------------

TEST(VerifyUnverifiedTasks, NullTaskIsReturnedUnchanged) {
  PoolingParams params = everything("x");
  params.task.reset();
  EXPECT_TRUE(deep_equal(verified(params, step_model()), params));
  EXPECT_TRUE(deep_equal(verified(PoolingParams{}), PoolingParams{}));
}

TEST(VerifyUnverifiedTasks, OtherTaskStringsAreReturnedUnchanged) {
  for (const char* task : {"embed&token_classify", "my_plugin_task", "", "Embed", "classify "}) {
    PoolingParams params = everything(task);
    EXPECT_TRUE(deep_equal(verified(params), params)) << task;
    PoolingParams bare = with_task(task);
    PoolingParams out = verified(bare);
    EXPECT_FALSE(out.skip_reading_prefix_cache.has_value()) << task;
    EXPECT_FALSE(out.use_activation.has_value()) << task;
  }
}

// ---- step 3: pooler defaults and skip_reading_prefix_cache --------------

TEST(VerifyDefaults, SkipReadingPrefixCacheDefaultsPerTask) {
  EXPECT_EQ(verified(with_task("embed")).skip_reading_prefix_cache, false);
  EXPECT_EQ(verified(with_task("classify")).skip_reading_prefix_cache, false);
  EXPECT_EQ(verified(with_task("token_embed")).skip_reading_prefix_cache, true);
  EXPECT_EQ(verified(with_task("token_classify")).skip_reading_prefix_cache, true);
}

TEST(VerifyDefaults, ExplicitSkipReadingPrefixCacheIsKept) {
  for (const char* task : kVerifiedTasks) {
    for (bool value : {false, true}) {
      PoolingParams params = with_task(task);
      params.skip_reading_prefix_cache = value;
      EXPECT_EQ(verified(params).skip_reading_prefix_cache, value) << task;
    }
  }
}

TEST(VerifyDefaults, PoolerUseActivationIsCopiedForEveryTask) {
  ModelConfig model;
  model.pooler.use_activation = false;
  for (const char* task : kVerifiedTasks)
    EXPECT_EQ(verified(with_task(task), model).use_activation, false) << task;
}

TEST(VerifyDefaults, RequestValueWinsOverThePoolerDefault) {
  ModelConfig model = matryoshka_model();
  model.pooler.use_activation = false;
  model.pooler.dimensions = 256;
  PoolingParams params = with_task("embed");
  params.use_activation = true;
  params.dimensions = 128;
  PoolingParams out = verified(params, model);
  EXPECT_EQ(out.use_activation, true);
  EXPECT_EQ(out.dimensions, 128);
}

TEST(VerifyDefaults, PoolerDimensionsAreCopiedForEmbedTasks) {
  ModelConfig model = matryoshka_model();
  model.pooler.dimensions = 256;
  EXPECT_EQ(verified(with_task("embed"), model).dimensions, 256);
  EXPECT_EQ(verified(with_task("token_embed"), model).dimensions, 256);
}

TEST(VerifyDefaults, PoolerDimensionsAreNotCopiedForClassifyTasks) {
  // `dimensions` is not a classify parameter, so the pooler's is not merged
  // (and therefore not rejected either).
  ModelConfig model;
  model.pooler.dimensions = 256;
  EXPECT_FALSE(verified(with_task("classify"), model).dimensions.has_value());
  EXPECT_FALSE(verified(with_task("token_classify"), model).dimensions.has_value());
}

TEST(VerifyDefaults, PoolerDimensionsAreCheckedLikeRequestOnes) {
  // vLLM quirk: the merged pooler default goes through the Matryoshka checks.
  ModelConfig model;
  model.pooler.dimensions = 100;
  EXPECT_EQ(failure(with_task("embed"), model),
            std::string("Model '") + kDefaultName +
                "' does not support Matryoshka embeddings; dimensions must be unset. Numeric "
                "dimensions are valid only for Matryoshka models in range [1, 384].");
}

// ---- step 4: step parameters (the task printed bare, spec 11.4) -----------

TEST(VerifyStepParameters, StepTagIdOnANonStepPoolerIsRejected) {
  PoolingParams params = with_task("classify");
  params.step_tag_id = 1;
  EXPECT_EQ(failure(params),
            "Task classify only supports ['use_activation'] parameters, does not support "
            "['step_tag_id'] parameters");
}

TEST(VerifyStepParameters, ReturnedTokenIdsOnANonStepPoolerIsRejected) {
  PoolingParams params = with_task("token_classify");
  params.returned_token_ids = Ids{};  // an empty list is still set
  EXPECT_EQ(failure(params),
            "Task token_classify only supports ['use_activation'] parameters, does not support "
            "['returned_token_ids'] parameters");
}

TEST(VerifyStepParameters, BothAreListedInVllmOrderWithTheTasksValidParameters) {
  for (const char* task : {"embed", "token_embed"}) {
    PoolingParams params = with_task(task);
    params.returned_token_ids = Ids{5};
    params.step_tag_id = 1;
    EXPECT_EQ(failure(params), std::string("Task ") + task +
                                   " only supports ['dimensions', 'use_activation'] parameters, "
                                   "does not support ['step_tag_id', 'returned_token_ids'] parameters");
  }
}

TEST(VerifyStepParameters, AnyPoolingTypeButStepRejectsThem) {
  for (const char* type : {"CLS", "MEAN", "LAST", "ALL", "step", ""}) {
    ModelConfig model;
    model.pooler.pooling_type = type;
    PoolingParams params = with_task("classify");
    params.step_tag_id = 0;
    EXPECT_EQ(failure(params, model),
              "Task classify only supports ['use_activation'] parameters, does not support "
              "['step_tag_id'] parameters")
        << type;
  }
}

TEST(VerifyStepParameters, ANonStepPoolersStepFieldsAreNotCopied) {
  ModelConfig model = step_model();
  model.pooler.pooling_type = "CLS";
  PoolingParams out = verified(with_task("classify"), model);
  EXPECT_FALSE(out.step_tag_id.has_value());
  EXPECT_FALSE(out.returned_token_ids.has_value());
}

TEST(VerifyStepParameters, AStepPoolerFillsUnsetStepFields) {
  for (const char* task : kVerifiedTasks) {
    PoolingParams out = verified(with_task(task), step_model());
    EXPECT_EQ(out.step_tag_id, 12) << task;
    EXPECT_EQ(out.returned_token_ids, (Ids{3, 4})) << task;
  }
}

TEST(VerifyStepParameters, AStepPoolerKeepsRequestStepFields) {
  PoolingParams params = with_task("token_classify");
  params.step_tag_id = 1;
  params.returned_token_ids = Ids{9};
  PoolingParams out = verified(params, step_model());
  EXPECT_EQ(out.step_tag_id, 1);
  EXPECT_EQ(out.returned_token_ids, Ids{9});
}

TEST(VerifyStepParameters, AStepPoolerWithoutValuesLeavesThemUnset) {
  ModelConfig model;
  model.pooler.pooling_type = "STEP";
  PoolingParams out = verified(with_task("classify"), model);
  EXPECT_FALSE(out.step_tag_id.has_value());
  EXPECT_FALSE(out.returned_token_ids.has_value());
  PoolingParams partial = with_task("classify");
  partial.returned_token_ids = Ids{7};
  EXPECT_EQ(verified(partial, step_model()).step_tag_id, 12);
  EXPECT_EQ(verified(partial, step_model()).returned_token_ids, Ids{7});
}

TEST(VerifyStepParameters, TheStepCheckComesBeforeTheDimensionChecks) {
  PoolingParams classify = with_task("classify");
  classify.dimensions = 5;
  classify.step_tag_id = 1;
  EXPECT_EQ(failure(classify),
            "Task classify only supports ['use_activation'] parameters, does not support "
            "['step_tag_id'] parameters");
  PoolingParams embed = embed_with_dimensions(100000);
  embed.returned_token_ids = Ids{1};
  EXPECT_EQ(failure(embed),
            "Task embed only supports ['dimensions', 'use_activation'] parameters, does not "
            "support ['returned_token_ids'] parameters");
}

// ---- step 5: use_activation ----------------------------------------------

TEST(VerifyUseActivation, NullBecomesTrueForTheFourTasks) {
  for (const char* task : kVerifiedTasks) EXPECT_EQ(verified(with_task(task)).use_activation, true) << task;
}

TEST(VerifyUseActivation, AnExplicitFalseIsKept) {
  for (const char* task : kVerifiedTasks) {
    PoolingParams params = with_task(task);
    params.use_activation = false;
    EXPECT_EQ(verified(params).use_activation, false) << task;
  }
}

// ---- step 6: valid parameters ---------------------------------------------

TEST(VerifyValidParameters, DimensionsOnAClassifyTaskAreRejected) {
  for (const char* task : {"classify", "token_classify"}) {
    // Even on a Matryoshka model with the value listed: classify takes no dimensions.
    EXPECT_EQ(failure(embed_with_dimensions(256, task), matryoshka_model(Ids{256})),
              std::string("Task '") + task +
                  "' only supports ['use_activation'] parameters, does not support ['dimensions'] "
                  "parameters");
  }
}

// ---- step 7: dimensions ---------------------------------------------------

TEST(VerifyDimensions, NotMatryoshkaAndInRange) {
  for (std::int64_t d : {1, 100, 384}) {
    EXPECT_EQ(failure(embed_with_dimensions(d)),
              "Model 'cross-encoder/ms-marco-MiniLM-L-6-v2' does not support Matryoshka embeddings; "
              "dimensions must be unset. Numeric dimensions are valid only for Matryoshka models in "
              "range [1, 384].");
  }
}

TEST(VerifyDimensions, NotMatryoshkaAndOutOfRange) {
  EXPECT_EQ(failure(embed_with_dimensions(385)),
            "Model 'cross-encoder/ms-marco-MiniLM-L-6-v2' does not support Matryoshka embeddings; "
            "dimensions must be unset. Received dimensions=385, outside valid numeric range [1, 384].");
  EXPECT_EQ(failure(embed_with_dimensions(0, "token_embed")),
            "Model 'cross-encoder/ms-marco-MiniLM-L-6-v2' does not support Matryoshka embeddings; "
            "dimensions must be unset. Received dimensions=0, outside valid numeric range [1, 384].");
  EXPECT_EQ(failure(embed_with_dimensions(INT64_MIN)),
            "Model 'cross-encoder/ms-marco-MiniLM-L-6-v2' does not support Matryoshka embeddings; "
            "dimensions must be unset. Received dimensions=-9223372036854775808, outside valid "
            "numeric range [1, 384].");
}

TEST(VerifyDimensions, MatryoshkaWithoutAListChecksTheRange) {
  ModelConfig model = matryoshka_model(std::nullopt, 768);
  model.name = "nomic-ai/nomic-embed-text-v1.5";
  EXPECT_EQ(failure(embed_with_dimensions(0), model),
            "Model 'nomic-ai/nomic-embed-text-v1.5' only supports dimensions in range [1, 768], got 0.");
  EXPECT_EQ(failure(embed_with_dimensions(769, "token_embed"), model),
            "Model 'nomic-ai/nomic-embed-text-v1.5' only supports dimensions in range [1, 768], got 769.");
  EXPECT_EQ(failure(embed_with_dimensions(-1), model),
            "Model 'nomic-ai/nomic-embed-text-v1.5' only supports dimensions in range [1, 768], got -1.");
  for (std::int64_t d : {1, 500, 768}) EXPECT_EQ(verified(embed_with_dimensions(d), model).dimensions, d);
}

TEST(VerifyDimensions, MatryoshkaWithAListChecksMembership) {
  ModelConfig model = matryoshka_model(Ids{256, 512});
  model.name = "m";
  EXPECT_EQ(failure(embed_with_dimensions(300), model),
            "Model 'm' only supports Matryoshka dimensions [256, 512], got 300.");
  EXPECT_EQ(failure(embed_with_dimensions(1, "token_embed"), model),
            "Model 'm' only supports Matryoshka dimensions [256, 512], got 1.");
  EXPECT_EQ(verified(embed_with_dimensions(256), model).dimensions, 256);
  EXPECT_EQ(verified(embed_with_dimensions(512, "token_embed"), model).dimensions, 512);
}

TEST(VerifyDimensions, TheRangeIsCheckedBeforeTheList) {
  ModelConfig model = matryoshka_model(Ids{256, 512}, 384);
  model.name = "m";
  EXPECT_EQ(failure(embed_with_dimensions(512), model),
            "Model 'm' only supports dimensions in range [1, 384], got 512.");
  EXPECT_EQ(failure(embed_with_dimensions(0), model),
            "Model 'm' only supports dimensions in range [1, 384], got 0.");
}

TEST(VerifyDimensions, AListMakesTheModelMatryoshka) {
  // vLLM quirk: ModelConfig.is_matryoshka is `bool(matryoshka_dimensions) or is_matryoshka`.
  ModelConfig model = matryoshka_model(Ids{64}, 384);
  model.is_matryoshka = false;
  model.name = "m";
  EXPECT_EQ(verified(embed_with_dimensions(64), model).dimensions, 64);
  EXPECT_EQ(failure(embed_with_dimensions(65), model),
            "Model 'm' only supports Matryoshka dimensions [64], got 65.");
}

TEST(VerifyDimensions, AnEmptyListDoesNotMakeTheModelMatryoshka) {
  ModelConfig model = matryoshka_model(Ids{}, 384);
  model.is_matryoshka = false;
  model.name = "m";
  EXPECT_EQ(failure(embed_with_dimensions(64), model),
            "Model 'm' does not support Matryoshka embeddings; dimensions must be unset. Numeric "
            "dimensions are valid only for Matryoshka models in range [1, 384].");
}

TEST(VerifyDimensions, AnEmptyListOnAMatryoshkaModelAcceptsNothing) {
  ModelConfig model = matryoshka_model(Ids{}, 384);
  model.name = "m";
  EXPECT_EQ(failure(embed_with_dimensions(64), model),
            "Model 'm' only supports Matryoshka dimensions [], got 64.");
}

TEST(VerifyDimensions, NegativeListEntriesPrintPythonStyle) {
  ModelConfig model = matryoshka_model(Ids{-1, 2}, 384);
  model.name = "m";
  EXPECT_EQ(failure(embed_with_dimensions(3), model),
            "Model 'm' only supports Matryoshka dimensions [-1, 2], got 3.");
}

TEST(VerifyDimensions, UnsetDimensionsSkipTheChecks) {
  ModelConfig model;
  model.embedding_size = 0;  // even an empty valid range is never consulted
  EXPECT_FALSE(verified(with_task("embed"), model).dimensions.has_value());
}

TEST(VerifyDimensions, TheModelNameIsPrintedWithPythonRepr) {
  const std::pair<const char*, const char*> names[] = {
      {"it's", "Model \"it's\""},
      {"a\"b", "Model 'a\"b'"},
      {"it's \"x\"", "Model 'it\\'s \"x\"'"},
      {"back\\slash", "Model 'back\\\\slash'"},
      {"tab\there\nnl\rcr", "Model 'tab\\there\\nnl\\rcr'"},
      {"nul\x01\x7f", "Model 'nul\\x01\\x7f'"},
      {"nbsp\xc2\xa0shy\xc2\xad", "Model 'nbsp\\xa0shy\\xad'"},
      {"nel\xc2\x85 copy\xc2\xa9", "Model 'nel\\x85 copy\xc2\xa9'"},
      {"caf\xc3\xa9 \xe6\x97\xa5", "Model 'caf\xc3\xa9 \xe6\x97\xa5'"},
      {"", "Model ''"},
  };
  for (const auto& [name, shown] : names) {
    ModelConfig model = matryoshka_model(std::nullopt, 10);
    model.name = name;
    EXPECT_EQ(failure(embed_with_dimensions(11), model),
              std::string(shown) + " only supports dimensions in range [1, 10], got 11.")
        << name;
  }
}

// ---- whole-function properties -------------------------------------------

std::vector<ModelConfig> sample_models() {
  ModelConfig plain;
  ModelConfig pooler_defaults = matryoshka_model(Ids{256, 512});
  pooler_defaults.pooler.use_activation = false;
  pooler_defaults.pooler.dimensions = 512;
  return {plain, step_model(), matryoshka_model(), pooler_defaults};
}

std::vector<PoolingParams> sample_params() {
  std::vector<PoolingParams> out;
  for (const char* task : {"embed", "classify", "token_embed", "token_classify", "plugin",
                           "embed&token_classify", "other"}) {
    out.push_back(with_task(task));
    PoolingParams set = with_task(task);
    set.use_activation = false;
    set.skip_reading_prefix_cache = true;
    set.extra_kwargs = std::make_shared<Json>(Json{{"k", Json::array({1, {{"n", true}}})}});
    out.push_back(set);
    out.push_back(embed_with_dimensions(256, task));
    out.push_back(everything(task));
  }
  out.emplace_back();  // task null
  return out;
}

TEST(VerifyProperties, IsIdempotent) {
  int checked = 0;
  for (const ModelConfig& model : sample_models()) {
    for (const PoolingParams& params : sample_params()) {
      auto once = verify_params(params, model);
      if (!once.ok()) continue;
      auto twice = verify_params(*once, model);
      ASSERT_TRUE(twice.ok()) << twice.error().message;
      EXPECT_TRUE(deep_equal(*once, *twice)) << params_to_object(params).dump();
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);  // the sample must exercise success on every task
}

TEST(VerifyProperties, NeverModifiesTheInputAndSharesNothingWithIt) {
  for (const ModelConfig& model : sample_models()) {
    for (const PoolingParams& params : sample_params()) {
      const PoolingParams before = params.clone();
      auto out = verify_params(params, model);
      EXPECT_TRUE(deep_equal(params, before)) << params_to_object(params).dump();
      if (out.ok() && params.extra_kwargs) {
        EXPECT_NE(out->extra_kwargs.get(), params.extra_kwargs.get());
        EXPECT_EQ(*out->extra_kwargs, *params.extra_kwargs);
        (*out->extra_kwargs)["written"] = true;  // writing to the result...
        EXPECT_TRUE(deep_equal(params, before));    // ...leaves the input alone
      }
    }
  }
}

TEST(VerifyProperties, FieldsVerifyDoesNotOwnPassThrough) {
  ModelConfig model = matryoshka_model();
  model.pooler.pooling_type = "STEP";
  for (const char* task : kVerifiedTasks) {
    PoolingParams params = everything(task);
    params.dimensions = std::string(task).find("embed") != std::string::npos
                            ? std::optional<std::int64_t>(64) : std::nullopt;
    PoolingParams out = verified(params, model);
    EXPECT_EQ(out.task, task);
    EXPECT_TRUE(out.requires_token_ids);
    EXPECT_EQ(out.late_interaction_params, params.late_interaction_params);
    ASSERT_TRUE(out.extra_kwargs);
    EXPECT_EQ(*out.extra_kwargs, *params.extra_kwargs);
  }
}

TEST(VerifyProperties, AFullyDefaultedEmbedRequest) {
  // The whole outcome of one typical verify, field by field.
  ModelConfig model = matryoshka_model(Ids{256, 512});
  model.pooler.pooling_type = "STEP";
  model.pooler.step_tag_id = 4;
  model.pooler.use_activation = false;
  model.pooler.dimensions = 512;
  PoolingParams expected = with_task("token_embed");
  expected.use_activation = false;
  expected.dimensions = 512;
  expected.step_tag_id = 4;
  expected.skip_reading_prefix_cache = true;
  EXPECT_TRUE(deep_equal(verified(with_task("token_embed"), model), expected));
}

}  // namespace
}  // namespace poolcheck
