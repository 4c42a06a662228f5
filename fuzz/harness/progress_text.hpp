#pragma once
// How the long-running harness commands (fuzz, coverage) show elapsed times
// and paths in their progress lines.
#include <chrono>
#include <filesystem>
#include <string>

namespace poolcheck::harness {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start);  // seconds
std::string clock_text(double seconds);  // "M:SS", rounded to the second
// The path relative to the current directory when there is one, else as given.
std::string shown(const std::filesystem::path& path);

}  // namespace poolcheck::harness
