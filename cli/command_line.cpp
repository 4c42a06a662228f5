#include "cli/command_line.hpp"

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

int print_result(const Result<Json>& result) {
  if (result) {
    std::cout << dump_json(*result) << "\n";
    return kExitOk;
  }
  std::cout << dump_json(error_body(result.error())) << "\n";
  return result.error().code >= 500 ? kExitInternal : kExitRejected;
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
