#include "properties/laws/error_laws.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <optional>
#include <regex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/output_json.hpp"
#include "properties/laws/online_body.hpp"

namespace poolcheck::laws {
namespace {

// What `param` must be for a family of messages.
// Field: the path the generic message starts with ("<field>: Input should ...").
enum class Param { Null, Named, Field, Any };

struct MessageFamily {
  std::string name;
  bool quoted_by_spec;
  Param param;
  std::string param_name;  // when Param::Named
  std::regex pattern;
  // Text every match contains (required_text), so that a message is only
  // handed to std::regex, which is slow, when it can match.
  std::string required;
};

// Whether the pattern character at `i` is a plain one (a literal outside any
// class, group or quantifier). Escaped punctuation is plain; \d, \s and the
// like are not.
bool plain_at(std::string_view pattern, std::size_t i) {
  if (pattern[i] == '\\') return i + 1 < pattern.size() && !std::isalnum(static_cast<unsigned char>(pattern[i + 1]));
  return std::string_view("^$.|?*+()[]{}").find(pattern[i]) == std::string_view::npos;
}

// The longest run of plain characters at the top level of `pattern` (outside
// parentheses and brackets), less a last character that a quantifier makes
// optional: text that every match of the whole pattern contains. Empty when the
// pattern has a top-level alternative, which would make no text required.
std::string required_text(std::string_view pattern) {
  std::string best, run;
  int depth = 0;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    const bool escaped = c == '\\';
    if (!in_class && depth == 0 && plain_at(pattern, i)) {
      run += escaped ? pattern[++i] : c;
      continue;
    }
    if (std::string_view("?*{").find(c) != std::string_view::npos && !run.empty()) run.pop_back();
    if (run.size() > best.size()) best = run;
    run.clear();
    if (escaped) ++i;  // \d, \s, ...: one character, not text
    else if (in_class) in_class = c != ']';
    else if (c == '[') in_class = true;
    else if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (c == '|' && depth == 0) return "";
  }
  return run.size() > best.size() ? run : best;
}

MessageFamily family(std::string name, bool spec, Param param, std::string param_name, const char* pattern) {
  return {std::move(name), spec, param, std::move(param_name),
          std::regex(pattern, std::regex::ECMAScript | std::regex::optimize), required_text(pattern)};
}

const std::vector<MessageFamily>& catalogue() {
  static const std::vector<MessageFamily> families = [] {
    std::vector<MessageFamily> f;
    // Generic forms (spec section 1), param = the field path.
    f.push_back(family("type", true, Param::Field, "", R"(^.+: Input should be a valid (integer|string|boolean|list|object)$)"));
    f.push_back(family("lower-bound", true, Param::Field, "", R"(^.+: Input should be greater than or equal to -?\d+$)"));
    f.push_back(family("upper-bound", false, Param::Field, "", R"(^.+: Input should be less than or equal to -?\d+$)"));
    f.push_back(family("missing", false, Param::Field, "", R"(^.+: Field required$)"));
    f.push_back(family("literal", false, Param::Field, "", R"(^.+: Input should be '[^']*'((, '[^']*')* or '[^']*')?$)"));
    f.push_back(family("wire-length", false, Param::Field, "", R"(^.+: Input should have .+ items, got \d+$)"));
    // pydantic 2's lax int and bool (spec 11.1), param = the field path.
    f.push_back(family("int-parsing", true, Param::Field, "", R"(^.+: Input should be a valid integer, unable to parse string as an integer$)"));
    f.push_back(family("int-from-float", true, Param::Field, "", R"(^.+: Input should be a valid integer, got a number with a fractional part$)"));
    f.push_back(family("int-parsing-size", true, Param::Field, "", R"(^.+: Unable to parse input string as an integer, exceeded maximum size$)"));
    f.push_back(family("finite-number", true, Param::Field, "", R"(^.+: Input should be a finite number$)"));
    f.push_back(family("bool-parsing", true, Param::Field, "", R"(^.+: Input should be a valid boolean, unable to interpret input$)"));
    // Quoted by the spec.
    f.push_back(family("model-not-found", true, Param::Named, "model", R"(^The model `[\s\S]*` does not exist\.$)"));
    f.push_back(family("cache-salt-empty", true, Param::Named, "cache_salt", R"(^Parameter 'cache_salt' must be a non-empty string if provided\.$)"));
    f.push_back(family("cache-salt-chars", true, Param::Named, "cache_salt", R"(^Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\\\', or NUL\.$)"));
    f.push_back(family("normalize-removed", true, Param::Named, "normalize", R"(^Parameter `normalize` was removed; use `use_activation` instead\.$)"));
    f.push_back(family("reserved-chat-keys", true, Param::Named, "chat_template_kwargs", R"(^chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: \{('chat_template'(, 'tools')?(, 'tokenize')?|'tools'(, 'tokenize')?|'tokenize')\}$)"));
    f.push_back(family("pair-lengths", true, Param::Null, "", R"(^Input lengths must be either 1:1, 1:N or N:N$)"));
    f.push_back(family("no-text", true, Param::Null, "", R"(^At least one text element must be given$)"));
    f.push_back(family("no-text-pair", true, Param::Null, "", R"(^At least one text_pair element must be given$)"));
    f.push_back(family("multimodal-unsupported", true, Param::Null, "", R"(^MultiModalParam is not supported for [\s\S]*$)"));
    f.push_back(family("multimodal-one-item", true, Param::Null, "", R"(^Only one multi-modal item is supported$)"));
    f.push_back(family("truncation-target", true, Param::Named, "truncate_prompt_tokens", R"(^truncate_prompt_tokens value is greater than max_model_len\. Please request a smaller truncation size\.$)"));
    f.push_back(family("context-length", true, Param::Null, "", R"(^You passed \d+ input tokens and requested 0 output tokens\. However, the model's context length is only (\d+) tokens, resulting in a maximum input length of \1 tokens\. Please reduce the length of the input prompt\.$)"));
    f.push_back(family("token-limit-negative", true, Param::Any, "", R"(^max_tokens_per_(query|doc) must be a non-negative integer$)"));
    f.push_back(family("token-limit-too-large", true, Param::Any, "", R"(^max_tokens_per_(query|doc) \(-?\d+\) must be less than max_model_len \(\d+\)\.$)"));
    f.push_back(family("token-type-order", true, Param::Null, "", R"(^Token type ids are expected to be a sequence of zeros followed by a sequence of ones$)"));
    f.push_back(family("task-overwrite", true, Param::Null, "", R"(^You cannot overwrite self\.task=[\s\S]+ with task='classify'!$)"));
    f.push_back(family("task-score-removed", true, Param::Any, "", R"(^`score` task was removed; use `classify` instead\.$)"));
    f.push_back(family("task-encode-removed", true, Param::Any, "", R"(^`encode` task was removed; use `token_embed` or `token_classify` instead\.$)"));
    f.push_back(family("output-kind", true, Param::Any, "", R"(^For pooling output_kind has to be FINAL_ONLY, got [\s\S]+$)"));
    f.push_back(family("unsupported-parameters", true, Param::Null, "", R"(^Task [\s\S]+ only supports \[.*\] parameters, does not support \[.*\] parameters$)"));
    f.push_back(family("matryoshka-unsupported", true, Param::Null, "", R"(^Model [\s\S]+ does not support Matryoshka embeddings; dimensions must be unset\. (Received dimensions=-?\d+, outside valid numeric range \[1, -?\d+\]\.|Numeric dimensions are valid only for Matryoshka models in range \[1, -?\d+\]\.)$)"));
    f.push_back(family("matryoshka-range", true, Param::Null, "", R"(^Model [\s\S]+ only supports dimensions in range \[1, -?\d+\], got -?\d+\.$)"));
    f.push_back(family("matryoshka-list", true, Param::Null, "", R"(^Model [\s\S]+ only supports Matryoshka dimensions \[.*\], got -?\d+\.$)"));
    // The core's own wording where the spec leaves it open (docs/decisions.md).
    f.push_back(family("invalid-json", false, Param::Null, "", R"(^Invalid JSON: [\s\S]+$)"));
    f.push_back(family("input-too-large", false, Param::Null, "", R"(^Input is \d+ bytes, more than the limit of 8388608 bytes \(8 MiB\)\.$)"));
    f.push_back(family("input-too-deep", false, Param::Null, "", R"(^Input nests JSON containers more than 64 levels deep\.$)"));
    f.push_back(family("invalid-msgpack", false, Param::Null, "", R"(^Invalid MessagePack: [\s\S]+ at byte \d+$)"));
    f.push_back(family("score-shape", false, Param::Null, "", R"(^Exactly one of the input shapes \{queries, documents\}, \{queries, items\}, \{data_1, data_2\} or \{text_1, text_2\} must be given; got .+\.$)"));
    f.push_back(family("too-many-tokens", false, Param::Null, "", R"(^The request would produce more than 16777216 prompt tokens in total\.$)"));
    f.push_back(family("batch-too-large", false, Param::Null, "", R"(^The batch has more than 16777216 tokens in total\.$)"));
    f.push_back(family("reconstruct-too-long", false, Param::Named, "LEN", R"(^LEN may be at most 16777216\.$)"));
    return f;
  }();
  return families;
}

const MessageFamily* match_family(const std::string& message) {
  for (const auto& f : catalogue())
    if (message.find(f.required) != std::string::npos && std::regex_match(message, f.pattern)) return &f;
  return nullptr;
}

// Remembered per message: a fuzz campaign checks the same few messages
// millions of times, and std::regex is slow. The answer depends on the message
// alone. Bounded, and per thread.
const MessageFamily* find_family(const std::string& message) {
  thread_local std::unordered_map<std::string, const MessageFamily*> seen;
  if (const auto it = seen.find(message); it != seen.end()) return it->second;
  if (seen.size() >= 4096) seen.clear();
  return seen.emplace(message, match_family(message)).first->second;
}

// The bound a bound message must name, by the field's last name (a path's
// prefix, "model." or "$[3].", does not change it). The spec's numbers,
// written here apart from the core's constants so that a slip in one of those
// shows: spec 4 (max_model_len, vocab_size, whose ids stay below bit 30), 6
// (truncate_prompt_tokens, top_n), 10.14 (LEN, seq_len).
struct SpecBound {
  std::string_view field;
  bool lower;
  std::int64_t bound;
};
constexpr SpecBound kSpecBounds[] = {
    {"max_model_len", true, 1},           {"vocab_size", true, 1001}, {"vocab_size", false, std::int64_t{1} << 30},
    {"truncate_prompt_tokens", true, -1}, {"top_n", true, 0},         {"LEN", true, 0},
    {"seq_len", true, 0},
};

// A lower-bound or upper-bound message names the spec's bound for its field,
// and only fields with a bound get one.
Violations bound_as_specified(const MessageFamily& f, const std::string& message, const std::string& shown) {
  const bool lower = f.name == "lower-bound";
  if (!lower && f.name != "upper-bound") return {};
  const std::string path = message.substr(0, message.find(": "));
  const std::string_view field = std::string_view(path).substr(path.find_last_of('.') + 1);
  const std::string named = message.substr(message.rfind(' ') + 1);
  for (const auto& spec : kSpecBounds)
    if (spec.field == field && spec.lower == lower) {
      if (named == std::to_string(spec.bound)) return {};
      return {{"errors-exact", "the spec's " + std::string(lower ? "lower" : "upper") + " bound for " +
                                   std::string(field) + " is " + std::to_string(spec.bound) + ": " + shown}};
    }
  return {{"errors-exact", "the spec gives " + std::string(field) + " no " + (lower ? "lower" : "upper") +
                               " bound: " + shown}};
}

}  // namespace

std::string message_family(const std::string& message) {
  const MessageFamily* f = find_family(message);
  return f ? f->name : "";
}

const std::vector<std::string>& spec_message_families() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& f : catalogue())
      if (f.quoted_by_spec) out.push_back(f.name);
    return out;
  }();
  return names;
}

Violations error_law(const Error& error) {
  Violations out;
  const std::string shown = "'" + error.message + "' (" + std::to_string(error.code) + " " + error.type + ")";
  const bool bad_request = error.code == 400 && error.type == "BadRequestError";
  const bool not_found = error.code == 404 && error.type == "NotFoundError";
  if (!bad_request && !not_found) {
    out.push_back({"errors-exact", "the outcome is neither a 400 BadRequestError nor the 404: " + shown});
    return out;
  }
  const MessageFamily* f = find_family(error.message);
  if (f == nullptr) {
    out.push_back({"errors-exact", "the message is not one the spec or the core's documented forms allow: " + shown});
    return out;
  }
  if (not_found != (f->name == "model-not-found"))
    out.push_back({"errors-exact", "only the unknown-model message is a 404: " + shown});
  const std::string param = error.param.value_or("null");
  if (f->param == Param::Null && error.param)
    out.push_back({"errors-exact", "param should be null for " + shown + ", got '" + param + "'"});
  if (f->param == Param::Named && param != f->param_name)
    out.push_back({"errors-exact", "param should be '" + f->param_name + "' for " + shown + ", got '" + param + "'"});
  if (f->param == Param::Field) {
    // Field paths are built from the spec's names and indices: the first ": " ends one.
    const std::string field = error.message.substr(0, error.message.find(": "));
    if (param != field)
      out.push_back({"errors-exact", "param should be the field '" + field + "' for " + shown + ", got '" + param + "'"});
  }
  if (f->param == Param::Any && error.param && error.param->empty())
    out.push_back({"errors-exact", "param is an empty string for " + shown});
  append(out, bound_as_specified(*f, error.message, shown));
  return out;
}

Violations token_limit_param(const Error& refusal, bool offline) {
  // The family table spells the two messages; find_family remembers each
  // message it has judged, so this costs a lookup beside error_law's.
  const MessageFamily* f = find_family(refusal.message);
  if (f == nullptr || (f->name != "token-limit-negative" && f->name != "token-limit-too-large")) return {};
  const std::string limit = refusal.message.substr(0, refusal.message.find(' '));  // the message starts with it
  const std::string field = (offline ? "pooling_params.extra_kwargs." : "") + limit;
  if (refusal.param == field) return {};
  return {{"errors-exact", "param should be '" + field + "', where " + (offline ? "LLM.score" : "the body") +
                               " keeps the limit, for '" + refusal.message + "', got '" + refusal.param.value_or("null") +
                               "'"}};
}

Violations output_kind_shown(const Json* kind, const Error& error) {
  static constexpr std::string_view kPrefix = "For pooling output_kind has to be FINAL_ONLY, got ";
  if (kind == nullptr || error.message.rfind(kPrefix, 0) != 0) return {};
  // RequestOutputKind's members, in value order.
  static constexpr std::string_view kMembers[] = {"CUMULATIVE", "DELTA", "FINAL_ONLY"};
  std::string want = dump_json(*kind);
  for (std::size_t value = 0; value < std::size(kMembers); ++value)
    if ((kind->is_string() && *kind == kMembers[value]) ||
        (kind->is_number_integer() && *kind == static_cast<std::int64_t>(value)))
      want = "<RequestOutputKind." + std::string(kMembers[value]) + ": " + std::to_string(value) + ">";
  if (error.message.substr(kPrefix.size()) == want) return {};
  return {{"output-kind-shown", "output_kind " + dump_json(*kind) + " was rejected with \"" + error.message +
                                    "\"; expected it to end in \"got " + want + "\""}};
}

Violations rejected_for(const Json& outcome, std::string_view family) {
  const std::string want(family);
  const Json* error = outcome.is_object() && outcome.contains("error") ? &outcome["error"] : nullptr;
  if (error == nullptr || !error->is_object() || !error->contains("message") || !(*error)["message"].is_string())
    return {{"defect-reported", "an input whose one defect calls for the " + want +
                                    " message was not rejected; the outcome is " + dump_json(outcome)}};
  const std::string message = (*error)["message"].get<std::string>();
  const std::string got = message_family(message);
  if (got == want) return {};
  return {{"defect-reported", "an input whose one defect calls for the " + want + " message was rejected with '" +
                                  message + "' (" + (got.empty() ? "no known family" : got) + ")"}};
}

namespace {

// Spec 10.2's order of the online request's own fields: `normalize`,
// `cache_salt`, then the other common fields as section 6 lists them. Each is
// judged on its own value alone, which is what lets first_failure_wins drop
// one and re-run.
constexpr std::string_view kCommonFieldOrder[] = {
    "normalize", "cache_salt", "model", "user", "request_id", "truncate_prompt_tokens", "truncation_side",
    "padding", "priority", "mm_processor_kwargs", "use_activation", "max_tokens_per_query", "max_tokens_per_doc",
    "instruction", "chat_template_kwargs"};

std::optional<std::size_t> common_field_rank(const std::optional<std::string>& param) {
  if (!param) return std::nullopt;
  for (std::size_t i = 0; i < std::size(kCommonFieldOrder); ++i)
    if (*param == kCommonFieldOrder[i]) return i;
  return std::nullopt;
}

}  // namespace

Violations first_failure_wins(const Json& envelope) { return first_failure_wins(envelope, parse_online_request); }

Violations first_failure_wins(const Json& envelope, OnlineParser parse) {
  const auto online = online_body(envelope);
  if (!online) return {};
  const Json& body = *online->body;
  const auto first = parse(body, online->endpoint);
  const auto first_rank = first ? std::nullopt : common_field_rank(first.error().param);
  if (!first_rank) return {};
  Json without = body;
  without.erase(*first.error().param);
  const auto second = parse(without, online->endpoint);
  const auto second_rank = second ? std::nullopt : common_field_rank(second.error().param);
  if (!second_rank || *second_rank >= *first_rank) return {};
  const std::string& p = *first.error().param;
  const std::string& q = *second.error().param;
  return {{"first-failure-wins", "the request was refused for '" + p + "' (" + first.error().message + "), but '" +
                                     q + "', checked before it (spec 10.2), is refused on its own: " +
                                     second.error().message}};
}

namespace {

// The value at `path` under `at`: dotted keys, each with any `[i]` indexes
// (`queries[0].content[1].type`); null when a step is not there.
const Json* walk(const Json* at, std::string_view path) {
  while (at != nullptr && !path.empty()) {
    const std::size_t end = std::min(path.find_first_of(".["), path.size());
    if (end > 0) {
      const auto it = at->find(path.substr(0, end));  // end() on anything but an object
      at = it == at->end() ? nullptr : &*it;
    }
    path.remove_prefix(end);
    while (at != nullptr && !path.empty() && path.front() == '[') {
      const std::size_t close = path.find(']');
      std::size_t index = 0;
      const auto digits = path.substr(1, close == std::string_view::npos ? 0 : close - 1);
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
      if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() || !at->is_array() ||
          index >= at->size())
        return nullptr;
      at = &(*at)[index];
      path.remove_prefix(close + 1);
    }
    if (!path.empty() && path.front() == '.') path.remove_prefix(1);
  }
  return at;
}

// The two refusal forms these laws read: `<path>: Input should be a valid <kind>` and `<path>: Field required`.
constexpr std::string_view kTypeRefusal = ": Input should be a valid ";
constexpr std::string_view kFieldRequired = ": Field required";

// The path of a `<path>: Field required` refusal, if `message` is one.
std::optional<std::string_view> missing_path(const std::string& message) {
  if (message.size() <= kFieldRequired.size() || !message.ends_with(kFieldRequired)) return std::nullopt;
  return std::string_view(message.data(), message.size() - kFieldRequired.size());
}

// The envelope's request body, if it has one.
const Json* body_of(const Json& envelope) {
  if (!envelope.is_object()) return nullptr;
  const auto body = envelope.find("request");
  return body == envelope.end() ? nullptr : &*body;
}

// The values at a `path` of the envelope or its body (see type_refusals_due in the header).
std::vector<const Json*> values_at(const Json& envelope, std::string_view path) {
  const Json* body = body_of(envelope);
  std::vector<const Json*> roots{&envelope, body};
  const std::string_view first = path.substr(0, path.find('.'));
  if (first == "$" || first == "envelope" || first == "body") {
    roots = {first == "body" ? body : &envelope};
    path.remove_prefix(std::min(path.size(), first.size() + 1));
  }
  std::vector<const Json*> found;
  for (const Json* root : roots)
    if (const Json* value = walk(root, path)) found.push_back(value);
  return found;
}

}  // namespace

Violations type_refusals_due(const Json& envelope, const Error& error) {
  const std::size_t at = error.message.find(kTypeRefusal);
  if (at == std::string::npos || !envelope.is_object()) return {};
  const std::string_view path(error.message.data(), at);
  const std::string_view kind = std::string_view(error.message).substr(at + kTypeRefusal.size());
  const auto of_kind = [&](const Json* v) {
    return kind == "object" ? v->is_object() : kind == "list" ? v->is_array() : v->is_string();
  };
  if ((kind != "object" && kind != "list" && kind != "string") || path.find('[') != std::string_view::npos) return {};
  const auto values = values_at(envelope, path);
  if (values.empty() || !std::all_of(values.begin(), values.end(), of_kind)) return {};
  return {{"type-refusals-due", "'" + error.message + "', but the value at " + std::string(path) + " is a " +
                                    std::string(kind) + ": " + dump_json(*values.front()).substr(0, 200)}};
}

Violations refusal_names_a_place(const Json& envelope, const Error& error) {
  const std::string& message = error.message;
  const auto missing = missing_path(message);
  const std::size_t at = missing ? missing->size() : message.find(kTypeRefusal);
  if (at == std::string::npos || !envelope.is_object()) return {};
  std::string_view path(message.data(), at);
  if (missing) {  // the object the field is missing from; none named: the envelope's or its body's own
    const std::size_t parent_end = path.find_last_of(".[");
    if (parent_end == std::string_view::npos) return {};
    path = path.substr(0, parent_end);
  }
  if (path.empty()) return {{"refusal-names-a-place", "'" + message + "' names no place at all"}};
  if (!values_at(envelope, path).empty()) return {};
  return {{"refusal-names-a-place", "'" + message + "' names " + std::string(path) +
                                        (missing ? ", the object the field is missing from," : "") +
                                        " which is nowhere in the input"}};
}

Violations missing_field_named(const Json& envelope, const Error& error) {
  return missing_field_named(envelope, body_of(envelope), error);
}

Violations missing_field_named(const Json& document, const Json* body, const Error& error) {
  // The fields a refusal may call missing: the envelope's, a score body's
  // shapes and rerank's (spec 6, 11.5), an LLM.score call's, a content part's,
  // late_interaction_params' (spec 2), verify's input and a worker batch's.
  static constexpr std::string_view kRequiredFields[] = {
      "endpoint", "request", "queries", "documents", "items", "data_1", "data_2", "text_1", "text_2", "query",
      "content",  "type",    "text",    "image_url", "url",  "mode",   "query_key", "pooling_params", "seq_len"};
  const std::string& message = error.message;
  const auto missing = missing_path(message);
  if (!missing) return {};
  const std::string_view path = *missing;
  const std::size_t step = path.find_last_of(".]");
  const std::string_view last = path.substr(step == std::string_view::npos ? 0 : step + 1);
  if (std::find(std::begin(kRequiredFields), std::end(kRequiredFields), last) == std::end(kRequiredFields))
    return {{"missing-field-named", "'" + message + "' names " + std::string(last) + ", which no request, model, " +
                                        "params or batch of the spec requires"}};
  // Where the refusal means the field: the envelope's own fields in the
  // envelope, every other one in its body. Both roots, as values_at reads
  // them, would take an envelope nested as a body for the envelope's own
  // `endpoint` (a fuzz finding).
  const std::string_view first = path.substr(0, path.find_first_of(".["));
  const bool own = first == "endpoint" || first == "request" || first == "model" || body == nullptr;
  const Json* value = walk(own ? &document : body, path);
  // A null side counts as absent (spec 10.5), so only a value that is not null is held.
  if (value == nullptr || value->is_null()) return {};
  return {{"missing-field-named", "'" + message + "', but the input holds " + std::string(path) + ": " +
                                      dump_json(*value).substr(0, 200)}};
}

}  // namespace poolcheck::laws
