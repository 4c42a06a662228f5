#include "properties/laws/law_sample.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/tokenizer.hpp"

namespace poolcheck::laws {

std::uint32_t sampling_hash(std::string_view bytes) {
  std::uint32_t h = fnv1a32(bytes);
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  return h ^ (h >> 16);
}

namespace {

void mix(std::uint64_t& h, std::uint64_t value) { h ^= value + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2); }

// FNV-1a's step, a byte at a time.
void mix_byte(std::uint64_t& h, unsigned char c) {
  h ^= c;
  h *= 0x100000001B3ull;
}

void mix_text(std::uint64_t& h, std::string_view text) {
  for (const unsigned char c : text) mix_byte(h, c);
  mix(h, text.size());
}

// An error message up to where the input's own values begin: a quote opens
// a repr() or a literal, and digits are indexes, lengths and limits. What is
// left is the message's family and the path it names.
void mix_message(std::uint64_t& h, std::string_view message) {
  constexpr std::size_t kMaxTemplate = 96;
  std::size_t taken = 0;
  for (const unsigned char c : message) {
    if (c == '\'' || c == '"' || taken == kMaxTemplate) break;
    if (c >= '0' && c <= '9') continue;
    mix_byte(h, c);
    ++taken;
  }
  mix(h, taken);
}

// A short word's text (an enum's literal, a task); of any other string, only
// whether it is empty.
void mix_string(std::uint64_t& h, std::string_view text) {
  constexpr std::size_t kMaxWord = 24;
  const bool word = !text.empty() && text.size() <= kMaxWord &&
                    std::all_of(text.begin(), text.end(), [](unsigned char c) {
                      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
                    });
  if (word) mix_text(h, text);
  else mix(h, text.empty());
}

// Zero, then a step for each 8 bits of magnitude.
std::uint64_t size_class(std::uint64_t magnitude) { return (std::bit_width(magnitude) + 7) / 8; }

void mix_float(std::uint64_t& h, double d) {
  mix(h, std::signbit(d));
  if (std::isnan(d)) mix(h, 1);
  else if (std::isinf(d)) mix(h, 2);
  else if (d == std::trunc(d)) mix(h, 3);
  else mix(h, 4);
}

// At most this many values of an outcome make its shape: a nested array's
// first and last elements would otherwise be 2^depth visits, and an outcome's
// kind shows in its first values.
constexpr std::size_t kShapeValues = 256;

void mix_shape(std::uint64_t& h, const Json& value, std::string_view key, std::size_t& budget) {
  if (budget == 0) return;
  --budget;
  mix(h, static_cast<std::uint64_t>(value.type()));
  switch (value.type()) {
    case Json::value_t::boolean:
      mix(h, value.get<bool>());
      break;
    case Json::value_t::number_integer: {
      const auto i = value.get<std::int64_t>();
      mix(h, i < 0);
      mix(h, size_class(i < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i)));
      break;
    }
    case Json::value_t::number_unsigned:
      mix(h, size_class(value.get<std::uint64_t>()));
      break;
    case Json::value_t::number_float:
      mix_float(h, value.get<double>());
      break;
    case Json::value_t::string:
      if (key == "message") mix_message(h, value.get_ref<const std::string&>());
      else mix_string(h, value.get_ref<const std::string&>());
      break;
    case Json::value_t::array:
      mix(h, std::bit_width(value.size()));
      if (!value.empty()) {
        mix_shape(h, value.front(), {}, budget);
        if (value.size() > 1) mix_shape(h, value.back(), {}, budget);
      }
      break;
    case Json::value_t::object:
      for (auto it = value.begin(); it != value.end(); ++it) {
        mix_text(h, it.key());
        mix_shape(h, it.value(), it.key(), budget);
      }
      break;
    default:
      break;
  }
}

}  // namespace

std::uint64_t outcome_shape(const Json& outcome) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  std::size_t budget = kShapeValues;
  mix_shape(h, outcome, {}, budget);
  return h;
}

Judged LawSample::judges(std::string_view bytes, const Json& outcome, std::uint32_t one_in) {
  // The bits above the full check's (CheckDepth::full_check_one_in reads the low ones).
  const bool picked = one_in <= 1 || (sampling_hash(bytes) >> 8) % one_in == 0;
  const bool first = seen_.size() < kMaxShapes && seen_.insert(outcome_shape(outcome)).second;
  ++counts_.inputs;
  counts_.first_of_shape += first;
  counts_.picked_only += picked && !first;
  return first ? Judged::FirstOfShape : picked ? Judged::PickedByHash : Judged::No;
}

}  // namespace poolcheck::laws
