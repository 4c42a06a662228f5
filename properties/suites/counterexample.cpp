#include "properties/suites/counterexample.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "core/tokenizer.hpp"
#include "properties/laws/check.hpp"

namespace poolcheck::props {
namespace {

std::string short_hash(const std::string& bytes) {
  char text[9];
  std::snprintf(text, sizeof text, "%08x", fnv1a32(bytes));
  return text;
}

// "Suite/Name" -> "Suite.Name": one path component.
std::string file_stem(const std::string& property) {
  std::string stem = property;
  for (char& c : stem)
    if (c == '/') c = '.';
  return stem;
}

std::string replay_report(const FailingInput& input, const std::string& bytes) {
  const laws::Target* target = laws::find_target(input.target);
  if (target == nullptr) return "";
  const laws::CheckResult again = target->check(bytes);
  if (again.violations.empty())
    return "WARNING: the written bytes pass the law library's '" + input.target + "' target when replayed\n";
  return "replayed through the law library's '" + input.target + "' target, it fails again:\n" +
         laws::describe(again.violations);
}

}  // namespace

std::string with_note(const std::string& bytes, const std::string& note) {
  auto document = parse_bounded_json(bytes);
  if (!document || !document->is_object()) return bytes;
  const std::size_t open = bytes.find('{');
  const std::size_t next = bytes.find_first_not_of(" \t\r\n", open + 1);
  const bool empty = next != std::string::npos && bytes[next] == '}';
  const std::string member = "\"note\": " + dump_json(Json(note)) + (empty ? "" : ", ");
  return bytes.substr(0, open + 1) + member + bytes.substr(open + 1);
}

std::string write_counterexample(const std::string& property, const FailingInput& input, const std::string& note) {
  const char* dir = std::getenv("POOLCHECK_COUNTEREXAMPLE_DIR");
  if (dir == nullptr || *dir == '\0')
    return "counterexample not written: set POOLCHECK_COUNTEREXAMPLE_DIR to keep it as a corpus entry\n";
  const std::string bytes = input.extension == ".json" ? with_note(input.bytes, note) : input.bytes;
  const std::filesystem::path path =
      std::filesystem::path(dir) / (file_stem(property) + "-" + short_hash(bytes) + input.extension);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return "counterexample NOT written: cannot write " + path.string() + "\n";
  std::string report = "counterexample written to " + path.string() + "\n";
  if (!input.replay.empty()) report += "replay it with: " + input.replay + " " + path.string() + "\n";
  return report + replay_report(input, bytes);
}

}  // namespace poolcheck::props
