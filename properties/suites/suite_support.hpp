#pragma once
// What the property files share: each entry point's failing input, with the
// command that replays a written one, and the message family of a rejection.
#include <string>

#include "properties/laws/check.hpp"
#include "properties/suites/counterexample.hpp"

namespace poolcheck::props {

FailingInput request_input(const std::string& bytes);      // poolcheck preprocess
FailingInput verify_input(const std::string& bytes);       // poolcheck verify
FailingInput wire_input(const std::string& bytes);         // poolcheck params decode --msgpack
FailingInput token_types_input(const std::string& bytes);  // the token_types fuzz target's raw bytes
FailingInput batch_input(const std::string& json);         // poolcheck batch

// The message family (laws::message_family) of a rejected outcome; "" when
// the input was accepted.
std::string rejected_family(const laws::CheckResult& result);

}  // namespace poolcheck::props
