#pragma once
// The library's boundary: one bytes-in, JSON-out function per command of
// `poolcheck`. Exceptions stop here; a caught one is an internal error (500),
// which the laws report as a bug of the core.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck {

// {"endpoint", "model"?, "request"} -> {"outputs": [...], "caller_pooling_params"?}
Result<Json> preprocess_json(std::string_view input);
// [int, ...] -> {"compressed_token_type_ids": k}
Result<Json> compress_json(std::string_view input);
// -> {"token_type_ids": [...]}; LEN outside [0, kMaxTotalTokens] is rejected.
Result<Json> reconstruct_json(std::int64_t k, std::int64_t len);
// reconstruct_json's bound on LEN alone: its error, or none when LEN passes.
MaybeError check_reconstruct_len(std::int64_t len);
// [{"pooling_params": {...} or null, "seq_len": n}, ...] -> {"token_type_ids": [...] or null}
Result<Json> batch_json(std::string_view input);
// Object form -> the wire form's JSON view, or its MessagePack bytes.
Result<Json> params_encode_json(std::string_view input);
Result<std::string> params_encode_msgpack(std::string_view input);
// The wire form's JSON view, or MessagePack bytes -> object form.
Result<Json> params_decode_json(std::string_view input);
Result<Json> params_decode_msgpack(std::string_view bytes);
// {"model": {...}, "pooling_params": {...}} -> the verified params, object form.
Result<Json> verify_json(std::string_view input);

}  // namespace poolcheck
