#pragma once
// Integers of any size, as Python holds them (spec 11.2). vLLM's request
// fields are Python ints: `"priority": 2**63` is accepted and
// `"max_tokens_per_query": 10**30` is rejected with its digits printed. The
// core keeps a 64-bit value when it fits and the exact decimal digits when not.
//
// In JSON values the parser stores integers beyond nlohmann's 64 bits as a
// binary value of subtype kBigIntegerSubtype holding the decimal digits: JSON
// has no binary values, so nothing else in the core makes one.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.hpp"

namespace poolcheck {

class Integer {
 public:
  Integer(std::int64_t value = 0) : small_(value) {}  // NOLINT: implicit, like Python's int(5)
  // `decimal` is an optional '-' then one or more ASCII digits (leading zeros allowed).
  static Integer from_decimal(std::string_view decimal);

  std::optional<std::int64_t> to_int64() const;
  std::string to_string() const;  // Python's str(int)
  Json to_json() const;

  bool operator==(const Integer&) const = default;
  friend std::strong_ordering operator<=>(const Integer& a, std::int64_t b);
  friend bool operator==(const Integer& a, std::int64_t b) { return (a <=> b) == 0; }

 private:
  std::int64_t small_ = 0;
  std::string big_;  // canonical digits, '-' first when negative, when beyond int64; else empty
};

inline constexpr std::uint64_t kBigIntegerSubtype = 0x69;  // 'i'

// A JSON integer of any size, exactly; nullopt for every other kind (floats included).
std::optional<Integer> json_integer(const Json& value);
bool is_big_integer(const Json& value);

}  // namespace poolcheck
