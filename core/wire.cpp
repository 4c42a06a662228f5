#include "core/wire.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include "core/fields.hpp"
#include "core/msgpack.hpp"

namespace poolcheck {
namespace {

constexpr std::size_t kWireFields = 10;
constexpr std::size_t kRequiresTokenIds = 5;
constexpr std::size_t kOutputKind = 9;

template <class T>
Json or_null(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

// LateInteractionParams is itself an array-like, omit-defaults struct.
Json late_interaction_to_wire(const std::optional<LateInteractionParams>& late) {
  if (!late) return nullptr;
  Json out = Json::array({late->mode, late->query_key});
  if (late->query_uses) out.push_back(*late->query_uses);
  return out;
}

// The value msgspec compares with to decide what it may leave off.
Json wire_default(std::size_t position) {
  if (position == kRequiresTokenIds) return false;
  if (position == kOutputKind) return kOutputKindFinalOnly;
  return nullptr;
}

std::string position_path(std::string_view parent, std::size_t i) {
  return std::string(parent) + "[" + std::to_string(i) + "]";
}

Error length_error(std::string_view path, std::string_view expected, std::size_t got) {
  return Error::bad_request(std::string(path) + ": Input should have " + std::string(expected) +
                                " items, got " + std::to_string(got),
                            std::string(path));
}

template <class T>
using Reader = Result<T> (*)(const Json&, std::string_view);

// An optional element: absent (past the end) or null gives nullopt.
template <class T>
Result<std::optional<T>> nullable(const Json* value, Reader<T> read, std::string_view path) {
  if (value == nullptr || value->is_null()) return std::optional<T>();
  auto out = read(*value, path);
  if (!out) return out.error();
  return std::optional<T>(std::move(*out));
}

// Stores a read value in `field`, or passes its error on.
template <class T, class Field>
MaybeError assign(Result<T> result, Field& field) {
  if (!result) return result.error();
  field = std::move(*result);
  return std::nullopt;
}

Result<Json> read_object(const Json& value, std::string_view path) {
  if (value.is_object()) return value;
  return type_error(path, "object");
}

Result<std::string> read_task(const Json& value, std::string_view path) {
  auto task = read_string(value, path);
  if (!task) return task;
  if (auto e = check_task_name(*task, path)) return *e;
  return task;
}

Result<LateInteractionParams> read_late_interaction(const Json& value, std::string_view path) {
  if (!value.is_array()) return type_error(path, "list");
  if (value.size() < 2 || value.size() > 3) return length_error(path, "2 or 3", value.size());
  LateInteractionParams out;
  auto mode = read_literal(value[0], position_path(path, 0), {"cache_query", "score_doc"});
  if (!mode) return mode.error();
  out.mode = std::move(*mode);
  auto key = read_string(value[1], position_path(path, 1));
  if (!key) return key.error();
  out.query_key = std::move(*key);
  const Json* uses = value.size() == 3 ? &value[2] : nullptr;
  if (auto e =
          assign(nullable<std::int64_t>(uses, read_int, position_path(path, 2)), out.query_uses))
    return *e;
  return out;
}

// One wire position: reads element `value` (nullptr when the array is
// shorter) into `params`. `path` is the position's `$[i]`.
using Step = MaybeError (*)(const Json* value, std::string_view path, PoolingParams& params);

constexpr std::array<Step, kWireFields> kSteps = {
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<bool>(v, read_bool, path), p.use_activation);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<std::int64_t>(v, read_int, path), p.dimensions);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<std::int64_t>(v, read_int, path), p.step_tag_id);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<std::vector<std::int64_t>>(v, read_int_list, path),
                    p.returned_token_ids);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<std::string>(v, read_task, path), p.task);
    },
    // Not optional: null is a type error.
    [](const Json* v, std::string_view path, PoolingParams& p) -> MaybeError {
      if (v == nullptr) return std::nullopt;
      return assign(read_bool(*v, path), p.requires_token_ids);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<bool>(v, read_bool, path), p.skip_reading_prefix_cache);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) {
      return assign(nullable<LateInteractionParams>(v, read_late_interaction, path),
                    p.late_interaction_params);
    },
    [](const Json* v, std::string_view path, PoolingParams& p) -> MaybeError {
      auto extra = nullable<Json>(v, read_object, path);
      if (!extra) return extra.error();
      if (*extra) p.extra_kwargs = std::make_shared<Json>(std::move(**extra));
      return std::nullopt;
    },
    // Only FINAL_ONLY (2) may be held. A non-integer is a type error, as msgspec
    // reports it for an int enum; another integer gets vLLM's output_kind message.
    [](const Json* v, std::string_view path, PoolingParams&) -> MaybeError {
      if (v == nullptr) return std::nullopt;
      auto kind = read_int(*v, path);
      if (!kind) return kind.error();
      if (*kind == kOutputKindFinalOnly) return std::nullopt;
      return Error::bad_request(output_kind_message(*v), std::string(path));
    },
};

}  // namespace

Json encode_wire(const PoolingParams& p) {
  Json out = Json::array({
      or_null(p.use_activation),
      or_null(p.dimensions),
      or_null(p.step_tag_id),
      or_null(p.returned_token_ids),
      or_null(p.task),
      p.requires_token_ids,
      or_null(p.skip_reading_prefix_cache),
      late_interaction_to_wire(p.late_interaction_params),
      p.extra_kwargs ? *p.extra_kwargs : Json(nullptr),
      kOutputKindFinalOnly,
  });
  // omit_defaults on an array-like struct: only the trailing run can go.
  while (!out.empty() && out.back() == wire_default(out.size() - 1)) out.erase(out.size() - 1);
  return out;
}

Result<PoolingParams> decode_wire(const Json& array) {
  if (!array.is_array()) return type_error("$", "list");
  if (array.size() > kWireFields) return length_error("$", "at most 10", array.size());
  PoolingParams params;
  for (std::size_t i = 0; i < kWireFields; ++i) {
    const Json* value = i < array.size() ? &array[i] : nullptr;
    if (auto e = kSteps[i](value, position_path("$", i), params)) return *e;
  }
  return params;
}

Result<std::string> encode_wire_msgpack(const PoolingParams& params) {
  return to_msgpack(encode_wire(params));
}

Result<PoolingParams> decode_wire_msgpack(std::string_view bytes) {
  auto array = from_msgpack(bytes);
  if (!array) return array.error();
  return decode_wire(*array);
}

}  // namespace poolcheck
