#pragma once
// Which inputs a fuzz target's laws judge while an engine drives it
// (fuzz/work_budget.hpp says why). The core runs on every input, so libFuzzer
// sees all of its coverage; the laws judge an input when its outcome has a
// shape this process has not met before, or when the input's hash picks it,
// one in `one_in`. Both follow from what the process was given, never from a
// clock, and an input replayed alone is always the first of its shape, so a
// finding reproduces; `poolcheck repro`, the replay drivers and the
// properties never sample.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_set>

#include "core/json.hpp"

namespace poolcheck::laws {

// A hash of the bytes for choosing which inputs get sampled work: fnv1a32
// mixed by MurmurHash3's finaliser, so that every bit is usable (the full
// check reads its low bits, the law sample the bits above them).
std::uint32_t sampling_hash(std::string_view bytes);

// The shape of an outcome, as a hash: what it holds, not the values a
// mutation changes on every input. Object keys in order; each value's kind;
// a number's sign and size class (zero, then bit length in steps of 8); a
// string's emptiness, and its text when it is a short word (letters and `_`
// only, at most 24: a task, a side, a padding strategy, an enum's literal;
// not a salt or a prompt with digits or spaces), except an error's message,
// whose text is the shape (digits dropped and cut before the first quote,
// where the input's own values begin); an array's length class (bit length)
// and the shapes of its first and last elements; the first 256 values only.
std::uint64_t outcome_shape(const Json& outcome);

// Why the laws judge an input, or not.
enum class Judged { No, PickedByHash, FirstOfShape };

// The shapes of the outcomes a process has met, and the choice they make.
class LawSample {
 public:
  // Whether the laws judge the input `bytes`, whose law-free run answered
  // `outcome`: the first of its shape (until kMaxShapes shapes are known,
  // so memory stays bounded), or picked by its hash, one in `one_in`.
  Judged judges(std::string_view bytes, const Json& outcome, std::uint32_t one_in);
  std::size_t shapes_seen() const { return seen_.size(); }

  // What it chose so far: every input it was asked about, those judged as
  // the first of their shape, and those judged by the hash alone.
  struct Counts {
    std::uint64_t inputs = 0;
    std::uint64_t first_of_shape = 0;
    std::uint64_t picked_only = 0;
  };
  const Counts& counts() const { return counts_; }

  static constexpr std::size_t kMaxShapes = std::size_t{1} << 16;

 private:
  std::unordered_set<std::uint64_t> seen_;
  Counts counts_;
};

}  // namespace poolcheck::laws
