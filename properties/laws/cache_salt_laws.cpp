#include "properties/laws/cache_salt_laws.hpp"

#include <algorithm>
#include <string>

#include "core/output_json.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/online_body.hpp"
#include "properties/laws/utf8_laws.hpp"

namespace poolcheck::laws {
namespace {

constexpr const char* kLaw = "cache-salt-rules";

// The body's cache_salt, when the envelope is an online one that has a non-null salt.
const Json* online_salt(const Json& envelope) {
  const auto online = online_body(envelope);
  if (!online) return nullptr;
  const auto salt = online->body->find("cache_salt");
  return salt == online->body->end() || salt->is_null() ? nullptr : &*salt;
}

// Code points of well-formed UTF-8 (the JSON door took no other).
std::size_t code_points(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), starts_character));
}

// The family of the rule `salt` breaks, or "" when it keeps them all.
std::string broken_rule(const Json& salt) {
  if (!salt.is_string() || salt.get_ref<const std::string&>().empty()) return "cache-salt-empty";
  const auto& text = salt.get_ref<const std::string&>();
  const bool forbidden = std::any_of(text.begin(), text.end(), [](char c) {
    return c == '@' || c == '/' || c == '\\' || c == '\0';
  });
  return code_points(text) > 128 || forbidden ? "cache-salt-chars" : "";
}

}  // namespace

Violations cache_salt_rules(const Json& envelope, const Error* refusal) {
  const Json* salt = online_salt(envelope);
  const std::string family = refusal ? message_family(refusal->message) : "";
  const bool salt_refusal = family == "cache-salt-empty" || family == "cache-salt-chars";
  if (!salt) {
    if (!salt_refusal) return {};
    return {{kLaw, "refused with '" + refusal->message + "', but no online body holds a non-null cache_salt"}};
  }
  const std::string broken = broken_rule(*salt);
  const std::string shown = dump_json(*salt).substr(0, 200);
  if (broken.empty()) {
    if (!salt_refusal) return {};
    return {{kLaw, "the cache_salt " + shown + " keeps every rule, but was refused with '" + refusal->message + "'"}};
  }
  if (!refusal) return {{kLaw, "the cache_salt " + shown + " breaks the rule of '" + broken + "', but was taken"}};
  if (!salt_refusal || family == broken) return {};
  return {{kLaw, "the cache_salt " + shown + " breaks the rule of '" + broken + "'; refused with '" +
                     refusal->message + "'"}};
}

}  // namespace poolcheck::laws
