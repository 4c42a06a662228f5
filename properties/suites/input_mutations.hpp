#pragma once
// Mutations of a fuzz target's input at the level of the spec, drawn from the
// property generators: the fuzz targets' custom mutators (fuzz/custom_mutators.cpp,
// and AFL++ through fuzz/afl_custom_mutator.cpp) run these generators with a
// Random seeded from the fuzzer's seed, and the properties run them too
// (input_mutation_properties.cpp). So the knowledge of fields, shapes, tokenizer
// styles, boundaries and defects lives in the generators only: one generator
// library, two runners.
//
// Each takes the current input and returns the mutated input's bytes, still
// readable JSON (or MessagePack, or type bytes), so a corpus stays readable and
// coverage-guided. `what` names the mutation, for tests and statistics.
#include <string>
#include <vector>

#include "core/json.hpp"
#include "properties/suites/generators.hpp"

namespace poolcheck::props {

struct MutatedInput {
  std::string bytes;
  std::string what;
};

// A request envelope (the `request` target's input), parsed. Replaces one field
// with a freshly generated value of that field; grafts a catalogued defect;
// respells a typed field as pydantic coerces it; adds or removes a pair;
// switches the shape, the endpoint or the tokenizer style; sets
// truncate_prompt_tokens near the current token count; toggles padding; grows
// an object past 16 keys with a repeated early key; nests to exactly the depth
// limit (or one past it). For both JSON targets, one mutated text in twenty
// has a string value broken (break_marked_string: ill-formed UTF-8, a lone
// surrogate escape, a control character), and one in ten is then cut short
// where the reader looks ahead (gen_json_cut).
rc::Gen<MutatedInput> gen_request_mutation(const Json& envelope);
// A verify input {"model": ..., "pooling_params": ...}, parsed: a field of a
// fresh verify case or defect, the task, the pooler, dimensions at the edges of
// the model's range.
rc::Gen<MutatedInput> gen_verify_mutation(const Json& input);
// Wire bytes (MessagePack): one element of the array replaced by a generated
// params' element or a wrong type, an element added or dropped, a generated
// defect; bytes that do not decode become a generated wire case.
rc::Gen<MutatedInput> gen_params_wire_mutation(const std::string& bytes);
// Token type bytes (laws::token_types_from_bytes): a run of one type inserted,
// removed or moved across the 0/1 boundary, a generated list, a batch separator.
rc::Gen<MutatedInput> gen_token_types_mutation(const std::string& bytes);

// The names each generator above can return as `what`, for the tests.
const std::vector<std::string>& request_mutation_names();

}  // namespace poolcheck::props
