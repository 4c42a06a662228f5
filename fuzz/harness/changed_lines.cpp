#include "fuzz/harness/changed_lines.hpp"

#include <charconv>

#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/logged_command.hpp"

namespace poolcheck::harness {
namespace {

int number_at(std::string_view text, std::size_t& at) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data() + at, text.data() + text.size(), value);
  at = static_cast<std::size_t>(ptr - text.data());
  return ec == std::errc() ? value : 0;
}

// "@@ -a,b +c,d @@": lines c .. c+d-1 (d is 1 when left out).
void add_hunk(std::string_view header, std::set<int>& lines) {
  auto at = header.find(" +");
  if (at == std::string_view::npos) return;
  at += 2;
  const int start = number_at(header, at);
  int count = 1;
  if (at < header.size() && header[at] == ',') count = number_at(header, ++at);
  for (int line = start; line < start + count; ++line) lines.insert(line);
}

}  // namespace

ChangedLines parse_unified_diff(std::string_view diff) {
  ChangedLines changed;
  std::set<int>* current = nullptr;
  while (!diff.empty()) {
    const auto end = diff.find('\n');
    const std::string_view line = diff.substr(0, end);
    diff = end == std::string_view::npos ? std::string_view() : diff.substr(end + 1);
    if (line.substr(0, 4) == "+++ ") {
      const std::string_view path = line.substr(4);
      current = path.substr(0, 2) == "b/" ? &changed[std::string(path.substr(2))] : nullptr;  // not /dev/null
    } else if (line.substr(0, 3) == "@@ " && current) {
      add_hunk(line, *current);
    }
  }
  return changed;
}

bool touches(const ChangedLines& changed, const std::string& file, int first, int last) {
  const auto it = changed.find(file);
  if (it == changed.end()) return false;
  const auto line = it->second.lower_bound(first);
  return line != it->second.end() && *line <= last;
}

Result<ChangedLines> changed_since(const std::filesystem::path& root, const std::string& rev,
                                   const std::filesystem::path& log) {
  const CommandOutcome git = run_logged({"git", "-C", root.string(), "diff", "-U0", "--no-color", "--no-ext-diff",
                                         rev, "--", "core/"},
                                        {}, log, 120);
  std::string diff;
  if (!git.succeeded() || !read_file(log, diff))
    return Error::bad_request("git diff -U0 " + rev + " failed (" + git.describe() + "); see " + log.string());
  return parse_unified_diff(diff);
}

}  // namespace poolcheck::harness
