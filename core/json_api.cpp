#include "core/json_api.hpp"

#include <exception>
#include <vector>

#include "core/envelope.hpp"
#include "core/fields.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "core/preprocess.hpp"
#include "core/token_types.hpp"
#include "core/verify.hpp"
#include "core/wire.hpp"

namespace poolcheck {
namespace {

// Runs `body`, turning any escaping exception into an internal error.
template <class T, class Body>
Result<T> guarded(Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return Error::internal(std::string("Internal error: ") + e.what());
  } catch (...) {
    return Error::internal("Internal error: unknown exception");
  }
}

Result<std::vector<BatchRequest>> batch_from_json(const Json& input) {
  if (!input.is_array()) return type_error("$", "list");
  std::vector<BatchRequest> batch;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const std::string path = "$[" + std::to_string(i) + "]";
    if (!input[i].is_object()) return type_error(path, "object");
    Fields fields(input[i], path + ".");
    BatchRequest request;
    const Json* params = fields.find("pooling_params");
    if (params != nullptr && !params->is_null()) {
      auto parsed = params_from_object(*params, fields.path("pooling_params"));
      if (!parsed) return parsed.error();
      request.params = std::move(*parsed);
    }
    auto seq_len = fields.integer("seq_len", Null::IsError);
    if (!seq_len) return seq_len.error();
    if (!*seq_len) return missing_error(fields.path("seq_len"));
    request.seq_len = **seq_len;
    batch.push_back(std::move(request));
  }
  return batch;
}

Result<PoolingParams> params_from_input(std::string_view input) {
  auto document = parse_bounded_json(input);
  if (!document) return document.error();
  return params_from_object(*document, "pooling_params");
}

}  // namespace

Result<Json> preprocess_json(std::string_view input) {
  return guarded<Json>([&]() -> Result<Json> {
    auto envelope = parse_envelope(input);
    if (!envelope) return envelope.error();
    auto output = preprocess(envelope->model, envelope->request);
    if (!output) return output.error();
    return preprocess_output_to_json(*output, envelope->request);
  });
}

Result<Json> compress_json(std::string_view input) {
  return guarded<Json>([&]() -> Result<Json> {
    auto document = parse_bounded_json(input);
    if (!document) return document.error();
    auto types = read_int_list(*document, "$");
    if (!types) return types.error();
    auto k = compress_token_types(*types);
    if (!k) return k.error();
    return Json{{"compressed_token_type_ids", *k}};
  });
}

MaybeError check_reconstruct_len(std::int64_t len) {
  if (len < 0) return lower_bound_error("LEN", 0);
  if (len > kMaxTotalTokens)
    return Error::bad_request("LEN may be at most " + std::to_string(kMaxTotalTokens) + ".", "LEN");
  return std::nullopt;
}

Result<Json> reconstruct_json(std::int64_t k, std::int64_t len) {
  return guarded<Json>([&]() -> Result<Json> {
    if (auto e = check_reconstruct_len(len)) return *e;
    return Json{{"token_type_ids", reconstruct_token_types(k, len)}};
  });
}

Result<Json> batch_json(std::string_view input) {
  return guarded<Json>([&]() -> Result<Json> {
    auto document = parse_bounded_json(input);
    if (!document) return document.error();
    auto batch = batch_from_json(*document);
    if (!batch) return batch.error();
    auto types = batch_token_types(*batch);
    if (!types) return types.error();
    return Json{{"token_type_ids", *types ? Json(**types) : Json(nullptr)}};
  });
}

Result<Json> params_encode_json(std::string_view input) {
  return guarded<Json>([&]() -> Result<Json> {
    auto params = params_from_input(input);
    if (!params) return params.error();
    return encode_wire(*params);
  });
}

Result<std::string> params_encode_msgpack(std::string_view input) {
  return guarded<std::string>([&]() -> Result<std::string> {
    auto params = params_from_input(input);
    if (!params) return params.error();
    return encode_wire_msgpack(*params);
  });
}

Result<Json> params_decode_json(std::string_view input) {
  return guarded<Json>([&]() -> Result<Json> {
    auto document = parse_bounded_json(input);
    if (!document) return document.error();
    auto params = decode_wire(*document);
    if (!params) return params.error();
    return params_to_object(*params);
  });
}

Result<Json> params_decode_msgpack(std::string_view bytes) {
  return guarded<Json>([&]() -> Result<Json> {
    auto params = decode_wire_msgpack(bytes);
    if (!params) return params.error();
    return params_to_object(*params);
  });
}

Result<Json> verify_json(std::string_view input) {
  return guarded<Json>([&]() -> Result<Json> {
    auto parsed = parse_verify_input(input);
    if (!parsed) return parsed.error();
    auto verified = verify_params(parsed->params, parsed->model);
    if (!verified) return verified.error();
    return params_to_object(*verified);
  });
}

}  // namespace poolcheck
