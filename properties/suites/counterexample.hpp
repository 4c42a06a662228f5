#pragma once
// Failures that outlive the process. When a property fails, the runner writes
// its minimal failing input as a corpus entry, in exactly the form an entry
// point reads (for requests: the envelope `poolcheck preprocess` reads), so it
// can be replayed and promoted into corpus/ without searching again.
#include <string>

namespace poolcheck::props {

// A failing input, as its entry point reads it.
struct FailingInput {
  std::string bytes;
  std::string target;     // the law library's target that replays it (laws::find_target), "" for none
  std::string extension;  // of the corpus file: ".json", ".msgpack", ".bin"
  std::string replay;     // the poolcheck command that replays a written file, before its path; "" for none
};

// The bytes of a JSON object with a top-level "note" key spliced in first and
// everything else byte for byte as it was; other bytes are returned unchanged.
// Envelopes ignore unknown keys, so the note does not change the outcome.
std::string with_note(const std::string& bytes, const std::string& note);

// Writes `input` (noted) into $POOLCHECK_COUNTEREXAMPLE_DIR as
// <property>-<hash><extension>, replays the written bytes through the law
// library, and says what it did; without the variable nothing is written.
std::string write_counterexample(const std::string& property, const FailingInput& input, const std::string& note);

}  // namespace poolcheck::props
