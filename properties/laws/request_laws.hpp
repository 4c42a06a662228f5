#pragma once
// The laws of spec section 8 over one pre-processing run that was accepted.
// Each derives what it expects from the input (the envelope and a snapshot of
// the caller's params taken before the run), not from the core's internals.
#include <optional>
#include <span>

#include "core/envelope.hpp"
#include "core/preprocess.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

struct RequestRun {
  const Envelope& envelope;
  // A deep snapshot of envelope.request.caller_params taken before the run.
  const std::optional<PoolingParams>& caller_before;
  const PreprocessOutput& output;
  // The output as `poolcheck preprocess` prints it (preprocess_output_to_json):
  // what the user reads, and what the prompt-extras and rendered laws judge.
  const Json& rendered;
  // False: the pairs' params skip the wire round trip, their printed object
  // forms are checked for their keys but not read back, and the inputs' word
  // split is not re-derived (laws::CheckDepth::full_check_one_in says when).
  bool full_check = true;
};

// Every key of the base extra_kwargs is in every pair's, deep-equal
// (compressed_token_type_ids excepted, whose value is the computed one).
Violations keys_never_lost(const RequestRun& run);
// The caller's params and the base are as before; no pair's extra_kwargs
// aliases the caller's, and pairs given their own params share them with no one.
Violations nothing_mutated(const RequestRun& run);
// For aligned types: same length as the ids, and
// reconstruct(k, len(prompt_token_ids)) gives them back.
Violations compression_round_trips(const RequestRun& run);
// One output per pair, request ids <base>-0..n-1, and (untruncated) each
// pair holds its own document's tokens, in document order.
Violations lengths_and_order(const RequestRun& run);
// Each printed engine prompt holds exactly the keys prompt_token_ids, then
// multi_modal_data (the pair's images, when it has any), then the non-null
// extras (cache_salt, mm_processor_kwargs), with the values the input gave:
// no other key, so never chat_template_kwargs.
Violations prompt_extras_exact(const RequestRun& run);
// The printed output as a whole: {"outputs"} (offline also
// "caller_pooling_params", null without a caller), an entry per pair with
// exactly request_id, prompt and pooling_params, each printing what the run
// holds (ids, request id, params in object form), and the caller's params as
// they are after the run.
Violations rendered_outputs_exact(const RequestRun& run);
// An accepted online request's cache_salt is valid (#46966: an empty salt
// silently shared the unsalted prefix cache): so fuzzing, which knows no
// defect, still finds an acceptance the validation should have refused.
Violations salt_valid(const RequestRun& run);
// No prompt exceeds its target (max_model_len without one); padding fills to
// max_model_len exactly; longest-first keeps every special token.
Violations truncation_bounds(const RequestRun& run);
// Each pair's prompt ids and token types are exactly those of a naive
// reference of section 7 (token limits, longest-first a word at a time, the
// window on the requested or the model's side, padding).
Violations prompt_exact(const RequestRun& run);

// Pairing (spec section 6) of an accepted request: the side lengths are 1:1,
// 1:N or N:N, a {"content": [...]} input only for a multimodal model, at most
// one image per pair, and (query uncut) pair i starts with its own query's
// tokens, query 0 for 1:N and query i for N:N.
Violations pairing_cardinality(const RequestRun& run);

// Every text of the request (string inputs and text parts) splits and
// tokenises as the spec says (laws::words_split), and an input of content
// parts tokenises to its parts in order (laws::parts_tokenised). Full checks only.
Violations inputs_split_as_specified(const RequestRun& run);
// An accepted request's prompts hold at most kMaxTotalTokens (2^24) ids
// together (spec 10.15): the bound is the request's, not each pair's.
Violations token_total_bound(const RequestRun& run);
// All of the above, plus the wire round trip of the pairs' params.
Violations request_laws(const RequestRun& run);

// The score union (spec 11.5) of an accepted score body: its sides are those
// the first complete shape, in union order, gives when it stands alone and
// validates; the other shapes' keys change nothing.
Violations score_union(const Json& body, const ScoringRequest& request);
// Law "sides-read-as-written": a request the core read holds, as its queries
// and documents, the inputs the body writes, read by the law (a string, or a
// {"content": [...]} of text and image_url parts; one input or a list): at
// `query`/`documents` (rerank), `data_1`/`data_2` (LLM.score), or the first
// complete score shape whose sides the law reads (spec 11.5). Every other law
// of the sides takes them from the core's reading, which a slip there moves
// with them: automatic mutants of core/request.cpp's parse_score_input and
// parse_side (a string read as an object, a content list's first part or a
// side's input dropped) passed every law.
Violations sides_read_as_written(const Json& body, const ScoringRequest& request);
// The same law for a refused score envelope (as `poolcheck preprocess` reads
// it) whose body has a complete shape: when the body with only one of its
// complete shapes is accepted, the union had a shape that validates and must
// not have refused; when none is, the error is the one the first complete
// shape gives standing alone (the other shapes' keys, complete or not, change
// nothing). The body alone is parsed first, so a refusal from elsewhere in the
// envelope (the model) is not judged.
Violations score_union_refusal(const Json& envelope);
// The same law over another parser of online bodies (the law's tests hand it
// one that returns the first class's error).
Violations score_union_refusal(const Json& envelope, OnlineParser parse);

// A pre-processing rejection with a pairing message names the defect the
// request calls for, in the spec's order: a {"content": [...]} input for a
// model that is not multimodal (`MultiModalParam is not supported for <its
// architecture>`), then len1 > 1 and len1 != len2, then len1 == 0, then
// len2 == 0. `Only one multi-modal item is supported` needs a pair with two
// images or more.
Violations pairing_rejection(const Envelope& envelope, const Error& error);

// A context-length rejection (`run.output` empty) is for the first pair whose
// untruncated prompt, as prompt_exact's reference builds it, is longer than
// max_model_len, and quotes that pair's length.
Violations context_length_rejection(const RequestRun& run, const Error& error);
// A rejection for too many prompt tokens (`run.output` empty) is for pairs
// that, as prompt_exact's reference builds them, hold more than
// kMaxTotalTokens (2^24) tokens together (spec 10.15).
Violations token_total_rejection(const RequestRun& run, const Error& error);
// A request decided without its tokens (plan_prompt_lengths: the fuzz
// targets' work budget) and accepted: one length per pair, each the length of
// the prompt prompt_exact's reference builds, and together at most
// kMaxTotalTokens, as token_total_bound asks of a built output.
Violations planned_lengths_exact(const RequestRun& run, std::span<const std::int64_t> lengths);

}  // namespace poolcheck::laws
