#include "properties/suites/case_watchdog.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string_view>
#include <thread>

namespace poolcheck::props {
namespace {

using Clock = std::chrono::steady_clock;

// What the watchdog prints for a property, written in full when the property
// starts (on the runner's thread): at the moment it fires the watchdog only
// writes, so a core that has taken all the memory cannot keep it quiet.
struct HangText {
  double limit_seconds = 0;        // the limit the text quotes, so the two cannot disagree
  std::string before_case_number;  // "... HANG: <id>: case "
  std::string after_case_number;   // " has run for ... Reproduce with: ..."
};

// Every property's text, kept to the end of the process: the watchdog may be
// reading the last one while the next property starts. Reachable from here, so
// LeakSanitizer does not count it.
std::deque<HangText>* const hang_texts = new std::deque<HangText>;

// The watched property, read by the watchdog's thread: atomics only.
std::atomic<const HangText*> watched_text{nullptr};
std::atomic<int> case_number{0};
std::atomic<Clock::rep> case_started{0};

std::string this_program() {
  char path[4096];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::string(path, static_cast<std::size_t>(length)) : "poolcheck_properties";
}

// "Suite/Name" as --gtest_filter names it: "Suite.Name".
std::string gtest_name(std::string_view id) {
  std::string name(id);
  if (const auto slash = name.find('/'); slash != std::string::npos) name[slash] = '.';
  return name;
}

HangText hang_text(const char* id, std::uint64_t seed, double timeout_seconds, const std::string& program) {
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", timeout_seconds);
  return {timeout_seconds, "\n[ poolcheck ] HANG: " + std::string(id) + ": case ",
          " has run for more than " + std::string(limit) +
              " s (POOLCHECK_CASE_TIMEOUT) without an answer from the core: an endless loop? The run stops here.\n"
              "Reproduce with: RC_PARAMS=\"seed=" + std::to_string(seed) + "\" " + program +
              " --gtest_filter=" + gtest_name(id) + "\n"};
}

[[noreturn]] void watch_forever() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const HangText* text = watched_text.load();
    if (text == nullptr) continue;
    const std::chrono::duration<double> running = Clock::now() - Clock::time_point(Clock::duration(case_started.load()));
    if (running.count() < text->limit_seconds || watched_text.load() != text) continue;
    char number[16];
    std::snprintf(number, sizeof number, "%d", case_number.load());
    std::fflush(stdout);
    std::fputs(text->before_case_number.c_str(), stderr);
    std::fputs(number, stderr);
    std::fputs(text->after_case_number.c_str(), stderr);
    std::fflush(stderr);
    std::_Exit(kHangExitCode);  // the case's thread cannot be stopped, and no destructor may wait for it
  }
}

void start_watchdog_once() {
  static std::once_flag started;
  std::call_once(started, [] { std::thread(watch_forever).detach(); });
}

}  // namespace

CaseTimeout case_timeout_from_env() {
  const char* value = std::getenv("POOLCHECK_CASE_TIMEOUT");
  if (value == nullptr || *value == '\0') return {};
  char* end = nullptr;
  const double seconds = std::strtod(value, &end);
  if (*end != '\0' || !(seconds >= 0))
    return {kDefaultCaseTimeoutSeconds,
            "POOLCHECK_CASE_TIMEOUT must be a number of seconds, 0 or more (0: no limit), got '" + std::string(value) +
                "'"};
  return {seconds, ""};
}

void watch_property(const char* id, std::uint64_t seed, double timeout_seconds) {
  if (timeout_seconds <= 0) return;
  watched_text = nullptr;
  hang_texts->push_back(hang_text(id, seed, timeout_seconds, this_program()));
  case_number = 0;
  case_started = Clock::now().time_since_epoch().count();
  watched_text = &hang_texts->back();
  start_watchdog_once();
}

void case_begins() {
  case_started = Clock::now().time_since_epoch().count();
  ++case_number;
}

void unwatch_property() { watched_text = nullptr; }

std::string hang_message(const char* id, std::uint64_t seed, int case_number, double timeout_seconds,
                         const std::string& program) {
  const HangText text = hang_text(id, seed, timeout_seconds, program);
  return text.before_case_number + std::to_string(case_number) + text.after_case_number;
}

}  // namespace poolcheck::props
