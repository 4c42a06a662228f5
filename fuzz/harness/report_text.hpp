#pragma once
// Small text helpers the harness's tables and summaries share.
#include <cstdio>
#include <string>

namespace poolcheck::harness {

// `text` padded with spaces to at least `width` characters (left-aligned column).
// (A copy built in place: returning the by-value parameter drew GCC 12's false
// -Warray-bounds on the string's move.)
inline std::string padded(const std::string& text, std::size_t width) {
  std::string out = text;
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

// `value` with `decimals` digits after the point: fixed(1.23456, 3) is "1.235".
inline std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace poolcheck::harness
