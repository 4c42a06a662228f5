#include "core/model.hpp"

#include <utility>

#include "core/fields.hpp"

namespace poolcheck {

namespace {

// Word ids are `1000 + h % (vocab_size - 1000)` (spec 5): at least one word id.
constexpr std::int64_t kMinVocabSize = 1001;
// Token types are packed into bit 30 of the ids (spec 3): ids must stay below it.
constexpr std::int64_t kMaxVocabSize = std::int64_t{1} << 30;

// A field that has a default: absence keeps it.
template <class T>
MaybeError store(Result<std::optional<T>> read, T& field) {
  if (!read) return read.error();
  if (*read) field = std::move(**read);
  return std::nullopt;
}

// A nullable field (default None): absence and `null` both leave it unset.
template <class T>
MaybeError store(Result<std::optional<T>> read, std::optional<T>& field) {
  if (!read) return read.error();
  field = std::move(*read);
  return std::nullopt;
}

MaybeError read_tokenizer(const Json& object, const std::string& prefix, TokenizerConfig& out) {
  Fields fields(object, prefix);
  if (auto e = store(fields.boolean("returns_token_type_ids", Null::IsError), out.returns_token_type_ids))
    return e;
  if (auto e = store(fields.boolean("use_sep_token", Null::IsError), out.use_sep_token)) return e;
  auto side = fields.literal("truncation_side", Null::IsError, {"left", "right"});
  if (!side) return side.error();
  if (*side) out.truncation_side = **side == "left" ? Side::Left : Side::Right;
  return store(fields.integer("pad_token_id", Null::IsError), out.pad_token_id);
}

MaybeError read_pooler(const Json& object, const std::string& prefix, PoolerConfig& out) {
  Fields fields(object, prefix);
  // Any string: verify only ever compares it with "STEP" (see docs/decisions-verify-model.md).
  if (auto e = store(fields.string("pooling_type", Null::IsError), out.pooling_type)) return e;
  if (auto e = store(fields.boolean("use_activation", Null::IsAbsent), out.use_activation)) return e;
  if (auto e = store(fields.integer("dimensions", Null::IsAbsent), out.dimensions)) return e;
  if (auto e = store(fields.integer("step_tag_id", Null::IsAbsent), out.step_tag_id)) return e;
  return store(fields.int_list("returned_token_ids", Null::IsAbsent), out.returned_token_ids);
}

// A nested config object; `null` means its defaults, like `null` for the model itself.
template <class Config, class Read>
MaybeError read_nested(const Fields& model, std::string_view key, Config& out, Read read) {
  auto object = model.object(key, Null::IsAbsent);
  if (!object) return object.error();
  if (!*object) return std::nullopt;
  return read(**object, model.path(key) + ".", out);
}

MaybeError read_size_fields(const Fields& fields, ModelConfig& model) {
  if (auto e = store(fields.integer("max_model_len", Null::IsError), model.max_model_len)) return e;
  if (model.max_model_len < 1) return lower_bound_error(fields.path("max_model_len"), 1);
  if (auto e = store(fields.integer("vocab_size", Null::IsError), model.vocab_size)) return e;
  if (model.vocab_size < kMinVocabSize) return lower_bound_error(fields.path("vocab_size"), kMinVocabSize);
  if (model.vocab_size > kMaxVocabSize) return upper_bound_error(fields.path("vocab_size"), kMaxVocabSize);
  return std::nullopt;
}

// Keys are read in the order of spec section 4, so the first failure there wins.
MaybeError read_model(const Fields& fields, ModelConfig& model) {
  if (auto e = store(fields.string("name", Null::IsError), model.name)) return e;
  if (auto e = store(fields.string("architecture", Null::IsError), model.architecture)) return e;
  if (auto e = read_size_fields(fields, model)) return e;
  if (auto e = store(fields.boolean("is_multimodal", Null::IsError), model.is_multimodal)) return e;
  if (auto e = read_nested(fields, "tokenizer", model.tokenizer, read_tokenizer)) return e;
  if (auto e = read_nested(fields, "pooler", model.pooler, read_pooler)) return e;
  if (auto e = store(fields.boolean("is_matryoshka", Null::IsError), model.is_matryoshka)) return e;
  if (auto e = store(fields.int_list("matryoshka_dimensions", Null::IsAbsent), model.matryoshka_dimensions))
    return e;
  return store(fields.integer("embedding_size", Null::IsError), model.embedding_size);
}

}  // namespace

TokenizerStyle ModelConfig::style() const {
  if (!tokenizer.use_sep_token) return TokenizerStyle::Llm;
  return tokenizer.returns_token_type_ids ? TokenizerStyle::Bert : TokenizerStyle::XlmR;
}

Result<ModelConfig> model_from_json(const Json* object) {
  ModelConfig model;
  if (object == nullptr || object->is_null()) return model;
  if (!object->is_object()) return type_error("model", "object");
  if (auto e = read_model(Fields(*object, "model."), model)) return *e;
  return model;
}

}  // namespace poolcheck
