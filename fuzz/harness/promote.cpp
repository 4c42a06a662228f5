#include "fuzz/harness/promote.hpp"

#include <fstream>

#include "core/json_input.hpp"
#include "fuzz/harness/digest.hpp"
#include "fuzz/harness/minimise.hpp"

namespace poolcheck::harness {
namespace {

Error failure(std::string message) { return Error::bad_request(std::move(message)); }

bool valid_name(const std::string& name) {
  if (name.empty() || name[0] == '.' || name.size() > 120) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

std::string default_name(const Signature& signature, const std::string& key) {
  std::string stem = signature.kind == Signature::Kind::Laws    ? signature.laws.front()
                     : signature.kind == Signature::Kind::Crash ? std::string("crash")
                                                                : std::string("timeout");
  return stem + "-" + digest_of_bytes(key).substr(kDigestPrefix.size(), 8);
}

// The existing regression `input` duplicates, with why, or nullopt.
std::optional<std::string> find_duplicate(const fs::path& dir, const std::string& target, CheckFunction check,
                                          const std::string& key, const Signature& signature,
                                          const std::optional<std::string>& digest, double timeout,
                                          std::ostream& log) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return std::nullopt;
  auto files = collect_entry_files(dir);
  if (!files) return std::nullopt;
  for (const auto& file : *files) {
    auto entry = load_entry(file, target);
    if (!entry) {
      log << "promote: warning: skipping unreadable entry " << entry.error().message << "\n";
      continue;
    }
    if (content_key(entry->input) == key) return file.string() + " holds the same input";
    const IsolatedRun run = run_isolated(check, entry->input, timeout);
    if (signature_of(run) != signature) continue;
    if (signature.kind != Signature::Kind::Laws)
      return file.string() + " fails the same way (" + signature.describe() + ")";
    if (run.status == RunStatus::Completed && digest && run.summary.digest == *digest)
      return file.string() + " violates the same laws with the same output (" + *digest + ")";
  }
  return std::nullopt;
}

bool write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

Result<PromoteResult> promote(const PromoteOptions& options, std::ostream& log) {
  const auto inferred = infer_target(options.artifact);
  if (inferred && options.target && *inferred != *options.target)
    return failure(options.artifact.string() + " is under a '" + *inferred + "' directory but --target is '" +
                   *options.target + "'");
  if (!inferred && !options.target)
    return failure("cannot tell the target of " + options.artifact.string() + ": pass --target");
  const std::string target = options.target ? *options.target : *inferred;
  const CheckFunction check = options.resolver(target);
  if (check == nullptr) return failure("unknown target '" + target + "'");
  if (options.name && !valid_name(*options.name))
    return failure("--name must be letters, digits, '-', '_' or '.', not starting with '.'");

  auto loaded = load_entry(options.artifact, target);
  if (!loaded) return loaded.error();
  const std::string input = loaded->input;

  // 1. The signature, from a child: the artifact may well crash.
  const IsolatedRun original = run_isolated(check, input, options.timeout_seconds);
  const Signature signature = signature_of(original);
  if (!signature.failing())
    return failure("nothing to promote: " + options.artifact.string() + " passes every law of the '" + target +
                   "' target in this build and does not crash");
  log << "promote: " << options.artifact.string() << " [" << target << "]: " << signature.describe() << "\n";

  // 2. Minimise, keeping exactly that signature.
  MinimiseStats stats;
  stats.budget = options.budget;
  std::string minimised = input;
  if (signature.kind == Signature::Kind::Laws) {
    minimised = minimise(input, is_json_target(target),
                         [&](std::string_view candidate) {
                           return signature_of(run_in_process(check, candidate)) == signature;
                         },
                         stats);
  } else if (signature.kind == Signature::Kind::Crash) {
    stats.budget = std::min<std::size_t>(stats.budget, 3000);  // a child per candidate
    minimised = minimise(input, is_json_target(target),
                         [&](std::string_view candidate) {
                           return signature_of(run_isolated(check, candidate, options.timeout_seconds)) == signature;
                         },
                         stats);
  } else {
    log << "promote: a timeout is kept as it is (not minimised)\n";
  }
  log << "promote: minimised " << input.size() << " -> " << minimised.size() << " bytes in " << stats.evaluations
      << " runs" << (stats.budget_exhausted() ? " (budget exhausted)" : "") << "\n";

  // 3. Duplicates.
  const std::string key = content_key(minimised);
  const IsolatedRun confirmed = run_isolated(check, minimised, options.timeout_seconds);
  if (signature_of(confirmed) != signature)
    return failure("the minimised input does not fail the same way in a child process (" +
                   signature_of(confirmed).describe() + "); not promoted");
  const std::optional<std::string> digest =
      confirmed.status == RunStatus::Completed ? std::optional<std::string>(confirmed.summary.digest) : std::nullopt;
  const fs::path dir = options.corpus_dir / target / "regressions";
  if (auto duplicate =
          find_duplicate(dir, target, check, key, signature, digest, options.timeout_seconds, log))
    return failure("refusing a duplicate: " + *duplicate);

  // 4. Write it.
  const std::string name = options.name ? *options.name : default_name(signature, key);
  EntryMeta meta;
  meta.note = options.note ? *options.note
                           : "Found by fuzzing the " + target + " target: " + signature.describe() + " (" +
                                 std::to_string(minimised.size()) + " bytes, minimised from " +
                                 std::to_string(input.size()) + ").";
  meta.catches = signature.catches();
  meta.promoted_from = options.artifact.filename().string();

  std::optional<std::pair<fs::path, std::string>> rendered;
  if (is_json_target(target)) {
    auto parsed = parse_bounded_json(minimised, 256);  // NaN and big integers survive
    Json document = parsed ? std::move(*parsed) : Json(Json::value_t::discarded);
    if (!document.is_discarded()) {
      if (auto text = render_embedded_entry(document, meta)) {
        // The metadata keys must not change what the core sees.
        auto entry = entry_from_bytes(dir / (name + ".json"), *text, target);
        if (entry && content_key(entry->input) == key &&
            signature_of(run_isolated(check, entry->input, options.timeout_seconds)) == signature)
          rendered.emplace(dir / (name + ".json"), *text);
        else
          log << "promote: the input does not keep its failure with the entry keys in it; using a wrapper\n";
      }
    }
  }
  if (!rendered) {
    const fs::path path = dir / (name + std::string(kWrapperExtension));
    std::string text = render_wrapped_entry(minimised, meta, is_json_target(target));
    auto entry = entry_from_bytes(path, text, target);
    if (!entry || entry->input != minimised) return failure("internal error: the wrapper does not round-trip");
    rendered.emplace(path, std::move(text));
  }
  std::error_code ec;
  if (fs::exists(rendered->first, ec))
    return failure(rendered->first.string() + " already exists: pick another --name");
  fs::create_directories(dir, ec);
  if (ec) return failure("cannot create " + dir.string() + ": " + ec.message());
  if (!write_file(rendered->first, rendered->second)) return failure("cannot write " + rendered->first.string());

  PromoteResult result;
  result.written = rendered->first;
  result.target = target;
  result.signature = signature;
  result.bytes_before = input.size();
  result.bytes_after = minimised.size();
  result.evaluations = stats.evaluations;
  return result;
}

}  // namespace poolcheck::harness
