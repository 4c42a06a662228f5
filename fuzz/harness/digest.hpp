#pragma once
// The digest a corpus entry pins an accepted outcome with: FNV-1a, 64 bits,
// over the bytes of `dump_json(outcome)` (core/output_json.hpp), written as
// "fnv1a64:" followed by 16 lower-case hex digits. Not cryptographic: it
// detects drift of the canonical output, nobody forges corpus entries.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/json.hpp"

namespace poolcheck::harness {

inline constexpr std::string_view kDigestPrefix = "fnv1a64:";

std::uint64_t fnv1a64(std::string_view bytes);
// "fnv1a64:%016x" of `bytes`.
std::string digest_of_bytes(std::string_view bytes);
// The digest of an outcome: of dump_json(outcome).
std::string outcome_digest(const Json& outcome);

}  // namespace poolcheck::harness
