#include "properties/laws/size_laws.hpp"

#include "core/json_input.hpp"

namespace poolcheck::laws {
namespace {

std::string how_it_went(const Result<Json>& read) {
  return read ? std::string("accepted") : "refused with '" + read.error().message + "'";
}

}  // namespace

std::string size_refusal_message(std::size_t bytes) {
  return "Input is " + std::to_string(bytes) + " bytes, more than the limit of 8388608 bytes (8 MiB).";
}

Violations input_size_bound(const Result<Json>& at_edge, const Result<Json>& past) {
  Violations out;
  const std::string too_deep =
      "Input nests JSON containers more than " + std::to_string(kMaxNestingDepth) + " levels deep.";
  if (at_edge || at_edge.error().message != too_deep)
    out.push_back({"size-bound", "a text of exactly 8 MiB of '[' was " + how_it_went(at_edge) +
                                     "; the size bound takes it (spec 10.4) and its depth refuses it with '" +
                                     too_deep + "'"});
  const std::string too_big = size_refusal_message(kMaxInputBytes + 1);
  if (past || past.error().message != too_big)
    out.push_back({"size-bound", "a text of 8 MiB + 1 bytes was " + how_it_went(past) + "; it is refused with '" +
                                     too_big + "' (spec 10.4)"});
  return out;
}

Violations input_size_bound() {
  // The two texts are the same for every input, and so is the door's answer:
  // read once per process, and the 8 MiB let go after.
  static const Violations found = [] {
    const std::string brackets(kMaxInputBytes + 1, '[');
    return input_size_bound(parse_bounded_json(std::string_view(brackets).substr(0, kMaxInputBytes)),
                            parse_bounded_json(brackets));
  }();
  return found;
}

}  // namespace poolcheck::laws
