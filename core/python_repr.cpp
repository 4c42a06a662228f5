#include "core/python_repr.hpp"

#include <cstdio>

namespace poolcheck {
namespace {

// How Python's repr() shows an ASCII or Latin-1 code point that it escapes;
// "" when the code point prints as itself. Non-printables (str.isprintable) in
// that range: C0 and C1 controls, DEL, NO-BREAK SPACE and SOFT HYPHEN.
std::string repr_escape(unsigned code_point, char quote) {
  if (code_point == '\\' || code_point == static_cast<unsigned char>(quote))
    return std::string("\\") + static_cast<char>(code_point);
  if (code_point == '\n') return "\\n";
  if (code_point == '\r') return "\\r";
  if (code_point == '\t') return "\\t";
  const bool printable = (code_point >= 0x20 && code_point < 0x7f) ||
                         (code_point > 0xa0 && code_point <= 0xff && code_point != 0xad);
  if (printable) return "";
  char buffer[5];
  std::snprintf(buffer, sizeof buffer, "\\x%02x", code_point);
  return buffer;
}

}  // namespace

// Python's repr() of a str, as `{x!r}` prints it: single quotes unless the text
// holds a ' and no ". Code points above U+00FF are copied as they are (a
// simplification: Python would also escape e.g. U+2028).
std::string python_repr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0U;
    std::string escape;
    if (byte < 0x80) {
      escape = repr_escape(byte, quote);
    } else if (byte == 0xc2 && (next & 0xc0U) == 0x80) {
      // U+0080..U+00BF: 0xc2 then the code point as a continuation byte.
      escape = repr_escape(next, quote);
      if (!escape.empty()) ++i;
    }
    if (escape.empty()) out += static_cast<char>(byte);
    else out += escape;
  }
  return out + quote;
}

// Python's str() of a list of str: ['a', 'b'].
std::string python_list(const std::vector<std::string_view>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + python_repr(names[i]);
  return out + "]";
}

// Python's str() of a list of int: [256, 512].
std::string python_list(const std::vector<std::int64_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

}  // namespace poolcheck
