#include "fuzz/harness/digest.hpp"

#include <cstdio>

#include "core/output_json.hpp"

namespace poolcheck::harness {

std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // offset basis
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 0x100000001b3ull;  // FNV prime
  }
  return hash;
}

std::string digest_of_bytes(std::string_view bytes) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
  return std::string(kDigestPrefix) + hex;
}

std::string outcome_digest(const Json& outcome) { return digest_of_bytes(dump_json(outcome)); }

}  // namespace poolcheck::harness
