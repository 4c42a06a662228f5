#include "properties/suites/case_watchdog.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <thread>

namespace poolcheck::props {
namespace {

using Clock = std::chrono::steady_clock;

// The watched property, read by the watchdog's thread: atomics only.
std::atomic<const char*> watched_id{nullptr};
std::atomic<std::uint64_t> watched_seed{0};
std::atomic<double> watched_limit{0};
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

[[noreturn]] void watch_forever() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const char* id = watched_id.load();
    const double limit = watched_limit.load();
    if (id == nullptr || limit <= 0) continue;
    const std::chrono::duration<double> running = Clock::now() - Clock::time_point(Clock::duration(case_started.load()));
    if (running.count() < limit || watched_id.load() != id) continue;
    const std::string message = hang_message(id, watched_seed.load(), case_number.load(), limit, this_program());
    std::fputs(message.c_str(), stderr);
    std::fflush(stderr);
    std::fflush(stdout);
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
  watched_seed = seed;
  watched_limit = timeout_seconds;
  case_number = 0;
  case_started = Clock::now().time_since_epoch().count();
  watched_id = id;
  start_watchdog_once();
}

void case_begins() {
  case_started = Clock::now().time_since_epoch().count();
  ++case_number;
}

void unwatch_property() { watched_id = nullptr; }

std::string hang_message(const char* id, std::uint64_t seed, int case_number, double timeout_seconds,
                         const std::string& program) {
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", timeout_seconds);
  return "\n[ poolcheck ] HANG: " + std::string(id) + ": case " + std::to_string(case_number) +
         " has run for more than " + limit +
         " s (POOLCHECK_CASE_TIMEOUT) without an answer from the core: an endless loop? The run stops here.\n"
         "Reproduce with: RC_PARAMS=\"seed=" + std::to_string(seed) + "\" " + program +
         " --gtest_filter=" + gtest_name(id) + "\n";
}

}  // namespace poolcheck::props
