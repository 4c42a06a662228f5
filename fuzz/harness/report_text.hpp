#pragma once
// Small text helpers the harness's tables and summaries share.
#include <cstdio>
#include <string>

namespace poolcheck::harness {

// `text` padded with spaces to at least `width` characters (left-aligned column).
inline std::string padded(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

// `value` with `decimals` digits after the point: fixed(1.23456, 3) is "1.235".
inline std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace poolcheck::harness
