#pragma once
// The size limit of the JSON door (core/json_input.hpp, spec 10.4): an input
// of exactly kMaxInputBytes (8 MiB) passes the bound, one byte more is refused.
// No fuzz input comes near 8 MiB (libFuzzer's max_len is a few KiB), so the
// law probes the edge itself, with every input it is given, at the cost of a
// scan of 65 bytes.
#include <cstddef>
#include <string>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// The door's message for an input of `bytes` bytes over the limit.
std::string size_refusal_message(std::size_t bytes);

// Law "size-bound": what the door answered for 8 MiB of '[' (`at_edge`) and
// for 8 MiB + 1 of them (`past`). The first is refused for its depth, not its
// size; the second for its size, with size_refusal_message.
Violations input_size_bound(const Result<Json>& at_edge, const Result<Json>& past);
// The law on the door's own answers. The door refuses the first text after
// kMaxNestingDepth + 1 bytes of scan and the second before reading it, so
// neither costs a parse of 8 MiB; the answers are read once per process, as
// they do not depend on any input.
Violations input_size_bound();

}  // namespace poolcheck::laws
