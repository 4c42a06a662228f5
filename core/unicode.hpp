#pragma once
// The Unicode the core needs: the White_Space property (the toy tokenizer
// splits on it; pydantic strips it from numeric strings), what str.isprintable()
// rejects (repr() escapes it), and UTF-8 decoding and encoding of one code point.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace poolcheck {

// The Unicode White_Space property (Rust's char::is_whitespace, as pydantic-core uses).
inline bool is_white_space(char32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

// A run of code points, first and last included.
struct CodePointRange {
  char32_t first;
  char32_t last;
};

// The code points Python's str.isprintable() rejects (categories Cc, Cf, Cs,
// Co, Cn, Zl, Zp, and Zs but the space), ascending and disjoint: Python
// 3.11's Unicode 14.0.0, generated into core/unicode_printable_table.inc by
// tools/gen_unicode_printable.
std::span<const CodePointRange> non_printable_ranges();
// str.isprintable() of one code point: whether repr() prints it as itself.
bool is_printable(char32_t cp);

// Decodes the code point at `text[i]` and returns its byte length. Input from
// the JSON parser is valid UTF-8; anything else is taken a byte at a time.
inline std::size_t decode_utf8(std::string_view text, std::size_t i, char32_t& cp) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                           : (lead >> 3) == 0x1E ? 4 : 1;
  if (length == 1 || i + length > text.size()) {
    cp = lead;
    return 1;
  }
  cp = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  return length;
}

// Appends the UTF-8 bytes of `cp` (below U+110000, not a surrogate).
inline void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// `text` without the White_Space code points at either end (Rust's str::trim).
inline std::string_view trim_white_space(std::string_view text) {
  std::size_t begin = text.size();
  std::size_t end = 0;
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t length = decode_utf8(text, i, cp);
    if (!is_white_space(cp)) {
      if (begin == text.size()) begin = i;
      end = i + length;
    }
    i += length;
  }
  return begin < end ? text.substr(begin, end - begin) : std::string_view();
}

}  // namespace poolcheck
