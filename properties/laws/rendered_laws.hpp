#pragma once
// Laws over what a user reads: the JSON the commands print, not the core's
// structures. A slip in rendering (a key added to a prompt, the object form's
// keys reordered) or in a command's own bytes-in path (core/json_api.hpp)
// leaves every structure right and is seen only here.
#include <span>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/pooling_params.hpp"
#include "core/token_types.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// The object form of `params` as printed (spec section 2): exactly the ten
// keys, in wire order, output_kind "FINAL_ONLY", a late_interaction_params
// object with exactly mode, query_key and query_uses. With `read_back`, the
// printed object also reads back to `params` (the costlier half). `what`
// names the object in a violation ("pair 3's pooling_params").
Violations object_form_exact(const Json& object, const PoolingParams& params, const std::string& what,
                             bool read_back = true);

// Law "error-body-exact": a refusal as printed is {"error": {"message",
// "type", "param", "code"}}, exactly those keys in that order, holding the
// error's values (param null when it has none): the form vLLM's
// ErrorResponse takes.
Violations error_body_exact(const Json& body, const Error& error);

// A command's bytes-in path answered what the laws' own run of the core
// answered: the same output, or the same error body. `command` is how a user
// runs it ("poolcheck compress").
Violations command_agrees(std::string_view command, const Result<Json>& answer, const Json& expected);

// Law "reconstruct-bounds": `poolcheck reconstruct K LEN` refuses LEN < 0
// (spec 10.14) and LEN above kMaxTotalTokens, each with its exact message,
// and answers every LEN between with LEN types, 0s then 1s from K (spec 3).
// The accepted edge is an answer of 2^24 types: callers choose when to pay.
Violations reconstruct_bounds(std::int64_t k, std::int64_t len);
// Law "reconstruct-bounds", the accepted side without the answer: LEN in
// [0, kMaxTotalTokens] passes the bound the command checks
// (check_reconstruct_len), so a fuzz input probes LEN = 2^24 at no cost.
Violations reconstruct_len_taken(std::int64_t len);

// A command that reads JSON text: batch_json, or a stand-in in a law test.
using JsonCommand = Result<Json> (*)(std::string_view input);
// Law "batch-shape-refused": `poolcheck batch` refuses its input with the
// shape broken at each level, naming the place (docs/decisions.md, "Wire shape
// errors", gives the form): not a list (`$: Input should be a valid list`), its
// last request not an object (`$[n]: Input should be a valid object`), that
// request without its seq_len (`$[n].seq_len: Field required`) or with a
// number for its params (`$[n].pooling_params: Input should be a valid
// object`). `input` is a
// good batch input (batch_command_input); the messages are spelled here, apart
// from the core's.
Violations batch_shape_refused(const Json& input, JsonCommand batch);

// Law "printed-reads-back": what a command prints, `printed` (dump_json of
// `outcome`), read back as Python's json.loads reads it, is `outcome` again:
// a NaN stays NaN, an integer beyond 64 bits keeps its digits, a string its
// bytes (spec 11.3). Outcomes whose strings came from JSON input only: one
// decoded from MessagePack may hold bytes that are no UTF-8, which the printer
// replaces on purpose. A printed outcome past the reader's 8 MiB is not judged.
Violations printed_reads_back(std::string_view printed, const Json& outcome);
// Whether `value` holds a scalar the printer writes by hand rather than
// through nlohmann's serializer (core/output_json.cpp): NaN, an infinity, an
// integer beyond 64 bits. A value of the input reaches the outcome as it is,
// so an input holding none gives the hand-written cases nothing to print.
bool holds_hand_printed_value(const Json& value);

// Whether `object` is an object with exactly `keys`, in that order. Compared
// in place: the request laws ask it of every printed pair.
bool has_exactly_keys(const Json& object, std::span<const std::string_view> keys);
// A worker batch as `poolcheck batch` reads it:
// [{"pooling_params": object form or null, "seq_len": n}, ...].
Json batch_command_input(std::span<const BatchRequest> batch);

// The keys of a JSON object, in order, printed as a list: ["a","b"] (for messages).
std::string key_list(const Json& object);
// `keys` printed the same way.
std::string quoted_list(std::span<const std::string_view> keys);

}  // namespace poolcheck::laws
