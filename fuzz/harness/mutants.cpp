#include "fuzz/harness/mutants.hpp"

#include <set>

#include "fuzz/harness/entry.hpp"

namespace poolcheck::harness {
namespace {

constexpr std::string_view kBlockStart = "=== ";
constexpr std::string_view kFind = "--- find";
constexpr std::string_view kReplace = "--- replace";

Error catalogue_error(std::string_view origin, int line, const std::string& message) {
  return Error::bad_request(std::string(origin) + ":" + std::to_string(line) + ": " + message);
}

bool valid_id(std::string_view id) {
  if (id.empty()) return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  return lines;
}

// Fills one "key: value" header field of the mutant being read.
MaybeError read_header(std::string_view line, Mutant& mutant, std::string_view origin, int number) {
  const auto colon = line.find(": ");
  if (colon == std::string_view::npos)
    return catalogue_error(origin, number, "expected \"key: value\", \"--- find\" or \"--- replace\", got \"" +
                                               std::string(line) + "\"");
  const std::string_view key = line.substr(0, colon);
  const std::string value(line.substr(colon + 2));
  std::string* field = key == "module"        ? &mutant.module
                       : key == "target"      ? &mutant.target
                       : key == "provenance"  ? &mutant.provenance
                       : key == "description" ? &mutant.description
                       : key == "file"        ? &mutant.file
                                              : nullptr;
  if (field == nullptr) return catalogue_error(origin, number, "unknown key \"" + std::string(key) + "\"");
  if (!field->empty()) return catalogue_error(origin, number, "\"" + std::string(key) + "\" given twice");
  *field = value;
  return std::nullopt;
}

MaybeError check_complete(const Mutant& m, std::string_view origin) {
  const std::pair<const char*, const std::string*> required[] = {
      {"module", &m.module}, {"target", &m.target},   {"provenance", &m.provenance},
      {"description", &m.description}, {"file", &m.file}, {"--- find", &m.find}};
  for (const auto& [name, value] : required)
    if (value->empty()) return catalogue_error(origin, m.line, "mutant " + m.id + " has no " + name);
  if (m.find == m.replace) return catalogue_error(origin, m.line, "mutant " + m.id + " changes nothing");
  if (!is_known_target(m.target))
    return catalogue_error(origin, m.line, "mutant " + m.id + ": unknown target \"" + m.target + "\"");
  return std::nullopt;
}

}  // namespace

Result<std::vector<Mutant>> parse_catalogue(std::string_view text, std::string_view origin) {
  std::vector<Mutant> mutants;
  std::set<std::string> ids;
  enum class Part { None, Header, Find, Replace } part = Part::None;
  int number = 0;
  auto finish = [&]() -> MaybeError {
    if (mutants.empty()) return std::nullopt;
    return check_complete(mutants.back(), origin);
  };
  for (std::string_view line : split_lines(text)) {
    ++number;
    if (line.substr(0, kBlockStart.size()) == kBlockStart) {
      if (auto e = finish()) return *e;
      Mutant mutant;
      mutant.id = std::string(line.substr(kBlockStart.size()));
      mutant.line = number;
      if (!valid_id(mutant.id)) return catalogue_error(origin, number, "bad mutant id \"" + mutant.id + "\"");
      if (!ids.insert(mutant.id).second) return catalogue_error(origin, number, "duplicate id " + mutant.id);
      mutants.push_back(std::move(mutant));
      part = Part::Header;
      continue;
    }
    if (part == Part::None) {
      if (!line.empty() && line[0] != '#')
        return catalogue_error(origin, number, "text before the first \"=== ID\" line");
      continue;
    }
    Mutant& mutant = mutants.back();
    if (line == kFind || line == kReplace) {
      const bool find = line == kFind;
      if ((find && part != Part::Header) || (!find && part != Part::Find))
        return catalogue_error(origin, number, "expected \"--- find\" then \"--- replace\" in mutant " + mutant.id);
      part = find ? Part::Find : Part::Replace;
      continue;
    }
    if (part == Part::Header) {
      if (line.empty()) continue;
      if (auto e = read_header(line, mutant, origin, number)) return *e;
      continue;
    }
    // Blank lines between blocks end the replacement; inside find/replace text
    // a blank line is kept only when more text follows (trimmed below).
    (part == Part::Find ? mutant.find : mutant.replace) += std::string(line) + "\n";
  }
  for (auto& mutant : mutants) {
    while (mutant.replace.size() >= 2 && mutant.replace.ends_with("\n\n")) mutant.replace.pop_back();
    while (mutant.find.size() >= 2 && mutant.find.ends_with("\n\n")) mutant.find.pop_back();
    if (mutant.replace == "\n") mutant.replace.clear();
  }
  if (auto e = finish()) return *e;
  if (mutants.empty()) return Error::bad_request(std::string(origin) + ": no mutants");
  return mutants;
}

Result<std::vector<Mutant>> load_catalogue(const fs::path& path) {
  std::string text;
  if (!read_file(path, text)) return Error::bad_request(path.string() + ": cannot read the mutant catalogue");
  return parse_catalogue(text, path.string());
}

Result<std::string> apply_mutant(const Mutant& mutant, std::string_view source) {
  const auto at = source.find(mutant.find);
  if (at == std::string_view::npos)
    return Error::bad_request("mutant " + mutant.id + " no longer applies: " + mutant.file +
                              " does not contain its find text (catalogue line " + std::to_string(mutant.line) +
                              "); update the mutant with the code");
  if (source.find(mutant.find, at + 1) != std::string_view::npos)
    return Error::bad_request("mutant " + mutant.id + " is ambiguous: its find text occurs more than once in " +
                              mutant.file + " (catalogue line " + std::to_string(mutant.line) + ")");
  std::string out(source.substr(0, at));
  out += mutant.replace;
  out += source.substr(at + mutant.find.size());
  return out;
}

MaybeError check_catalogue_applies(const std::vector<Mutant>& mutants, const fs::path& root) {
  std::string problems;
  for (const auto& mutant : mutants) {
    std::string source;
    if (!read_file(root / mutant.file, source)) {
      problems += "mutant " + mutant.id + ": cannot read " + mutant.file + "\n";
      continue;
    }
    if (auto applied = apply_mutant(mutant, source); !applied) problems += applied.error().message + "\n";
  }
  if (problems.empty()) return std::nullopt;
  problems.pop_back();
  return Error::bad_request(problems);
}

}  // namespace poolcheck::harness
