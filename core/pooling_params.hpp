#pragma once
// PoolingParams (spec section 2) and its human JSON "object form".
//
// `extra_kwargs` is held by shared pointer on purpose: vLLM's params are Python
// objects, and the bugs this harness exists for (a shallow copy whose dict is
// then written to, the caller's object modified) are about aliasing. A plain
// struct copy here aliases `extra_kwargs` the way Python assignment does;
// `clone()` is the deep copy (`copy.deepcopy`). Every other field is a value.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck {

inline constexpr std::string_view kCompressedTokenTypeIds = "compressed_token_type_ids";
inline constexpr std::int64_t kOutputKindFinalOnly = 2;  // RequestOutputKind.FINAL_ONLY on the wire

struct LateInteractionParams {
  std::string mode;  // "cache_query" or "score_doc"
  std::string query_key;
  std::optional<std::int64_t> query_uses;
  bool operator==(const LateInteractionParams&) const = default;
};

struct PoolingParams {
  std::optional<bool> use_activation;
  std::optional<std::int64_t> dimensions;
  std::optional<std::int64_t> step_tag_id;
  std::optional<std::vector<std::int64_t>> returned_token_ids;
  std::optional<std::string> task;
  bool requires_token_ids = false;
  std::optional<bool> skip_reading_prefix_cache;
  std::optional<LateInteractionParams> late_interaction_params;
  std::shared_ptr<Json> extra_kwargs;  // a JSON object, or null for None
  // output_kind is not stored: FINAL_ONLY is the only value a PoolingParams may hold.

  // A deep copy: nothing, nested extra_kwargs values included, is shared.
  PoolingParams clone() const;
};

// Field-by-field equality, comparing extra_kwargs by value (not by address).
bool deep_equal(const PoolingParams& a, const PoolingParams& b);

// `score` and `encode` are rejected at construction; `param` names the field.
MaybeError check_task_name(const std::string& task, std::string_view param);

// Object form: all ten keys, in wire order, output_kind as "FINAL_ONLY".
Json params_to_object(const PoolingParams& params);

// Reads the object form. Unknown keys are ignored; `path` prefixes field names
// in messages and `param` ("pooling_params" gives "pooling_params.task").
Result<PoolingParams> params_from_object(const Json& object, std::string_view path);

// The message for an output_kind other than FINAL_ONLY. vLLM prints the enum
// member's repr (`<RequestOutputKind.DELTA: 1>`) for a name or wire value of
// RequestOutputKind; any other value is shown as JSON.
std::string output_kind_message(const Json& kind);

}  // namespace poolcheck
