#include "cli/command_line.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "core/json_input.hpp"
#include "core/output_json.hpp"

namespace poolcheck::cli {

namespace {

void read_bounded(std::istream& in, std::string& bytes) {
  bytes.resize(kMaxInputBytes + 1);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
}

}  // namespace

bool read_input(const Args& positional, std::string& bytes) {
  if (positional.empty() || positional[0] == "-") {
    read_bounded(std::cin, bytes);
    return true;
  }
  std::ifstream file(positional[0], std::ios::binary);
  if (!file) {
    std::cerr << "poolcheck: cannot read " << positional[0] << "\n";
    return false;
  }
  read_bounded(file, bytes);
  return true;
}

std::string result_text(const Result<Json>& result) {
  return result ? dump_json(*result) : dump_json(error_body(result.error()));
}

int exit_code_of(const Result<Json>& result) {
  if (result) return kExitOk;
  return result.error().code >= 500 ? kExitInternal : kExitRejected;
}

int print_result(const Result<Json>& result) {
  std::cout << result_text(result) << "\n";
  return exit_code_of(result);
}

int run_jsonl(const Args& positional, Result<Json> (*run)(std::string_view)) {
  std::ifstream file;
  const bool from_stdin = positional.empty() || positional[0] == "-";
  if (!from_stdin) {
    std::error_code ec;
    // A directory opens, then reads as no lines at all: say so instead.
    if (!std::filesystem::is_directory(positional[0], ec)) file.open(positional[0], std::ios::binary);
    if (!file.is_open()) {
      std::cerr << "poolcheck: cannot read " << positional[0] << "\n";
      return kExitUsage;
    }
  }
  std::istream& in = from_stdin ? std::cin : file;
  int status = kExitOk;
  std::string line;
  // Each line is one input: the core bounds its size and depth as for a file.
  while (std::getline(in, line)) {
    const Result<Json> result = run(line);
    const int code = exit_code_of(result);
    if (code == kExitInternal) status = kExitInternal;
    std::cout << "{\"exit\":" << code << ",\"output\":" << result_text(result) << "}\n" << std::flush;
  }
  if (in.bad()) {
    std::cerr << "poolcheck: error reading " << (from_stdin ? "standard input" : positional[0]) << "\n";
    return kExitUsage;
  }
  return status;
}

int usage_error(std::string_view command, std::string_view message) {
  std::cerr << "poolcheck " << command << ": " << message << "\n"
            << "Run 'poolcheck " << command << " --help' for usage.\n";
  return kExitUsage;
}

ParsedArgs split_args(const Args& args) {
  ParsedArgs parsed;
  for (const auto& arg : args) {
    if (arg.size() > 2 && arg.rfind("--", 0) == 0) parsed.flags.push_back(arg);
    else parsed.positional.push_back(arg);
  }
  return parsed;
}

}  // namespace poolcheck::cli
