#pragma once
// Post-tokenisation (spec section 7, step 3): truncation, then padding,
// applied identically to the ids and the token types.
//
// A pair is first described as runs over its sides' ids, and truncation picks
// the window to keep before anything is copied: the work per pair is bounded
// by what it outputs, not by the length of a query shared by every pair.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "core/model.hpp"
#include "core/tokenizer.hpp"

namespace poolcheck {

// Word tokens kept on each side.
struct WordBudget {
  std::int64_t query = 0;
  std::int64_t document = 0;
  bool operator==(const WordBudget&) const = default;
};

struct TokenRun {
  std::span<const std::int64_t> ids;
  std::int64_t type = 0;
};

struct PairLayout {
  std::vector<TokenRun> runs;
  std::int64_t length = 0;
  bool has_types = false;  // BERT-like only
};

// [CLS] q [SEP] d [SEP] (types 0 through the first SEP, then 1), or plain
// `q d` for LLM rerankers; each side keeps its first `words` word tokens and
// every image placeholder.
PairLayout layout_pair(const SideTokens& query, const SideTokens& document, WordBudget words,
                       TokenizerStyle style);

// Longest-first: the words left after removing one word at a time from the
// end of the longer side (the document on a tie) until
// `fixed_tokens + query + document <= target`, or no words are left.
WordBudget longest_first(WordBudget words, std::int64_t fixed_tokens, std::int64_t target);

// The positions [begin, end) kept by slicing a sequence of `length` to `target`:
// `left` keeps the last target, `right` the first.
struct Window {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};
Window slice_window(std::int64_t length, std::int64_t target, Side side);

struct PostTokenisation {
  std::optional<std::int64_t> truncate_prompt_tokens;  // -1 means max_model_len
  std::optional<Side> truncation_side;                 // from the request
  bool pad_to_max_length = false;
};

struct PairPlan {
  PairLayout layout;
  Window window;
  std::int64_t final_length = 0;  // after padding
};

// Decides what the pair's prompt will be, or the context-length error when
// there is no truncation target and the pair is longer than max_model_len.
Result<PairPlan> plan_pair(const SideTokens& query, const SideTokens& document, WordBudget words,
                           const ModelConfig& model, const PostTokenisation& options);

struct PairTokens {
  std::vector<std::int64_t> ids;
  std::optional<std::vector<std::int64_t>> types;  // aligned with ids, BERT-like only
};

// Copies the planned window, then pads ids with pad_token_id and types with
// their last value (0 when empty).
PairTokens materialise(const PairPlan& plan, std::int64_t pad_token_id);

}  // namespace poolcheck
