#include "fuzz/harness/entry.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "core/json_input.hpp"
#include "core/output_json.hpp"

namespace poolcheck::harness {
namespace {

constexpr std::string_view kMetadataKeys[] = {"note", "expect", "catches", "promoted_from"};
// Metadata is read with nlohmann's parser (recursive), so only from inputs
// whose nesting is bounded; deeper inputs are fed to the core as they are.
constexpr int kMetadataMaxDepth = 256;

Error entry_error(const fs::path& path, const std::string& message) {
  return Error::bad_request(path.string() + ": " + message);
}

bool is_metadata_key(std::string_view key) {
  return std::find(std::begin(kMetadataKeys), std::end(kMetadataKeys), key) != std::end(kMetadataKeys);
}

// With the core's reader: an entry may hold NaN or integers beyond 64 bits (spec 11.3).
std::optional<Json> parse_lenient(std::string_view bytes) {
  auto value = parse_bounded_json(bytes, kMetadataMaxDepth);
  if (!value) return std::nullopt;
  return std::move(*value);
}

// note, catches, expect out of `object` into `entry`.
MaybeError read_metadata(const Json& object, Entry& entry) {
  if (auto it = object.find("note"); it != object.end()) {
    if (!it->is_string()) return entry_error(entry.path, "\"note\" must be a string");
    entry.note = it->get<std::string>();
  }
  if (auto it = object.find("catches"); it != object.end()) {
    if (!it->is_array()) return entry_error(entry.path, "\"catches\" must be a list of strings");
    for (const auto& item : *it) {
      if (!item.is_string()) return entry_error(entry.path, "\"catches\" must be a list of strings");
      entry.catches.push_back(item.get<std::string>());
    }
  }
  if (auto it = object.find("expect"); it != object.end()) {
    auto expect = expect_from_json(*it);
    if (!expect) return entry_error(entry.path, expect.error().message);
    entry.expect = *expect;
  }
  return std::nullopt;
}

Result<Entry> unwrap(Entry entry, const std::string& bytes) {
  auto document = parse_lenient(bytes);
  if (!document || !document->is_object())
    return entry_error(entry.path, "a .pcentry file must be a JSON object");
  const Json& object = *document;
  auto version = object.find("poolcheck_entry");
  if (version == object.end() || *version != 1)
    return entry_error(entry.path, "a .pcentry file needs \"poolcheck_entry\": 1");
  for (const auto& [key, value] : object.items()) {
    if (key != "poolcheck_entry" && key != "input_hex" && key != "input_text" && !is_metadata_key(key))
      return entry_error(entry.path, "unknown key \"" + key + "\" in a .pcentry file");
  }
  const bool has_hex = object.contains("input_hex");
  const bool has_text = object.contains("input_text");
  if (has_hex == has_text)
    return entry_error(entry.path, "a .pcentry file needs exactly one of \"input_hex\" and \"input_text\"");
  if (has_hex) {
    if (!object["input_hex"].is_string()) return entry_error(entry.path, "\"input_hex\" must be a string");
    auto decoded = from_hex(object["input_hex"].get<std::string>());
    if (!decoded) return entry_error(entry.path, "\"input_hex\" is not an even-length hex string");
    entry.input = std::move(*decoded);
  } else {
    if (!object["input_text"].is_string()) return entry_error(entry.path, "\"input_text\" must be a string");
    entry.input = object["input_text"].get<std::string>();
  }
  entry.form = EntryForm::Wrapped;
  if (auto error = read_metadata(object, entry)) return *error;
  return entry;
}

}  // namespace

bool read_file(const fs::path& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool is_json_target(std::string_view target) { return target == "request" || target == "verify"; }

bool is_known_target(std::string_view target) {
  return is_json_target(target) || target == "params_wire" || target == "token_types";
}

std::optional<std::string> infer_target(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  std::optional<std::string> found;
  std::string previous;
  for (const auto& part : absolute.lexically_normal()) {
    const std::string name = part.string();
    if ((previous == "corpus" || previous == ".fuzz-work") && is_known_target(name)) found = name;
    previous = name;
  }
  return found;
}

Result<Entry> entry_from_bytes(const fs::path& path, std::string bytes, std::string target) {
  Entry entry;
  entry.path = path;
  entry.target = std::move(target);
  if (path.extension() == kWrapperExtension) return unwrap(std::move(entry), bytes);
  entry.input = std::move(bytes);
  if (is_json_target(entry.target)) {
    auto document = parse_lenient(entry.input);
    if (document && document->is_object()) {
      bool has_metadata = false;
      for (auto key : kMetadataKeys) has_metadata = has_metadata || document->contains(key);
      if (has_metadata) {
        entry.form = EntryForm::Embedded;
        if (auto error = read_metadata(*document, entry)) return *error;
      }
    }
  }
  return entry;
}

Result<Entry> load_entry(const fs::path& path, std::string target) {
  std::string bytes;
  if (!read_file(path, bytes)) return entry_error(path, "cannot read the file");
  return entry_from_bytes(path, std::move(bytes), std::move(target));
}

Result<std::vector<fs::path>> collect_entry_files(const fs::path& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // read once, judged three ways
  if (fs::is_regular_file(status)) return std::vector<fs::path>{path};
  if (!fs::is_directory(status))
    return Error::bad_request(path.string() + (fs::exists(status) ? ": not a regular file or a directory"
                                                                  : ": no such file or directory"));
  std::vector<fs::path> found;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name[0] == '.') {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() != ".md") found.push_back(it->path());
  }
  if (ec) return Error::bad_request(path.string() + ": " + ec.message());
  std::sort(found.begin(), found.end());
  return found;
}

Json expect_to_json(const Expect& expect) {
  Json out = Json::object();
  out["verdict"] = expect.verdict == Verdict::Accept ? "accept" : "reject";
  if (expect.digest) out["digest"] = *expect.digest;
  if (expect.message) out["message"] = *expect.message;
  return out;
}

Result<Expect> expect_from_json(const Json& value) {
  if (!value.is_object()) return Error::bad_request("\"expect\" must be an object");
  Expect expect;
  auto verdict = value.find("verdict");
  if (verdict == value.end() || !verdict->is_string() || (*verdict != "accept" && *verdict != "reject"))
    return Error::bad_request("\"expect.verdict\" must be \"accept\" or \"reject\"");
  expect.verdict = *verdict == "accept" ? Verdict::Accept : Verdict::Reject;
  for (const auto& [key, item] : value.items()) {
    if (key == "verdict") continue;
    if (key == "digest" && expect.verdict == Verdict::Accept) {
      if (!item.is_string() || item.get<std::string>().rfind("fnv1a64:", 0) != 0 ||
          item.get<std::string>().size() != 8 + 16)
        return Error::bad_request("\"expect.digest\" must be \"fnv1a64:\" and 16 hex digits");
      expect.digest = item.get<std::string>();
    } else if (key == "message" && expect.verdict == Verdict::Reject) {
      if (!item.is_string()) return Error::bad_request("\"expect.message\" must be a string");
      expect.message = item.get<std::string>();
    } else {
      return Error::bad_request("unexpected key \"expect." + key + "\" (accept takes \"digest\", reject \"message\")");
    }
  }
  return expect;
}

std::string content_key(std::string_view input) {
  auto document = parse_lenient(input);
  if (!document || !document->is_object()) return std::string(input);
  for (auto key : kMetadataKeys) document->erase(std::string(key));
  return dump_json(*document);
}

namespace {

Json metadata_json(const EntryMeta& meta) {
  Json out = Json::object();
  out["note"] = meta.note;
  if (!meta.catches.empty()) out["catches"] = meta.catches;
  if (meta.expect) out["expect"] = expect_to_json(*meta.expect);
  if (meta.promoted_from) out["promoted_from"] = *meta.promoted_from;
  return out;
}

// {"k": v,\n "k2": v2}: one member per line, each value compact.
std::string render_members(const Json& object) {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : object.items()) {
    out += first ? "" : ",\n ";
    first = false;
    out += dump_json(Json(key)) + ": " + dump_json(value);
  }
  return out + "}\n";
}

bool valid_utf8_text(std::string_view bytes) {
  try {
    (void)Json(std::string(bytes)).dump();  // strict: throws on invalid UTF-8
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

}  // namespace

std::optional<std::string> render_embedded_entry(const Json& input, const EntryMeta& meta) {
  if (!input.is_object()) return std::nullopt;
  for (auto key : kMetadataKeys)
    if (input.contains(key)) return std::nullopt;
  Json out = metadata_json(meta);
  for (const auto& [key, value] : input.items()) out[key] = value;
  return render_members(out);
}

std::string render_wrapped_entry(std::string_view input, const EntryMeta& meta, bool prefer_text) {
  Json out = Json::object();
  out["poolcheck_entry"] = 1;
  const Json metadata = metadata_json(meta);  // items() does not keep a temporary alive
  for (const auto& [key, value] : metadata.items()) out[key] = value;
  if (prefer_text && valid_utf8_text(input)) out["input_text"] = std::string(input);
  else out["input_hex"] = to_hex(input);
  return render_members(out);
}

std::string to_hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

std::optional<std::string> from_hex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]);
    const int lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

}  // namespace poolcheck::harness
