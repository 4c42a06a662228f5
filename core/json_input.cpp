#include "core/json_input.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/integer.hpp"
#include "core/unicode.hpp"

namespace poolcheck {
namespace {

// Builds the document value by value. nlohmann's own DOM builder inserts
// object members through ordered_map, which searches linearly for a
// duplicate: quadratic on an object with many keys, a hang on an 8 MiB body.
// Here each large open object keeps a hash index of its keys; duplicates keep
// the first key's place and take the last value, as Python's json.loads does.
class DomBuilder {
 public:
  // Room for a typical document's nesting at once: growing the stack one
  // frame at a time was a twentieth of the `verify` target's check.
  explicit DomBuilder(Json& root) : root_(root) { stack_.reserve(8); }

  void put(Json value) { *slot() = std::move(value); }
  void start_object() { open(Json::object()); }
  void start_array() { open(Json::array()); }
  void end_container() { stack_.pop_back(); }
  bool in_object() const { return stack_.back().value->is_object(); }
  bool done() const { return stack_.empty(); }

  void key(std::string& name) {
    Frame& frame = stack_.back();
    // The members as the vector they are: ordered_map's own lookups are linear.
    auto& members = static_cast<Members&>(frame.value->get_ref<Json::object_t&>());
    // From kIndexFrom members on, keys are found through an index of all of
    // them: built here at the first key past that size, kept up to date below.
    if (members.size() >= kIndexFrom && frame.index.empty())
      for (std::size_t i = 0; i < members.size(); ++i) frame.index.emplace(members[i].first, i);
    const std::size_t existing = find_member(frame, members, name);
    if (existing < members.size()) {
      frame.pending = &members[existing].second;
      *frame.pending = nullptr;  // the last value wins, at the first key's place
      return;
    }
    if (!frame.index.empty()) frame.index.emplace(name, members.size());
    if (members.size() == members.capacity()) grow(members);
    members.emplace_back(std::move(name), nullptr);
    frame.pending = &members.back().second;
  }

 private:
  using Members = Json::object_t::Container;
  static constexpr std::size_t kIndexFrom = 16;  // below this, a linear search is cheaper

  struct Frame {
    Json* value = nullptr;
    Json* pending = nullptr;  // the member the next value fills (objects)
    std::unordered_map<std::string, std::size_t> index;
  };

  static std::size_t find_member(const Frame& frame, const Members& members, const std::string& name) {
    if (!frame.index.empty()) {
      auto it = frame.index.find(name);
      return it == frame.index.end() ? members.size() : it->second;
    }
    for (std::size_t i = 0; i < members.size(); ++i)
      if (members[i].first == name) return i;
    return members.size();
  }

  // Doubles the members' room, moving each value. The vector's own growth
  // would copy them: a member's key is const, so its move may throw and
  // std::vector falls back to copying the whole pair, the value's subtree
  // included, at every reallocation (a third of the `verify` target's parse).
  // The key is copied (a short key is no allocation); the value is moved.
  static void grow(Members& members) {
    Members grown;
    grown.reserve(members.empty() ? 4 : 2 * members.capacity());
    for (auto& member : members) grown.emplace_back(member.first, std::move(member.second));
    members.swap(grown);
  }

  // Where the next value goes: the root, the pending member or a new array item.
  Json* slot() {
    if (stack_.empty()) return &root_;
    Frame& frame = stack_.back();
    if (frame.value->is_object()) return std::exchange(frame.pending, nullptr);
    frame.value->push_back(nullptr);
    return &frame.value->back();
  }

  void open(Json container) {
    Json* target = slot();
    *target = std::move(container);
    Frame frame;
    frame.value = target;
    stack_.push_back(std::move(frame));
  }

  Json& root_;
  std::vector<Frame> stack_;
};

// Python's int() refuses longer digit strings (CPython 3.11, sys.int_info.default_max_str_digits).
constexpr std::size_t kMaxIntegerDigits = 4300;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;  // the allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) length = 3, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
  else if (lead >= 0xF0 && lead <= 0xF4) length = 4, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

// A JSON reader with the grammar of Python's json.loads (spec 11.3): NaN,
// Infinity and -Infinity are floats, integers keep every digit, numbers
// beyond double range are infinite floats. Stricter than Python where the
// spec says so (10.4): invalid UTF-8 and lone surrogate escapes are errors.
// Iterative, so that no input can exhaust the stack. Messages are Python's
// JSONDecodeError wording, ending with the line, column and character.
class Reader {
 public:
  Reader(std::string_view text, DomBuilder& builder) : text_(text), out_(builder) {}

  bool read_document() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);  // utf-8-sig: positions count after it
    if (!read_value()) return false;
    while (!out_.done()) {
      skip_white_space();
      if (!(out_.in_object() ? continue_object() : continue_array())) return false;
    }
    skip_white_space();
    if (pos_ != text_.size()) return fail("Extra data", pos_);
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void skip_white_space() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool fail(std::string message, std::size_t at) {
    // Python counts characters, not bytes, and lines from 1.
    std::size_t line = 1;
    std::size_t line_start = 0;  // in characters
    std::size_t chars = 0;
    for (std::size_t i = 0; i < at && i < text_.size(); ++i) {
      const auto c = static_cast<unsigned char>(text_[i]);
      if ((c & 0xC0) == 0x80) continue;
      ++chars;
      if (c == '\n') ++line, line_start = chars;
    }
    error_ = message + ": line " + std::to_string(line) + " column " + std::to_string(chars - line_start + 1) +
             " (char " + std::to_string(chars) + ")";
    return false;
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // One value; a container is opened and its first member or item follows.
  bool read_value() {
    skip_white_space();
    const std::size_t start = pos_;
    switch (peek()) {
      case '{':
        ++pos_;
        out_.start_object();
        skip_white_space();
        if (peek() == '}') return close_container();
        return read_key();
      case '[':
        ++pos_;
        out_.start_array();
        skip_white_space();
        if (peek() == ']') return close_container();
        return read_value();
      case '"': {
        std::string value;
        if (!read_string(value)) return false;
        out_.put(std::move(value));
        return true;
      }
      default: break;
    }
    if (literal("null")) return out_.put(nullptr), true;
    if (literal("true")) return out_.put(true), true;
    if (literal("false")) return out_.put(false), true;
    if (is_digit(peek()) || (peek() == '-' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1])))
      return read_number();
    if (literal("NaN")) return out_.put(std::numeric_limits<double>::quiet_NaN()), true;
    if (literal("Infinity")) return out_.put(std::numeric_limits<double>::infinity()), true;
    if (literal("-Infinity")) return out_.put(-std::numeric_limits<double>::infinity()), true;
    return fail("Expecting value", start);
  }

  bool close_container() {
    ++pos_;
    out_.end_container();
    return true;
  }

  bool read_key() {
    if (peek() != '"') return fail("Expecting property name enclosed in double quotes", pos_);
    std::string name;
    if (!read_string(name)) return false;
    out_.key(name);
    skip_white_space();
    if (peek() != ':') return fail("Expecting ':' delimiter", pos_);
    ++pos_;
    return read_value();
  }

  bool continue_object() {
    if (peek() == '}') return close_container();
    if (peek() != ',') return fail("Expecting ',' delimiter", pos_);
    ++pos_;
    skip_white_space();
    return read_key();
  }

  bool continue_array() {
    if (peek() == ']') return close_container();
    if (peek() != ',') return fail("Expecting ',' delimiter", pos_);
    ++pos_;
    return read_value();
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, Python's NUMBER_RE.
  bool read_number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') ++pos_;
    else while (is_digit(peek())) ++pos_;
    const std::size_t integer_end = pos_;
    if (peek() == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1])) {
      pos_ += 2;
      while (is_digit(peek())) ++pos_;
    }
    if ((peek() == 'e' || peek() == 'E')) {
      std::size_t e = pos_ + 1;
      if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
      if (e < text_.size() && is_digit(text_[e])) {
        pos_ = e;
        while (is_digit(peek())) ++pos_;
      }
    }
    const std::string_view token = text_.substr(start, pos_ - start);
    if (pos_ == integer_end) return put_integer(token);
    // strtod rounds exactly as Python's float() does; beyond double range it gives ±inf.
    const std::string copy(token);
    out_.put(std::strtod(copy.c_str(), nullptr));
    return true;
  }

  bool put_integer(std::string_view token) {
    const std::size_t digits = token.size() - (token.front() == '-' ? 1 : 0);
    if (digits > kMaxIntegerDigits) {
      // int() raises a ValueError, not a JSONDecodeError: its text has no position.
      error_ = "Exceeds the limit (" + std::to_string(kMaxIntegerDigits) +
               " digits) for integer string conversion: value has " + std::to_string(digits) +
               " digits; use sys.set_int_max_str_digits() to increase the limit";
      return false;
    }
    out_.put(Integer::from_decimal(token).to_json());
    return true;
  }

  // A string from its opening quote; escapes decoded, UTF-8 checked.
  bool read_string(std::string& value) {
    const std::size_t start = pos_++;
    while (true) {
      const std::size_t run = pos_;
      while (!at_end()) {
        const auto c = static_cast<unsigned char>(text_[pos_]);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++pos_;
      }
      value.append(text_.substr(run, pos_ - run));
      if (at_end()) return fail("Unterminated string starting at", start);
      const auto c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return fail("Invalid control character at", pos_);
      if (c >= 0x80) {
        const std::size_t length = utf8_sequence_length(text_, pos_);
        if (length == 0) return fail("Invalid UTF-8 byte", pos_);
        value.append(text_.substr(pos_, length));
        pos_ += length;
        continue;
      }
      if (!read_escape(value, start)) return false;
    }
  }

  bool read_hex4(std::size_t at, char32_t& unit) {
    if (at + 4 >= text_.size()) return false;  // CPython's `end >= len`: a character must follow the digits
    unit = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const int h = hex_value(text_[at + k]);
      if (h < 0) return false;
      unit = (unit << 4) | static_cast<char32_t>(h);
    }
    return true;
  }

  // An escape of the string that opened at `start`. Messages and positions are
  // CPython's C scanner's (the one json.loads uses): a backslash at the end is
  // the whole string unterminated, and a bad escape is not named.
  bool read_escape(std::string& value, std::size_t start) {
    const std::size_t at = pos_;  // the backslash
    if (at + 1 >= text_.size()) return fail("Unterminated string starting at", start);
    const char e = text_[at + 1];
    static constexpr std::string_view kFrom = "\"\\/bfnrt";
    static constexpr std::string_view kTo = "\"\\/\b\f\n\r\t";
    if (auto k = kFrom.find(e); k != std::string_view::npos) {
      value += kTo[k];
      pos_ += 2;
      return true;
    }
    if (e != 'u') return fail("Invalid \\escape", at);
    char32_t unit = 0, low = 0;
    if (!read_hex4(at + 2, unit)) return fail("Invalid \\uXXXX escape", at + 1);
    pos_ = at + 6;
    if (unit >= 0xDC00 && unit <= 0xDFFF) return fail("Lone surrogate escape (rejected, spec 10.4)", at);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      const bool paired = text_.substr(pos_, 2) == "\\u";  // CPython: a bad or cut second half is its own error
      if (paired && !read_hex4(pos_ + 2, low)) return fail("Invalid \\uXXXX escape", pos_ + 1);
      if (low < 0xDC00 || low > 0xDFFF) return fail("Lone surrogate escape (rejected, spec 10.4)", at);
      pos_ += 6;
      unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(value, unit);
    return true;
  }

  std::string_view text_;
  DomBuilder& out_;
  std::size_t pos_ = 0;
  std::string error_;
};

}  // namespace

int nesting_depth(std::string_view bytes, int limit) {
  int depth = 0;
  int deepest = 0;
  const std::size_t size = bytes.size();
  std::size_t i = 0;
  while (i < size) {
    const char c = bytes[i++];
    if (c == '"') {
      // Skip the string in a tight loop: up to the next quote that is not
      // escaped; a backslash takes the byte after it, whatever it is.
      while (i < size) {
        const char s = bytes[i++];
        if (s == '\\') ++i;
        else if (s == '"') break;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

Result<Json> parse_bounded_json(std::string_view bytes, int max_depth) {
  if (bytes.size() > kMaxInputBytes) {
    return Error::bad_request("Input is " + std::to_string(bytes.size()) +
                              " bytes, more than the limit of " + std::to_string(kMaxInputBytes) +
                              " bytes (8 MiB).");
  }
  if (nesting_depth(bytes, max_depth) > max_depth) {
    return Error::bad_request("Input nests JSON containers more than " + std::to_string(max_depth) +
                              " levels deep.");
  }
  Json value;
  DomBuilder builder(value);
  Reader reader(bytes, builder);
  if (!reader.read_document()) return Error::bad_request("Invalid JSON: " + reader.error());
  return value;
}

}  // namespace poolcheck
