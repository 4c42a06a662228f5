#pragma once
// Python's printing, for messages vLLM builds with f-strings: `{x!r}` of a
// str, and str() of a list of str or of int.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace poolcheck {

// repr() of a str: single quotes unless the text holds a ' and no ".
std::string python_repr(std::string_view text);
// ['a', 'b']
std::string python_list(const std::vector<std::string_view>& names);
// [256, 512]
std::string python_list(const std::vector<std::int64_t>& values);

}  // namespace poolcheck
