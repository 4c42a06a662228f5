#pragma once
// What every `poolcheck` command shares: the registry of commands, input
// reading and the exit-code contract.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/json.hpp"

namespace poolcheck::cli {

// Exit codes: stable, scripts depend on them.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;  // the input was rejected; the error body is on stdout
inline constexpr int kExitUsage = 2;     // bad arguments; the message is on stderr
inline constexpr int kExitInternal = 3;  // a 500: a bug of the core

using Args = std::vector<std::string>;

struct Command {
  std::string name;
  std::string summary;  // one line, for `poolcheck --help`
  std::string help;     // the full `poolcheck NAME --help` text, with an example
  std::function<int(const Args&)> run;
};

// The commands over the reference core: preprocess, compress, reconstruct,
// batch, params, verify.
std::vector<Command> core_commands();

// The harness commands: repro, promote, fuzz, mutate (fuzz/harness/).
std::vector<Command> harness_commands();

// coverage (fuzz/harness/coverage.hpp).
std::vector<Command> coverage_commands();

// Reads FILE, or standard input for "-" or no argument, up to one byte past the
// input limit (so that an oversized input is reported, not read forever).
// Returns false and prints to stderr when the file cannot be read.
bool read_input(const Args& positional, std::string& bytes);

// Prints a JSON result or the error body, and returns the exit code for it.
int print_result(const Result<Json>& result);

// What print_result prints (without the newline) and the exit code it returns.
std::string result_text(const Result<Json>& result);
int exit_code_of(const Result<Json>& result);

// Batch mode (`--jsonl`): reads FILE, or standard input for "-" or no argument,
// one input per line, and prints per line {"exit": E, "output": <what
// print_result would print>}, in input order, one line each. Every line counts,
// an empty one included (its output is the rejection of an empty input); a final
// line without a newline counts too. Returns kExitUsage when the file cannot be
// read, kExitInternal when some line was an internal error, else kExitOk.
int run_jsonl(const Args& positional, Result<Json> (*run)(std::string_view));

// Prints "poolcheck NAME: MESSAGE" and a pointer to --help; returns kExitUsage.
int usage_error(std::string_view command, std::string_view message);

// Splits `args` into flags (starting with "--") and positional arguments;
// "-" alone is positional (standard input).
struct ParsedArgs {
  std::vector<std::string> flags;
  Args positional;
};
ParsedArgs split_args(const Args& args);

}  // namespace poolcheck::cli
