#include "core/tokenizer.hpp"

#include "core/unicode.hpp"

namespace poolcheck {
namespace {

bool is_ascii_alnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr std::uint32_t kFnvOffsetBasis = 2166136261u;
constexpr std::uint32_t kFnvPrime = 16777619u;

std::uint32_t fnv1a32_step(std::uint32_t hash, unsigned char c) { return (hash ^ c) * kFnvPrime; }

// The one statement of the splitting rules: calls on_word(bytes, lower, hash)
// for each word in order. `lower` says the bytes are an ASCII letter-and-digit
// run, whose word is their lower-case form; any other word is its code point's
// bytes as they are. `hash` is fnv1a32 of the word, computed while the run is
// scanned: one pass, one unpredictable branch per word (the hot loop of a large
// rerank request).
template <class OnWord>
void for_each_word(std::string_view text, OnWord on_word) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (is_ascii_alnum(static_cast<unsigned char>(text[i]))) {
      const std::size_t start = i;
      std::uint32_t hash = kFnvOffsetBasis;
      do {
        hash = fnv1a32_step(hash, static_cast<unsigned char>(ascii_lower(text[i])));
        ++i;
      } while (i < text.size() && is_ascii_alnum(static_cast<unsigned char>(text[i])));
      on_word(text.substr(start, i - start), true, hash);
      continue;
    }
    char32_t cp = 0;
    const std::size_t length = decode_utf8(text, i, cp);
    if (!is_white_space(cp)) {
      const std::string_view bytes = text.substr(i, length);
      on_word(bytes, false, fnv1a32(bytes));
    }
    i += length;
  }
}

std::int64_t id_from_hash(std::uint32_t hash, std::int64_t vocab_size) {
  return kFirstWordId + static_cast<std::int64_t>(hash % static_cast<std::uint64_t>(vocab_size - kFirstWordId));
}

// word_id(split_words(text)[w]) for every w, without a string per word.
void append_words(SideTokens& side, std::string_view text, std::int64_t vocab_size) {
  for_each_word(text, [&](std::string_view, bool, std::uint32_t hash) {
    side.ids.push_back(id_from_hash(hash, vocab_size));
    side.word_ends.push_back(side.ids.size());
  });
}

}  // namespace

std::uint32_t fnv1a32(std::string_view bytes) {
  std::uint32_t hash = kFnvOffsetBasis;
  for (unsigned char c : bytes) hash = fnv1a32_step(hash, c);
  return hash;
}

std::int64_t word_id(std::string_view token, std::int64_t vocab_size) {
  return id_from_hash(fnv1a32(token), vocab_size);
}

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  for_each_word(text, [&](std::string_view bytes, bool lower, std::uint32_t) {
    std::string word(bytes);
    if (lower)
      for (char& c : word) c = ascii_lower(c);
    words.push_back(std::move(word));
  });
  return words;
}

SideTokens tokenize_input(const ScoreInput& input, std::int64_t vocab_size) {
  SideTokens side;
  if (!input.is_object) {
    append_words(side, input.text, vocab_size);
    return side;
  }
  for (const auto& part : input.parts) {
    if (part.kind == ContentPart::Kind::Text) {
      append_words(side, part.value, vocab_size);
    } else {
      side.placeholder_positions.push_back(side.ids.size());
      side.ids.push_back(kImagePlaceholderId);
      side.image_urls.push_back(part.value);
    }
  }
  return side;
}

}  // namespace poolcheck
