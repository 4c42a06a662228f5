#include "core/json_input.hpp"

#include <cmath>
#include <string>

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

bool all_numbers_finite(const Json& value) {
  switch (value.type()) {
    case Json::value_t::number_float:
      return std::isfinite(value.get<double>());
    case Json::value_t::array:
    case Json::value_t::object:
      for (const auto& child : value)
        if (!all_numbers_finite(child)) return false;
      return true;
    default:
      return true;
  }
}

}  // namespace

int nesting_depth(std::string_view bytes, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : bytes) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
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
  Json value;
  try {
    value = Json::parse(bytes.begin(), bytes.end());
  } catch (const Json::parse_error& e) {
    return Error::bad_request("Invalid JSON: " + printable(without_exception_tag(e.what())));
  }
  if (!all_numbers_finite(value)) {
    return Error::bad_request("Invalid JSON: a number is out of the range of a double.");
  }
  return value;
}

}  // namespace poolcheck
