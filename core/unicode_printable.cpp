#include <algorithm>

#include "core/unicode.hpp"

namespace poolcheck {
namespace {

constexpr CodePointRange kNonPrintable[] = {
#include "core/unicode_printable_table.inc"
};

}  // namespace

std::span<const CodePointRange> non_printable_ranges() { return kNonPrintable; }

bool is_printable(char32_t cp) {
  // The first range that ends at or after cp holds it when it starts at or before it.
  const auto* range = std::lower_bound(std::begin(kNonPrintable), std::end(kNonPrintable), cp,
                                       [](const CodePointRange& r, char32_t c) { return r.last < c; });
  return range == std::end(kNonPrintable) || cp < range->first;
}

}  // namespace poolcheck
