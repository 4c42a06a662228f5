#pragma once
// Messages that quote a value with Python's repr() (vLLM's `{x!r}`) quote it
// as Python does. The law's repr is its own code: it shares with
// core/python_repr.cpp only the data of which code points str.isprintable()
// rejects, generated from Python (automatic mutant
// auto-python-repr-14-equality-1 printed every character as \n, and no law
// looked past the message's family).
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/pooling_params.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Python's repr() of the str `text` (Python 3.11's Unicode 14.0.0 decides what
// prints); nullopt when `text` is not well-formed UTF-8.
std::optional<std::string> python_str_repr(std::string_view text);

// Law "task-overwrite" (spec 7 step 1): an offline run whose caller set a task
// other than classify is never accepted, and the refusal `You cannot overwrite
// self.task=<repr> with task='classify'!` is given only then, naming that task.
// `caller` is null when there are no caller params (every online run), and
// `refusal` is null for an accepted run.
Violations task_overwrite_refusal(const PoolingParams* caller, const Error* refusal);

}  // namespace poolcheck::laws
