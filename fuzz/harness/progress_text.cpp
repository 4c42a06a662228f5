#include "fuzz/harness/progress_text.hpp"

#include <cstdio>

namespace poolcheck::harness {

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string clock_text(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  return text;
}

std::string shown(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path relative = std::filesystem::proximate(path, std::filesystem::current_path(ec), ec);
  return ec ? path.string() : relative.string();
}

}  // namespace poolcheck::harness
