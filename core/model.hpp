#pragma once
// The served model (spec section 4): what the front end knows about it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck {

enum class Side { Left, Right };

// BERT-like pairs carry token types (the compression path); XLM-R-like pairs
// have separators but no types; LLM rerankers concatenate plainly.
enum class TokenizerStyle { Bert, XlmR, Llm };

struct TokenizerConfig {
  bool returns_token_type_ids = true;
  bool use_sep_token = true;
  Side truncation_side = Side::Right;
  std::int64_t pad_token_id = 0;
};

struct PoolerConfig {
  std::string pooling_type = "CLS";
  std::optional<bool> use_activation;
  std::optional<std::int64_t> dimensions;
  std::optional<std::int64_t> step_tag_id;
  std::optional<std::vector<std::int64_t>> returned_token_ids;
};

struct ModelConfig {
  std::string name = "cross-encoder/ms-marco-MiniLM-L-6-v2";
  std::string architecture = "BertForSequenceClassification";
  std::int64_t max_model_len = 512;
  std::int64_t vocab_size = 30522;
  bool is_multimodal = false;
  TokenizerConfig tokenizer;
  PoolerConfig pooler;
  bool is_matryoshka = false;
  std::optional<std::vector<std::int64_t>> matryoshka_dimensions;
  std::int64_t embedding_size = 384;

  // Without a sep token there are never token types (spec section 5).
  TokenizerStyle style() const;
};

// Reads a model object; `nullptr` or JSON null give the defaults. Unknown keys
// are ignored; max_model_len >= 1 and vocab_size in [1001, 2^30] (spec 10.7).
// Field errors are reported as `model.<field>`.
Result<ModelConfig> model_from_json(const Json* object);

}  // namespace poolcheck
