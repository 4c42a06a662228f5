#pragma once
// PoolingParams samples shared by the unit tests.
#include <cstdint>
#include <memory>
#include <vector>

#include "core/pooling_params.hpp"

namespace poolcheck::samples {

// Every field set to a value other than its default.
inline PoolingParams everything_set() {
  PoolingParams p;
  p.use_activation = false;
  p.dimensions = 256;
  p.step_tag_id = -7;
  p.returned_token_ids = std::vector<std::int64_t>{1, 2, 3};
  p.task = "token_embed";
  p.requires_token_ids = true;
  p.skip_reading_prefix_cache = true;
  p.late_interaction_params = LateInteractionParams{"cache_query", "q-1", 4};
  p.extra_kwargs = std::make_shared<Json>(Json::parse(R"({"b":[1,{"c":null}],"a":"x"})"));
  return p;
}

}  // namespace poolcheck::samples
