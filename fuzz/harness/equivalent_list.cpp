#include "fuzz/harness/equivalent_list.hpp"

#include "fuzz/harness/entry.hpp"

namespace poolcheck::harness {
namespace {

constexpr std::string_view kSpace = " \t";

Error list_error(std::string_view origin, int line, const std::string& message) {
  return Error::bad_request(std::string(origin) + ":" + std::to_string(line) + ": " + message);
}

}  // namespace

Result<std::vector<EquivalentEntry>> parse_equivalent_list(std::string_view text, std::string_view origin) {
  std::vector<EquivalentEntry> entries;
  std::set<std::string> ids;
  int number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto start = line.find_first_not_of(kSpace);
    if (start == std::string_view::npos || line[start] == '#') continue;
    line.remove_prefix(start);
    const auto id_end = line.find_first_of(kSpace);
    const auto reason_at = id_end == std::string_view::npos ? id_end : line.find_first_not_of(kSpace, id_end);
    EquivalentEntry entry{std::string(line.substr(0, id_end)), {}, number};
    if (reason_at == std::string_view::npos)
      return list_error(origin, number, entry.id + " has no reason: write why no input can tell it from the core");
    entry.reason = std::string(line.substr(reason_at));
    if (!ids.insert(entry.id).second) return list_error(origin, number, entry.id + " is listed twice");
    entries.push_back(std::move(entry));
  }
  return entries;
}

Result<std::vector<EquivalentEntry>> load_equivalent_list(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::vector<EquivalentEntry>{};
  std::string text;
  if (!read_file(path, text)) return Error::bad_request("cannot read " + path.string());
  return parse_equivalent_list(text, path.string());
}

MaybeError check_equivalent_entries(const std::vector<EquivalentEntry>& entries,
                                    const std::set<std::string>& generated, std::string_view origin) {
  std::string stale;
  for (const auto& entry : entries)
    if (!generated.count(entry.id))
      stale += "\n  " + std::string(origin) + ":" + std::to_string(entry.line) + ": " + entry.id;
  if (stale.empty()) return std::nullopt;
  return Error::bad_request("equivalent entries whose mutant is no longer generated (the code moved or changed: "
                            "judge the mutant at its new place and update the id, or remove the entry):" + stale);
}

}  // namespace poolcheck::harness
