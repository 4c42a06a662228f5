#include "properties/laws/json_spelling.hpp"

#include <cmath>
#include <string>
#include <string_view>

#include "core/output_json.hpp"
#include "core/unicode.hpp"

namespace poolcheck::laws {
namespace {

// splitmix64: every draw of one spelling comes from its choice alone.
class Draws {
 public:
  explicit Draws(std::uint64_t choice) : state_(choice) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
  }
  bool one_in(std::uint64_t n) { return next() % n == 0; }

 private:
  std::uint64_t state_;
};

class Speller {
 public:
  explicit Speller(std::uint64_t choice) : draws_(choice) {}

  void value(const Json& v) {
    if (v.is_object()) {
      container('{', '}', v.items(), [&](const auto& member) {
        string(member.key());
        white_space();
        out_ += ':';
        white_space();
        value(member.value());
      });
    } else if (v.is_array()) {
      container('[', ']', v, [&](const Json& item) { value(item); });
    } else if (v.is_string()) {
      string(v.get_ref<const std::string&>());
    } else if (v.is_number_float() && std::isfinite(v.get<double>()) && draws_.one_in(2)) {
      exponent_form(dump_json(v));
    } else {
      out_ += dump_json(v);  // integers (big ones included), NaN, the infinities, true, false, null
    }
  }

  // json.loads decodes bytes as utf-8-sig: a text may open with the byte order mark.
  void byte_order_mark() {
    if (draws_.one_in(4)) out_ += "\xEF\xBB\xBF";
  }

  std::string take() { return std::move(out_); }

 private:
  // Members or items, comma-separated, each written by `write`.
  template <typename Items, typename Write>
  void container(char open, char close, const Items& items, Write write) {
    out_ += open;
    bool first = true;
    for (const auto& item : items) {
      if (!first) out_ += ',';
      first = false;
      white_space();
      write(item);
    }
    white_space();
    out_ += close;
  }

  // A finite float's shortest decimal (`text`, as the core prints it: "0.001",
  // "100.0", "1.5e+300") as the same decimal in exponent form ("1e-3", "1E2",
  // "1.5e+300"): json.loads rounds each to the same double.
  void exponent_form(std::string text) {
    if (text.starts_with('-')) out_ += '-', text.erase(0, 1);
    long exponent = 0;
    if (const auto e = text.find_first_of("eE"); e != std::string::npos) {
      exponent = std::stol(text.substr(e + 1));
      text.resize(e);
    }
    std::string digits = text;
    long point = static_cast<long>(text.size());
    if (const auto dot = text.find('.'); dot != std::string::npos) {
      digits = text.substr(0, dot) + text.substr(dot + 1);
      point = static_cast<long>(dot);
    }
    const auto first = digits.find_first_not_of('0');
    if (first == std::string::npos) {
      out_ += draws_.one_in(2) ? "0e0" : "0E+0";
      return;
    }
    digits = digits.substr(first, digits.find_last_not_of('0') + 1 - first);
    point -= static_cast<long>(first);  // the value is 0.<digits> x 10^(point + exponent)
    out_ += digits.front();
    if (digits.size() > 1) out_ += '.' + digits.substr(1);
    const long power = point + exponent - 1;
    out_ += draws_.one_in(2) ? 'e' : 'E';
    out_ += power >= 0 && draws_.one_in(2) ? "+" + std::to_string(power) : std::to_string(power);
  }

  // JSON's four white-space characters, one in four places.
  void white_space() {
    static constexpr std::string_view kSpaces[] = {" ", "\n", "\t", "\r\n  "};
    if (draws_.one_in(4)) out_ += kSpaces[draws_.next() % 4];
  }

  void hex4(char32_t unit) {
    const char* digits = draws_.one_in(2) ? "0123456789abcdef" : "0123456789ABCDEF";
    out_ += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out_ += digits[(unit >> shift) & 0xF];
  }

  void escaped(char32_t cp) {
    if (cp >= 0x10000) {
      const char32_t v = cp - 0x10000;
      hex4(0xD800 + (v >> 10));
      hex4(0xDC00 + (v & 0x3FF));
      return;
    }
    hex4(cp);
  }

  // The short escape of `cp`, or 0 where it has none.
  static char short_escape(char32_t cp) {
    switch (cp) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case '\b': return 'b';
      case '\f': return 'f';
      case '\n': return 'n';
      case '\r': return 'r';
      case '\t': return 't';
      default: return 0;
    }
  }

  // A string of valid UTF-8 (the reader took it): each character as itself
  // where JSON allows, else, and one time in three anyway, escaped.
  void string(const std::string& text) {
    out_ += '"';
    for (std::size_t i = 0; i < text.size();) {
      char32_t cp = 0;
      const std::size_t length = decode_utf8(text, i, cp);
      const bool must = cp < 0x20 || cp == '"' || cp == '\\';
      if (!must && !draws_.one_in(3)) {
        out_.append(text, i, length);
      } else if (const char e = short_escape(cp); e != 0 && draws_.one_in(2)) {
        out_ += '\\';
        out_ += e;
      } else {
        escaped(cp);
      }
      i += length;
    }
    out_ += '"';
  }

  Draws draws_;
  std::string out_;
};

}  // namespace

std::string respelled_json(const Json& document, std::uint64_t choice) {
  Speller speller(choice);
  speller.byte_order_mark();
  speller.value(document);
  return speller.take();
}

Violations spelling_invariance(const std::string& original_outcome, const std::string& respelled_outcome) {
  if (original_outcome == respelled_outcome) return {};
  return {{"spelling-invariance", "json.loads reads both texts as one document, but spelled anew (escapes, white "
                                  "space) its outcome became " + respelled_outcome + " instead of " +
                                  original_outcome}};
}

}  // namespace poolcheck::laws
