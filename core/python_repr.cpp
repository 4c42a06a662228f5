#include "core/python_repr.hpp"

#include <cstdio>

#include "core/unicode.hpp"

namespace poolcheck {
namespace {

// How Python's repr() shows a code point inside `quote`s; "" when it prints as
// itself. unicode_repr: the quote and the backslash escaped, \n \r \t by
// name, and what str.isprintable() rejects in hex: \xNN up to U+00FF, \uNNNN
// up to U+FFFF, \UNNNNNNNN above.
std::string repr_escape(char32_t code_point, char quote) {
  if (code_point == U'\\' || code_point == static_cast<unsigned char>(quote))
    return std::string("\\") + static_cast<char>(code_point);
  if (code_point == U'\n') return "\\n";
  if (code_point == U'\r') return "\\r";
  if (code_point == U'\t') return "\\t";
  if (is_printable(code_point)) return "";
  const char kind = code_point <= 0xff ? 'x' : code_point <= 0xffff ? 'u' : 'U';
  const int digits = kind == 'x' ? 2 : kind == 'u' ? 4 : 8;
  char buffer[11];
  std::snprintf(buffer, sizeof buffer, "\\%c%0*x", kind, digits, static_cast<unsigned>(code_point));
  return buffer;
}

}  // namespace

// Python's repr() of a str, as `{x!r}` prints it: single quotes unless the text
// holds a ' and no ".
std::string python_repr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t i = 0; i < text.size();) {
    char32_t code_point = 0;
    const std::size_t length = decode_utf8(text, i, code_point);
    const std::string escape = repr_escape(code_point, quote);
    if (escape.empty()) out += text.substr(i, length);
    else out += escape;
    i += length;
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
