#include "core/integer.hpp"

#include <charconv>
#include <limits>

namespace poolcheck {
namespace {

// "-"? digits without leading zeros ("0" for zero, never "-0").
std::string canonical_decimal(std::string_view decimal) {
  const bool negative = !decimal.empty() && decimal.front() == '-';
  if (negative) decimal.remove_prefix(1);
  const auto first = decimal.find_first_not_of('0');
  if (first == std::string_view::npos) return "0";
  return (negative ? "-" : "") + std::string(decimal.substr(first));
}

}  // namespace

Integer Integer::from_decimal(std::string_view decimal) {
  Integer out;
  std::string canonical = canonical_decimal(decimal);
  const char* end = canonical.data() + canonical.size();
  auto [ptr, ec] = std::from_chars(canonical.data(), end, out.small_);
  if (ec != std::errc() || ptr != end) {
    out.small_ = 0;
    out.big_ = std::move(canonical);
  }
  return out;
}

std::optional<std::int64_t> Integer::to_int64() const {
  if (!big_.empty()) return std::nullopt;
  return small_;
}

std::string Integer::to_string() const { return big_.empty() ? std::to_string(small_) : big_; }

Json Integer::to_json() const {
  if (big_.empty()) return small_ >= 0 ? Json(static_cast<std::uint64_t>(small_)) : Json(small_);
  // Between 2^63 and 2^64 - 1 nlohmann still holds it, as an unsigned number.
  std::uint64_t unsigned_value = 0;
  const char* end = big_.data() + big_.size();
  auto [ptr, ec] = std::from_chars(big_.data(), end, unsigned_value);
  if (ec == std::errc() && ptr == end) return Json(unsigned_value);
  return Json::binary(Json::binary_t::container_type(big_.begin(), big_.end()), kBigIntegerSubtype);
}

std::strong_ordering operator<=>(const Integer& a, std::int64_t b) {
  if (a.big_.empty()) return a.small_ <=> b;
  // Beyond 64 bits: below every int64 when negative, above every one otherwise.
  return a.big_.front() == '-' ? std::strong_ordering::less : std::strong_ordering::greater;
}

bool is_big_integer(const Json& value) {
  return value.is_binary() && value.get_binary().has_subtype() &&
         value.get_binary().subtype() == kBigIntegerSubtype;
}

std::optional<Integer> json_integer(const Json& value) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return Integer(static_cast<std::int64_t>(u));
    return Integer::from_decimal(std::to_string(u));
  }
  if (value.is_number_integer()) return Integer(value.get<std::int64_t>());
  if (is_big_integer(value)) {
    const auto& digits = value.get_binary();
    return Integer::from_decimal(std::string_view(reinterpret_cast<const char*>(digits.data()), digits.size()));
  }
  return std::nullopt;
}

}  // namespace poolcheck
