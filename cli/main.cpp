// poolcheck: a thin command line over the reference core and the harness.
#include <iostream>

#include "cli/command_line.hpp"

namespace {

using poolcheck::cli::Command;

const std::vector<Command>& all_commands() {
  static const std::vector<Command> commands = [] {
    std::vector<Command> all = poolcheck::cli::core_commands();
    for (auto& command : poolcheck::cli::harness_commands()) all.push_back(std::move(command));
    for (auto& command : poolcheck::cli::coverage_commands()) all.push_back(std::move(command));
    return all;
  }();
  return commands;
}

void print_overview(std::ostream& out) {
  out << "Usage: poolcheck COMMAND [ARGS]\n\n"
         "A reference model of vLLM's cross-encoder scoring front end, and the harness\n"
         "that checks it.\n\nCommands:\n";
  for (const auto& command : all_commands()) {
    out << "  " << command.name << std::string(14 - std::min<std::size_t>(13, command.name.size()), ' ')
        << command.summary << "\n";
  }
  out << "\nRun 'poolcheck COMMAND --help' for a command's input, output and an example.\n";
}

bool wants_help(const std::vector<std::string>& args) {
  for (const auto& arg : args)
    if (arg == "--help" || arg == "-h") return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_overview(std::cerr);
    return poolcheck::cli::kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_overview(std::cout);
    return poolcheck::cli::kExitOk;
  }
  for (const auto& command : all_commands()) {
    if (command.name != args[0]) continue;
    args.erase(args.begin());
    if (wants_help(args)) {
      std::cout << command.help;
      return poolcheck::cli::kExitOk;
    }
    return command.run(args);
  }
  std::cerr << "poolcheck: unknown command '" << args[0] << "'\n\n";
  print_overview(std::cerr);
  return poolcheck::cli::kExitUsage;
}
