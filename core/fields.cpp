#include "core/fields.hpp"

#include <cmath>
#include <limits>

#include "core/unicode.hpp"

namespace poolcheck {

Error type_error(std::string_view field, std::string_view kind) {
  return Error::bad_request(std::string(field) + ": Input should be a valid " + std::string(kind),
                            std::string(field));
}

Error lower_bound_error(std::string_view field, std::int64_t bound) {
  return Error::bad_request(
      std::string(field) + ": Input should be greater than or equal to " + std::to_string(bound),
      std::string(field));
}

Error upper_bound_error(std::string_view field, std::int64_t bound) {
  return Error::bad_request(
      std::string(field) + ": Input should be less than or equal to " + std::to_string(bound),
      std::string(field));
}

Error missing_error(std::string_view field) {
  return Error::bad_request(std::string(field) + ": Field required", std::string(field));
}

Error literal_error(std::string_view field, std::initializer_list<std::string_view> allowed) {
  std::string message = std::string(field) + ": Input should be ";
  std::size_t i = 0;
  for (std::string_view option : allowed) {
    if (i > 0) message += (i + 1 == allowed.size()) ? " or " : ", ";
    message += "'" + std::string(option) + "'";
    ++i;
  }
  return Error::bad_request(std::move(message), std::string(field));
}

std::optional<std::int64_t> as_int64(const Json& value) {
  if (value.is_number_unsigned()) {
    auto u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  return std::nullopt;
}

Result<std::int64_t> read_int(const Json& value, std::string_view path) {
  if (auto n = as_int64(value)) return *n;
  return type_error(path, "integer");
}

Result<Integer> read_exact_int(const Json& value, std::string_view path) {
  if (auto n = json_integer(value)) return *n;
  return type_error(path, "integer");
}

Result<bool> read_bool(const Json& value, std::string_view path) {
  if (value.is_boolean()) return value.get<bool>();
  return type_error(path, "boolean");
}

namespace {

// "<path>: <msg>", pydantic's msg for the first error without its [type=...] tail.
Error pydantic_error(std::string_view path, std::string_view msg) {
  return Error::bad_request(std::string(path) + ": " + std::string(msg), std::string(path));
}

constexpr std::string_view kIntParsing = "Input should be a valid integer, unable to parse string as an integer";
constexpr std::string_view kIntParsingSize = "Unable to parse input string as an integer, exceeded maximum size";
constexpr std::string_view kIntFromFloat = "Input should be a valid integer, got a number with a fractional part";
constexpr std::string_view kFiniteNumber = "Input should be a finite number";
constexpr std::string_view kBoolParsing = "Input should be a valid boolean, unable to interpret input";

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// jiter's NumberInt::try_from, which pydantic-core tries first on the string
// as given: a JSON integer literal and nothing else.
enum class JsonIntegerText { Valid, TooLong, Invalid };

JsonIntegerText classify_json_integer(std::string_view text) {
  std::size_t i = (!text.empty() && text.front() == '-') ? 1 : 0;
  if (i >= text.size()) return JsonIntegerText::Invalid;
  if (text[i] == '0') return i + 1 == text.size() ? JsonIntegerText::Valid : JsonIntegerText::Invalid;
  if (!is_ascii_digit(text[i])) return JsonIntegerText::Invalid;
  while (i < text.size() && is_ascii_digit(text[i])) ++i;
  // jiter's limit counts the sign too, and holds whatever follows the digits.
  if (i > 4300) return JsonIntegerText::TooLong;
  return i == text.size() ? JsonIntegerText::Valid : JsonIntegerText::Invalid;
}

// pydantic-core's strip_leading_zeros: zeros (and underscores among them) go,
// one zero stays before a '.', and an all-zero string keeps its last character.
std::optional<std::string_view> strip_leading_zeros(std::string_view s) {
  if (s.empty()) return std::nullopt;
  if (s.front() != '0') {
    if ((s.front() >= '1' && s.front() <= '9') || s.front() == '-') return s;
    return std::nullopt;
  }
  for (std::size_t i = 1; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '0' || c == '_') continue;
    if ((c >= '1' && c <= '9') || c == '-') return s.substr(i);
    if (c == '.') return s.substr(i - 1);
    return std::nullopt;
  }
  return s.substr(s.size() - 1);
}

// Single underscores between characters go, as in Python's int("1_000").
std::optional<std::string> strip_underscores(std::string_view s) {
  if (s.empty() || s.front() == '_' || s.back() == '_' || s.find('_') == std::string_view::npos ||
      s.find("__") != std::string_view::npos)
    return std::nullopt;
  std::string out;
  for (char c : s)
    if (c != '_') out += c;
  return out;
}

// pydantic-core's clean_int_str: the second try, after the string as given
// failed. nullopt when cleaning changes nothing.
std::optional<std::string> clean_int_string(std::string_view s) {
  const std::size_t length_before = s.size();
  s = trim_white_space(s);
  if (!s.empty() && s.front() == '+') {
    if (s.size() > 1 && s[1] == '-') return std::nullopt;
    s.remove_prefix(1);
  }
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    if (s.size() > 1 && (s[1] == '-' || s[1] == '+')) return std::nullopt;
    negative = true;
    s.remove_prefix(1);
  }
  auto stripped = strip_leading_zeros(s);
  if (!stripped) return std::nullopt;
  s = *stripped;
  // "5.000" is 5: the fraction goes when it is all zeros (never parsed as a float).
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    const std::string_view fraction = s.substr(dot + 1);
    if (!fraction.empty() && fraction.find_first_not_of('0') == std::string_view::npos) s = s.substr(0, dot);
  }
  const std::string sign = negative ? "-" : "";
  if (auto without = strip_underscores(s)) return sign + *without;
  if (length_before == s.size()) return std::nullopt;
  return sign + std::string(s);
}

// pydantic-core's str_as_int.
Result<Integer> int_from_string(std::string_view text, std::string_view path) {
  switch (classify_json_integer(text)) {
    case JsonIntegerText::Valid: return Integer::from_decimal(text);
    case JsonIntegerText::TooLong: return pydantic_error(path, kIntParsingSize);
    case JsonIntegerText::Invalid: break;
  }
  const auto cleaned = clean_int_string(text);
  if (!cleaned || classify_json_integer(*cleaned) != JsonIntegerText::Valid) return pydantic_error(path, kIntParsing);
  return Integer::from_decimal(*cleaned);
}

// pydantic-core's float_as_int: integral and strictly inside the int64 range.
Result<Integer> int_from_float(double value, std::string_view path) {
  if (!std::isfinite(value)) return pydantic_error(path, kFiniteNumber);
  if (std::fmod(value, 1.0) != 0.0) return pydantic_error(path, kIntFromFloat);
  constexpr double kMin = static_cast<double>(std::numeric_limits<std::int64_t>::min());
  constexpr double kMax = static_cast<double>(std::numeric_limits<std::int64_t>::max());
  if (!(kMin < value && value < kMax)) return pydantic_error(path, kIntParsingSize);
  return Integer(static_cast<std::int64_t>(value));
}

bool ascii_iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// pydantic-core's str_as_bool: no trimming; the digits only as "0" and "1".
std::optional<bool> bool_from_string(std::string_view text) {
  if (text == "0") return false;
  if (text == "1") return true;
  for (std::string_view word : {"f", "n", "no", "off", "false"})
    if (ascii_iequal(text, word)) return false;
  for (std::string_view word : {"t", "y", "yes", "on", "true"})
    if (ascii_iequal(text, word)) return true;
  return std::nullopt;
}

// pydantic-core's int_as_bool: 0 and 1 only; ints beyond 64 bits are not even tried.
Result<bool> bool_from_integer(const Integer& value, std::string_view path) {
  if (!value.to_int64()) return type_error(path, "boolean");
  if (value == 0) return false;
  if (value == 1) return true;
  return pydantic_error(path, kBoolParsing);
}

}  // namespace

Result<Integer> coerce_int(const Json& value, std::string_view path) {
  if (value.is_boolean()) return Integer(value.get<bool>() ? 1 : 0);
  if (auto n = json_integer(value)) return *n;
  if (value.is_number_float()) return int_from_float(value.get<double>(), path);
  if (value.is_string()) return int_from_string(value.get_ref<const std::string&>(), path);
  return type_error(path, "integer");
}

Result<bool> coerce_bool(const Json& value, std::string_view path) {
  if (value.is_boolean()) return value.get<bool>();
  if (auto n = json_integer(value)) return bool_from_integer(*n, path);
  if (value.is_number_float()) {
    auto n = int_from_float(value.get<double>(), path);
    if (!n) return type_error(path, "boolean");
    return bool_from_integer(*n, path);
  }
  if (value.is_string()) {
    if (auto b = bool_from_string(value.get_ref<const std::string&>())) return *b;
    return pydantic_error(path, kBoolParsing);
  }
  return type_error(path, "boolean");
}

Result<std::string> read_string(const Json& value, std::string_view path) {
  if (value.is_string()) return value.get<std::string>();
  return type_error(path, "string");
}

Result<std::vector<std::int64_t>> read_int_list(const Json& value, std::string_view path) {
  if (!value.is_array()) return type_error(path, "list");
  std::vector<std::int64_t> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto n = read_int(value[i], std::string(path) + "[" + std::to_string(i) + "]");
    if (!n) return n.error();
    out.push_back(*n);
  }
  return out;
}

Result<std::string> read_literal(const Json& value, std::string_view path,
                                 std::initializer_list<std::string_view> allowed) {
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    for (std::string_view option : allowed)
      if (s == option) return s;
  }
  return literal_error(path, allowed);
}

Fields::Fields(const Json& object, std::string prefix) : object_(object), prefix_(std::move(prefix)) {}

const Json* Fields::find(std::string_view key) const {
  if (!object_.is_object()) return nullptr;
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

std::string Fields::path(std::string_view key) const { return prefix_ + std::string(key); }

Result<const Json*> Fields::present(std::string_view key, Null null, std::string_view kind) const {
  const Json* value = find(key);
  if (value == nullptr) return static_cast<const Json*>(nullptr);
  if (value->is_null()) {
    if (null == Null::IsAbsent) return static_cast<const Json*>(nullptr);
    return type_error(path(key), kind);
  }
  return value;
}

// Reads a present member with `read`, mapping absence to nullopt.
template <class T, class Read>
static Result<std::optional<T>> optional_of(Result<const Json*> member, Read read) {
  if (!member) return member.error();
  if (*member == nullptr) return std::optional<T>();
  auto value = read(**member);
  if (!value) return value.error();
  return std::optional<T>(std::move(*value));
}

Result<std::optional<std::int64_t>> Fields::integer(std::string_view key, Null null) const {
  return optional_of<std::int64_t>(present(key, null, "integer"),
                                   [&](const Json& v) { return read_int(v, path(key)); });
}

Result<std::optional<bool>> Fields::boolean(std::string_view key, Null null) const {
  return optional_of<bool>(present(key, null, "boolean"),
                           [&](const Json& v) { return read_bool(v, path(key)); });
}

Result<std::optional<Integer>> Fields::exact_integer(std::string_view key, Null null) const {
  return optional_of<Integer>(present(key, null, "integer"),
                              [&](const Json& v) { return read_exact_int(v, path(key)); });
}

Result<std::optional<Integer>> Fields::coerced_integer(std::string_view key, Null null) const {
  return optional_of<Integer>(present(key, null, "integer"),
                              [&](const Json& v) { return coerce_int(v, path(key)); });
}

Result<std::optional<bool>> Fields::coerced_boolean(std::string_view key, Null null) const {
  return optional_of<bool>(present(key, null, "boolean"),
                           [&](const Json& v) { return coerce_bool(v, path(key)); });
}

Result<std::optional<std::string>> Fields::string(std::string_view key, Null null) const {
  return optional_of<std::string>(present(key, null, "string"),
                                  [&](const Json& v) { return read_string(v, path(key)); });
}

Result<std::optional<Json>> Fields::object(std::string_view key, Null null) const {
  return optional_of<Json>(present(key, null, "object"), [&](const Json& v) -> Result<Json> {
    if (v.is_object()) return v;
    return type_error(path(key), "object");
  });
}

Result<std::optional<std::vector<std::int64_t>>> Fields::int_list(std::string_view key,
                                                                  Null null) const {
  return optional_of<std::vector<std::int64_t>>(
      present(key, null, "list"), [&](const Json& v) { return read_int_list(v, path(key)); });
}

Result<std::optional<std::string>> Fields::literal(
    std::string_view key, Null null, std::initializer_list<std::string_view> allowed) const {
  const Json* value = find(key);
  if (value != nullptr && value->is_null() && null == Null::IsError)
    return literal_error(path(key), allowed);
  return optional_of<std::string>(present(key, Null::IsAbsent, "string"),
                                  [&](const Json& v) { return read_literal(v, path(key), allowed); });
}

}  // namespace poolcheck
