#include "properties/laws/check.hpp"

#include <exception>

#include "core/envelope.hpp"
#include "core/json_api.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "core/preprocess.hpp"
#include "core/tokenizer.hpp"
#include "core/verify.hpp"
#include "core/wire.hpp"
#include "properties/laws/coercion_laws.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/laws/request_laws.hpp"
#include "properties/laws/token_type_laws.hpp"
#include "properties/laws/verify_laws.hpp"

namespace poolcheck::laws {
namespace {

CheckResult rejected(const Error& error) { return {error_law(error), false, error_body(error)}; }

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
Json preprocess_outcome(std::string_view bytes) {
  auto outcome = preprocess_json(bytes);
  return outcome ? std::move(*outcome) : error_body(outcome.error());
}

// The coercion-invariance law on one typed field, respelled; which field and
// which spelling follow from the input's own hash, so a finding reproduces.
Violations respelled_run(std::string_view bytes, const Json& document, const std::string& outcome) {
  const auto respelled = respell_one_field(document, fnv1a32(bytes));
  if (!respelled) return {};
  const std::string respelled_bytes = dump_json(respelled->envelope);
  if (respelled_bytes.size() > kMaxInputBytes) return {};  // the respelling itself would be refused
  return coercion_invariance(outcome, dump_json(preprocess_outcome(respelled_bytes)), respelled->what);
}

// One run over a parsed document: the envelope, pre-processing, and the laws
// that judge that run (an accepted one's, or a rejection's).
CheckResult check_document(const Json& document) {
  auto envelope = envelope_from_json(document);
  if (!envelope) return rejected(envelope.error());
  const auto& caller = envelope->request.caller_params;
  const std::optional<PoolingParams> caller_before =
      caller ? std::optional<PoolingParams>(caller->clone()) : std::nullopt;
  auto output = preprocess(envelope->model, envelope->request);
  CheckResult result = output ? CheckResult{request_laws({*envelope, caller_before, *output}), true,
                                            preprocess_output_to_json(*output, envelope->request)}
                              : rejected(output.error());
  append(result.violations, score_union(*document.find("request"), envelope->request));  // there: the envelope parsed
  if (!output) {
    append(result.violations, pairing_rejection(envelope->request, output.error()));
    const PreprocessOutput none;
    append(result.violations, context_length_rejection({*envelope, caller_before, none}, output.error()));
  }
  return result;
}

// The laws that run the input again, for every parsed document, rejected or not:
// determinism, and coercion invariance (most refusals happen while the
// request's fields are read, so they must be covered too).
CheckResult check_request(std::string_view bytes) {
  auto document = parse_bounded_json(bytes);
  if (!document) return rejected(document.error());
  CheckResult result = check_document(*document);
  const std::string outcome = dump_json(result.outcome);
  if (dump_json(preprocess_outcome(bytes)) != outcome)
    result.violations.push_back({"determinism", "a second run of the same input gave a different output"});
  append(result.violations, respelled_run(bytes, *document, outcome));
  return result;
}

CheckResult check_params_wire(std::string_view bytes) {
  auto decoded = decode_wire_msgpack(bytes);
  if (!decoded) return rejected(decoded.error());
  return {wire_bytes_fixed_point(bytes), true, params_to_object(*decoded)};
}

// Splits the types at negative values into worker requests: each segment is a
// request whose boundary is its compression (none when that fails), every
// third one without params at all.
std::vector<BatchRequest> batch_from_types(const std::vector<std::int64_t>& types) {
  std::vector<BatchRequest> batch;
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
    if (t < 0) flush();
    else segment.push_back(t);
  }
  flush();
  return batch;
}

CheckResult check_token_types(std::string_view bytes) {
  const auto types = token_types_from_bytes(bytes);
  CheckResult result{compression_law(types), false, nullptr};
  auto k = compress_token_types(types);
  result.accepted = k.ok();
  result.outcome = k ? Json{{"compressed_token_type_ids", *k}} : error_body(k.error());
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
  return result;
}

CheckResult check_verify(std::string_view bytes) {
  auto parsed = parse_verify_input(bytes);
  if (!parsed) return rejected(parsed.error());
  CheckResult result{verify_law(parsed->model, parsed->params), false, nullptr};
  auto verified = verify_params(parsed->params, parsed->model);
  result.accepted = verified.ok();
  result.outcome = verified ? params_to_object(*verified) : error_body(verified.error());
  return result;
}

}  // namespace

CheckResult check_request_input(std::string_view bytes) {
  return guarded([&] { return check_request(bytes); });
}
CheckResult check_params_wire_input(std::string_view bytes) {
  return guarded([&] { return check_params_wire(bytes); });
}
CheckResult check_token_types_input(std::string_view bytes) {
  return guarded([&] { return check_token_types(bytes); });
}
CheckResult check_verify_input(std::string_view bytes) {
  return guarded([&] { return check_verify(bytes); });
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

std::vector<std::int64_t> token_types_from_bytes(std::string_view bytes) {
  std::vector<std::int64_t> types;
  types.reserve(bytes.size());
  for (unsigned char b : bytes) types.push_back(b >= 0xFC ? static_cast<std::int64_t>(b) - 0x100 : b % 3);
  return types;
}

}  // namespace poolcheck::laws
