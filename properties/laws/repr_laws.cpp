#include "properties/laws/repr_laws.hpp"

#include <cstdio>

#include "properties/laws/error_laws.hpp"
#include "properties/laws/utf8_laws.hpp"

namespace poolcheck::laws {
namespace {

// str.isprintable() of a code point up to U+00FF, from its Unicode category:
// Cc (U+0000 to U+001F, U+007F to U+009F), Zs but the space (U+00A0) and Cf
// (U+00AD) are not printable. Above U+00FF: printed, as the core models it.
bool printable(char32_t c) {
  if (c > 0xFF) return true;
  const bool control = c < 0x20 || (c >= 0x7F && c <= 0x9F);
  return !control && c != 0xA0 && c != 0xAD;
}

// How repr() shows one code point inside `quote`s; `bytes` is its UTF-8.
std::string shown(char32_t c, std::string_view bytes, char quote) {
  switch (c) {
    case U'\\': return "\\\\";
    case U'\t': return "\\t";
    case U'\n': return "\\n";
    case U'\r': return "\\r";
    default: break;
  }
  if (c == static_cast<char32_t>(quote)) return std::string{'\\', quote};
  if (printable(c)) return std::string(bytes);
  char hex[5];
  std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(c));
  return hex;
}

}  // namespace

std::optional<std::string> python_str_repr(std::string_view text) {
  // unicode_repr: single quotes, unless the text holds a ' and no ".
  const bool single = text.find('\'') != std::string_view::npos;
  const bool twin = text.find('"') != std::string_view::npos;
  const char quote = single && !twin ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t i = 0; i < text.size();) {
    const auto sequence = code_point_at(text, i);
    if (!sequence) return std::nullopt;
    out += shown(sequence->value, text.substr(i, sequence->length), quote);
    i += sequence->length;
  }
  return out + quote;
}

Violations task_overwrite_refusal(const PoolingParams* caller, const Error* refusal) {
  constexpr const char* kLaw = "task-overwrite";
  const std::optional<std::string> task = caller ? caller->task : std::nullopt;
  const bool conflict = task && *task != "classify";
  const bool overwrite_refusal = refusal && message_family(refusal->message) == "task-overwrite";
  if (!conflict) {
    if (!overwrite_refusal) return {};
    return {{kLaw, "refused with '" + refusal->message + "', but the caller's task is " +
                       (task ? "'classify'" : std::string("unset"))}};
  }
  if (!refusal) return {{kLaw, "the caller's task conflicts with classify, but the run was accepted"}};
  const auto quoted = python_str_repr(*task);
  if (!overwrite_refusal || !quoted) return {};  // refused earlier, for another reason (spec 10.2)
  const std::string want = "You cannot overwrite self.task=" + *quoted + " with task='classify'!";
  if (refusal->message == want) return {};
  return {{kLaw, "expected '" + want + "', got '" + refusal->message + "'"}};
}

}  // namespace poolcheck::laws
