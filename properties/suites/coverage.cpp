#include "properties/suites/coverage.hpp"

#include <cstdio>

namespace poolcheck::props {
namespace {

std::string percent(double share) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
  return text;
}

std::string wanted(const Requirement& r) {
  return r.min_share > 0 ? ">= " + percent(r.min_share) : ">= 1 case";
}

}  // namespace

Coverage::Coverage(std::vector<Requirement> required) : required_(std::move(required)) {}

void Coverage::begin_case() {
  current_case_.clear();
  ++cases_;
}

void Coverage::see(const std::string& input_class) {
  if (current_case_.insert(input_class).second) ++counts_[input_class];
}

int Coverage::count(const std::string& input_class) const {
  auto it = counts_.find(input_class);
  return it == counts_.end() ? 0 : it->second;
}

std::vector<std::string> Coverage::starved() const {
  std::vector<std::string> out;
  for (const auto& r : required_) {
    const int seen = count(r.input_class);
    const double share = cases_ > 0 ? static_cast<double>(seen) / cases_ : 0;
    const bool reached = r.min_share > 0 ? share >= r.min_share : seen > 0;
    if (!reached)
      out.push_back("'" + r.input_class + "': " + std::to_string(seen) + " of " + std::to_string(cases_) +
                    " cases (" + percent(share) + "), needs " + wanted(r));
  }
  return out;
}

std::string Coverage::table() const {
  std::map<std::string, const Requirement*> rows;
  for (const auto& [name, n] : counts_) rows[name] = nullptr;
  for (const auto& r : required_) rows[r.input_class] = &r;
  std::string out;
  for (const auto& [name, requirement] : rows) {
    const int seen = count(name);
    const double share = cases_ > 0 ? static_cast<double>(seen) / cases_ : 0;
    char line[64];
    std::snprintf(line, sizeof line, "%7s %6d  ", percent(share).c_str(), seen);
    out += line + name + (requirement ? "  (needs " + wanted(*requirement) + ")" : "") + "\n";
  }
  return out;
}

}  // namespace poolcheck::props
