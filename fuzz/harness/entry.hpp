#pragma once
// Corpus entries (corpus/README.md): the input bytes a target's check gets,
// plus what the entry says about them: a one-line note, an optional expected
// verdict and, for promoted findings, the laws it was promoted for.
//
// Three forms, told apart by the file name and the target:
// - raw: any file; the bytes are the input. For the JSON targets (request,
//   verify) a top-level object may carry "note", "expect" and "catches" as
//   extra keys, which the core ignores (unknown keys are ignored), so the file
//   is both the input and its own description ("embedded").
// - wrapped: a `*.pcentry` file, a JSON object
//   {"poolcheck_entry": 1, "note", "catches"?, "expect"?, "input_hex" | "input_text"};
//   the input is the decoded hex (binary targets) or the text. Any target.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck::harness {

namespace fs = std::filesystem;

inline constexpr std::string_view kWrapperExtension = ".pcentry";

enum class Verdict { Accept, Reject };

// What the core must answer for the entry.
struct Expect {
  Verdict verdict = Verdict::Accept;
  std::optional<std::string> digest;   // accept: outcome_digest() of the canonical outcome
  std::optional<std::string> message;  // reject: the error body's exact message
  bool operator==(const Expect&) const = default;
};

enum class EntryForm { Raw, Embedded, Wrapped };

struct Entry {
  fs::path path;
  std::string target;  // "" when unknown
  std::string input;   // the bytes handed to the target's check
  EntryForm form = EntryForm::Raw;
  std::string note;
  std::optional<Expect> expect;
  std::vector<std::string> catches;  // the failure signature it was promoted for
};

// request and verify read JSON; params_wire and token_types read bytes.
bool is_json_target(std::string_view target);
bool is_known_target(std::string_view target);

// The target named by the path: the component after a `corpus` or
// `.fuzz-work` directory (the last such pair wins), e.g.
// corpus/request/regressions/x.json -> "request".
std::optional<std::string> infer_target(const fs::path& path);

// Reads and unwraps one entry for `target` ("" when unknown: no embedded
// metadata is read then). A malformed wrapper or malformed metadata is an
// error, so that a typo in a corpus entry cannot silently drop its expectation.
Result<Entry> load_entry(const fs::path& path, std::string target);
Result<Entry> entry_from_bytes(const fs::path& path, std::string bytes, std::string target);

// Reads the whole file into `bytes`; false when it cannot be read.
bool read_file(const fs::path& path, std::string& bytes);

// The entry files under `path`: the file itself, or every regular file below
// the directory, recursively and sorted, skipping dot files/directories and
// `*.md` documentation. Error when `path` is neither.
Result<std::vector<fs::path>> collect_entry_files(const fs::path& path);

Json expect_to_json(const Expect& expect);
Result<Expect> expect_from_json(const Json& value);

// A normal form of an input for duplicate detection: for a JSON object,
// its compact dump without the entry keys (note, expect, catches); otherwise
// the bytes themselves.
std::string content_key(std::string_view input);

// Metadata written into a new entry.
struct EntryMeta {
  std::string note;
  std::vector<std::string> catches;
  std::optional<Expect> expect;
  std::optional<std::string> promoted_from;
};

// An embedded entry: the entry keys first, then the members of `input`, one
// top-level member per line. nullopt when `input` is not an object or already
// holds one of the entry keys (then use the wrapper).
std::optional<std::string> render_embedded_entry(const Json& input, const EntryMeta& meta);
// A wrapper: input_text when the bytes are valid UTF-8 JSON-safe text and
// `prefer_text`, else input_hex.
std::string render_wrapped_entry(std::string_view input, const EntryMeta& meta, bool prefer_text);

std::string to_hex(std::string_view bytes);
std::optional<std::string> from_hex(std::string_view hex);

}  // namespace poolcheck::harness
