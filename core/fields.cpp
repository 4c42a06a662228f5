#include "core/fields.hpp"

#include <limits>

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

Result<bool> read_bool(const Json& value, std::string_view path) {
  if (value.is_boolean()) return value.get<bool>();
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
