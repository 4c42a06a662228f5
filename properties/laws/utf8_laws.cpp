#include "properties/laws/utf8_laws.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "properties/laws/msgpack_items.hpp"

namespace poolcheck::laws {
namespace {

constexpr std::string_view kRefusal = "Invalid JSON: Invalid UTF-8 byte: ";
constexpr std::string_view kMsgpackRefusal = "Invalid MessagePack: invalid UTF-8 in string at byte ";

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
    const auto sequence = code_point_at(text, i);
    if (!sequence) {
      at.byte = i;
      break;
    }
    if (text[i] == '\n') ++at.line, line_start = at.character + 1;
    i += sequence->length;
  }
  at.column = at.character - line_start + 1;
  return at;
}

std::string position_text(const FirstIllFormed& at) {
  return "line " + std::to_string(at.line) + " column " + std::to_string(at.column) + " (char " +
         std::to_string(at.character) + ")";
}

// The [start, end) of the MessagePack str payload that holds byte `offset`,
// found by the laws' own walk of the items before it (msgpack_items.hpp), or
// nullopt when no payload of a whole str holds it.
std::optional<std::pair<std::size_t, std::size_t>> str_payload_at(std::string_view bytes, std::size_t offset) {
  for (std::size_t at = 0; at < bytes.size() && at <= offset;) {
    const auto item = read_msgpack_item(bytes, at);
    if (!item) return std::nullopt;
    if (item->kind == MsgpackItem::Kind::Str && offset >= item->payload && offset < item->end)
      return std::pair{item->payload, item->end};
    at = item->end;
  }
  return std::nullopt;
}

// Whether every string of a decoded document, keys included, is well formed.
bool strings_well_formed(const Json& value) {
  if (value.is_string()) return first_ill_formed(value.get_ref<const std::string&>()).byte == std::string_view::npos;
  if (value.is_object()) {
    for (const auto& [key, member] : value.items())
      if (first_ill_formed(key).byte != std::string_view::npos || !strings_well_formed(member)) return false;
    return true;
  }
  if (value.is_array())
    return std::all_of(value.begin(), value.end(), [](const Json& item) { return strings_well_formed(item); });
  return true;
}

}  // namespace

// The lead byte gives the length; the code point decoded from the whole
// sequence decides.
std::optional<CodePoint> code_point_at(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  if (lead < 0x80) return CodePoint{lead, 1};
  const std::size_t length = lead >= 0xF8 ? 0 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || s.size() - i < length) return std::nullopt;
  char32_t code_point = lead & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(s[i + k]);
    if ((next & 0xC0) != 0x80) return std::nullopt;
    code_point = (code_point << 6) | (next & 0x3F);
  }
  static constexpr std::array<char32_t, 5> kShortest = {0, 0, 0x80, 0x800, 0x10000};
  const bool surrogate = code_point >= 0xD800 && code_point <= 0xDFFF;
  if (code_point < kShortest[length] || surrogate || code_point > 0x10FFFF) return std::nullopt;
  return CodePoint{code_point, length};
}

bool well_formed_utf8(std::string_view text) { return first_ill_formed(text).byte == std::string_view::npos; }

Violations msgpack_utf8_refusal_exact(std::string_view bytes, const Result<Json>& decoded) {
  if (decoded) {
    if (strings_well_formed(*decoded)) return {};
    return {{"utf8-refusal", "MessagePack with an ill-formed UTF-8 string was accepted"}};
  }
  const std::string& message = decoded.error().message;
  if (!message.starts_with(kMsgpackRefusal)) return {};
  const std::size_t offset = std::strtoull(message.c_str() + kMsgpackRefusal.size(), nullptr, 10);
  const auto payload = str_payload_at(bytes, offset);
  if (!payload) return {{"utf8-refusal", "'" + message + "', but no string's bytes hold byte " + std::to_string(offset)}};
  const std::string_view text = bytes.substr(payload->first, payload->second - payload->first);
  const std::size_t first = first_ill_formed(text).byte;
  if (first == std::string_view::npos)
    return {{"utf8-refusal", "a well-formed UTF-8 string (bytes " + std::to_string(payload->first) + " to " +
                                 std::to_string(payload->second) + ") was refused with '" + message + "'"}};
  if (payload->first + first == offset) return {};
  return {{"utf8-refusal", "the string's first ill-formed UTF-8 sequence starts at byte " +
                               std::to_string(payload->first + first) + "; got '" + message + "'"}};
}

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
