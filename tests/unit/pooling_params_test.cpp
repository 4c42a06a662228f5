// PoolingParams in object form (spec 2, 10.1, 10.10): the type of every
// field, late_interaction_params' own fields, and deep_equal, which the
// nothing-mutated law rests on.
#include "core/pooling_params.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/unit/sample_params.hpp"

namespace poolcheck {
namespace {

void expect_rejected(const std::string& object, const std::string& message, const std::string& param) {
  SCOPED_TRACE(object);
  auto result = params_from_object(Json::parse(object), "pooling_params");
  ASSERT_FALSE(result.ok()) << "accepted";
  EXPECT_EQ(result.error().message, message);
  EXPECT_EQ(result.error().param, param);
  EXPECT_EQ(result.error().code, 400);
  EXPECT_EQ(result.error().type, "BadRequestError");
}

TEST(ParamsObject, EachFieldIsTypeChecked) {
  expect_rejected(R"({"step_tag_id":"1"})", "pooling_params.step_tag_id: Input should be a valid integer",
                  "pooling_params.step_tag_id");
  expect_rejected(R"({"step_tag_id":1.0})", "pooling_params.step_tag_id: Input should be a valid integer",
                  "pooling_params.step_tag_id");
  expect_rejected(R"({"skip_reading_prefix_cache":1})",
                  "pooling_params.skip_reading_prefix_cache: Input should be a valid boolean",
                  "pooling_params.skip_reading_prefix_cache");
  // Object form names the kind; the wire's integer 2 is not accepted here (spec 10.10).
  expect_rejected(R"({"output_kind":2})", "pooling_params.output_kind: Input should be a valid string",
                  "pooling_params.output_kind");
}

TEST(ParamsObject, LateInteractionParamsFieldsAreChecked) {
  const std::string path = "pooling_params.late_interaction_params.";
  expect_rejected(R"({"late_interaction_params":{}})", path + "mode: Field required", path + "mode");
  expect_rejected(R"({"late_interaction_params":{"query_key":"k"}})", path + "mode: Field required", path + "mode");
  expect_rejected(R"({"late_interaction_params":{"mode":"other","query_key":"k"}})",
                  path + "mode: Input should be 'cache_query' or 'score_doc'", path + "mode");
  expect_rejected(R"({"late_interaction_params":{"mode":null,"query_key":"k"}})",
                  path + "mode: Input should be 'cache_query' or 'score_doc'", path + "mode");
  expect_rejected(R"({"late_interaction_params":{"mode":"cache_query"}})", path + "query_key: Field required",
                  path + "query_key");
  expect_rejected(R"({"late_interaction_params":{"mode":"cache_query","query_key":null}})",
                  path + "query_key: Input should be a valid string", path + "query_key");
  expect_rejected(R"({"late_interaction_params":{"mode":"cache_query","query_key":1}})",
                  path + "query_key: Input should be a valid string", path + "query_key");
  expect_rejected(R"({"late_interaction_params":{"mode":"score_doc","query_key":"k","query_uses":"1"}})",
                  path + "query_uses: Input should be a valid integer", path + "query_uses");
  expect_rejected(R"({"late_interaction_params":[]})",
                  "pooling_params.late_interaction_params: Input should be a valid object",
                  "pooling_params.late_interaction_params");
}

TEST(ParamsObject, LateInteractionParamsQueryUsesMayBeNullOrAbsent) {
  for (const char* object : {R"({"late_interaction_params":{"mode":"score_doc","query_key":"k","query_uses":null}})",
                             R"({"late_interaction_params":{"mode":"score_doc","query_key":"k"}})"}) {
    auto result = params_from_object(Json::parse(object), "pooling_params");
    ASSERT_TRUE(result.ok()) << object << ": " << result.error().message;
    EXPECT_EQ(result->late_interaction_params, (LateInteractionParams{"score_doc", "k", std::nullopt})) << object;
  }
}

using samples::everything_set;

TEST(ParamsDeepEqual, ComparesExtraKwargsByValue) {
  const PoolingParams a = everything_set();
  const PoolingParams b = a.clone();
  ASSERT_NE(a.extra_kwargs, b.extra_kwargs);
  EXPECT_TRUE(deep_equal(a, b));
  PoolingParams no_extras = a.clone();
  no_extras.extra_kwargs = nullptr;
  EXPECT_FALSE(deep_equal(a, no_extras));
  EXPECT_FALSE(deep_equal(no_extras, a));
  PoolingParams none_either = no_extras.clone();
  EXPECT_TRUE(deep_equal(no_extras, none_either));
  PoolingParams empty_extras = no_extras.clone();
  empty_extras.extra_kwargs = std::make_shared<Json>(Json::object());
  EXPECT_FALSE(deep_equal(no_extras, empty_extras));  // {} is not None
}

TEST(ParamsDeepEqual, EveryFieldCounts) {
  const std::vector<std::pair<const char*, std::function<void(PoolingParams&)>>> changes = {
      {"use_activation", [](PoolingParams& p) { p.use_activation = true; }},
      {"use_activation unset", [](PoolingParams& p) { p.use_activation.reset(); }},
      {"dimensions", [](PoolingParams& p) { p.dimensions = 255; }},
      {"step_tag_id", [](PoolingParams& p) { p.step_tag_id = 7; }},
      {"returned_token_ids", [](PoolingParams& p) { p.returned_token_ids->push_back(4); }},
      {"task", [](PoolingParams& p) { p.task = "token_classify"; }},
      {"requires_token_ids", [](PoolingParams& p) { p.requires_token_ids = false; }},
      {"skip_reading_prefix_cache", [](PoolingParams& p) { p.skip_reading_prefix_cache = false; }},
      {"late_interaction_params.mode", [](PoolingParams& p) { p.late_interaction_params->mode = "score_doc"; }},
      {"late_interaction_params.query_uses", [](PoolingParams& p) { p.late_interaction_params->query_uses.reset(); }},
      {"extra_kwargs nested value", [](PoolingParams& p) { (*p.extra_kwargs)["b"][1]["c"] = 0; }},
  };
  const PoolingParams base = everything_set();
  for (const auto& [what, change] : changes) {
    PoolingParams changed = base.clone();
    change(changed);
    EXPECT_FALSE(deep_equal(base, changed)) << what;
    EXPECT_FALSE(deep_equal(changed, base)) << what;
  }
}

}  // namespace
}  // namespace poolcheck
