#include "properties/laws/key_laws.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/output_json.hpp"

namespace poolcheck::laws {
namespace {

// A key `object` holds more than once, or nullptr. Small objects are searched
// pair by pair (no allocation on the hot path); wide ones sorted.
const std::string* repeated_key(const Json& object) {
  const auto& members = object.get_ref<const Json::object_t&>();
  if (members.size() < 16) {
    for (auto a = members.begin(); a != members.end(); ++a)
      for (auto b = std::next(a); b != members.end(); ++b)
        if (a->first == b->first) return &a->first;
    return nullptr;
  }
  std::vector<const std::string*> keys;
  keys.reserve(members.size());
  for (const auto& member : members) keys.push_back(&member.first);
  std::sort(keys.begin(), keys.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  const auto same = std::adjacent_find(keys.begin(), keys.end(),
                                       [](const std::string* a, const std::string* b) { return *a == *b; });
  return same == keys.end() ? nullptr : *same;
}

// The first repeated key in `value`'s containers, depth first. Its path is
// written into `path` as the search returns, so nothing is built on the way
// down (most inputs hold no repeated key).
const std::string* first_repeated_key(const Json& value, std::string& path) {
  if (value.is_object()) {
    if (const std::string* key = repeated_key(value)) return key;
    for (const auto& [name, child] : value.items())
      if (const std::string* key = first_repeated_key(child, path)) {
        path.insert(0, "." + name);
        return key;
      }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      if (const std::string* key = first_repeated_key(value[i], path)) {
        path.insert(0, "[" + std::to_string(i) + "]");
        return key;
      }
  }
  return nullptr;
}

}  // namespace

Violations keys_once(const Result<Json>& document) {
  if (!document) return {};
  std::string path;
  const std::string* key = first_repeated_key(*document, path);
  if (key == nullptr) return {};
  return {{"keys-once", "the object at $" + path + " holds the key " + dump_json(Json(*key)) +
                            " more than once; Python's json.loads holds a repeated key once, with its last value"}};
}

}  // namespace poolcheck::laws
