#pragma once
// RapidCheck generators of the core's inputs: the shared pieces (JSON values
// with adversarial keys, PoolingParams over every field, model configs).
// Shrinking: this RapidCheck's element/elementOf/weightedElement/oneOf do not
// shrink at all, and inRange shrinks towards its minimum (and draws from a
// range that grows with the test size). chance(), optional_of() and pick()
// below add the shrink towards the plainest choice (false, nothing, the first
// choice), so a minimal counterexample is the plainest input that still fails.
// Only the suites include this header (it pulls in RapidCheck).
#include <rapidcheck.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/model.hpp"
#include "core/pooling_params.hpp"

namespace poolcheck::props {

// True in about `percent` (1..99) of cases, shrinking to false. Only inside a
// generator's exec or a property body, where `*gen` may be used.
bool chance(int percent);

// One of `choices`, uniformly, shrinking to the first.
template <class T>
rc::Gen<T> pick(std::vector<T> choices) {
  const T first = choices.front();
  return rc::gen::shrink(rc::gen::elementOf(std::move(choices)), [first](const T& value) {
    return value == first ? rc::Seq<T>() : rc::seq::just(first);
  });
}

// A value from `gen` in about `percent` of cases, else nothing; shrinks to nothing.
template <class T>
rc::Gen<std::optional<T>> optional_of(rc::Gen<T> gen, int percent = 40) {
  const auto some = rc::gen::map(gen, [](T value) { return std::optional<T>(std::move(value)); });
  const auto either = rc::gen::weightedOneOf<std::optional<T>>(
      {{static_cast<std::size_t>(100 - percent), rc::gen::just(std::optional<T>())},
       {static_cast<std::size_t>(percent), some}});
  return rc::gen::shrink(either, [](const std::optional<T>& value) {
    return value ? rc::seq::just(std::optional<T>()) : rc::Seq<std::optional<T>>();
  });
}

// Valid UTF-8 of at most `max_length` code points: ASCII mostly, with NUL,
// quotes, Unicode whitespace, CJK, astral and private-use code points.
rc::Gen<std::string> gen_unicode_string(int max_length);
// One code point at the edges of the word split (laws::white_space_edges):
// a White_Space code point, which separates words, or one just outside a
// White_Space range, which is a word of its own. As UTF-8.
rc::Gen<std::string> gen_white_space();
rc::Gen<std::string> gen_white_space_neighbour();

// UTF-8 that is not well formed (RFC 3629), each refused at its first byte:
// a sequence broken at its second, third or fourth byte or cut off, and each
// sequence just past a lead byte's allowed range (overlong in each length, a
// surrogate at either end, past U+10FFFF, a lead byte no form has, a
// continuation byte alone). For JSON strings and MessagePack strings alike:
// the list, and a uniform draw from it.
const std::vector<std::string>& broken_utf8_sequences();
rc::Gen<std::string> gen_broken_utf8();
// JSON text as Python's json.dumps writes it by default (ensure_ascii): every
// non-ASCII code point as \uXXXX, an astral one as a surrogate pair; with
// `upper_case` the hex digits as other clients write them (\u00E9). The text
// must be valid UTF-8 (input_json's output is); non-ASCII occurs only in strings.
std::string ascii_escaped(std::string_view json_text, bool upper_case = false);

// JSON text as Python's json.dumps writes it, compact: NaN, Infinity and
// -Infinity as such, integers beyond 64 bits digit for digit. Every generated
// input is written with it, not with core/output_json.cpp's dump_json: the
// inputs must not share the printer whose slips the laws are there to show
// (a dump_json that wrote NaN as null also wrote every generated NaN as null,
// so no input held one and the slip went unseen).
std::string input_json(const Json& value);
// `compact` (input_json's output) with a newline and a space after every
// bracket and comma outside strings: the same document, with whitespace a
// parser must skip. A generator's helper, not the core's: no command prints
// it (it lived in core/output_json.cpp, where the automatic mutants of it
// changed only generated inputs).
std::string spread_json(const std::string& compact);
// Object keys a user may send: plain ones, the keys the core gives a meaning
// (compressed_token_type_ids, cache_salt, mm_processor_kwargs,
// max_tokens_per_query, ...), the empty key and Unicode keys.
rc::Gen<std::string> gen_key();
// Small integers and the 64-bit edges.
rc::Gen<std::int64_t> gen_int();
// Any JSON value, containers nested at most `depth` deep.
rc::Gen<Json> gen_json(int depth);
// A JSON object with keys from gen_key and values from gen_json(depth).
rc::Gen<Json> gen_object(int depth);
// A caller's extra_kwargs (spec 6, offline): nested values under adversarial
// keys, the keys LLM.score validates (max_tokens_per_*) holding values valid
// for `max_model_len`.
// A max_tokens_per_query / max_tokens_per_doc value, in [0, max_model_len):
// half the time below 6, so that it cuts the few words a generated side holds
// (a limit above them changes nothing, and a law could not see it ignored).
std::int64_t gen_token_limit(std::int64_t max_model_len);
rc::Gen<Json> gen_extra_kwargs(std::int64_t max_model_len);
// A task string: the known ones and others, never the removed score/encode.
rc::Gen<std::string> gen_task();
// A value on either side of a MessagePack header edge: a string of 31, 32,
// 255, 256, 65,535 or 65,536 bytes, an array of 15, 16, 65,535 or 65,536 items, an
// object of 15 or 16.
rc::Gen<Json> gen_length_edge_value();
// PoolingParams with a valid value in every field (extra_kwargs sometimes
// holding a gen_length_edge_value under "sized").
rc::Gen<PoolingParams> gen_pooling_params();
// The object form a user writes: keys holding their default sometimes left out.
rc::Gen<Json> gen_params_object(const PoolingParams& params);

struct ModelCase {
  Json json;  // the envelope's "model"; null for the defaults
  TokenizerStyle style = TokenizerStyle::Bert;
  std::int64_t max_model_len = 512;
  bool multimodal = false;
  std::string name;
};
enum class Modality { Any, TextOnly, Multimodal };
// All three tokenizer styles, mostly with a small max_model_len so that
// truncation and padding really happen.
rc::Gen<ModelCase> gen_model(Modality modality = Modality::Any);

std::string style_name(TokenizerStyle style);

// `bytes` with one to three edits: cut, a byte inserted, bytes erased, a bit flipped.
rc::Gen<std::string> gen_mutated(std::string bytes);

// Where to cut a JSON text (below its size: a cut always cuts) so that a reader looking ahead meets
// the end of its input: mostly just after a byte that promises more (a minus
// sign; a point, an exponent or its sign; a backslash; a byte of a UTF-8
// sequence; a letter, as in a literal; a digit; a quote, colon, comma or
// opening bracket), each of those kinds alike likely, so that a rare kind (a
// minus sign) is drawn as often as a common one; else anywhere. DoorLaws and
// the fuzz targets' spec mutator both cut with it.
rc::Gen<std::size_t> gen_json_cut(std::string text);

// Bytes as a readable string: valid UTF-8 as is, other bytes as \xNN.
std::string printable(const std::string& bytes);

}  // namespace poolcheck::props
