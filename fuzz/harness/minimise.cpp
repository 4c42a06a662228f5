#include "fuzz/harness/minimise.hpp"

#include <vector>

#include "core/json.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"

namespace poolcheck::harness {
namespace {

// A candidate must be strictly "smaller" than what it replaces.
bool smaller(std::string_view candidate, std::string_view current) {
  return candidate.size() < current.size() || (candidate.size() == current.size() && candidate < current);
}

bool evaluate(const Predicate& keeps, MinimiseStats& stats, std::string_view candidate) {
  if (stats.budget_exhausted()) return false;
  ++stats.evaluations;
  return keeps(candidate);
}

// Every node's pointer, parents before children.
void collect_pointers(const Json& node, const Json::json_pointer& at, std::vector<Json::json_pointer>& out) {
  out.push_back(at);
  if (node.is_object()) {
    for (const auto& [key, child] : node.items()) collect_pointers(child, at / key, out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect_pointers(node[i], at / i, out);
  }
}

// The simpler versions of the node at `at`, as whole documents.
std::vector<Json> candidates_at(const Json& root, const Json::json_pointer& at) {
  std::vector<Json> out;
  const Json& node = root.at(at);
  if (!at.empty()) {  // drop it from its parent
    Json copy = root;
    Json& parent = copy.at(at.parent_pointer());
    const std::string& last = at.back();
    if (parent.is_object()) parent.erase(last);
    else parent.erase(parent.begin() + static_cast<std::ptrdiff_t>(std::stoul(last)));
    out.push_back(std::move(copy));
  }
  auto replaced = [&](Json value) {
    Json copy = root;
    copy.at(at) = std::move(value);
    out.push_back(std::move(copy));
  };
  if (node.is_array() && node.size() > 1) {  // halves first: fewer evaluations on long lists
    replaced(Json::array());
    const auto half = static_cast<std::ptrdiff_t>(node.size() / 2);
    replaced(Json(node.begin(), node.begin() + half));
    replaced(Json(node.begin() + half, node.end()));
  }
  if (node.is_object() && !node.empty()) replaced(Json::object());
  // The shortest value of all: findings that differ only in a value's type
  // then minimise to the same bytes, and the duplicate check sees them.
  if (node.is_structured() || node.is_string()) replaced(0);
  if (node.is_structured()) {
    for (const auto& child : node) replaced(child);  // hoist a child into its parent's place
  } else if (node.is_string()) {
    const std::string text = node.get<std::string>();
    if (!text.empty()) {
      replaced("");
      replaced(text.substr(0, text.size() / 2));
      replaced(text.substr(text.size() / 2));
      replaced(text.substr(0, text.size() - 1));
    }
  } else if (node.is_number_integer()) {
    const auto value = node.get<std::int64_t>();
    for (std::int64_t simpler : {std::int64_t{0}, std::int64_t{1}, std::int64_t{-1}, value / 2, value / 10})
      if (simpler != value) replaced(simpler);
  } else if (node.is_number_unsigned()) {
    replaced(0);
    replaced(node.get<std::uint64_t>() / 2);
  } else if (node.is_number_float()) {
    replaced(0);
    replaced(static_cast<std::int64_t>(node.get<double>()));
  } else if (node.is_boolean()) {
    replaced(false);
  }
  return out;
}

}  // namespace

std::string ddmin_bytes(std::string input, const Predicate& keeps, MinimiseStats& stats) {
  if (!input.empty() && evaluate(keeps, stats, "")) return "";
  std::size_t parts = 2;
  while (input.size() >= 2 && !stats.budget_exhausted()) {
    parts = std::min(parts, input.size());
    const std::size_t chunk = (input.size() + parts - 1) / parts;
    bool reduced = false;
    for (std::size_t start = 0; start < input.size() && !stats.budget_exhausted(); start += chunk) {
      std::string candidate = input.substr(0, start) + input.substr(std::min(input.size(), start + chunk));
      if (evaluate(keeps, stats, candidate)) {
        input = std::move(candidate);
        parts = std::max<std::size_t>(parts - 1, 2);
        reduced = true;
        break;
      }
    }
    if (reduced) continue;
    if (parts >= input.size()) break;  // 1-minimal: no single byte can go
    parts = std::min(input.size(), parts * 2);
  }
  return input;
}

std::string shrink_json_tree(std::string input, const Predicate& keeps, MinimiseStats& stats) {
  auto parsed = parse_bounded_json(input);  // the core's reader: NaN and big integers survive
  if (!parsed) return input;
  Json root = std::move(*parsed);
  std::string current = dump_json(root);
  if (current != input && !evaluate(keeps, stats, current)) return input;  // the compact form loses it

  bool changed = true;
  while (changed && !stats.budget_exhausted()) {
    changed = false;
    std::vector<Json::json_pointer> pointers;
    collect_pointers(root, Json::json_pointer(), pointers);
    for (const auto& at : pointers) {
      for (Json& candidate : candidates_at(root, at)) {
        std::string text = dump_json(candidate);
        if (!smaller(text, current) || !evaluate(keeps, stats, text)) continue;
        root = std::move(candidate);
        current = std::move(text);
        changed = true;
        break;
      }
      if (changed) break;  // the pointers are stale: start a new round
    }
  }
  return smaller(current, input) ? current : input;
}

std::string minimise(std::string input, bool json, const Predicate& keeps, MinimiseStats& stats) {
  for (int round = 0; round < 4 && !stats.budget_exhausted(); ++round) {
    const std::string before = input;
    if (json) input = shrink_json_tree(std::move(input), keeps, stats);
    input = ddmin_bytes(std::move(input), keeps, stats);
    if (input == before) break;
  }
  return input;
}

}  // namespace poolcheck::harness
