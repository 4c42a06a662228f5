// The toy tokenizer (spec section 5): fnv1a32, word ids, the splitting rules
// and the content parts of a multimodal input.
#include "core/tokenizer.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace poolcheck {
namespace {

using Words = std::vector<std::string>;
using Ints = std::vector<std::int64_t>;

// --------------------------------------------------------------- fnv1a32

TEST(Fnv1a32, KnownValues) {
  EXPECT_EQ(fnv1a32(""), 2166136261u);  // the offset basis
  EXPECT_EQ(fnv1a32("a"), 0xe40c292cu);
  EXPECT_EQ(fnv1a32("foobar"), 0xbf9cf968u);  // the reference test vector
  EXPECT_EQ(fnv1a32("q1"), 2622263703u);
  EXPECT_EQ(fnv1a32("\xC3\xA9"), 513665217u);  // "é" as its UTF-8 bytes
}

TEST(Fnv1a32, HashesBytesNotCharacters) {
  // Bytes above 0x7F are taken unsigned: "é" differs from both of its bytes alone.
  EXPECT_NE(fnv1a32("\xC3\xA9"), fnv1a32("\xC3"));
  EXPECT_EQ(fnv1a32(std::string("\0", 1)), 84696351u);  // (2166136261 ^ 0) * 16777619 mod 2^32
}

// ---------------------------------------------------------------- word_id

TEST(WordId, OneThousandPlusHashModuloTheWordRange) {
  // 1000 + 3826002220 % (30522 - 1000) = 1000 + 10064
  EXPECT_EQ(word_id("a", 30522), 11064);
  // 1000 + 3826002220 % (2000 - 1000) = 1000 + 220
  EXPECT_EQ(word_id("a", 2000), 1220);
  EXPECT_EQ(word_id("q1", 30522), 2575);
  EXPECT_EQ(word_id("d1", 30522), 22270);
  EXPECT_EQ(word_id("\xF0\x9F\x98\x80", 30522), 30210);  // U+1F600
}

TEST(WordId, SmallestVocabularyHasOneWordId) {
  EXPECT_EQ(word_id("a", 1001), 1000);
  EXPECT_EQ(word_id("anything", 1001), 1000);
  EXPECT_EQ(word_id("", 1001), 1000);
}

TEST(WordId, LargestVocabularyStaysBelow2To30) {
  const std::int64_t vocab = std::int64_t{1} << 30;
  // 1000 + 3826002220 % (2^30 - 1000)
  EXPECT_EQ(word_id("a", vocab), 1000 + (3826002220LL % (vocab - 1000)));
  EXPECT_LT(word_id("a", vocab), vocab);
}

// -------------------------------------------------------------- splitting

TEST(SplitWords, LowerCasesAsciiLetters) {
  EXPECT_EQ(split_words("Hello WORLD"), (Words{"hello", "world"}));
  EXPECT_EQ(split_words("MiXeD123CaSe"), (Words{"mixed123case"}));
}

TEST(SplitWords, LowerCasesAsciiOnly) {
  // U+00C9 and U+0130 are upper case, but not ASCII: they stay as they are.
  EXPECT_EQ(split_words("\xC3\x89"), Words{"\xC3\x89"});
  EXPECT_EQ(split_words("\xC4\xB0stanbul"), (Words{"\xC4\xB0", "stanbul"}));
  EXPECT_EQ(word_id("\xC3\x89", 30522), word_id(split_words("\xC3\x89")[0], 30522));
  EXPECT_NE(split_words("\xC3\x89")[0], "\xC3\xA9");
}

TEST(SplitWords, MaximalRunsOfAsciiLettersAndDigits) {
  EXPECT_EQ(split_words("abc123 456def"), (Words{"abc123", "456def"}));
  EXPECT_EQ(split_words("a_b"), (Words{"a", "_", "b"}));
  EXPECT_EQ(split_words("don't"), (Words{"don", "'", "t"}));
  EXPECT_EQ(split_words("a,b.c"), (Words{"a", ",", "b", ".", "c"}));
  EXPECT_EQ(split_words("!!"), (Words{"!", "!"}));
}

TEST(SplitWords, EveryOtherCodePointIsItsOwnToken) {
  // Two-, three- and four-byte UTF-8.
  EXPECT_EQ(split_words("caf\xC3\xA9"), (Words{"caf", "\xC3\xA9"}));
  EXPECT_EQ(split_words("\xE6\x97\xA5\xE6\x9C\xAC"), (Words{"\xE6\x97\xA5", "\xE6\x9C\xAC"}));  // 日本
  EXPECT_EQ(split_words("hi\xF0\x9F\x98\x80there"), (Words{"hi", "\xF0\x9F\x98\x80", "there"}));
  EXPECT_EQ(split_words("\xF0\x9F\x98\x80\xF0\x9F\x98\x80"),
            (Words{"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"}));
  // A combining mark is a code point of its own.
  EXPECT_EQ(split_words("e\xCC\x81"), (Words{"e", "\xCC\x81"}));
}

TEST(SplitWords, NothingButWhitespaceGivesNoTokens) {
  EXPECT_EQ(split_words(""), Words{});
  EXPECT_EQ(split_words(" \t\n\r\v\f"), Words{});
  EXPECT_EQ(split_words("\xC2\xA0\xE3\x80\x80"), Words{});
}

TEST(SplitWords, UnicodeWhiteSpaceSeparates) {
  // Every code point with the White_Space property.
  const std::vector<std::string> white_space = {
      "\t", "\n", "\v", "\f", "\r", " ",
      "\xC2\x85",      // U+0085 NEL
      "\xC2\xA0",      // U+00A0 NO-BREAK SPACE
      "\xE1\x9A\x80",  // U+1680
      "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82", "\xE2\x80\x83",  // U+2000..U+2003 (U+2003 EM SPACE)
      "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86", "\xE2\x80\x87",
      "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A",                  // ..U+200A
      "\xE2\x80\xA8", "\xE2\x80\xA9",  // U+2028, U+2029
      "\xE2\x80\xAF",  // U+202F
      "\xE2\x81\x9F",  // U+205F
      "\xE3\x80\x80",  // U+3000 IDEOGRAPHIC SPACE
  };
  ASSERT_EQ(white_space.size(), 25u);
  for (const auto& ws : white_space)
    EXPECT_EQ(split_words("a" + ws + "b"), (Words{"a", "b"})) << "separator bytes of length " << ws.size();
}

TEST(SplitWords, NonWhiteSpaceCodePointsAreTokens) {
  // U+200B ZERO WIDTH SPACE is not White_Space, nor are the joiners, the BOM,
  // U+180E (no longer White_Space since Unicode 6.3) and the ASCII separators
  // U+001C..U+001F (which Python's str.isspace would accept).
  const std::vector<std::string> not_white_space = {
      "\xE2\x80\x8B",  // U+200B
      "\xE2\x80\x8C",  // U+200C
      "\xE2\x80\x8D",  // U+200D
      "\xE2\x81\xA0",  // U+2060
      "\xEF\xBB\xBF",  // U+FEFF
      "\xE1\xA0\x8E",  // U+180E
      "\x1C", "\x1D", "\x1E", "\x1F",
      // The other C0 controls around TAB..CR, and DEL: tokens too.
      std::string(1, '\0'), "\x01", "\x08", "\x0E", "\x7F",
  };
  for (const auto& cp : not_white_space)
    EXPECT_EQ(split_words("a" + cp + "b"), (Words{"a", cp, "b"})) << "code point bytes of length " << cp.size();
}

TEST(SplitWords, BytesThatAreNotUtf8AreTokensOfOneByte) {
  // The JSON door lets only valid UTF-8 through; split_words itself takes any
  // other byte (a stray continuation byte, a lead byte 0xF8..0xFF, a sequence
  // cut short by the end of the text) as a token of its own.
  EXPECT_EQ(split_words("a\x80" "b"), (Words{"a", "\x80", "b"}));
  EXPECT_EQ(split_words("a\xff" "b"), (Words{"a", "\xff", "b"}));
  EXPECT_EQ(split_words("a\xe2\x82"), (Words{"a", "\xe2", "\x82"}));
  EXPECT_EQ(split_words("\xf0\x9f\x98"), (Words{"\xf0", "\x9f", "\x98"}));
}

// ------------------------------------------------------------ tokenize_input

ScoreInput text(std::string value) { return ScoreInput{false, std::move(value), {}}; }

ScoreInput content(std::vector<ContentPart> parts) { return ScoreInput{true, "", std::move(parts)}; }

ContentPart text_part(std::string value) { return ContentPart{ContentPart::Kind::Text, std::move(value)}; }

ContentPart image_part(std::string url) { return ContentPart{ContentPart::Kind::ImageUrl, std::move(url)}; }

TEST(TokenizeInput, StringGivesWordIds) {
  const auto side = tokenize_input(text("Q1 q2"), 30522);
  EXPECT_EQ(side.ids, (Ints{2575, 11698}));
  EXPECT_EQ(side.words(), 2);
  EXPECT_EQ(side.placeholders(), 0);
  EXPECT_TRUE(side.image_urls.empty());
}

TEST(TokenizeInput, IdsFollowTheFormulaWithASmallVocabulary) {
  // vocab 2000: 1000 + fnv1a32(t) % 1000.
  const auto side = tokenize_input(text("a b q1"), 2000);
  EXPECT_EQ(side.ids, (Ints{1220, 1077, 1703}));
  EXPECT_EQ(side.ids[0], word_id("a", 2000));
}

TEST(TokenizeInput, TextPartsAreJoinedWithOneSpace) {
  // "d1" + "d2" joined with a space is two words, not the word "d1d2".
  const auto side = tokenize_input(content({text_part("d1"), text_part("d2")}), 30522);
  EXPECT_EQ(side.ids, (Ints{22270, 13147}));
  const auto joined = tokenize_input(text("d1 d2"), 30522);
  EXPECT_EQ(side.ids, joined.ids);
  EXPECT_NE(side.ids, tokenize_input(text("d1d2"), 30522).ids);
}

TEST(TokenizeInput, ImagePlaceholderStandsWhereItsPartStands) {
  const auto side = tokenize_input(
      content({text_part("q1 q2"), image_part("http://img/1.png"), text_part("d1")}), 30522);
  EXPECT_EQ(side.ids, (Ints{2575, 11698, 103, 22270}));
  EXPECT_EQ(side.image_urls, std::vector<std::string>{"http://img/1.png"});
  EXPECT_EQ(side.placeholders(), 1);
  EXPECT_EQ(side.words(), 3);  // the placeholder is not a word

  const auto first = tokenize_input(content({image_part("u"), text_part("d1")}), 30522);
  EXPECT_EQ(first.ids, (Ints{103, 22270}));
  const auto only = tokenize_input(content({image_part("u")}), 30522);
  EXPECT_EQ(only.ids, Ints{103});
  EXPECT_EQ(only.words(), 0);
}

TEST(TokenizeInput, EmptyContentAndEmptyTextGiveNothing) {
  EXPECT_TRUE(tokenize_input(content({}), 30522).ids.empty());
  EXPECT_TRUE(tokenize_input(text(""), 30522).ids.empty());
  EXPECT_TRUE(tokenize_input(content({text_part("  ")}), 30522).ids.empty());
}

}  // namespace
}  // namespace poolcheck
