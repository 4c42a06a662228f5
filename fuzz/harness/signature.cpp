#include "fuzz/harness/signature.hpp"

#include <algorithm>
#include <regex>
#include <set>

namespace poolcheck::harness {
namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return items;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

bool runtime_frame(const std::string& function) {
  static const char* const kRuntime[] = {"__asan", "__ubsan", "__sanitizer", "__interceptor", "__libc", "abort",
                                          "raise", "gsignal", "fuzzer::", "LLVMFuzzer", "__GI_", "_start",
                                          "__cxa_", "std::terminate", "__gnu_cxx::__verbose_terminate"};
  for (const char* prefix : kRuntime)
    if (function.rfind(prefix, 0) == 0) return true;
  return false;
}

// "ns::(anonymous namespace)::func(args) const" -> "ns::(anonymous namespace)::func":
// argument lists vary with inlining and builds, names don't.
std::string strip_arguments(std::string function) {
  static constexpr std::string_view kAnonymous = "(anonymous namespace)";
  int depth = 0;
  for (std::size_t i = 0; i < function.size(); ++i) {
    if (function.compare(i, kAnonymous.size(), kAnonymous) == 0) {
      i += kAnonymous.size() - 1;
    } else if (function[i] == '<') {
      ++depth;
    } else if (function[i] == '>') {
      --depth;
    } else if (function.compare(i, 10, "operator()") == 0) {
      i += 9;
    } else if (function[i] == '(' && depth == 0 && i > 0) {
      return function.substr(0, i);
    }
  }
  return function;
}

}  // namespace

std::string Signature::describe() const {
  switch (kind) {
    case Kind::Pass: return "pass";
    case Kind::Timeout: return "timeout";
    case Kind::Laws: {
      std::string out = "laws ";
      for (std::size_t i = 0; i < laws.size(); ++i) out += (i ? "," : "") + laws[i];
      return out;
    }
    case Kind::Crash: {
      std::string out = "crash " + crash;
      for (std::size_t i = 0; i < frames.size(); ++i) out += (i ? " < " : " in ") + frames[i];
      return out;
    }
  }
  return "";
}

std::vector<std::string> Signature::catches() const {
  switch (kind) {
    case Kind::Laws: return laws;
    case Kind::Crash: return {describe()};
    case Kind::Timeout: return {"timeout"};
    case Kind::Pass: return {};
  }
  return {};
}

Signature signature_of(const CheckSummary& summary) {
  Signature signature;
  if (summary.violations.empty()) return signature;
  signature.kind = Signature::Kind::Laws;
  for (const auto& v : summary.violations) signature.laws.push_back(v.law);
  signature.laws = sorted_unique(std::move(signature.laws));
  return signature;
}

Signature signature_of(const IsolatedRun& run) {
  switch (run.status) {
    case RunStatus::Completed: return signature_of(run.summary);
    case RunStatus::TimedOut: {
      Signature signature;
      signature.kind = Signature::Kind::Timeout;
      return signature;
    }
    case RunStatus::Crashed: return signature_from_report(run.stderr_text, run.signal, run.exit_code);
  }
  return {};
}

Signature signature_from_report(std::string_view report, int signal, int exit_code, std::size_t frames) {
  Signature signature;
  const auto lines = lines_of(report);

  // A fuzz target's law violation: "poolcheck: law violated" then "[law] ..." lines.
  bool in_violation = false;
  for (auto line : lines) {
    if (line.find("poolcheck: law violated") != std::string_view::npos) {
      in_violation = true;
      continue;
    }
    if (in_violation && line.size() > 2 && line[0] == '[') {
      const auto close = line.find(']');
      if (close != std::string_view::npos) signature.laws.emplace_back(line.substr(1, close - 1));
    } else if (in_violation && !line.empty()) {
      in_violation = false;
    }
  }
  if (!signature.laws.empty()) {
    signature.kind = Signature::Kind::Laws;
    signature.laws = sorted_unique(std::move(signature.laws));
    return signature;
  }

  signature.kind = Signature::Kind::Crash;
  static const std::regex kSanitizerError(R"(ERROR: (\w+Sanitizer|libFuzzer): ([\w-]+))");
  static const std::regex kRuntimeError(R"(runtime error: ([a-z -]+?)( \d|\b[^a-z -]|$))");
  static const std::regex kFrame(R"(^\s*#(\d+) 0x[0-9a-fA-F]+ in (.+?)( /| \(|$))");
  for (auto line : lines) {
    std::cmatch match;
    if (!signature.crash.empty()) break;
    if (std::regex_search(line.begin(), line.end(), match, kSanitizerError)) {
      signature.crash = match[2].str();
    } else if (std::regex_search(line.begin(), line.end(), match, kRuntimeError)) {
      signature.crash = "runtime error: " + match[1].str();
    }
  }
  // libFuzzer's "deadly signal" says less than the signal itself.
  if (signature.crash.empty() || signature.crash == "deadly")
    signature.crash = signal != 0 ? signal_name(signal) : "exit " + std::to_string(exit_code);

  // The first stack trace's frames.
  int last_index = -1;
  for (auto line : lines) {
    std::cmatch match;
    if (!std::regex_search(line.begin(), line.end(), match, kFrame)) continue;
    const int index = std::stoi(match[1].str());
    if (index <= last_index) break;  // a second trace starts
    last_index = index;
    std::string function = strip_arguments(match[2].str());
    if (runtime_frame(function)) continue;
    signature.frames.push_back(std::move(function));
    if (signature.frames.size() == frames) break;
  }
  return signature;
}

}  // namespace poolcheck::harness
