#pragma once
// The toy tokenizer's word split (spec section 5) judged against the spec's
// own statement of it, not against core/tokenizer: the request laws derive
// every expected prompt with the core's tokenizer, so a slip in the split
// (a White_Space code point missed, a run cut short) would move the oracle
// and the output together and no other law could see it.
#include <cstdint>
#include <string_view>
#include <vector>

#include "properties/laws/violation.hpp"

namespace poolcheck {
struct ScoreInput;
struct SideTokens;
}

namespace poolcheck::laws {

// The Unicode White_Space property as PropList.txt lists it, written apart
// from core/unicode.hpp on purpose: this one is the spec's.
bool spec_white_space(char32_t code_point);

// Every White_Space code point and the code points on either side of each
// range: what a generator draws to put the split's edges under test.
const std::vector<char32_t>& white_space_edges();

// The edges split in two: the White_Space code points, in order, and the
// neighbours of each range that are not White_Space themselves.
const std::vector<char32_t>& white_space_code_points();
const std::vector<char32_t>& white_space_neighbours();

// split_words(text) is: ASCII letter-and-digit runs, lower-cased; every other
// code point alone, White_Space dropped; in text order. And the text as a
// string input tokenises to the spec's word ids, 1000 + fnv1a32(word) %
// (vocab_size - 1000); vocab_size > 1000. Law id "word-split".
Violations words_split(std::string_view text, std::int64_t vocab_size);

// An input of content parts tokenises to its parts in their order: a text
// part's spec word ids (as words_split has them), an image part's placeholder
// id, with the placeholders' positions and the image URLs in order. Law id
// "word-split".
Violations parts_tokenised(const ScoreInput& input, std::int64_t vocab_size);
// The same for `seen`, a tokenisation of `input` from elsewhere.
Violations parts_tokenised(const ScoreInput& input, std::int64_t vocab_size, const SideTokens& seen);

}  // namespace poolcheck::laws
