#include "fuzz/harness/site_analysis.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/json.hpp"
#include "fuzz/harness/digest.hpp"
#include "fuzz/harness/entry.hpp"
#include "fuzz/harness/logged_command.hpp"
#include "fuzz/harness/mutation_workspace.hpp"
#include "fuzz/harness/worker_pool.hpp"

namespace poolcheck::harness {
namespace {

// Part of the cache key: a change of what is cached, or of how, drops old entries.
constexpr std::string_view kCacheVersion = "sites-v4";

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / name).c_str(), X_OK) == 0) return true;
  return false;
}

const std::string& clang_binary() {
  static const std::string binary = on_path("clang++-14") ? "clang++-14" : "clang++";
  return binary;
}

Json site_json(const Site& site) {
  return Json{{"op", std::string(operator_name(site.op))},
              {"offset", site.offset},
              {"length", site.length},
              {"error_propagation", site.error_propagation}};
}

std::optional<std::vector<Site>> sites_of_json(const Json& list) {
  if (!list.is_array()) return std::nullopt;
  std::vector<Site> sites;
  for (const auto& item : list) {
    const auto op = operator_named(item.value("op", ""));
    if (!op) return std::nullopt;
    sites.push_back({*op, item.value("offset", std::size_t{0}), item.value("length", std::size_t{0}),
                     item.value("error_propagation", false)});
  }
  return sites;
}

// The cache key of one file: its text, the core's headers (which decide what
// its expressions are) and the clang that reads them.
std::string cache_key(std::string_view source, std::string_view headers) {
  return digest_of_bytes(std::string(kCacheVersion) + "\n" + clang_binary() + "\n" + std::string(headers) + "\n" +
                         std::string(source));
}

std::string core_headers(const fs::path& root) {
  std::vector<fs::path> headers;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "core", ec))
    if (entry.path().extension() == ".hpp") headers.push_back(entry.path());
  std::sort(headers.begin(), headers.end());
  std::string text;
  for (const auto& header : headers) {
    std::string bytes;
    read_file(header, bytes);
    text += header.filename().string() + "\n" + bytes;
  }
  return text;
}

fs::path cache_file(const fs::path& cache_dir, const std::string& file) {
  return cache_dir / (fs::path(file).stem().string() + ".sites.json");
}

std::optional<std::vector<Site>> cached_sites(const fs::path& path, const std::string& key) {
  std::string text;
  if (!read_file(path, text)) return std::nullopt;
  const Json cached = Json::parse(text, nullptr, false);
  if (!cached.is_object() || cached.value("key", "") != key) return std::nullopt;
  return sites_of_json(cached.value("sites", Json::array()));
}

// What a worker of the analysis answers for one file.
Json analyse_request(const fs::path& root, const fs::path& cache_dir, const Json& request) {
  const std::string file = request.at("file").get<std::string>();
  std::string source;
  if (!read_file(root / file, source)) return Json{{"error", "cannot read " + (root / file).string()}};
  const fs::path dump = cache_dir / (fs::path(file).stem().string() + ".ast.json");
  auto sites = sites_from_clang(root, file, source, dump);
  if (!sites) return Json{{"error", sites.error().message}};
  Json list = Json::array();
  for (const auto& site : *sites) list.push_back(site_json(site));
  return Json{{"sites", list}};
}

}  // namespace

std::vector<std::string> core_sources(const fs::path& root) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "core", ec))
    if (entry.path().extension() == ".cpp") files.push_back("core/" + entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

Result<std::vector<Site>> sites_from_clang(const fs::path& root, const std::string& file, std::string_view source,
                                           const fs::path& dump) {
  const fs::path absolute = fs::absolute(root / file);
  // -w: the dump's log is its stdout, and a warning on stderr would land in it.
  const CommandOutcome clang = run_logged({clang_binary(), "-fsyntax-only", "-w", "-std=c++20",
                                           "-I" + fs::absolute(root).string(), "-Xclang", "-ast-dump=json", "-Xclang",
                                           "-ast-dump-filter=poolcheck", absolute.string()},
                                          {}, dump, 600);
  if (!clang.succeeded())
    return Error::bad_request(clang_binary() + " cannot read " + file + " (" + clang.describe() + "); see " +
                              dump.string());
  std::ifstream in(dump, std::ios::binary);
  auto sites = scan_ast_dump(in, absolute.string(), source);
  if (!sites) return Error::bad_request(file + ": " + sites.error().message + " (" + dump.string() + ")");
  std::error_code ec;
  fs::remove(dump, ec);
  return sites;
}

Result<std::vector<FileSites>> analyse_files(const fs::path& root, const std::vector<std::string>& files,
                                             const fs::path& cache_dir, int jobs, std::ostream& progress) {
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  const std::string headers = core_headers(root);
  std::vector<FileSites> out;
  std::vector<std::string> keys;
  std::vector<Json> requests;
  std::vector<std::size_t> requested;  // indices into `out`
  for (const auto& file : files) {
    FileSites entry{file, {}, {}};
    if (!read_file(root / file, entry.source)) return Error::bad_request("cannot read " + (root / file).string());
    keys.push_back(cache_key(entry.source, headers));
    if (auto cached = cached_sites(cache_file(cache_dir, file), keys.back())) {
      entry.sites = std::move(*cached);
    } else {
      requests.push_back(Json{{"file", file}});
      requested.push_back(out.size());
    }
    out.push_back(std::move(entry));
  }
  if (requests.empty()) return out;
  progress << "poolcheck mutate: reading " << requests.size() << " file(s) with " << clang_binary() << ", " << jobs
           << " at a time" << std::endl;
  const auto replies = run_in_workers(
      jobs, requests, [&](int, const Json& request) { return analyse_request(root, cache_dir, request); },
      [&](std::size_t index, const Json& reply) {
        progress << "  " << out[requested[index]].file << ": "
                 << (reply.contains("error") ? "failed" : std::to_string(reply.value("sites", Json::array()).size()) +
                                                              " sites")
                 << std::endl;
      });
  for (std::size_t i = 0; i < replies.size(); ++i) {
    FileSites& entry = out[requested[i]];
    if (replies[i].contains("error")) return Error::bad_request(replies[i].value("error", ""));
    auto sites = sites_of_json(replies[i].value("sites", Json::array()));
    if (!sites) return Error::bad_request("unreadable sites of " + entry.file);
    entry.sites = std::move(*sites);
    write_file(cache_file(cache_dir, entry.file),
               Json{{"key", keys[requested[i]]}, {"file", entry.file}, {"sites", replies[i]["sites"]}}.dump());
  }
  return out;
}

}  // namespace poolcheck::harness
