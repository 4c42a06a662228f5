#include "core/json_input.hpp"

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace poolcheck {
namespace {

// nlohmann quotes the offending bytes in its messages; keep the message ASCII
// so that it can be rendered as JSON whatever the input was.
std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string without_exception_tag(std::string message) {
  // "[json.exception.parse_error.101] parse error at ..." -> "parse error at ..."
  if (!message.empty() && message.front() == '[') {
    auto close = message.find("] ");
    if (close != std::string::npos) message.erase(0, close + 2);
  }
  return message;
}

// Builds the document from nlohmann's SAX events. nlohmann's own DOM builder
// inserts object members through ordered_map, which searches linearly for a
// duplicate: quadratic on an object with many keys, a hang on an 8 MiB body.
// Here each large open object keeps a hash index of its keys; duplicates keep
// the first key's place and take the last value, as Python's json.loads does.
class DomBuilder {
 public:
  explicit DomBuilder(Json& root) : root_(root) {}

  bool null() { return put(nullptr); }
  bool boolean(bool value) { return put(value); }
  bool number_integer(Json::number_integer_t value) { return put(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return put(value); }
  // nlohmann reports numbers beyond double range as a parse error before this.
  bool number_float(Json::number_float_t value, const std::string& /*text*/) { return put(value); }
  bool string(std::string& value) { return put(std::move(value)); }
  bool binary(Json::binary_t& /*value*/) { return fail("binary values are not JSON."); }
  bool start_object(std::size_t /*size*/) { return open(Json::object()); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& name) {
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
      return true;
    }
    if (!frame.index.empty()) frame.index.emplace(name, members.size());
    members.emplace_back(std::move(name), nullptr);
    frame.pending = &members.back().second;
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& error) {
    return fail(without_exception_tag(error.what()));
  }

  const std::optional<std::string>& error() const { return error_; }

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

  // Where the next value goes: the root, the pending member or a new array item.
  Json* slot() {
    if (stack_.empty()) return &root_;
    Frame& frame = stack_.back();
    if (frame.value->is_object()) return std::exchange(frame.pending, nullptr);
    frame.value->push_back(nullptr);
    return &frame.value->back();
  }

  bool put(Json value) {
    *slot() = std::move(value);
    return true;
  }

  bool open(Json container) {
    Json* target = slot();
    *target = std::move(container);
    Frame frame;
    frame.value = target;
    stack_.push_back(std::move(frame));
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  bool fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  Json& root_;
  std::vector<Frame> stack_;
  std::optional<std::string> error_;
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

Result<Json> parse_bounded_json(std::string_view bytes) {
  if (bytes.size() > kMaxInputBytes) {
    return Error::bad_request("Input is " + std::to_string(bytes.size()) +
                              " bytes, more than the limit of " + std::to_string(kMaxInputBytes) +
                              " bytes (8 MiB).");
  }
  if (nesting_depth(bytes, kMaxNestingDepth) > kMaxNestingDepth) {
    return Error::bad_request("Input nests JSON containers more than " +
                              std::to_string(kMaxNestingDepth) + " levels deep.");
  }
  // nlohmann's lexer takes a NUL byte for the end of input, silently dropping whatever follows it.
  if (auto nul = bytes.find('\0'); nul != std::string_view::npos)
    return Error::bad_request("Invalid JSON: NUL byte at offset " + std::to_string(nul) + ".");
  Json value;
  DomBuilder builder(value);
  const bool parsed = Json::sax_parse(bytes.begin(), bytes.end(), &builder);
  if (!parsed) return Error::bad_request("Invalid JSON: " + printable(builder.error().value_or("parse error")));
  return value;
}

}  // namespace poolcheck
