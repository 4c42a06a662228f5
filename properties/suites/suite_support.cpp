#include "properties/suites/suite_support.hpp"

#include "properties/laws/error_laws.hpp"

namespace poolcheck::props {
namespace {

// The command-line binary of this build tree (CMake passes its path). Appended
// in place: GCC 12 warns, falsely, on operator+(std::string&&, const char*) here
// (-Warray-bounds; the same false positive as in canonical/mir#2987).
std::string cli(const std::string& command) {
  std::string line = POOLCHECK_CLI;
  line += ' ';
  line += command;
  return line;
}

}  // namespace

FailingInput request_input(const std::string& bytes) { return {bytes, "request", ".json", cli("preprocess")}; }
FailingInput verify_input(const std::string& bytes) { return {bytes, "verify", ".json", cli("verify")}; }
FailingInput wire_input(const std::string& bytes) {
  return {bytes, "params_wire", ".msgpack", cli("params decode --msgpack")};
}
FailingInput token_types_input(const std::string& bytes) { return {bytes, "token_types", ".bin", ""}; }
FailingInput batch_input(const std::string& json) { return {json, "", ".json", cli("batch")}; }

std::string rejected_family(const laws::CheckResult& result) {
  if (result.accepted) return "";
  const Json& outcome = result.outcome;
  if (!outcome.is_object() || !outcome.contains("error") || !outcome["error"].is_object()) return "";
  const Json& error = outcome["error"];
  if (!error.contains("message") || !error["message"].is_string()) return "";
  return laws::message_family(error["message"].get<std::string>());
}

}  // namespace poolcheck::props
