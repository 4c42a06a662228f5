#include "properties/laws/rendered_laws.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/fields.hpp"
#include "core/json_api.hpp"
#include "core/json_equality.hpp"
#include "core/integer.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"

namespace poolcheck::laws {
namespace {

// Spec section 2's table: the object form's keys are the wire positions' names.
constexpr std::array<std::string_view, 10> kObjectFormKeys = {
    "use_activation", "dimensions",           "step_tag_id",             "returned_token_ids",
    "task",           "requires_token_ids",   "skip_reading_prefix_cache", "late_interaction_params",
    "extra_kwargs",   "output_kind"};
constexpr std::array<std::string_view, 3> kLateInteractionKeys = {"mode", "query_key", "query_uses"};

// Where two values first differ (a JSON pointer), and the values there.
struct Difference {
  std::string path;
  const Json* was;
  const Json* now;
};
Difference first_difference(const Json& was, const Json& now, const std::string& path) {
  if (was.is_array() && now.is_array() && was.size() == now.size()) {
    for (std::size_t i = 0; i < was.size(); ++i)
      if (!json_equal(was[i], now[i])) return first_difference(was[i], now[i], path + "/" + std::to_string(i));
  } else if (was.is_object() && now.is_object() && was.size() == now.size()) {
    for (auto a = was.begin(), b = now.begin(); a != was.end(); ++a, ++b)
      if (a.key() == b.key() && !json_equal(*a, *b)) return first_difference(*a, *b, path + "/" + a.key());
  }
  return {path, &was, &now};
}

// A value and its kind, readable whatever the printer does (a NaN is named, not printed).
std::string describe_value(const Json& value) {
  if (value.is_number_float() && std::isnan(value.get<double>())) return "NaN (a float)";
  const std::string text = dump_json(value);
  return (text.size() > 120 ? text.substr(0, 120) + "..." : text) + " (" + value.type_name() + ")";
}

}  // namespace

Json batch_command_input(std::span<const BatchRequest> batch) {
  Json input = Json::array();
  for (const auto& request : batch) {
    Json item = Json::object();
    item["pooling_params"] = request.params ? params_to_object(*request.params) : Json(nullptr);
    item["seq_len"] = request.seq_len;
    input.push_back(std::move(item));
  }
  return input;
}

bool has_exactly_keys(const Json& object, std::span<const std::string_view> keys) {
  if (!object.is_object() || object.size() != keys.size()) return false;
  std::size_t i = 0;
  for (auto it = object.begin(); it != object.end(); ++it, ++i)
    if (it.key() != keys[i]) return false;
  return true;
}

std::string key_list(const Json& object) {
  if (!object.is_object()) return "not an object: " + dump_json(object);
  Json names = Json::array();
  for (auto it = object.begin(); it != object.end(); ++it) names.push_back(it.key());
  return dump_json(names);
}

std::string quoted_list(std::span<const std::string_view> keys) {
  Json names = Json::array();
  for (auto key : keys) names.push_back(std::string(key));
  return dump_json(names);
}

Violations object_form_exact(const Json& object, const PoolingParams& params, const std::string& what,
                             bool read_back) {
  constexpr const char* kLaw = "object-form";
  if (!has_exactly_keys(object, kObjectFormKeys))
    return {{kLaw, what + " has the keys " + key_list(object) + ", expected exactly " + quoted_list(kObjectFormKeys)}};
  Violations out;
  if (object["output_kind"] != "FINAL_ONLY")
    out.push_back({kLaw, what + " has output_kind " + dump_json(object["output_kind"]) + ", expected \"FINAL_ONLY\""});
  const Json& late = object["late_interaction_params"];
  if (!late.is_null() && !has_exactly_keys(late, kLateInteractionKeys))
    out.push_back({kLaw, what + "'s late_interaction_params has the keys " + key_list(late) + ", expected exactly " +
                             quoted_list(kLateInteractionKeys)});
  if (!read_back || !out.empty()) return out;
  auto read = params_from_object(object, "pooling_params");
  if (!read)
    out.push_back({kLaw, what + " as printed does not read back: " + read.error().message});
  else if (!deep_equal(*read, params))
    out.push_back({kLaw, what + " as printed, " + dump_json(object) + ", reads back as other params than the core's " +
                             dump_json(params_to_object(params))});
  return out;
}

Violations error_body_exact(const Json& body, const Error& error) {
  static constexpr std::array<std::string_view, 1> kOuter = {"error"};
  static constexpr std::array<std::string_view, 4> kInner = {"message", "type", "param", "code"};
  const auto fault = [&](const std::string& what) {
    return Violations{{"error-body-exact", "the refusal '" + error.message + "' was printed " + what + ": " +
                                               dump_json(body)}};
  };
  if (!has_exactly_keys(body, kOuter)) return fault("without exactly the key \"error\"");
  const Json& inner = body.front();
  if (!has_exactly_keys(inner, kInner)) return fault("without exactly the keys " + quoted_list(kInner) + ", in order");
  const Json param = error.param ? Json(*error.param) : Json(nullptr);
  if (inner["message"] != error.message || inner["type"] != error.type || inner["param"] != param ||
      inner["code"] != error.code)
    return fault("with other values than the error's");
  return {};
}

namespace {

// What a command prints for `answer`: its output, or its error body.
Json printed_answer(const Result<Json>& answer) { return answer ? *answer : error_body(answer.error()); }

}  // namespace

Violations command_agrees(std::string_view command, const Result<Json>& answer, const Json& expected) {
  const Json got = printed_answer(answer);
  if (json_equal(got, expected)) return {};
  return {{"command-agrees", "`" + std::string(command) + "` answered " + dump_json(got) +
                                 " where the core, run by the laws, answered " + dump_json(expected)}};
}

namespace {

// What reconstruct(k, len) answers, judged without building the expected list:
// len types, the first min(max(k, 0), len) of them 0 and the rest 1.
bool reconstructed_types(const Json& answer, std::int64_t k, std::int64_t len) {
  const auto types = answer.find("token_type_ids");
  if (answer.size() != 1 || types == answer.end() || !types->is_array()) return false;
  if (static_cast<std::int64_t>(types->size()) != len) return false;
  const std::int64_t zeros = std::clamp<std::int64_t>(k, 0, len);
  for (std::int64_t j = 0; j < len; ++j)
    if ((*types)[static_cast<std::size_t>(j)] != (j < zeros ? 0 : 1)) return false;
  return true;
}

}  // namespace

Violations reconstruct_bounds(std::int64_t k, std::int64_t len) {
  const std::string command = "poolcheck reconstruct " + std::to_string(k) + " " + std::to_string(len);
  const auto answer = reconstruct_json(k, len);
  if (len < 0) return command_agrees(command, answer, error_body(lower_bound_error("LEN", 0)));
  if (len > kMaxTotalTokens)
    return command_agrees(command, answer,
                          error_body(Error::bad_request(
                              "LEN may be at most " + std::to_string(kMaxTotalTokens) + ".", "LEN")));
  if (answer && reconstructed_types(*answer, k, len)) return {};
  return {{"reconstruct-bounds", "`" + command + "` answered " +
                                     (answer ? "a list other than " + std::to_string(len) + " types, 0s then 1s from " +
                                                   std::to_string(k)
                                             : dump_json(error_body(answer.error())))}};
}

Violations reconstruct_len_taken(std::int64_t len) {
  const MaybeError refused = check_reconstruct_len(len);
  if (!refused) return {};
  return {{"reconstruct-bounds", "LEN = " + std::to_string(len) + " is in [0, " + std::to_string(kMaxTotalTokens) +
                                     "], but `poolcheck reconstruct`'s bound refuses it with '" + refused->message +
                                     "' (spec 10.14, 10.15)"}};
}

namespace {

// One broken input of `poolcheck batch`, judged: refused with `message` about `param`.
Violations batch_refuses(JsonCommand batch, std::string_view broken, const Json& input, const std::string& param,
                         const std::string& message) {
  const Json want = error_body(Error::bad_request(param + ": " + message, param));
  const Json got = printed_answer(batch(dump_json(input)));
  if (json_equal(got, want)) return {};
  return {{"batch-shape-refused", "`poolcheck batch` on a batch whose " + std::string(broken) + " answered " +
                                      dump_json(got) + ", not " + dump_json(want)}};
}

}  // namespace

Violations batch_shape_refused(const Json& input, JsonCommand batch) {
  if (!input.is_array() || input.empty() || !input.back().is_object()) return {};
  const std::string last = "$[" + std::to_string(input.size() - 1) + "]";
  Violations out = batch_refuses(batch, "list is wrapped in an object", Json{{"batch", input}}, "$",
                                 "Input should be a valid list");
  Json broken = input;
  broken.back() = input.back().value("seq_len", Json(0));
  append(out, batch_refuses(batch, "last request is a number", broken, last, "Input should be a valid object"));
  broken = input;
  broken.back().erase("seq_len");
  append(out, batch_refuses(batch, "last request has no seq_len", broken, last + ".seq_len", "Field required"));
  broken = input;
  broken.back()["pooling_params"] = 7;
  append(out, batch_refuses(batch, "last request's pooling_params is a number", broken, last + ".pooling_params",
                            "Input should be a valid object"));
  return out;
}

Violations printed_reads_back(std::string_view printed, const Json& outcome) {
  if (printed.size() > kMaxInputBytes) return {};
  // Deeper than any input: the outcome wraps the request's values in a few containers.
  const auto back = parse_bounded_json(printed, 2 * kMaxNestingDepth);
  if (!back)
    return {{"printed-reads-back", "the printed outcome does not read back as JSON (" + back.error().message +
                                       "): " + std::string(printed.substr(0, 200))}};
  if (json_equal(*back, outcome)) return {};
  const auto [path, was, now] = first_difference(outcome, *back, "");
  return {{"printed-reads-back", "the printed outcome reads back as another value: at " +
                                     (path.empty() ? std::string("the top") : path) + " the outcome holds " +
                                     describe_value(*was) + ", the printed text reads back as " + describe_value(*now)}};
}

bool holds_hand_printed_value(const Json& value) {
  if (value.is_number_float()) return !std::isfinite(value.get<double>());
  if (value.is_binary()) return is_big_integer(value);
  if (!value.is_structured()) return false;
  for (const auto& item : value)
    if (holds_hand_printed_value(item)) return true;
  return false;
}

}  // namespace poolcheck::laws
