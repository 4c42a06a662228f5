#include "properties/laws/escape_laws.hpp"

#include <array>
#include <cstdlib>
#include <optional>
#include <string>

#include "properties/laws/utf8_laws.hpp"

namespace poolcheck::laws {
namespace {

constexpr const char* kLaw = "escape-refusal";
constexpr std::string_view kPrefix = "Invalid JSON: ";

enum class Kind { BadEscape, BadHex, LoneSurrogate };

struct Refusal {
  Kind kind;
  std::string_view reason;
};

constexpr std::array<Refusal, 3> kRefusals{{{Kind::BadEscape, "Invalid \\escape: "},
                                            {Kind::BadHex, "Invalid \\uXXXX escape: "},
                                            {Kind::LoneSurrogate, "Lone surrogate escape (rejected, spec 10.4): "}}};

// The byte where character `n` starts, or nullopt past the end.
std::optional<std::size_t> byte_of_character(std::string_view text, std::size_t n) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!starts_character(text[i])) continue;
    if (characters++ == n) return i;
  }
  return std::nullopt;
}

// The four hex digits at `at` as a number, or nullopt. As CPython's scanner
// (`end >= len`), a character must follow them: a text cut right after the
// digits has no good escape there.
std::optional<unsigned> hex4(std::string_view text, std::size_t at) {
  if (at > text.size() || text.size() - at < 5) return std::nullopt;
  unsigned value = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const char c = text[i];
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return std::nullopt;
    value = value * 16 + static_cast<unsigned>(digit);
  }
  return value;
}

bool is_low(unsigned unit) { return unit >= 0xDC00 && unit <= 0xDFFF; }
bool is_high(unsigned unit) { return unit >= 0xD800 && unit <= 0xDBFF; }

// Whether the text at byte `at` is the defect `kind` names.
bool defect_at(Kind kind, std::string_view text, std::size_t at) {
  const auto is = [&](std::size_t i, char c) { return i < text.size() && text[i] == c; };
  switch (kind) {
    case Kind::BadEscape:
      return is(at, '\\') && at + 1 < text.size() &&
             std::string_view("\"\\/bfnrtu").find(text[at + 1]) == std::string_view::npos;
    case Kind::BadHex: return at > 0 && is(at - 1, '\\') && is(at, 'u') && !hex4(text, at + 1);
    case Kind::LoneSurrogate: {
      if (!is(at, '\\') || !is(at + 1, 'u')) return false;
      const auto unit = hex4(text, at + 2);
      if (!unit || is_low(*unit)) return unit.has_value();
      if (!is_high(*unit)) return false;
      if (!is(at + 6, '\\') || !is(at + 7, 'u')) return true;
      const auto next = hex4(text, at + 8);
      return next && !is_low(*next);
    }
  }
  return false;
}

}  // namespace

Violations escape_refusal_exact(std::string_view bytes, const Result<Json>& parsed) {
  if (parsed) return {};
  const std::string& message = parsed.error().message;
  if (!message.starts_with(kPrefix)) return {};
  const std::string_view rest = std::string_view(message).substr(kPrefix.size());
  for (const Refusal& refusal : kRefusals) {
    if (!rest.starts_with(refusal.reason)) continue;
    const std::size_t open = message.rfind("(char ");
    if (open == std::string::npos) return {{kLaw, "'" + message + "' names no character"}};
    const std::size_t n = std::strtoull(message.c_str() + open + 6, nullptr, 10);
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);  // utf-8-sig: positions count after it
    const auto at = byte_of_character(bytes, n);
    if (at && defect_at(refusal.kind, bytes, *at)) return {};
    return {{kLaw, "'" + message + "', but character " + std::to_string(n) + " starts no such escape: " +
                       (at ? "\"" + std::string(bytes.substr(*at, 12)) + "\"" : "past the end")}};
  }
  return {};
}

}  // namespace poolcheck::laws
