// The spec mutations (input_mutations.hpp), the fuzz targets' custom
// mutators, run here as a second runner: a generated input mutated one to
// three times, as a campaign stacks mutations on a corpus element, then every
// law. So the mutations reach the `pr` profile and the mutation gate too, and
// a mutation that only ever made inputs every law already agrees on would
// show up as a class never seen.
#include "core/json_input.hpp"
#include "properties/laws/check.hpp"
#include "properties/suites/input_mutations.hpp"
#include "properties/suites/params_generators.hpp"
#include "properties/suites/request_generators.hpp"
#include "properties/suites/runner.hpp"
#include "properties/suites/suite_support.hpp"
#include "properties/suites/token_type_generators.hpp"

namespace poolcheck::props {
namespace {

Json parsed_or_null(const std::string& bytes) {
  auto parsed = parse_bounded_json(bytes);
  return parsed ? std::move(*parsed) : Json(nullptr);
}

// The mutation's kind: a request mutation's name, else its description up to a detail.
std::string kind_of(const std::string& what) {
  // The name said first: "big integer: truncate_prompt_tokens = ..." is a big integer.
  const std::string* kind = nullptr;
  std::size_t at = std::string::npos;
  for (const auto& name : request_mutation_names()) {
    const std::size_t found = what.find(name);
    if (found < at) at = found, kind = &name;
  }
  return kind != nullptr ? *kind : what.substr(0, what.find_first_of(":-0123456789"));
}

// Every law on every input, but padded prompts over the fuzz targets' budget
// are decided, not built, as the request target does: the token-total mutation
// pads to 2^24 tokens, which RequestLaws.TokenTotalTakesUpToItsLimit builds.
laws::CheckResult check_mutated_request(std::string_view bytes) {
  return laws::check_request_input(bytes, laws::CheckDepth{laws::kPaddedTokenBudget, 1});
}

// Mutates `bytes` one to three times with `mutation` and reports each kind.
template <class Mutation>
std::string mutated(std::string bytes, Mutation mutation) {
  const int rounds = *rc::gen::inRange(1, 4);
  for (int i = 0; i < rounds; ++i) {
    const MutatedInput m = *mutation(bytes);
    see("mutation " + kind_of(m.what));
    bytes = m.bytes;
  }
  return bytes;
}

// `base` mutated, through its target's check; the outcome is a class too.
template <class Mutation>
void check_mutated(std::string base, Mutation mutation, laws::CheckResult (*check)(std::string_view),
                   FailingInput (*failing)(const std::string&)) {
  const std::string bytes = mutated(std::move(base), mutation);
  const auto result = check(bytes);
  see_and_tag(result.accepted ? "accepted" : "rejected");
  expect_lawful(result.violations, failing(bytes));
}

const PropertySpec kRequests{
    1500,
    {{"accepted", 0.10}, {"rejected", 0.10}, {"mutation fresh field", 0.04}, {"mutation defect", 0.04},
     {"mutation coerced spelling", 0.02}, {"mutation pair", 0.04}, {"mutation shape", 0.04},
     {"mutation tokenizer style", 0.04}, {"mutation truncate_prompt_tokens", 0.04}, {"mutation padding", 0.04},
     {"mutation nesting", 0.04}, {"mutation repeated key", 0.02}, {"mutation big integer", 0.02},
     {"mutation union class", 0.01}, {"mutation text cut", 0.03},
     {"mutation broken string", 0.02}}};

POOLCHECK_PROPERTY(MutatedInputs, RequestsKeepEveryLaw, kRequests) {
  check_mutated(
      (*gen_request()).bytes, [](const std::string& input) { return gen_request_mutation(parsed_or_null(input)); },
      check_mutated_request, request_input);
}

const PropertySpec kVerify{600, {{"accepted", 0.10}, {"rejected", 0.10}, {"mutation dimensions ", 0.10}}};

POOLCHECK_PROPERTY(MutatedInputs, VerifyInputsKeepEveryLaw, kVerify) {
  check_mutated(
      (*gen_verify_case()).bytes, [](const std::string& input) { return gen_verify_mutation(parsed_or_null(input)); },
      laws::check_verify_input, verify_input);
}

const PropertySpec kWire{600, {{"accepted", 0.10}, {"rejected", 0.05}}};

POOLCHECK_PROPERTY(MutatedInputs, WireBytesKeepEveryLaw, kWire) {
  check_mutated((*gen_wire_case(*gen_pooling_params())).bytes, gen_params_wire_mutation, laws::check_params_wire_input,
                wire_input);
}

const PropertySpec kTypes{600, {{"accepted", 0.10}, {"rejected", 0.10}, {"mutation run of ", 0.10}}};

POOLCHECK_PROPERTY(MutatedInputs, TokenTypesKeepEveryLaw, kTypes) {
  check_mutated((*gen_token_types()).bytes, gen_token_types_mutation, laws::check_token_types_input,
                token_types_input);
}

}  // namespace
}  // namespace poolcheck::props
