#include "core/post_tokenisation.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace poolcheck {
namespace {

constexpr std::int64_t kCls[] = {kClsTokenId};
constexpr std::int64_t kSep[] = {kSepTokenId};

void add_run(PairLayout& layout, std::span<const std::int64_t> ids, std::int64_t type) {
  if (ids.empty()) return;
  layout.runs.push_back({ids, type});
  layout.length += static_cast<std::int64_t>(ids.size());
}

// The side's first `words` word tokens, then the placeholders that stand after them.
void add_side(PairLayout& layout, const SideTokens& side, std::int64_t words, std::int64_t type) {
  const std::size_t end = words == 0 ? 0 : side.word_ends[static_cast<std::size_t>(words - 1)];
  add_run(layout, std::span(side.ids).first(end), type);
  for (std::size_t position : side.placeholder_positions)
    if (position >= end) add_run(layout, std::span(side.ids).subspan(position, 1), type);
}

std::string context_length_message(std::int64_t tokens, std::int64_t max_model_len) {
  const std::string m = std::to_string(max_model_len);
  return "You passed " + std::to_string(tokens) +
         " input tokens and requested 0 output tokens. However, the model's context length is "
         "only " + m + " tokens, resulting in a maximum input length of " + m +
         " tokens. Please reduce the length of the input prompt.";
}

}  // namespace

PairLayout layout_pair(const SideTokens& query, const SideTokens& document, WordBudget words,
                       TokenizerStyle style) {
  PairLayout layout;
  if (style == TokenizerStyle::Llm) {
    add_side(layout, query, words.query, 0);
    add_side(layout, document, words.document, 0);
    return layout;
  }
  layout.has_types = style == TokenizerStyle::Bert;
  add_run(layout, kCls, 0);
  add_side(layout, query, words.query, 0);
  add_run(layout, kSep, 0);
  add_side(layout, document, words.document, 1);
  add_run(layout, kSep, 1);
  return layout;
}

WordBudget longest_first(WordBudget words, std::int64_t fixed_tokens, std::int64_t target) {
  std::int64_t excess = fixed_tokens + words.query + words.document - target;
  if (excess <= 0) return words;
  // Removing from the longer side first evens the sides out...
  std::int64_t& longer = words.document >= words.query ? words.document : words.query;
  const std::int64_t evening = std::min(excess, std::abs(words.document - words.query));
  longer -= evening;
  excess -= evening;
  // ...then removals alternate, the document first on each tie.
  words.document = std::max<std::int64_t>(0, words.document - (excess + 1) / 2);
  words.query = std::max<std::int64_t>(0, words.query - excess / 2);
  return words;
}

Window slice_window(std::int64_t length, std::int64_t target, Side side) {
  if (length <= target) return {0, length};
  return side == Side::Left ? Window{length - target, length} : Window{0, target};
}

Result<PairPlan> plan_pair(const SideTokens& query, const SideTokens& document, WordBudget words,
                           const ModelConfig& model, const PostTokenisation& options) {
  // -1 means max_model_len. (Read the value only when there is one: GCC may
  // otherwise compare an empty optional's payload first, which valgrind flags.)
  std::optional<std::int64_t> target;
  if (const auto& t = options.truncate_prompt_tokens) target = *t == -1 ? model.max_model_len : *t;
  const TokenizerStyle style = model.style();

  if (target && !options.truncation_side) {
    const std::int64_t specials = style == TokenizerStyle::Llm ? 0 : 3;
    words = longest_first(words, specials + query.placeholders() + document.placeholders(), *target);
  }
  PairPlan plan{layout_pair(query, document, words, style), {}, 0};
  const std::int64_t length = plan.layout.length;
  if (target) {
    // Longest-first that could not get short enough falls back to the model's side.
    plan.window = slice_window(length, *target, options.truncation_side.value_or(model.tokenizer.truncation_side));
  } else if (length > model.max_model_len) {
    return Error::bad_request(context_length_message(length, model.max_model_len));
  } else {
    plan.window = {0, length};
  }
  const std::int64_t kept = plan.window.end - plan.window.begin;
  plan.final_length = options.pad_to_max_length ? std::max(kept, model.max_model_len) : kept;
  return plan;
}

PairTokens materialise(const PairPlan& plan, std::int64_t pad_token_id) {
  PairTokens out;
  const auto final_length = static_cast<std::size_t>(plan.final_length);
  out.ids.reserve(final_length);
  std::vector<std::int64_t> types;
  if (plan.layout.has_types) types.reserve(final_length);

  std::int64_t offset = 0;  // position of the current run's first id
  for (const TokenRun& run : plan.layout.runs) {
    const auto size = static_cast<std::int64_t>(run.ids.size());
    const std::int64_t from = std::max(plan.window.begin, offset);
    const std::int64_t to = std::min(plan.window.end, offset + size);
    if (from < to) {
      out.ids.insert(out.ids.end(), run.ids.begin() + (from - offset), run.ids.begin() + (to - offset));
      if (plan.layout.has_types) types.insert(types.end(), static_cast<std::size_t>(to - from), run.type);
    }
    offset += size;
  }
  const std::int64_t type_pad = types.empty() ? 0 : types.back();
  out.ids.resize(final_length, pad_token_id);
  if (plan.layout.has_types) {
    types.resize(final_length, type_pad);
    out.types = std::move(types);
  }
  return out;
}

}  // namespace poolcheck
