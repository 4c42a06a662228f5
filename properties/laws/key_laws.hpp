#pragma once
// Repeated keys at the JSON door (core/json_input.cpp, docs/decisions.md):
// Python's json.loads builds a dict, so a key written twice in one object is
// held once, at its first place, with its last value. The door keeps that
// with a linear search below 16 keys and a hash index from 16 on.
#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Law "keys-once": no object of a document the door accepted holds a key
// twice. Every law reads the parsed document, so a door that appends a
// repeated key as a second member (automatic mutant
// auto-json-input-70-relational-2: the search below 16 keys never matched)
// hands them all the first value where Python holds the last, and no
// comparison of the core with itself can tell. A walk of the document, on
// every input the door took.
Violations keys_once(const Result<Json>& document);

}  // namespace poolcheck::laws
