#include "properties/laws/utf8_laws.hpp"

#include <array>
#include <string>

namespace poolcheck::laws {
namespace {

constexpr std::string_view kRefusal = "Invalid JSON: Invalid UTF-8 byte: ";

// The length of the well-formed sequence at s[i], or 0. The lead byte gives
// the length; the code point decoded from the whole sequence decides.
std::size_t well_formed_length(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80) return 1;
  const std::size_t length = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || s.size() - i < length) return 0;
  char32_t code_point = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(s[i + k]);
    if ((next & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (next & 0x3F);
  }
  static constexpr std::array<char32_t, 5> kShortest = {0, 0, 0x80, 0x800, 0x10000};
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < kShortest[length] || surrogate || code_point > 0x10FFFF) return 0;
  return length;
}

// Where the first ill-formed sequence starts, as Python would print it.
struct FirstIllFormed {
  std::size_t byte = std::string_view::npos;  // npos: the whole text is well formed
  std::size_t line = 1;
  std::size_t column = 1;
  std::size_t character = 0;
};

FirstIllFormed first_ill_formed(std::string_view text) {
  FirstIllFormed at;
  std::size_t line_start = 0;  // the character after the last newline
  for (std::size_t i = 0; i < text.size(); ++at.character) {
    const std::size_t length = well_formed_length(text, i);
    if (length == 0) {
      at.byte = i;
      break;
    }
    if (text[i] == '\n') ++at.line, line_start = at.character + 1;
    i += length;
  }
  at.column = at.character - line_start + 1;
  return at;
}

std::string position_text(const FirstIllFormed& at) {
  return "line " + std::to_string(at.line) + " column " + std::to_string(at.column) + " (char " +
         std::to_string(at.character) + ")";
}

}  // namespace

Violations utf8_refusal_exact(std::string_view bytes, const Result<Json>& parsed) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);  // utf-8-sig: positions count after it
  const FirstIllFormed at = first_ill_formed(bytes);
  if (parsed) {
    if (at.byte == std::string_view::npos) return {};
    return {{"utf8-refusal", "a text with an ill-formed UTF-8 sequence at byte " + std::to_string(at.byte) +
                                 " was accepted"}};
  }
  const std::string& message = parsed.error().message;
  if (message.rfind(kRefusal, 0) != 0) return {};
  if (at.byte == std::string_view::npos)
    return {{"utf8-refusal", "a well-formed UTF-8 text was refused with '" + message + "'"}};
  const std::string expected = std::string(kRefusal) + position_text(at);
  if (message == expected) return {};
  return {{"utf8-refusal", "the first ill-formed UTF-8 sequence starts at byte " + std::to_string(at.byte) +
                               ", so the refusal is '" + expected + "'; got '" + message + "'"}};
}

}  // namespace poolcheck::laws
