#include "properties/laws/word_laws.hpp"

#include <array>
#include <string>
#include <utility>

#include "core/json.hpp"
#include "core/output_json.hpp"
#include "core/tokenizer.hpp"

namespace poolcheck::laws {
namespace {

// PropList.txt (Unicode 15.1), White_Space, as closed ranges.
constexpr std::array<std::pair<char32_t, char32_t>, 10> kWhiteSpace{{
    {0x0009, 0x000D},
    {0x0020, 0x0020},
    {0x0085, 0x0085},
    {0x00A0, 0x00A0},
    {0x1680, 0x1680},
    {0x2000, 0x200A},
    {0x2028, 0x2029},
    {0x202F, 0x202F},
    {0x205F, 0x205F},
    {0x3000, 0x3000},
}};

bool ascii_letter_or_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c; }

// The byte length of the UTF-8 sequence at text[i]. The text came through the
// JSON parser, so it is valid UTF-8; a byte that starts no whole sequence is
// taken alone, as the core takes it.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead >= 0xF0 && lead < 0xF8 ? 4 : lead >= 0xE0 && lead < 0xF0 ? 3
                           : lead >= 0xC0 && lead < 0xE0 ? 2 : 1;
  return i + length <= text.size() ? length : 1;
}

char32_t code_point_of(std::string_view sequence) {
  const auto lead = static_cast<unsigned char>(sequence[0]);
  if (sequence.size() == 1) return lead;
  char32_t code_point = lead & (0xFFu >> (sequence.size() + 1));
  for (std::size_t k = 1; k < sequence.size(); ++k)
    code_point = (code_point << 6) | (static_cast<unsigned char>(sequence[k]) & 0x3Fu);
  return code_point;
}

// The split as the spec words it, one code point at a time.
std::vector<std::string> spec_words(std::string_view text) {
  std::vector<std::string> words;
  bool in_run = false;  // the last word is a letter-and-digit run that may go on
  for (std::size_t i = 0; i < text.size();) {
    const std::string_view sequence = text.substr(i, sequence_length(text, i));
    i += sequence.size();
    if (sequence.size() == 1 && ascii_letter_or_digit(sequence[0])) {
      if (!in_run) words.emplace_back();
      words.back() += lower(sequence[0]);
      in_run = true;
      continue;
    }
    in_run = false;
    if (!spec_white_space(code_point_of(sequence))) words.emplace_back(sequence);
  }
  return words;
}

// Spec 5: 1000 + fnv1a32(word's UTF-8 bytes) % (vocab_size - 1000).
std::int64_t spec_word_id(std::string_view word, std::int64_t vocab_size) {
  std::uint32_t hash = 2166136261u;
  for (const unsigned char c : word) hash = (hash ^ c) * 16777619u;
  return 1000 + static_cast<std::int64_t>(hash % static_cast<std::uint64_t>(vocab_size - 1000));
}

}  // namespace

bool spec_white_space(char32_t code_point) {
  for (const auto& [first, last] : kWhiteSpace)
    if (code_point >= first && code_point <= last) return true;
  return false;
}

const std::vector<char32_t>& white_space_edges() {
  static const std::vector<char32_t> edges = [] {
    std::vector<char32_t> out;
    for (const auto& [first, last] : kWhiteSpace) {
      out.push_back(first - 1);
      for (char32_t c = first; c <= last; ++c) out.push_back(c);
      out.push_back(last + 1);
    }
    return out;
  }();
  return edges;
}

namespace {

std::vector<char32_t> edges_where(bool white_space) {
  std::vector<char32_t> out;
  for (const char32_t c : white_space_edges())
    if (spec_white_space(c) == white_space) out.push_back(c);
  return out;
}

}  // namespace

const std::vector<char32_t>& white_space_code_points() {
  static const std::vector<char32_t> members = edges_where(true);
  return members;
}

const std::vector<char32_t>& white_space_neighbours() {
  static const std::vector<char32_t> neighbours = edges_where(false);
  return neighbours;
}

namespace {

// The spec's word ids of `words`, in order.
std::vector<std::int64_t> spec_ids(const std::vector<std::string>& words, std::int64_t vocab_size) {
  std::vector<std::int64_t> ids;
  for (const std::string& word : words) ids.push_back(spec_word_id(word, vocab_size));
  return ids;
}

}  // namespace

Violations words_split(std::string_view text, std::int64_t vocab_size) {
  const std::vector<std::string> expected = spec_words(text);
  const std::vector<std::string> seen = split_words(text);
  const std::string shown = dump_json(Json(std::string(text)));
  if (seen != expected)
    return {{"word-split", "the text " + shown + " splits into " + dump_json(Json(seen)) + ", the spec's split is " +
                               dump_json(Json(expected))}};
  const std::vector<std::int64_t> expected_ids = spec_ids(expected, vocab_size);
  const std::vector<std::int64_t> ids = tokenize_input(ScoreInput{false, std::string(text), {}}, vocab_size).ids;
  if (ids == expected_ids) return {};
  return {{"word-split", "the text " + shown + " tokenises to " + dump_json(Json(ids)) + ", the spec's ids are " +
                             dump_json(Json(expected_ids))}};
}

Violations parts_tokenised(const ScoreInput& input, std::int64_t vocab_size) {
  return parts_tokenised(input, vocab_size, tokenize_input(input, vocab_size));
}

Violations parts_tokenised(const ScoreInput& input, std::int64_t vocab_size, const SideTokens& seen) {
  SideTokens expected;
  for (const ContentPart& part : input.parts) {
    if (part.kind == ContentPart::Kind::Text) {
      const auto ids = spec_ids(spec_words(part.value), vocab_size);
      expected.ids.insert(expected.ids.end(), ids.begin(), ids.end());
      continue;
    }
    expected.placeholder_positions.push_back(expected.ids.size());
    expected.ids.push_back(kImagePlaceholderId);
    expected.image_urls.push_back(part.value);
  }
  if (seen.ids == expected.ids && seen.placeholder_positions == expected.placeholder_positions &&
      seen.image_urls == expected.image_urls)
    return {};
  return {{"word-split", "an input of " + std::to_string(input.parts.size()) + " content parts tokenises to " +
                             dump_json(Json(seen.ids)) + " (placeholders at " + dump_json(Json(seen.placeholder_positions)) +
                             "), its parts in order give " + dump_json(Json(expected.ids)) + " (placeholders at " +
                             dump_json(Json(expected.placeholder_positions)) + ")"}};
}

}  // namespace poolcheck::laws
