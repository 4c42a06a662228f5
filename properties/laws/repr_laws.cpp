#include "properties/laws/repr_laws.hpp"

#include <algorithm>

#include "core/unicode.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/utf8_laws.hpp"

namespace poolcheck::laws {
namespace {

// str.isprintable() of a code point: none of the ranges Python's Unicode
// database rejects holds it. The ranges are data generated from Python (and
// checked against it by ctest fidelity-unicode-printable); the law reads them
// its own way, a scan where the core searches.
bool printable(char32_t c) {
  const auto ranges = non_printable_ranges();
  return std::none_of(ranges.begin(), ranges.end(),
                      [c](const CodePointRange& r) { return r.first <= c && c <= r.last; });
}

// Python's hex escape of a code point it does not print: \xNN, \uNNNN or
// \UNNNNNNNN, by the fewest of those widths that holds it, in lower case.
std::string hex_escape(char32_t c) {
  const int digits = c <= 0xFF ? 2 : c <= 0xFFFF ? 4 : 8;
  std::string out = digits == 2 ? "\\x" : digits == 4 ? "\\u" : "\\U";
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += "0123456789abcdef"[(c >> shift) & 0xF];
  return out;
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
  return printable(c) ? std::string(bytes) : hex_escape(c);
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
