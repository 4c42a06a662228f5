#include "properties/laws/check.hpp"

#include <algorithm>
#include <exception>

#include "core/envelope.hpp"
#include "core/json_api.hpp"
#include "core/json_input.hpp"
#include "core/msgpack.hpp"
#include "core/output_json.hpp"
#include "core/preprocess.hpp"
#include "core/tokenizer.hpp"
#include "core/verify.hpp"
#include "core/wire.hpp"
#include "properties/laws/cache_salt_laws.hpp"
#include "properties/laws/coercion_laws.hpp"
#include "properties/laws/config_laws.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/escape_laws.hpp"
#include "properties/laws/json_spelling.hpp"
#include "properties/laws/key_laws.hpp"
#include "properties/laws/law_sample.hpp"
#include "properties/laws/msgpack_items.hpp"
#include "properties/laws/msgpack_refusal_laws.hpp"
#include "properties/laws/nesting_laws.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/laws/rendered_laws.hpp"
#include "properties/laws/repr_laws.hpp"
#include "properties/laws/request_laws.hpp"
#include "properties/laws/size_laws.hpp"
#include "properties/laws/token_type_laws.hpp"
#include "properties/laws/utf8_laws.hpp"
#include "properties/laws/verify_laws.hpp"

namespace poolcheck::laws {
namespace {

CheckResult rejected(const Error& error) {
  CheckResult result{error_law(error), false, error_body(error)};
  append(result.violations, error_body_exact(result.outcome, error));
  return result;
}

// The value at `path` in `document`, or null when a step is missing.
const Json* at_path(const Json& document, std::initializer_list<std::string_view> path) {
  const Json* at = &document;
  for (const std::string_view key : path) {
    if (!at->is_object()) return nullptr;
    const auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

// A rejection, judged also on how it shows the input's output_kind (`kind`).
CheckResult rejected(const Error& error, const Json* kind) {
  CheckResult result = rejected(error);
  append(result.violations, output_kind_shown(kind, error));
  return result;
}

// An exception escaping the core is a violation of its contract, not a crash of the runner.
template <class Body>
CheckResult guarded(Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return {{{"no-exceptions", std::string("an exception escaped the core: ") + e.what()}}, false, nullptr};
  } catch (...) {
    return {{{"no-exceptions", "an unknown exception escaped the core"}}, false, nullptr};
  }
}

// Pre-processes `bytes` from scratch through `poolcheck preprocess`'s own
// bytes-in path, so the command is under the laws too, and renders the outcome.
std::string preprocess_outcome(std::string_view bytes) {
  auto outcome = preprocess_json(bytes);
  return dump_json(outcome ? *outcome : error_body(outcome.error()));
}

// An accepted run: its output as `poolcheck preprocess` prints it, judged by
// the request laws (the printed output among what they read).
CheckResult accepted(const Envelope& envelope, const std::optional<PoolingParams>& caller_before,
                     const PreprocessOutput& output, bool full) {
  Json rendered = preprocess_output_to_json(output, envelope.request);
  Violations found = request_laws({envelope, caller_before, output, rendered, full});
  return {std::move(found), true, std::move(rendered)};
}

// A request over the work budget, decided without its tokens
// (plan_prompt_lengths): an accepted plan's lengths are judged; nothing is
// printed, so the outcome is null.
CheckResult planned(const RequestRun& unbuilt, const Result<std::vector<std::int64_t>>& lengths) {
  CheckResult result =
      lengths ? CheckResult{planned_lengths_exact(unbuilt, *lengths), true, nullptr} : rejected(lengths.error());
  result.over_budget = true;
  return result;
}

// An llm.score caller's `pooling_params` as written, against the params read
// from it (taken before pre-processing, which must not change them).
Violations caller_params_read(const Json& body, const std::optional<PoolingParams>& caller) {
  const auto written = body.find("pooling_params");
  if (written == body.end()) return {};
  return params_read_as_written(*written, caller ? &*caller : nullptr);
}

// One run over a parsed document: the envelope, pre-processing (only its plan
// when the padded prompts are over `padded_token_budget`), and the laws that
// judge that run (an accepted one's, or a rejection's).
CheckResult check_document(const Json& document, std::int64_t padded_token_budget, bool full) {
  auto envelope = envelope_from_json(document);
  if (!envelope) {
    CheckResult result = rejected(envelope.error(), at_path(document, {"request", "pooling_params", "output_kind"}));
    append(result.violations, first_failure_wins(document));
    append(result.violations, score_union_refusal(document));
    append(result.violations, typed_values_taken(document, envelope.error()));
    append(result.violations, rejected_spellings_refused(document, &envelope.error()));
    append(result.violations, bounds_refusal(document, envelope.error()));
    append(result.violations, type_refusals_due(document, envelope.error()));
    append(result.violations, missing_field_named(document, envelope.error()));
    append(result.violations, refusal_names_a_place(document, envelope.error()));
    append(result.violations, cache_salt_rules(document, &envelope.error()));
    return result;
  }
  const auto& caller = envelope->request.caller_params;
  const std::optional<PoolingParams> caller_before =
      caller ? std::optional<PoolingParams>(caller->clone()) : std::nullopt;
  const PreprocessOutput none;
  const Json nothing_printed;
  const RequestRun unbuilt{*envelope, caller_before, none, nothing_printed};
  CheckResult result;
  MaybeError refusal;
  if (over_padded_budget(*envelope, padded_token_budget)) {
    const auto lengths = plan_prompt_lengths(envelope->model, envelope->request);
    result = planned(unbuilt, lengths);
    if (!lengths) refusal = lengths.error();
  } else {
    auto output = preprocess(envelope->model, envelope->request);
    result = output ? accepted(*envelope, caller_before, *output, full) : rejected(output.error());
    if (!output) refusal = output.error();
  }
  const Json& body = *document.find("request");  // there: the envelope parsed
  append(result.violations, score_union(body, envelope->request));
  append(result.violations, sides_read_as_written(body, envelope->request));
  append(result.violations, typed_fields_taken(body, envelope->request));
  append(result.violations, rejected_spellings_refused(document, nullptr));
  append(result.violations, model_read_as_written(document, envelope->model));
  if (envelope->request.endpoint == Endpoint::LlmScore)
    append(result.violations, caller_params_read(body, caller_before));
  else
    append(result.violations, model_name_rule(body, envelope->model, refusal ? &*refusal : nullptr));
  append(result.violations, cache_salt_rules(document, nullptr));
  append(result.violations, task_overwrite_refusal(caller_before ? &*caller_before : nullptr, refusal ? &*refusal : nullptr));
  if (!refusal && envelope->request.endpoint != Endpoint::LlmScore)
    append(result.violations,
           bounds_kept(body, envelope->request.endpoint == Endpoint::Rerank, envelope->model.max_model_len));
  if (refusal) {
    append(result.violations, bounds_refusal(document, *refusal));
    append(result.violations, pairing_rejection(*envelope, *refusal));
    append(result.violations, context_length_rejection(unbuilt, *refusal));
    append(result.violations, token_total_rejection(unbuilt, *refusal));
    append(result.violations, token_limit_param(*refusal, envelope->request.endpoint == Endpoint::LlmScore));
  }
  return result;
}

Violations determinism(const std::string& outcome, const std::string& again) {
  if (again == outcome) return {};
  return {{"determinism", "a second run of the same input gave a different output"}};
}

// The laws that run the input again, for every parsed document, rejected or
// not (most refusals happen while the request's fields are read, so they must
// be covered too). Coercion invariance respells one typed field, chosen by
// the input's hash so that a finding reproduces, and spelling invariance
// writes the whole document anew (json_spelling.hpp): one run of the text
// with both, compared with the original's outcome. That run is also a second
// run of the same request: a core that answers differently the second time
// fails it as well. So the byte-identical second run of the determinism law
// is only made where every respelled text would be past the size bound, or
// to tell the laws apart once the respelled run differs (then, with a typed
// field respelled, that field alone in the printer's plain spelling is run
// too: coercion invariance fails if it differs, spelling invariance if it
// does not). What that gives up: state keyed by the exact bytes (the core
// keeps none) would go unseen.
Violations rerun_laws(std::string_view bytes, const Json& document, const std::string& outcome) {
  const std::uint32_t choice = fnv1a32(bytes);
  const auto respelled = respell_one_field(document, choice);
  const Json& target = respelled ? respelled->envelope : document;
  std::string text = respelled_json(target, choice);
  // Escapes make a text up to six times longer; one past the size bound would itself be refused.
  if (text.size() > kMaxInputBytes && respelled) text = dump_json(target);
  if (text.size() > kMaxInputBytes) return determinism(outcome, preprocess_outcome(bytes));
  const std::string respelled_outcome = preprocess_outcome(text);
  if (respelled_outcome == outcome) return {};
  Violations found = determinism(outcome, preprocess_outcome(bytes));
  if (!found.empty()) return found;
  if (!respelled) return spelling_invariance(outcome, respelled_outcome);
  const std::string plain = dump_json(target);  // the respelled field alone, in the printer's spelling
  const std::string plain_outcome = plain.size() <= kMaxInputBytes ? preprocess_outcome(plain) : outcome;
  return plain_outcome != outcome ? coercion_invariance(outcome, plain_outcome, respelled->what)
                                  : spelling_invariance(outcome, respelled_outcome);
}

// MessagePack bytes as the document they hold: compared so, a NaN equals a
// NaN whatever its payload bits, which the object form's JSON text (NaN)
// cannot carry from msgspec's bytes to `params encode --msgpack`.
Result<Json> msgpack_document(const Result<std::string>& bytes) {
  if (!bytes) return bytes.error();
  return from_msgpack(*bytes);
}

// Every command that reads JSON reads it through the one door
// (parse_bounded_json): bytes the door refused are refused by each command with
// the door's own error body, byte for byte. The request target's inputs are
// the JSON that fails most often; the other laws hand the commands only the
// JSON forms the core wrote.
Violations commands_share_the_door(std::string_view bytes, const Json& door_error) {
  Violations out = command_agrees("poolcheck compress", compress_json(bytes), door_error);
  append(out, command_agrees("poolcheck batch", batch_json(bytes), door_error));
  append(out, command_agrees("poolcheck params encode", params_encode_json(bytes), door_error));
  append(out, command_agrees("poolcheck params encode --msgpack", msgpack_document(params_encode_msgpack(bytes)),
                             door_error));
  append(out, command_agrees("poolcheck params decode", params_decode_json(bytes), door_error));
  append(out, command_agrees("poolcheck verify", verify_json(bytes), door_error));
  return out;
}

bool full_check(std::string_view bytes, const CheckDepth& how) {
  return how.full_check_one_in <= 1 || sampling_hash(bytes) % how.full_check_one_in == 0;
}

// Whether printed-reads-back runs: on a full check, and on every input that
// holds a value the printer writes by hand (NaN, an infinity, an integer
// beyond 64 bits). Those cases are where a printer slips, and the walk of the
// document costs far less than printing and reading back the outcome.
bool prints_outcome(bool full, const Result<Json>& document) {
  return full || (document && holds_hand_printed_value(*document));
}

// The laws of the JSON door itself, on every text it was given, and its size
// bound, at an edge no such text reaches.
Violations door_laws(std::string_view bytes, const Result<Json>& document) {
  Violations out = nesting_limit_exact(bytes, document);
  append(out, keys_once(document));
  append(out, utf8_refusal_exact(bytes, document));
  append(out, escape_refusal_exact(bytes, document));
  append(out, input_size_bound());
  return out;
}

CheckResult check_request(std::string_view bytes, const CheckDepth& how) {
  auto document = parse_bounded_json(bytes);
  Violations door = door_laws(bytes, document);
  if (!document) {
    CheckResult result = rejected(document.error());
    append(result.violations, std::move(door));
    append(result.violations, command_agrees("poolcheck preprocess", preprocess_json(bytes), result.outcome));
    if (full_check(bytes, how)) append(result.violations, commands_share_the_door(bytes, result.outcome));
    return result;
  }
  const bool full = full_check(bytes, how);
  CheckResult result = check_document(*document, how.padded_token_budget, full);
  append(result.violations, std::move(door));
  if (result.over_budget || !prints_outcome(full, document)) return result;
  const std::string printed = dump_json(result.outcome);
  append(result.violations, printed_reads_back(printed, result.outcome));
  if (full) {
    append(result.violations, rerun_laws(bytes, *document, printed));
    append(result.violations, json_comparator_sees_each_value(*document));
  }
  return result;
}

// `poolcheck params` on the forms of params the core decoded (`object`, its
// object form): encode to the JSON view and to MessagePack, decode the view.
Violations params_commands_agree(const PoolingParams& params, const Json& object) {
  const std::string printed = dump_json(object);
  const Json view = encode_wire(params);
  Violations out = command_agrees("poolcheck params encode", params_encode_json(printed), view);
  append(out, command_agrees("poolcheck params decode", params_decode_json(dump_json(view)), object));
  auto msgpack = msgpack_document(encode_wire_msgpack(params));
  append(out, command_agrees("poolcheck params encode --msgpack", msgpack_document(params_encode_msgpack(printed)),
                             msgpack ? *msgpack : error_body(msgpack.error())));
  return out;
}

// The wire's output_kind is its tenth element.
CheckResult rejected_wire(const Result<Json>& raw, const Error& error) {
  const bool has_kind = raw && raw->is_array() && raw->size() >= 10;
  return rejected(error, has_kind ? &(*raw)[9] : nullptr);
}

// decode_wire_msgpack in its two steps, so that a rejection reads its
// output_kind from the array already decoded.
CheckResult check_params_wire(std::string_view bytes, const CheckDepth& how) {
  const auto raw = from_msgpack(bytes);
  auto decoded = raw ? decode_wire(*raw) : Result<PoolingParams>(raw.error());
  CheckResult result = decoded ? CheckResult{wire_bytes_fixed_point(*raw, *decoded), true, params_to_object(*decoded)}
                               : rejected_wire(raw, decoded.error());
  append(result.violations, msgpack_utf8_refusal_exact(bytes, raw));
  append(result.violations, msgpack_refusal_exact(bytes, raw));
  if (raw) append(result.violations, wire_lengths_due(*raw, decoded));
  if (raw) append(result.violations, wire_type_refusals_due(*raw, decoded));
  if (decoded) append(result.violations, object_form_exact(result.outcome, *decoded, "the decoded params"));
  if (!full_check(bytes, how)) return result;
  if (raw) append(result.violations, msgpack_values_exact(bytes, *raw));
  if (raw) append(result.violations, json_comparator_sees_each_value(*raw));
  append(result.violations, command_agrees("poolcheck params decode --msgpack", params_decode_msgpack(bytes),
                                           result.outcome));
  if (decoded) {
    append(result.violations, params_commands_agree(*decoded, result.outcome));
    append(result.violations, comparator_sees_each_field(*decoded));
  }
  return result;
}

// A worker batch of at most this many requests. Byte mutations make inputs
// with a thousand negatives, and a thousand requests, each with its own params
// and extras, cost a hundred times the decoding (profile in Fuzzing.md,
// "Performance") while the batch law's cases (a boundary, none, null, past
// the end, requests without params) all fit in a few requests.
constexpr std::size_t kMaxBatchRequests = 8;

// Splits the types at negative values into worker requests: each segment is a
// request whose boundary is its compression (none when that fails), every
// third one without params at all. Negatives past the last request's start
// separate nothing: their segments join the last request.
std::vector<BatchRequest> batch_from_types(const std::vector<std::int64_t>& types) {
  std::vector<BatchRequest> batch;
  batch.reserve(kMaxBatchRequests);  // growing would copy each request's params
  std::vector<std::int64_t> segment;
  auto flush = [&] {
    BatchRequest request;
    request.seq_len = static_cast<std::int64_t>(segment.size());
    if (batch.size() % 3 != 2) {
      request.params = PoolingParams{};
      if (auto k = compress_token_types(segment))
        request.params->extra_kwargs = std::make_shared<Json>(Json{{std::string(kCompressedTokenTypeIds), *k}});
    }
    batch.push_back(std::move(request));
    segment.clear();
  };
  for (std::int64_t t : types) {
    if (t >= 0) segment.push_back(t);
    else if (batch.size() + 1 < kMaxBatchRequests) flush();
  }
  flush();
  return batch;
}

// `poolcheck compress`, `reconstruct` and `batch` on the same types, in the
// JSON forms a user gives them. `k` and `compressed` are the core's own
// compression of `types` and its printed outcome.
Violations token_type_commands_agree(const std::vector<std::int64_t>& types, const Result<std::int64_t>& k,
                                     const Json& compressed, std::span<const BatchRequest> batch) {
  Violations out = command_agrees("poolcheck compress", compress_json(dump_json(Json(types))), compressed);
  const auto len = static_cast<std::int64_t>(types.size());
  // A list over {0, 1} that compresses is 0*1*: its boundary rebuilds it (spec 3).
  if (k && std::all_of(types.begin(), types.end(), [](std::int64_t t) { return t == 0 || t == 1; }))
    append(out, command_agrees("poolcheck reconstruct " + std::to_string(*k) + " " + std::to_string(len),
                               reconstruct_json(*k, len), Json{{"token_type_ids", types}}));
  // LEN < 0 is rejected (spec 10.14), whatever K: at the edge and further
  // out; LEN above the limit too (cheap: refusals build no list). LEN up to
  // the limit is taken, at the edge and as far inside: judged by the bound the
  // command checks, as an answer of 2^24 types is too big to build per input.
  for (const std::int64_t refused : {std::int64_t{-1}, -2 - len, kMaxTotalTokens + 1 + len})
    append(out, reconstruct_bounds(len, refused));
  for (const std::int64_t taken : {kMaxTotalTokens, kMaxTotalTokens - std::min(len, kMaxTotalTokens)})
    append(out, reconstruct_len_taken(taken));
  auto batched = batch_token_types(batch);
  const Json want = !batched ? error_body(batched.error())
                    : *batched ? Json{{"token_type_ids", **batched}}
                               : Json{{"token_type_ids", nullptr}};
  const Json input = batch_command_input(batch);
  append(out, command_agrees("poolcheck batch", batch_json(dump_json(input)), want));
  append(out, batch_shape_refused(input, batch_json));
  return out;
}

// What `poolcheck compress` prints for `k`.
Json compression_outcome(const Result<std::int64_t>& k) {
  return k ? Json{{"compressed_token_type_ids", *k}} : error_body(k.error());
}

CheckResult check_token_types(std::string_view bytes, const CheckDepth& how) {
  const auto types = token_types_from_bytes(bytes);
  const auto k = compress_token_types(types);
  CheckResult result{compression_law(types, k), false, nullptr};
  result.accepted = k.ok();
  result.outcome = compression_outcome(k);
  if (!k) append(result.violations, error_law(k.error()));

  const auto batch = batch_from_types(types);
  append(result.violations, batch_law(batch));
  // Packing: synthetic ids below 2^30, with the types when they fit in one bit.
  std::vector<std::int64_t> ids(types.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>((i * 2654435761u) % (1u << 30));
  std::vector<std::int64_t> bits;
  for (std::int64_t t : types)
    if (t == 0 || t == 1) bits.push_back(t);
  append(result.violations, packing_law(ids, bits));
  if (!ids.empty()) append(result.violations, packing_law(std::span(ids).first(ids.size() / 2), bits));
  if (!full_check(bytes, how)) return result;
  if (how.command_types_limit == 0 || types.size() <= how.command_types_limit) {
    append(result.violations, token_type_commands_agree(types, k, result.outcome, batch));
    return result;
  }
  // The commands on a prefix, judged by the core's own answers for it.
  const std::vector<std::int64_t> prefix(types.begin(), types.begin() + how.command_types_limit);
  const auto prefix_k = compress_token_types(prefix);
  append(result.violations,
         token_type_commands_agree(prefix, prefix_k, compression_outcome(prefix_k), batch_from_types(prefix)));
  return result;
}

// verify and its laws; on a full check also the wire round trip of the
// verified params (the params_wire target round-trips every input's params).
CheckResult verified_run(const VerifyInput& input, bool full) {
  auto run = verify_with_laws(input.model, input.params);
  const auto& verified = run.verified;
  CheckResult result{std::move(run.violations), verified.ok(),
                     verified ? params_to_object(*verified) : error_body(verified.error())};
  if (!verified) return result;
  append(result.violations, object_form_exact(result.outcome, *verified, "the verified params"));
  if (full) append(result.violations, params_round_trip(*verified));
  return result;
}

// parse_verify_input in its two steps, so that a rejection reads its
// output_kind from the document already parsed.
CheckResult check_verify(std::string_view bytes, const CheckDepth& how) {
  const auto document = parse_bounded_json(bytes);
  auto parsed = document ? verify_input_from_document(*document) : Result<VerifyInput>(document.error());
  const bool full = full_check(bytes, how);
  CheckResult result =
      parsed ? verified_run(*parsed, full)
             : rejected(parsed.error(), document ? at_path(*document, {"pooling_params", "output_kind"}) : nullptr);
  append(result.violations, door_laws(bytes, document));
  if (document && !parsed) {
    append(result.violations, missing_field_named(*document, nullptr, parsed.error()));
    append(result.violations, refusal_names_a_place(*document, parsed.error()));
  }
  if (parsed) {
    append(result.violations, model_read_as_written(*document, parsed->model));
    append(result.violations,
           params_read_as_written(*document->find("pooling_params"), &parsed->params));
  }
  if (prints_outcome(full, document))
    append(result.violations, printed_reads_back(dump_json(result.outcome), result.outcome));
  if (full) append(result.violations, command_agrees("poolcheck verify", verify_json(bytes), result.outcome));
  return result;
}

// The outcomes alone: each target's core, as its check runs it, and no law.

CheckResult refused(const Error& error) { return {{}, false, error_body(error)}; }

template <class Value>
CheckResult answered(const Result<Value>& got, Json outcome) {
  return got ? CheckResult{{}, true, std::move(outcome)} : refused(got.error());
}

CheckResult request_alone(std::string_view bytes, const CheckDepth& how) {
  auto document = parse_bounded_json(bytes);
  if (!document) return refused(document.error());
  auto envelope = envelope_from_json(*document);
  if (!envelope) return refused(envelope.error());
  if (over_padded_budget(*envelope, how.padded_token_budget)) {
    CheckResult result = answered(plan_prompt_lengths(envelope->model, envelope->request), nullptr);
    result.over_budget = true;
    return result;
  }
  auto output = preprocess(envelope->model, envelope->request);
  return answered(output, output ? preprocess_output_to_json(*output, envelope->request) : Json());
}

CheckResult params_wire_alone(std::string_view bytes) {
  auto decoded = decode_wire_msgpack(bytes);
  return answered(decoded, decoded ? params_to_object(*decoded) : Json());
}

CheckResult token_types_alone(std::string_view bytes) {
  const auto k = compress_token_types(token_types_from_bytes(bytes));
  return {{}, k.ok(), compression_outcome(k)};
}

CheckResult verify_alone(std::string_view bytes) {
  auto verified = verify_json(bytes);
  return answered(verified, verified ? *verified : Json());
}

}  // namespace

CheckResult check_request_input(std::string_view bytes) { return check_request_input(bytes, CheckDepth{}); }
CheckResult check_request_input(std::string_view bytes, const CheckDepth& how) {
  return guarded([&] { return check_request(bytes, how); });
}
CheckResult check_params_wire_input(std::string_view bytes) { return check_params_wire_input(bytes, CheckDepth{}); }
CheckResult check_params_wire_input(std::string_view bytes, const CheckDepth& how) {
  return guarded([&] { return check_params_wire(bytes, how); });
}
CheckResult check_token_types_input(std::string_view bytes) { return check_token_types_input(bytes, CheckDepth{}); }
CheckResult check_token_types_input(std::string_view bytes, const CheckDepth& how) {
  return guarded([&] { return check_token_types(bytes, how); });
}
CheckResult check_verify_input(std::string_view bytes) { return check_verify_input(bytes, CheckDepth{}); }
CheckResult check_verify_input(std::string_view bytes, const CheckDepth& how) {
  return guarded([&] { return check_verify(bytes, how); });
}

CheckResult request_outcome(std::string_view bytes, const CheckDepth& how) {
  return guarded([&] { return request_alone(bytes, how); });
}
CheckResult params_wire_outcome(std::string_view bytes, const CheckDepth&) {
  return guarded([&] { return params_wire_alone(bytes); });
}
CheckResult token_types_outcome(std::string_view bytes, const CheckDepth&) {
  return guarded([&] { return token_types_alone(bytes); });
}
CheckResult verify_outcome(std::string_view bytes, const CheckDepth&) {
  return guarded([&] { return verify_alone(bytes); });
}

const std::vector<Target>& targets() {
  static const std::vector<Target> all{{"request", check_request_input},
                                       {"params_wire", check_params_wire_input},
                                       {"token_types", check_token_types_input},
                                       {"verify", check_verify_input}};
  return all;
}

const Target* find_target(std::string_view name) {
  for (const auto& target : targets())
    if (target.name == name) return &target;
  return nullptr;
}

// Unpadded prompts are bounded by the input's own size, so only padding
// counts. Divided, not multiplied: max_model_len has no upper bound of its own
// (the core bounds the total output, spec 10.15), so the product could overflow.
bool over_padded_budget(const Envelope& envelope, std::int64_t budget) {
  if (budget <= 0 || !envelope.request.pad_to_max_length) return false;
  const auto pairs = static_cast<std::int64_t>(
      std::max(envelope.request.queries.size(), envelope.request.documents.size()));
  return pairs > 0 && envelope.model.max_model_len > budget / pairs;
}

std::vector<std::int64_t> token_types_from_bytes(std::string_view bytes) {
  std::vector<std::int64_t> types;
  types.reserve(bytes.size());
  for (unsigned char b : bytes) types.push_back(b >= 0xFC ? static_cast<std::int64_t>(b) - 0x100 : b % 3);
  return types;
}

}  // namespace poolcheck::laws
