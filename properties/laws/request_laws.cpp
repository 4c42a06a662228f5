#include "properties/laws/request_laws.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <string_view>
#include <unordered_map>

#include "core/json_equality.hpp"
#include "core/output_json.hpp"
#include "core/token_types.hpp"
#include "core/tokenizer.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/online_body.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/laws/rendered_laws.hpp"
#include "properties/laws/word_laws.hpp"

namespace poolcheck::laws {
namespace {

const ScoringRequest& request_of(const RequestRun& run) { return run.envelope.request; }

bool offline(const RequestRun& run) { return request_of(run).endpoint == Endpoint::LlmScore; }

std::string pair_name(std::size_t i) { return "pair " + std::to_string(i); }

std::string show(const Json* value) { return value ? dump_json(*value) : "null"; }

// Whether `printed` is the list `ids`, without building a Json of the ids (a
// padded prompt holds max_model_len of them).
bool printed_as(const Json& printed, const std::vector<std::int64_t>& ids) {
  if (!printed.is_array() || printed.size() != ids.size()) return false;
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (!printed[i].is_number_integer() || printed[i].get<std::int64_t>() != ids[i]) return false;
  return true;
}

// `object[key]` when `object` is an object that has it (const operator[] asserts otherwise).
const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string show(const std::vector<std::int64_t>& ids) { return dump_json(Json(ids)); }

std::string lengths(std::size_t len1, std::size_t len2) {
  return std::to_string(len1) + " queries and " + std::to_string(len2) + " documents";
}

// The extra_kwargs the pairs start from: the caller's (offline) or none.
const Json* base_extras(const RequestRun& run) {
  if (!offline(run) || !run.caller_before || !run.caller_before->extra_kwargs) return nullptr;
  return run.caller_before->extra_kwargs.get();
}

bool has_types(const PairOutput& pair) { return pair.token_type_ids && !pair.token_type_ids->empty(); }

// The base the spec builds (section 7 step 1), derived from the input.
PoolingParams expected_base(const RequestRun& run) {
  PoolingParams base = (offline(run) && run.caller_before) ? run.caller_before->clone() : PoolingParams{};
  base.task = "classify";
  if (!offline(run)) base.use_activation = request_of(run).use_activation;
  return base;
}

std::optional<Json> caller_extra(const RequestRun& run, std::string_view key) {
  const Json* extras = base_extras(run);
  if (extras == nullptr) return std::nullopt;
  auto it = extras->find(key);
  if (it == extras->end() || it->is_null()) return std::nullopt;
  return *it;
}

std::int64_t target_length(const RequestRun& run) {
  const auto& t = request_of(run).truncate_prompt_tokens;
  const std::int64_t max_len = run.envelope.model.max_model_len;
  // Accepted, so within [-1, max_model_len]: it fits 64 bits.
  return (!t || *t == -1) ? max_len : t->to_int64().value_or(max_len);
}

std::vector<std::string> image_urls(const ScoreInput& input) {
  std::vector<std::string> urls;
  for (const auto& part : input.parts)
    if (part.kind == ContentPart::Kind::ImageUrl) urls.push_back(part.value);
  return urls;
}

// Both absent, or both present and equal as values (a NaN equals itself).
bool same_value(const std::optional<Json>& a, const std::optional<Json>& b) {
  return a.has_value() == b.has_value() && (!a || json_equal(*a, *b));
}

const ScoreInput& query_of(const RequestRun& run, std::size_t i) {
  const auto& queries = request_of(run).queries;
  return queries.size() == 1 ? queries[0] : queries[i];
}

}  // namespace

Violations keys_never_lost(const RequestRun& run) {
  Violations out;
  const Json* base = base_extras(run);
  for (std::size_t i = 0; i < run.output.outputs.size(); ++i) {
    const PairOutput& pair = run.output.outputs[i];
    const Json* extras = pair.pooling_params.extra_kwargs.get();
    if (!has_types(pair)) {
      // Nothing is computed: the base's extras pass through untouched.
      if ((base == nullptr) != (extras == nullptr) || (base && !json_equal(*base, *extras)))
        out.push_back({"keys-never-lost", pair_name(i) + " has no token types, so its extra_kwargs should be " +
                                              show(base) + ", got " + show(extras)});
      continue;
    }
    if (base == nullptr) continue;
    // An index, not ordered_json lookups: those are linear, and a body may hold many keys.
    std::unordered_map<std::string_view, const Json*> members;
    if (extras != nullptr && extras->is_object())
      for (const auto& [key, value] : extras->items()) members.emplace(key, &value);
    for (const auto& [key, value] : base->items()) {
      if (key == kCompressedTokenTypeIds) continue;
      auto found = members.find(key);
      if (found == members.end()) {
        out.push_back({"keys-never-lost", pair_name(i) + " lost extra_kwargs key '" + key + "' (had " +
                                              dump_json(value) + "); its extra_kwargs are " + show(extras)});
      } else if (!json_equal(*found->second, value)) {
        out.push_back({"keys-never-lost", pair_name(i) + " changed extra_kwargs['" + key + "'] from " +
                                              dump_json(value) + " to " + dump_json(*found->second)});
      }
    }
  }
  return out;
}

Violations nothing_mutated(const RequestRun& run) {
  Violations out;
  const auto& caller = request_of(run).caller_params;
  if (run.caller_before && (!caller || !deep_equal(*run.caller_before, *caller)))
    out.push_back({"nothing-mutated", "the caller's params changed from " +
                                          dump_json(params_to_object(*run.caller_before)) + " to " +
                                          (caller ? dump_json(params_to_object(*caller)) : "null")});
  if (!deep_equal(run.output.base_params, expected_base(run)))
    out.push_back({"nothing-mutated", "the base params ended as " +
                                          dump_json(params_to_object(run.output.base_params)) +
                                          ", expected " + dump_json(params_to_object(expected_base(run)))});

  const Json* caller_extras = caller ? caller->extra_kwargs.get() : nullptr;
  const Json* base_extras_now = run.output.base_params.extra_kwargs.get();
  for (std::size_t i = 0; i < run.output.outputs.size(); ++i) {
    const PairOutput& pair = run.output.outputs[i];
    const Json* extras = pair.pooling_params.extra_kwargs.get();
    if (extras == nullptr) continue;
    if (extras == caller_extras)
      out.push_back({"nothing-mutated", pair_name(i) + "'s extra_kwargs is the caller's own object"});
    if (!has_types(pair)) continue;  // pairs without types may share the unchanged base
    if (extras == base_extras_now)
      out.push_back({"nothing-mutated", pair_name(i) + "'s extra_kwargs is the base params' object"});
    for (std::size_t j = 0; j < i; ++j)
      if (run.output.outputs[j].pooling_params.extra_kwargs.get() == extras)
        out.push_back({"nothing-mutated", pair_name(i) + " and " + pair_name(j) + " share one extra_kwargs object"});
  }
  return out;
}

Violations compression_round_trips(const RequestRun& run) {
  Violations out;
  const bool bert = run.envelope.model.style() == TokenizerStyle::Bert;
  for (std::size_t i = 0; i < run.output.outputs.size(); ++i) {
    const PairOutput& pair = run.output.outputs[i];
    const auto& ids = pair.prompt.prompt_token_ids;
    if (pair.token_type_ids.has_value() != bert) {
      out.push_back({"compression-round-trips", pair_name(i) + (bert ? " has no token types on a BERT-like model"
                                                                   : " has token types on a model without them")});
      continue;
    }
    if (!has_types(pair)) continue;
    const auto& types = *pair.token_type_ids;
    if (types.size() != ids.size()) {
      out.push_back({"compression-round-trips", pair_name(i) + " has " + std::to_string(types.size()) +
                                                    " token types for " + std::to_string(ids.size()) + " ids"});
      continue;
    }
    const Json* extras = pair.pooling_params.extra_kwargs.get();
    const Json* k = (extras && extras->contains(kCompressedTokenTypeIds)) ? &(*extras)[std::string(kCompressedTokenTypeIds)] : nullptr;
    if (k == nullptr || !k->is_number_integer()) {
      out.push_back({"compression-round-trips", pair_name(i) + " carries no integer compressed_token_type_ids: " + show(extras)});
      continue;
    }
    const auto rebuilt = reconstruct_token_types(k->get<std::int64_t>(), static_cast<std::int64_t>(ids.size()));
    if (rebuilt != types)
      out.push_back({"compression-round-trips", pair_name(i) + ": reconstruct(" + dump_json(*k) + ", " +
                                                    std::to_string(ids.size()) + ") = " + dump_json(Json(rebuilt)) +
                                                    " but the aligned types are " + dump_json(Json(types))});
  }
  return out;
}

Violations lengths_and_order(const RequestRun& run) {
  Violations out;
  const ScoringRequest& request = request_of(run);
  const auto& outputs = run.output.outputs;
  if (outputs.size() != request.documents.size()) {
    out.push_back({"lengths-and-order", std::to_string(request.documents.size()) + " pairs expected, got " +
                                            std::to_string(outputs.size()) + " outputs"});
    return out;
  }
  const std::string base = offline(run) ? "score-0"
                           : (request.endpoint == Endpoint::Rerank ? "rerank-" : "score-") + request.request_id;
  const bool untruncated = !request.truncate_prompt_tokens && request.max_tokens_per_doc == 0 &&
                           !caller_extra(run, "max_tokens_per_doc");
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string want = base + "-" + std::to_string(i);
    if (outputs[i].request_id != want)
      out.push_back({"lengths-and-order", pair_name(i) + " has request id '" + outputs[i].request_id +
                                              "', expected '" + want + "'"});
    if (!untruncated) continue;
    const auto doc = tokenize_input(request.documents[i], run.envelope.model.vocab_size).ids;
    const auto& ids = outputs[i].prompt.prompt_token_ids;
    // (std::search finds an empty document at ids.end() when the prompt is empty too.)
    if (!doc.empty() && std::search(ids.begin(), ids.end(), doc.begin(), doc.end()) == ids.end())
      out.push_back({"lengths-and-order", pair_name(i) + "'s prompt " + dump_json(Json(ids)) +
                                              " does not hold document " + std::to_string(i) + "'s tokens " +
                                              dump_json(Json(doc))});
  }
  return out;
}

Violations prompt_extras_exact(const RequestRun& run) {
  Violations out;
  const ScoringRequest& request = request_of(run);
  PromptExtras want = request.extras;
  if (offline(run)) want = {caller_extra(run, "cache_salt"), caller_extra(run, "mm_processor_kwargs")};
  const Json* outputs = member(run.rendered, "outputs");
  const std::size_t count = outputs && outputs->is_array() ? outputs->size() : 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Json* prompt = member((*outputs)[i], "prompt");
    if (prompt == nullptr || !prompt->is_object()) continue;  // rendered_outputs_exact reports it
    auto urls = image_urls(query_of(run, i));
    auto doc_urls = image_urls(request.documents[i]);
    urls.insert(urls.end(), doc_urls.begin(), doc_urls.end());
    std::vector<std::string_view> keys = {"prompt_token_ids"};
    if (!urls.empty()) keys.push_back("multi_modal_data");
    if (want.cache_salt) keys.push_back("cache_salt");
    if (want.mm_processor_kwargs) keys.push_back("mm_processor_kwargs");
    if (!has_exactly_keys(*prompt, keys))
      out.push_back({"prompt-extras", pair_name(i) + "'s printed prompt has the keys " + key_list(*prompt) +
                                          ", expected exactly " + quoted_list(keys)});
    const auto printed = [&](const char* key) -> std::optional<Json> {
      const Json* value = member(*prompt, key);
      return value ? std::optional<Json>(*value) : std::nullopt;
    };
    for (const auto& [key, value] : {std::pair{"cache_salt", &want.cache_salt},
                                     std::pair{"mm_processor_kwargs", &want.mm_processor_kwargs}}) {
      const auto got = printed(key);
      if (!same_value(got, *value))
        out.push_back({"prompt-extras", pair_name(i) + "'s printed prompt " + key + " is " + show(got ? &*got : nullptr) +
                                            ", expected " + show(*value ? &**value : nullptr)});
    }
    const auto images = printed("multi_modal_data");
    const Json want_images = Json{{"image", urls}};
    if (!urls.empty() && (!images || !json_equal(*images, want_images)))
      out.push_back({"prompt-extras", pair_name(i) + "'s printed multi_modal_data is " +
                                          show(images ? &*images : nullptr) + ", expected " + dump_json(want_images)});
  }
  return out;
}

Violations rendered_outputs_exact(const RequestRun& run) {
  constexpr const char* kLaw = "rendered-output";
  const Json& rendered = run.rendered;
  constexpr std::array<std::string_view, 2> kOutputKeys = {"outputs", "caller_pooling_params"};
  const std::span<const std::string_view> want_keys(kOutputKeys.data(), offline(run) ? 2 : 1);
  if (!has_exactly_keys(rendered, want_keys))
    return {{kLaw, "the printed output has the keys " + key_list(rendered) + ", expected exactly " + quoted_list(want_keys)}};
  const Json& outputs = rendered["outputs"];
  const auto& pairs = run.output.outputs;
  if (!outputs.is_array() || outputs.size() != pairs.size())
    return {{kLaw, "the printed outputs are " + (outputs.is_array() ? std::to_string(outputs.size()) + " entries"
                                                                    : "not a list") +
                       " for " + std::to_string(pairs.size()) + " pairs"}};
  Violations out;
  constexpr std::array<std::string_view, 3> kEntryKeys = {"request_id", "prompt", "pooling_params"};
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const Json& entry = outputs[i];
    if (!has_exactly_keys(entry, kEntryKeys)) {
      out.push_back({kLaw, pair_name(i) + "'s printed entry has the keys " + key_list(entry) + ", expected exactly " +
                               quoted_list(kEntryKeys)});
      continue;
    }
    if (entry["request_id"] != pairs[i].request_id)
      out.push_back({kLaw, pair_name(i) + " is printed with request_id " + dump_json(entry["request_id"]) +
                               ", the run's is '" + pairs[i].request_id + "'"});
    const Json* ids = member(entry["prompt"], "prompt_token_ids");
    if (ids == nullptr || !printed_as(*ids, pairs[i].prompt.prompt_token_ids))
      out.push_back({kLaw, pair_name(i) + "'s printed prompt_token_ids are " + show(ids) + ", the run's are " +
                               show(pairs[i].prompt.prompt_token_ids)});
    append(out, object_form_exact(entry["pooling_params"], pairs[i].pooling_params, pair_name(i) + "'s pooling_params",
                                  run.full_check));
  }
  if (offline(run)) {
    const Json& caller = rendered["caller_pooling_params"];
    const auto& params = request_of(run).caller_params;
    if (!params && !caller.is_null())
      out.push_back({kLaw, "caller_pooling_params is printed as " + dump_json(caller) + " for a call without params"});
    if (params) append(out, object_form_exact(caller, *params, "caller_pooling_params"));
  }
  return out;
}

Violations salt_valid(const RequestRun& run) {
  if (offline(run)) return {};  // offline extras are not validated (spec 10.9)
  const auto& salt = request_of(run).extras.cache_salt;
  if (!salt) return {};
  bool valid = salt->is_string();
  if (valid) {
    const auto& text = salt->get_ref<const std::string&>();
    std::size_t code_points = 0;
    for (unsigned char c : text) code_points += (c & 0xC0) != 0x80;
    valid = code_points >= 1 && code_points <= 128 && text.find_first_of(std::string_view("@/\\\0", 4)) == std::string::npos;
  }
  if (valid) return {};
  return {{"salt-valid", "an online request was accepted with cache_salt " + dump_json(*salt) +
                             "; it must be a non-empty string of at most 128 characters without '@', '/', '\\' or NUL"}};
}

Violations truncation_bounds(const RequestRun& run) {
  Violations out;
  const ScoringRequest& request = request_of(run);
  const ModelConfig& model = run.envelope.model;
  const std::int64_t limit = target_length(run);
  const std::int64_t pad_id = model.tokenizer.pad_token_id;
  const bool pads_look_special = request.pad_to_max_length && pad_id >= kClsTokenId && pad_id <= kImagePlaceholderId;
  const bool longest_first = request.truncate_prompt_tokens && !request.truncation_side;
  const std::int64_t specials = model.style() == TokenizerStyle::Llm ? 0 : 3;

  for (std::size_t i = 0; i < run.output.outputs.size(); ++i) {
    const auto& ids = run.output.outputs[i].prompt.prompt_token_ids;
    const auto length = static_cast<std::int64_t>(ids.size());
    if (request.pad_to_max_length ? length != model.max_model_len : length > limit)
      out.push_back({"truncation-bounds", pair_name(i) + " has " + std::to_string(length) + " tokens; expected " +
                                              (request.pad_to_max_length ? "exactly " + std::to_string(model.max_model_len) + " (padded)"
                                                                         : "at most " + std::to_string(limit))});
    const auto images = static_cast<std::int64_t>(run.output.outputs[i].prompt.image_urls.size());
    if (!longest_first || pads_look_special || limit < specials + images) continue;
    const auto count = [&](std::int64_t id) { return std::count(ids.begin(), ids.end(), id); };
    const bool kept = count(kClsTokenId) == (specials ? 1 : 0) && count(kSepTokenId) == (specials ? 2 : 0) &&
                      count(kImagePlaceholderId) == images;
    if (!kept)
      out.push_back({"truncation-bounds", pair_name(i) + ": longest-first truncation dropped a special token: " +
                                              dump_json(Json(ids))});
  }
  return out;
}

namespace {

// The bound of spec 10.15 on an accepted request's pair lengths, built or planned.
Violations total_within_bound(std::span<const std::int64_t> lengths, std::string_view verb) {
  std::int64_t total = 0;
  for (const std::int64_t length : lengths)
    if (__builtin_add_overflow(total, length, &total)) total = std::numeric_limits<std::int64_t>::max();
  if (total <= kMaxTotalTokens) return {};
  return {{"token-total", "an accepted request " + std::string(verb) + " " + std::to_string(total) +
                              " prompt tokens in total; more than " + std::to_string(kMaxTotalTokens) +
                              " must be refused (spec 10.15)"}};
}

}  // namespace

Violations token_total_bound(const RequestRun& run) {
  std::vector<std::int64_t> lengths;
  lengths.reserve(run.output.outputs.size());
  for (const auto& pair : run.output.outputs) lengths.push_back(static_cast<std::int64_t>(pair.prompt.prompt_token_ids.size()));
  return total_within_bound(lengths, "produced");
}

namespace {

// The prompt spec section 7 calls for, built the slow and obvious way, as an
// independent oracle of the core's closed-form planning: token limits, then
// longest-first one word at a time (HF's loop: the longer side loses a word, the
// document on a tie), then the specials, the window on the requested side (the
// model's when none was requested), then padding.
struct ExpectedPrompt {
  std::vector<std::int64_t> ids;
  std::vector<std::int64_t> types;  // BERT-like models only
};

// Accepted, so within [0, max_model_len): it fits 64 bits.
std::int64_t token_limit(const RequestRun& run, std::string_view name, const Integer& online_value) {
  if (!offline(run)) return online_value.to_int64().value_or(0);
  const auto value = caller_extra(run, name);
  return value && value->is_number_integer() ? value->get<std::int64_t>() : 0;
}

// The side's ids with only its first `words` word tokens; placeholders all stay.
std::vector<std::int64_t> kept_ids(const SideTokens& side, std::int64_t words) {
  std::vector<std::int64_t> ids;
  std::int64_t seen = 0;
  for (std::int64_t id : side.ids) {
    if (id == kImagePlaceholderId) ids.push_back(id);
    else if (seen++ < words) ids.push_back(id);
  }
  return ids;
}

// Before padding: the limits, truncation and specials.
ExpectedPrompt expected_unpadded(const RequestRun& run, const SideTokens& query, const SideTokens& document) {
  const ScoringRequest& request = request_of(run);
  const ModelConfig& model = run.envelope.model;
  const TokenizerStyle style = model.style();
  std::int64_t query_words = query.words(), document_words = document.words();
  const std::int64_t query_limit = token_limit(run, "max_tokens_per_query", request.max_tokens_per_query);
  const std::int64_t document_limit = token_limit(run, "max_tokens_per_doc", request.max_tokens_per_doc);
  if (query_limit > 0) query_words = std::min(query_words, query_limit);
  if (document_limit > 0) document_words = std::min(document_words, document_limit);

  const bool truncating = request.truncate_prompt_tokens.has_value();
  const std::int64_t target = target_length(run);
  if (truncating && !request.truncation_side) {
    const std::int64_t fixed = (style == TokenizerStyle::Llm ? 0 : 3) + query.placeholders() + document.placeholders();
    while (fixed + query_words + document_words > target && query_words + document_words > 0) {
      if (query_words > document_words) --query_words;
      else --document_words;
    }
  }
  ExpectedPrompt out;
  const auto add = [&](const std::vector<std::int64_t>& ids, std::int64_t type) {
    out.ids.insert(out.ids.end(), ids.begin(), ids.end());
    out.types.insert(out.types.end(), ids.size(), type);
  };
  const bool specials = style != TokenizerStyle::Llm;
  if (specials) add({kClsTokenId}, 0);
  add(kept_ids(query, query_words), 0);
  if (specials) add({kSepTokenId}, 0);
  add(kept_ids(document, document_words), specials ? 1 : 0);
  if (specials) add({kSepTokenId}, 1);

  const auto length = static_cast<std::int64_t>(out.ids.size());
  if (truncating && length > target) {
    const Side side = request.truncation_side.value_or(model.tokenizer.truncation_side);
    const std::int64_t from = side == Side::Left ? length - target : 0;
    out.ids = std::vector<std::int64_t>(out.ids.begin() + from, out.ids.begin() + from + target);
    out.types = std::vector<std::int64_t>(out.types.begin() + from, out.types.begin() + from + target);
  }
  return out;
}

ExpectedPrompt expected_prompt(const RequestRun& run, const SideTokens& query, const SideTokens& document) {
  const ModelConfig& model = run.envelope.model;
  ExpectedPrompt out = expected_unpadded(run, query, document);
  if (request_of(run).pad_to_max_length && static_cast<std::int64_t>(out.ids.size()) < model.max_model_len) {
    const std::int64_t type_pad = out.types.empty() ? 0 : out.types.back();
    out.ids.resize(static_cast<std::size_t>(model.max_model_len), model.tokenizer.pad_token_id);
    out.types.resize(static_cast<std::size_t>(model.max_model_len), type_pad);
  }
  if (model.style() != TokenizerStyle::Bert) out.types.clear();
  return out;
}

// The length of pair i's prompt as expected_prompt builds it, without building
// the padding: max_model_len has no bound of its own, so neither has that.
std::int64_t expected_length(const RequestRun& run, std::size_t i) {
  const std::int64_t vocab = run.envelope.model.vocab_size;
  const auto length = static_cast<std::int64_t>(
      expected_unpadded(run, tokenize_input(query_of(run, i), vocab), tokenize_input(request_of(run).documents[i], vocab))
          .ids.size());
  return request_of(run).pad_to_max_length ? std::max(length, run.envelope.model.max_model_len) : length;
}

}  // namespace

Violations prompt_exact(const RequestRun& run) {
  Violations out;
  const ScoringRequest& request = request_of(run);
  if (run.output.outputs.size() != request.documents.size()) return out;  // lengths-and-order's to report
  const std::int64_t vocab = run.envelope.model.vocab_size;
  std::vector<std::optional<SideTokens>> queries(request.queries.size()), documents(request.documents.size());
  const auto tokens = [vocab](std::vector<std::optional<SideTokens>>& cache, const ScoreInput& input, std::size_t i) -> const SideTokens& {
    if (!cache[i]) cache[i] = tokenize_input(input, vocab);
    return *cache[i];
  };
  for (std::size_t i = 0; i < run.output.outputs.size(); ++i) {
    const std::size_t q = request.queries.size() == 1 ? 0 : i;
    const ExpectedPrompt want = expected_prompt(run, tokens(queries, request.queries[q], q),
                                                tokens(documents, request.documents[i], i));
    const PairOutput& pair = run.output.outputs[i];
    if (pair.prompt.prompt_token_ids != want.ids)
      out.push_back({"prompt-exact", pair_name(i) + "'s prompt is " + show(pair.prompt.prompt_token_ids) +
                                         ", expected " + show(want.ids)});
    const std::vector<std::int64_t> types = pair.token_type_ids.value_or(std::vector<std::int64_t>());
    if (types != want.types)
      out.push_back({"prompt-exact", pair_name(i) + "'s token types are " + show(types) + ", expected " +
                                         show(want.types)});
  }
  return out;
}

namespace {

// Whether any query or document is a {"content": [...]} object.
bool any_object_input(const ScoringRequest& request) {
  const auto is_object = [](const ScoreInput& input) { return input.is_object; };
  return std::any_of(request.queries.begin(), request.queries.end(), is_object) ||
         std::any_of(request.documents.begin(), request.documents.end(), is_object);
}

// The most image parts any pair holds, its query's and its document's
// together, pairing as spec 4 does (one query for all, or the i-th with the
// i-th); 0 when the sides do not pair.
std::size_t most_images_in_a_pair(const ScoringRequest& request) {
  const auto images = [](const ScoreInput& input) {
    return static_cast<std::size_t>(std::count_if(input.parts.begin(), input.parts.end(), [](const ContentPart& part) {
      return part.kind == ContentPart::Kind::ImageUrl;
    }));
  };
  const std::size_t len1 = request.queries.size();
  if (len1 == 0 || (len1 != 1 && len1 != request.documents.size())) return 0;
  std::size_t most = 0;
  for (std::size_t i = 0; i < request.documents.size(); ++i)
    most = std::max(most, images(request.queries[len1 == 1 ? 0 : i]) + images(request.documents[i]));
  return most;
}

}  // namespace

Violations pairing_cardinality(const RequestRun& run) {
  Violations out;
  const ScoringRequest& request = request_of(run);
  const std::size_t len1 = request.queries.size();
  const std::size_t len2 = request.documents.size();
  if (len1 == 0 || len2 == 0 || (len1 != 1 && len1 != len2)) {
    out.push_back({"pairing-cardinality", "accepted " + lengths(len1, len2) + "; only 1:1, 1:N and N:N pair"});
    return out;
  }
  if (!run.envelope.model.is_multimodal && any_object_input(request))
    out.push_back({"pairing-cardinality", "accepted a {\"content\": [...]} input for " +
                                              run.envelope.model.architecture + ", which is not multimodal"});
  if (const std::size_t images = most_images_in_a_pair(request); images > 1)
    out.push_back({"pairing-cardinality", "accepted a pair with " + std::to_string(images) +
                                              " images; only one multi-modal item is supported"});
  // One output per document is lengths-and-order's to report.
  if (run.output.outputs.size() != len2) return out;
  const bool query_uncut = !request.truncate_prompt_tokens && request.max_tokens_per_query == 0 &&
                           !caller_extra(run, "max_tokens_per_query");
  if (!query_uncut) return out;
  const std::size_t offset = run.envelope.model.style() == TokenizerStyle::Llm ? 0 : 1;  // after [CLS]
  for (std::size_t i = 0; i < len2; ++i) {
    const std::size_t q = len1 == 1 ? 0 : i;
    const auto query = tokenize_input(request.queries[q], run.envelope.model.vocab_size).ids;
    const auto& ids = run.output.outputs[i].prompt.prompt_token_ids;
    if (ids.size() < offset + query.size() || !std::equal(query.begin(), query.end(), ids.begin() + offset))
      out.push_back({"pairing-cardinality", pair_name(i) + "'s prompt " + show(ids) + " does not start with query " +
                                                std::to_string(q) + "'s tokens " + show(query) + " (" +
                                                lengths(len1, len2) + ")"});
  }
  return out;
}

namespace {

// The score union's classes (spec 11.5), in the union's order.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kUnionOrder{
    {{"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"}, {"text_1", "text_2"}}};

bool given(const Json& body, std::string_view key) {
  const auto it = body.find(key);
  return it != body.end() && !it->is_null();
}

bool complete(const Json& body, const std::pair<std::string_view, std::string_view>& shape) {
  return given(body, shape.first) && given(body, shape.second);
}

}  // namespace

Violations score_union(const Json& body, const ScoringRequest& request) {
  if (request.endpoint != Endpoint::Score || !body.is_object()) return {};
  for (const auto& [first, second] : kUnionOrder) {
    if (!complete(body, {first, second})) continue;
    Json alone = Json::object();
    alone[std::string(first)] = *body.find(first);
    alone[std::string(second)] = *body.find(second);
    auto parsed = parse_online_request(alone, Endpoint::Score);
    if (!parsed) continue;  // this class of the union fails: the next one is tried
    if (parsed->queries == request.queries && parsed->documents == request.documents) return {};
    return {{"score-union", "the first shape that validates is {" + std::string(first) + ", " + std::string(second) +
                                "}, but the request was scored on other sides"}};
  }
  return {};
}

namespace {

// An input as the law reads it (spec 10.5): a string, or {"content": [...]} of
// text and image_url parts; nullopt for anything the spec does not take.
std::optional<ContentPart> part_as_written(const Json& part) {
  if (!part.is_object() || !part.contains("type")) return std::nullopt;
  const Json& type = part["type"];
  const bool text = type == "text";
  const auto value = text ? part.find("text") : part.find("image_url");
  if ((!text && type != "image_url") || value == part.end()) return std::nullopt;
  const Json* written = &*value;
  if (!text) {
    const auto url = value->is_object() ? value->find("url") : value->end();
    if (!value->is_object() || url == value->end()) return std::nullopt;
    written = &*url;
  }
  if (!written->is_string()) return std::nullopt;
  return ContentPart{text ? ContentPart::Kind::Text : ContentPart::Kind::ImageUrl, written->get<std::string>()};
}

std::optional<ScoreInput> input_as_written(const Json& input) {
  if (input.is_string()) return ScoreInput{false, input.get<std::string>(), {}};
  const auto content = input.is_object() ? input.find("content") : input.end();
  if (!input.is_object() || content == input.end() || !content->is_array()) return std::nullopt;
  ScoreInput read{true, {}, {}};
  for (const Json& part : *content) {
    auto one = part_as_written(part);
    if (!one) return std::nullopt;
    read.parts.push_back(std::move(*one));
  }
  return read;
}

// A side: one input, or a list of them.
std::optional<std::vector<ScoreInput>> side_as_written(const Json& side) {
  std::vector<ScoreInput> read;
  for (const Json& input : side.is_array() ? side : Json::array({side})) {
    auto one = input_as_written(input);
    if (!one) return std::nullopt;
    read.push_back(std::move(*one));
  }
  return read;
}

}  // namespace

Violations sides_read_as_written(const Json& body, const ScoringRequest& request) {
  using Shape = std::pair<std::string_view, std::string_view>;
  static constexpr Shape kRerank{"query", "documents"};
  static constexpr Shape kOffline{"data_1", "data_2"};
  const std::span<const Shape> shapes = request.endpoint == Endpoint::Score    ? std::span<const Shape>(kUnionOrder)
                                        : request.endpoint == Endpoint::Rerank ? std::span<const Shape>(&kRerank, 1)
                                                                               : std::span<const Shape>(&kOffline, 1);
  if (!body.is_object()) return {};
  for (const auto& [first, second] : shapes) {
    if (!complete(body, {first, second})) continue;
    const auto queries = side_as_written(*body.find(first));
    const auto documents = side_as_written(*body.find(second));
    if (!queries || !documents) continue;  // this shape does not validate: the union tries the next
    if (*queries == request.queries && *documents == request.documents) return {};
    return {{"sides-read-as-written",
             "the body writes " + std::to_string(queries->size()) + " input(s) at '" + std::string(first) + "' and " +
                 std::to_string(documents->size()) + " at '" + std::string(second) + "', but the request read " +
                 std::to_string(request.queries.size()) + " and " + std::to_string(request.documents.size()) +
                 (queries->size() == request.queries.size() && documents->size() == request.documents.size()
                      ? ", with other contents"
                      : "")}};
  }
  return {{"sides-read-as-written", "the request was read, but the law finds no complete shape of sides in the body"}};
}

Violations score_union_refusal(const Json& envelope) { return score_union_refusal(envelope, parse_online_request); }

Violations score_union_refusal(const Json& envelope, OnlineParser parse) {
  const auto online = online_body(envelope);
  if (!online || online->endpoint != Endpoint::Score) return {};
  const Json* body = online->body;
  const auto refused = parse(*body, Endpoint::Score);
  if (refused) return {};  // refused elsewhere in the envelope
  std::optional<Error> first_shape_error;
  for (const auto& shape : kUnionOrder) {
    if (!complete(*body, shape)) continue;
    Json only = *body;
    for (const auto& [first, second] : kUnionOrder)
      for (const std::string_view key : {first, second})
        if (key != shape.first && key != shape.second) only.erase(std::string(key));
    auto alone = parse(only, Endpoint::Score);
    const std::string named = "{" + std::string(shape.first) + ", " + std::string(shape.second) + "}";
    if (alone)
      return {{"score-union", "the score request was refused, but with " + named +
                                  " as its only shape it is accepted: the union takes the first shape that "
                                  "validates (spec 11.5)"}};
    if (!first_shape_error) first_shape_error = alone.error();
  }
  // No complete shape: spec 10.5's errors, judged by the error laws.
  if (!first_shape_error) return {};
  const Error& got = refused.error();
  if (got.message == first_shape_error->message && got.param == first_shape_error->param) return {};
  return {{"score-union", "the score request was refused with '" + got.message +
                              "'; no shape validates, so the error must be the first complete shape's own, '" +
                              first_shape_error->message + "' (spec 11.5)"}};
}

Violations pairing_rejection(const Envelope& envelope, const Error& error) {
  const std::string family = message_family(error.message);
  const ScoringRequest& request = envelope.request;
  const std::size_t len1 = request.queries.size();
  const std::size_t len2 = request.documents.size();
  if (family == "multimodal-one-item") {
    if (most_images_in_a_pair(request) > 1) return {};
    return {{"pairing-cardinality", "rejected with '" + error.message + "', but no pair holds more than one image"}};
  }
  if (family != "pair-lengths" && family != "no-text" && family != "no-text-pair" &&
      family != "multimodal-unsupported")
    return {};
  const bool objects_refused = !envelope.model.is_multimodal && any_object_input(request);
  const std::string want = objects_refused                ? "multimodal-unsupported"
                           : (len1 > 1 && len1 != len2) ? "pair-lengths"
                           : len1 == 0                  ? "no-text"
                           : len2 == 0                  ? "no-text-pair"
                                                        : "";
  const std::string multimodal_message = "MultiModalParam is not supported for " + envelope.model.architecture;
  if (family == want && (want != "multimodal-unsupported" || error.message == multimodal_message)) return {};
  return {{"pairing-cardinality", "rejected " + lengths(len1, len2) + " with '" + error.message + "'; " +
                                      (want.empty()                         ? "they pair legally"
                                       : want == "multimodal-unsupported" ? "expected '" + multimodal_message + "'"
                                                                          : "expected the " + want + " message")}};
}

Violations context_length_rejection(const RequestRun& run, const Error& error) {
  if (message_family(error.message) != "context-length") return {};
  const ScoringRequest& request = request_of(run);
  const std::int64_t max_len = run.envelope.model.max_model_len;
  for (std::size_t i = 0; i < request.documents.size(); ++i) {
    const std::int64_t length = expected_length(run, i);
    if (length <= max_len) continue;
    const std::string quoted = "You passed " + std::to_string(length) + " input tokens";
    if (error.message.rfind(quoted, 0) == 0) return {};
    return {{"context-length", "rejected with '" + error.message + "', but the first pair too long is " + pair_name(i) +
                                   " with " + std::to_string(length) + " tokens"}};
  }
  return {{"context-length", "rejected with '" + error.message + "', but every pair fits in max_model_len " +
                                 std::to_string(max_len)}};
}

Violations token_total_rejection(const RequestRun& run, const Error& error) {
  if (message_family(error.message) != "too-many-tokens") return {};
  std::int64_t total = 0;
  for (std::size_t i = 0; i < request_of(run).documents.size(); ++i) {
    const std::int64_t length = expected_length(run, i);
    if (length > kMaxTotalTokens - total) return {};
    total += length;
  }
  return {{"token-total", "rejected with '" + error.message + "', but its pairs hold " + std::to_string(total) +
                              " prompt tokens in total, at most " + std::to_string(kMaxTotalTokens) + " (spec 10.15)"}};
}

Violations planned_lengths_exact(const RequestRun& run, std::span<const std::int64_t> lengths) {
  const std::size_t pairs = request_of(run).documents.size();
  if (lengths.size() != pairs)
    return {{"lengths-and-order", "the request was planned as " + std::to_string(lengths.size()) +
                                      " pairs; it has " + std::to_string(pairs)}};
  for (std::size_t i = 0; i < pairs; ++i) {
    const std::int64_t want = expected_length(run, i);
    if (lengths[i] != want)
      return {{"prompt-exact", pair_name(i) + " was planned at " + std::to_string(lengths[i]) +
                                   " tokens; its prompt holds " + std::to_string(want)}};
  }
  return total_within_bound(lengths, "was planned at");
}

namespace {

// The round trip is a function of the params' value alone, so a pair whose
// params equal the pair's before it (every pair of a model without token
// types, pairs with the same boundary) has nothing new to show.
Violations pairs_params_round_trip(const RequestRun& run) {
  Violations out;
  const auto& outputs = run.output.outputs;
  if (!run.full_check) return out;
  // The skip below, nothing-mutated and the round trip compare with deep_equal.
  if (!outputs.empty()) append(out, comparator_sees_each_field(outputs.front().pooling_params));
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (i == 0 || !deep_equal(outputs[i - 1].pooling_params, outputs[i].pooling_params))
      append(out, params_round_trip(outputs[i].pooling_params));
  return out;
}

void append_split_laws(Violations& out, const std::vector<ScoreInput>& inputs, std::int64_t vocab_size) {
  for (const ScoreInput& input : inputs) {
    if (!input.is_object) append(out, words_split(input.text, vocab_size));
    else append(out, parts_tokenised(input, vocab_size));
    for (const ContentPart& part : input.parts)
      if (part.kind == ContentPart::Kind::Text) append(out, words_split(part.value, vocab_size));
  }
}

}  // namespace

Violations inputs_split_as_specified(const RequestRun& run) {
  Violations out;
  if (!run.full_check) return out;
  append_split_laws(out, request_of(run).queries, run.envelope.model.vocab_size);
  append_split_laws(out, request_of(run).documents, run.envelope.model.vocab_size);
  return out;
}

Violations request_laws(const RequestRun& run) {
  Violations out = keys_never_lost(run);
  append(out, nothing_mutated(run));
  append(out, compression_round_trips(run));
  append(out, lengths_and_order(run));
  append(out, prompt_extras_exact(run));
  append(out, rendered_outputs_exact(run));
  append(out, salt_valid(run));
  append(out, truncation_bounds(run));
  append(out, token_total_bound(run));
  append(out, prompt_exact(run));
  append(out, pairing_cardinality(run));
  append(out, pairs_params_round_trip(run));
  append(out, inputs_split_as_specified(run));
  return out;
}

}  // namespace poolcheck::laws
