#include "core/preprocess.hpp"

#include <limits>

#include "core/fields.hpp"
#include "core/pairing.hpp"
#include "core/post_tokenisation.hpp"
#include "core/python_repr.hpp"
#include "core/token_types.hpp"
#include "core/tokenizer.hpp"

namespace poolcheck {
namespace {

MaybeError check_model_name(const ModelConfig& model, const ScoringRequest& request) {
  if (request.model && *request.model != model.name)
    return Error::not_found("The model `" + *request.model + "` does not exist.", "model");
  return std::nullopt;
}

MaybeError check_truncation_target(const ModelConfig& model, const ScoringRequest& request) {
  if (request.truncate_prompt_tokens && *request.truncate_prompt_tokens > model.max_model_len)
    return Error::bad_request(
        "truncate_prompt_tokens value is greater than max_model_len. Please request a smaller "
        "truncation size.",
        "truncate_prompt_tokens");
  return std::nullopt;
}

// Online: a fresh classify params. Offline: a deep clone of the caller's, whose
// task may only be unset or already classify.
Result<PoolingParams> base_params(const ScoringRequest& request) {
  if (!request.caller_params) {
    PoolingParams base;
    base.task = "classify";
    base.use_activation = request.use_activation;
    return base;
  }
  const auto& old_task = request.caller_params->task;
  if (old_task && *old_task != "classify")
    return Error::bad_request("You cannot overwrite self.task=" + python_repr(*old_task) +
                              " with task='classify'!");
  PoolingParams base = request.caller_params->clone();
  base.task = "classify";
  return base;
}

// A non-zero limit must be below max_model_len. `param` is where the value came from.
MaybeError check_token_limit(std::string_view name, const Integer& value, const ModelConfig& model,
                             const std::string& param) {
  if (value < 0) return Error::bad_request(std::string(name) + " must be a non-negative integer", param);
  if (value != 0 && value >= model.max_model_len)
    return Error::bad_request(std::string(name) + " (" + value.to_string() +
                                  ") must be less than max_model_len (" +
                                  std::to_string(model.max_model_len) + ").",
                              param);
  return std::nullopt;
}

const Json* caller_extra(const ScoringRequest& request, std::string_view key) {
  if (!request.caller_params || !request.caller_params->extra_kwargs) return nullptr;
  const Json& extras = *request.caller_params->extra_kwargs;
  auto it = extras.find(key);
  return (it == extras.end() || it->is_null()) ? nullptr : &*it;
}

struct TokenLimits {
  std::int64_t query = 0;
  std::int64_t document = 0;
};

// Online the limits are request fields; offline they travel in the caller's
// extra_kwargs, where null means 0 (spec 10.9).
Result<TokenLimits> token_limits(const ModelConfig& model, const ScoringRequest& request) {
  const Integer* given[] = {&request.max_tokens_per_query, &request.max_tokens_per_doc};
  std::int64_t limits[2] = {0, 0};
  const std::string_view names[] = {"max_tokens_per_query", "max_tokens_per_doc"};
  const bool offline = request.endpoint == Endpoint::LlmScore;
  for (int i = 0; i < 2; ++i) {
    const std::string param = (offline ? "pooling_params.extra_kwargs." : "") + std::string(names[i]);
    Integer value = *given[i];
    if (offline) {
      if (const Json* extra = caller_extra(request, names[i])) {
        auto n = read_exact_int(*extra, param);  // extra_kwargs is a plain dict: never coerced
        if (!n) return n.error();
        value = *n;
      }
    }
    if (auto e = check_token_limit(names[i], value, model, param)) return *e;
    limits[i] = *value.to_int64();  // now in [0, max_model_len)
  }
  return TokenLimits{limits[0], limits[1]};
}

PromptExtras prompt_extras(const ScoringRequest& request) {
  if (request.endpoint != Endpoint::LlmScore) return request.extras;
  PromptExtras extras;
  if (const Json* salt = caller_extra(request, "cache_salt")) extras.cache_salt = *salt;
  if (const Json* kwargs = caller_extra(request, "mm_processor_kwargs")) extras.mm_processor_kwargs = *kwargs;
  return extras;
}

std::string request_id_base(const ScoringRequest& request) {
  switch (request.endpoint) {
    case Endpoint::Rerank: return "rerank-" + request.request_id;
    case Endpoint::Score: return "score-" + request.request_id;
    case Endpoint::LlmScore: return "score-0";
  }
  return {};
}

// In [-1, max_model_len] once check_truncation_target passed, so it fits 64 bits.
std::optional<std::int64_t> truncation_target(const ScoringRequest& request) {
  if (!request.truncate_prompt_tokens) return std::nullopt;
  return request.truncate_prompt_tokens->to_int64();
}

std::int64_t keep_words(std::int64_t words, std::int64_t limit) {
  return limit > 0 ? std::min(words, limit) : words;
}

// Step 4: a clone of the base whose extra_kwargs keeps every key and gains the
// computed boundary, which wins over a user-supplied one. Assigning an existing
// key keeps its place, as Python's `{**old, "compressed_token_type_ids": k}` does.
Result<PoolingParams> params_with_token_types(const PoolingParams& base,
                                              const std::vector<std::int64_t>& types) {
  auto k = compress_token_types(types);
  if (!k) return k.error();
  PoolingParams params = base.clone();
  if (!params.extra_kwargs) params.extra_kwargs = std::make_shared<Json>(Json::object());
  (*params.extra_kwargs)[std::string(kCompressedTokenTypeIds)] = *k;
  return params;
}

// A request with every pair planned (steps 1 to 3 of spec 7), before any
// token is built. The plans point into the planner's tokens.
struct RequestPlan {
  std::vector<PairIndex> pairs;
  PoolingParams base;
  std::vector<PairPlan> plans;  // one per pair, in order
};

// Plans a request, then builds each pair's engine request from its plan.
// Every check comes first, in pair order, so the verdict is known before the
// tokens are built: a padded request of 2^24 tokens plans in microseconds and
// builds in seconds (plan_prompt_lengths). Building cannot fail on a plan: a
// window of [CLS] q [SEP] d [SEP] keeps its types 0s then 1s, and padding
// repeats the last type, so they always compress.
class RequestPlanner {
 public:
  RequestPlanner(const ModelConfig& model, const ScoringRequest& request)
      : model_(model), request_(request),
        query_tokens_(request.queries.size()), document_tokens_(request.documents.size()) {}

  // The model-dependent checks of spec 10.2, then each pair's plan; the first
  // error wins.
  Result<RequestPlan> plan() {
    if (request_.endpoint != Endpoint::LlmScore) {
      if (auto e = check_model_name(model_, request_)) return *e;
    }
    if (auto e = check_truncation_target(model_, request_)) return *e;
    auto pairs = make_pairs(request_.queries, request_.documents, model_);
    if (!pairs) return pairs.error();
    auto base = base_params(request_);
    if (!base) return base.error();
    auto limits = token_limits(model_, request_);
    if (!limits) return limits.error();
    RequestPlan plan{std::move(*pairs), std::move(*base), {}};
    plan.plans.reserve(plan.pairs.size());
    std::int64_t total_tokens = 0;
    for (const PairIndex& pair : plan.pairs) {
      auto planned = plan_one(pair, *limits);
      if (!planned) return planned.error();
      if (planned->final_length > kMaxTotalTokens - total_tokens)
        return Error::bad_request("The request would produce more than " +
                                  std::to_string(kMaxTotalTokens) + " prompt tokens in total.");
      total_tokens += planned->final_length;
      plan.plans.push_back(std::move(*planned));
    }
    return plan;
  }

  Result<PairOutput> build(const RequestPlan& plan, std::size_t index, const PromptExtras& extras,
                           const std::string& id_base) {
    const SideTokens& query = tokens(query_tokens_, request_.queries, plan.pairs[index].query);
    const SideTokens& document = tokens(document_tokens_, request_.documents, plan.pairs[index].document);
    PairTokens tokens = materialise(plan.plans[index], model_.tokenizer.pad_token_id);
    PairOutput out{id_base + "-" + std::to_string(index), {}, plan.base, std::move(tokens.types)};
    if (out.token_type_ids && !out.token_type_ids->empty()) {
      auto params = params_with_token_types(plan.base, *out.token_type_ids);
      if (!params) return params.error();
      out.pooling_params = std::move(*params);
    }
    out.prompt.prompt_token_ids = std::move(tokens.ids);
    out.prompt.image_urls = query.image_urls;
    out.prompt.image_urls.insert(out.prompt.image_urls.end(), document.image_urls.begin(),
                                 document.image_urls.end());
    out.prompt.extras = extras;
    return out;
  }

 private:
  Result<PairPlan> plan_one(const PairIndex& pair, TokenLimits limits) {
    const SideTokens& query = tokens(query_tokens_, request_.queries, pair.query);
    const SideTokens& document = tokens(document_tokens_, request_.documents, pair.document);
    if (query.placeholders() + document.placeholders() > 1)
      return Error::bad_request("Only one multi-modal item is supported");
    const WordBudget words{keep_words(query.words(), limits.query),
                           keep_words(document.words(), limits.document)};
    const PostTokenisation options{truncation_target(request_), request_.truncation_side,
                                   request_.pad_to_max_length};
    return plan_pair(query, document, words, model_, options);
  }

  // Each input is tokenised once, however many pairs share it.
  const SideTokens& tokens(std::vector<std::optional<SideTokens>>& cache,
                           const std::vector<ScoreInput>& inputs, std::size_t i) {
    if (!cache[i]) cache[i] = tokenize_input(inputs[i], model_.vocab_size);
    return *cache[i];
  }

  const ModelConfig& model_;
  const ScoringRequest& request_;
  std::vector<std::optional<SideTokens>> query_tokens_;
  std::vector<std::optional<SideTokens>> document_tokens_;
};

}  // namespace

Result<PreprocessOutput> preprocess(const ModelConfig& model, const ScoringRequest& request) {
  RequestPlanner planner(model, request);
  auto plan = planner.plan();
  if (!plan) return plan.error();
  const PromptExtras extras = prompt_extras(request);
  const std::string id_base = request_id_base(request);
  PreprocessOutput result;
  result.outputs.reserve(plan->pairs.size());
  for (std::size_t i = 0; i < plan->pairs.size(); ++i) {
    auto pair = planner.build(*plan, i, extras, id_base);
    if (!pair) return pair.error();
    result.outputs.push_back(std::move(*pair));
  }
  result.base_params = std::move(plan->base);
  return result;
}

Result<std::vector<std::int64_t>> plan_prompt_lengths(const ModelConfig& model, const ScoringRequest& request) {
  RequestPlanner planner(model, request);
  auto plan = planner.plan();
  if (!plan) return plan.error();
  std::vector<std::int64_t> lengths;
  lengths.reserve(plan->plans.size());
  for (const PairPlan& pair : plan->plans) lengths.push_back(pair.final_length);
  return lengths;
}

}  // namespace poolcheck
