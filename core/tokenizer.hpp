#pragma once
// The toy tokenizer (spec section 5): deterministic stand-in for a Hugging Face
// tokenizer, so that every output is exactly predictable.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/request.hpp"

namespace poolcheck {

inline constexpr std::int64_t kClsTokenId = 101;
inline constexpr std::int64_t kSepTokenId = 102;
inline constexpr std::int64_t kImagePlaceholderId = 103;
inline constexpr std::int64_t kFirstWordId = 1000;

// The ids of one ScoreInput: word tokens and image placeholders, in order.
// Tokenised once per input, however many pairs it takes part in.
struct SideTokens {
  std::vector<std::int64_t> ids;
  // word_ends[w] is the index just past the (w+1)-th word token: keeping the
  // first w words keeps ids[0, word_ends[w-1]) plus any later placeholder.
  std::vector<std::size_t> word_ends;
  std::vector<std::size_t> placeholder_positions;
  std::vector<std::string> image_urls;

  std::int64_t words() const { return static_cast<std::int64_t>(word_ends.size()); }
  std::int64_t placeholders() const { return static_cast<std::int64_t>(placeholder_positions.size()); }
};

std::uint32_t fnv1a32(std::string_view bytes);

// 1000 + fnv1a32(token) % (vocab_size - 1000); vocab_size > 1000.
std::int64_t word_id(std::string_view token, std::int64_t vocab_size);

// The word tokens of `text`: lower-cased ASCII, runs of ASCII letters and
// digits, any other single non-whitespace code point; Unicode White_Space separates.
std::vector<std::string> split_words(std::string_view text);

// A string, or the parts of a content object: text parts as words, each
// image_url part as the placeholder where it stands.
SideTokens tokenize_input(const ScoreInput& input, std::int64_t vocab_size);

}  // namespace poolcheck
