#pragma once
// Option parsing shared by the commands that take "--name value" options
// (harness_commands.cpp, coverage_command.cpp).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_line.hpp"

namespace poolcheck::cli {

// "--name value" and "--name=value" for options that take a value, "--name"
// for switches; everything else is positional.
struct Options {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> switches;
  Args positional;
};

// Prints the usage error and returns nothing on an unknown option or a
// missing value.
std::optional<Options> parse_options(const std::string& command, const Args& args,
                                     const std::vector<std::string>& with_value,
                                     const std::vector<std::string>& switches);

std::optional<std::string> value_of(const Options& options, const std::string& name);

// The whole text as a decimal number ("1.5", "60"), else nothing.
std::optional<double> parse_number(const std::string& text);

}  // namespace poolcheck::cli
