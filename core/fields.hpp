#pragma once
// Typed reads of JSON members, with the spec's generic messages (section 1):
// "<field>: Input should be a valid <kind>" and
// "<field>: Input should be greater than or equal to <n>". Every module that
// turns JSON into a typed value reads through here, so the wording cannot drift.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/integer.hpp"
#include "core/json.hpp"

namespace poolcheck {

Error type_error(std::string_view field, std::string_view kind);
Error lower_bound_error(std::string_view field, std::int64_t bound);
// "<field>: Input should be less than or equal to <n>"
Error upper_bound_error(std::string_view field, std::int64_t bound);
Error missing_error(std::string_view field);
// "<field>: Input should be 'a' or 'b'" (pydantic's wording for literals).
Error literal_error(std::string_view field, std::initializer_list<std::string_view> allowed);

// A JSON integer literal within signed 64-bit range; `true`, `1.0` and `1e2`
// are not integers. For the strict fields (the model, PoolingParams, the
// worker batch); the online request's int fields coerce (coerce_int below).
std::optional<std::int64_t> as_int64(const Json& value);

Result<std::int64_t> read_int(const Json& value, std::string_view path);
// A JSON integer of any size, never coerced: a Python int as the offline call passes it.
Result<Integer> read_exact_int(const Json& value, std::string_view path);
Result<bool> read_bool(const Json& value, std::string_view path);

// The typed fields of vLLM's online requests are validated by pydantic 2 in
// lax mode, on what json.loads produced (spec 11.1); these are its rules,
// written out. An `int` takes a bool, an int of any size, an integral float
// inside the int64 range, or a numeric string ("  7 ", "+1_000", "5.00");
// errors are "<path>: <pydantic's msg>".
Result<Integer> coerce_int(const Json& value, std::string_view path);
// A `bool` takes a bool, 0 or 1 (also as 0.0 or 1.0), or one of the words
// 0/1, f/t, n/y, no/yes, off/on, false/true in any ASCII case.
Result<bool> coerce_bool(const Json& value, std::string_view path);
Result<std::string> read_string(const Json& value, std::string_view path);
Result<std::vector<std::int64_t>> read_int_list(const Json& value, std::string_view path);
Result<std::string> read_literal(const Json& value, std::string_view path,
                                 std::initializer_list<std::string_view> allowed);

// What an explicit `null` means for a field (spec 10.3).
enum class Null { IsAbsent, IsError };

// The members of one JSON object, read with paths `<prefix><key>`.
class Fields {
 public:
  // `object` must outlive this reader; `prefix` is "" or ends with '.'.
  Fields(const Json& object, std::string prefix = "");

  const Json* find(std::string_view key) const;  // nullptr when absent
  bool has(std::string_view key) const { return find(key) != nullptr; }
  std::string path(std::string_view key) const;

  // Absent gives nullopt; `null` gives nullopt or a type error, per `null`.
  Result<std::optional<std::int64_t>> integer(std::string_view key, Null null) const;
  Result<std::optional<bool>> boolean(std::string_view key, Null null) const;
  // A JSON integer of any size, no coercion (the offline call's Python ints).
  Result<std::optional<Integer>> exact_integer(std::string_view key, Null null) const;
  // pydantic's lax `int` and `bool` (coerce_int, coerce_bool): online request fields.
  Result<std::optional<Integer>> coerced_integer(std::string_view key, Null null) const;
  Result<std::optional<bool>> coerced_boolean(std::string_view key, Null null) const;
  Result<std::optional<std::string>> string(std::string_view key, Null null) const;
  Result<std::optional<Json>> object(std::string_view key, Null null) const;
  Result<std::optional<std::vector<std::int64_t>>> int_list(std::string_view key, Null null) const;
  Result<std::optional<std::string>> literal(std::string_view key, Null null,
                                             std::initializer_list<std::string_view> allowed) const;

 private:
  // The member, or nullptr when absent or (with Null::IsAbsent) null.
  Result<const Json*> present(std::string_view key, Null null, std::string_view kind) const;

  const Json& object_;
  std::string prefix_;
};

}  // namespace poolcheck
