// Each door of the law library (check_request_input, check_verify_input,
// check_params_wire_input, check_token_types_input) reads the bytes it is
// given and no byte after them: the fuzz targets hand it libFuzzer's buffer,
// `poolcheck repro` a file's bytes, and a read past the end is undefined
// behaviour that only a sanitizer sees, if the byte after happens to matter.
// Here it always may: an input cut short is read where the rest of it still
// follows in memory, and must give the answer the same bytes give alone.
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "core/json_equality.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "properties/laws/check.hpp"
#include "properties/laws/size_laws.hpp"
#include "properties/suites/params_generators.hpp"
#include "properties/suites/request_generators.hpp"
#include "properties/suites/runner.hpp"
#include "properties/suites/suite_support.hpp"
#include "properties/suites/token_type_generators.hpp"

namespace poolcheck::props {
namespace {

// One door: the law library's entry point, and how a failing input is kept.
struct Door {
  laws::CheckResult (*check)(std::string_view);
  FailingInput (*failing)(const std::string&);
};

const Door kRequest{laws::check_request_input, request_input};
const Door kVerify{laws::check_verify_input, verify_input};
const Door kWire{laws::check_params_wire_input, wire_input};
const Door kTokenTypes{laws::check_token_types_input, token_types_input};

const PropertySpec kCutInputs{200, {{"JSON cut where the next byte would continue it", 0.3}}};

// JSON texts cut where the bytes after them would complete what they started:
// a number's sign, fraction or exponent, a UTF-8 sequence, an escape, a \u
// escape or its surrogate pair, a literal, a nesting at the depth limit.
const std::vector<std::pair<std::string, std::string>> kCutBeforeTheirEnd = {
    {R"({"a":-)", "5}"},          {R"({"a":1.)", "5}"},         {R"({"a":1e)", "5}"},
    {R"({"a":1e-)", "5}"},        {"{\"a\":\"x\xe4\xb8", "\xad\"}"}, {R"({"a":"x\)", R"(n"})"},
    {R"({"a":"\u00)", R"(41"})"}, {R"({"a":"\ud83d\ude)", R"(00"})"}, {R"({"a":tr)", "ue}"},
    {R"({"a":-Infin)", "ity}"},   {R"({"a":Na)", "N}"},         {R"({"a")", ":1}"},
    {R"({"a":"x\)", R"(u0041"})"}, {std::string(64, '['), "[" + std::string(65, ']')}};

// Whether the byte at `at` would continue a JSON text cut there.
bool cut_inside_a_token(std::string_view text, std::size_t at) {
  const auto next = static_cast<unsigned char>(text[at]);
  return std::isdigit(next) || std::isalpha(next) || (next & 0xC0) == 0x80 || text[at - 1] == '\\' ||
         text[at - 1] == '-';
}

// A cut of a JSON text (gen_json_cut), seen as a class when the next byte continues a token.
std::size_t json_cut(const std::string& text) {
  const std::size_t at = *gen_json_cut(text);
  if (at > 0 && at < text.size() && cut_inside_a_token(text, at)) see("JSON cut where the next byte would continue it");
  return at;
}

// The door's answer for the first `length` bytes of `buffer`, read in place
// (the bytes after them are still there) and read from a copy of their own.
void expect_read_alike(const Door& door, const std::string& buffer, std::size_t length) {
  const std::string_view in_place = std::string_view(buffer).substr(0, length);
  const std::string copy(in_place);
  const laws::CheckResult result = door.check(in_place);
  laws::Violations found = result.violations;
  const laws::CheckResult alone = door.check(copy);
  if (!json_equal(result.outcome, alone.outcome))
    found.push_back({"reads-only-its-bytes", "the first " + std::to_string(length) + " bytes of a longer buffer gave " +
                                                 dump_json(result.outcome) + "; the same bytes alone gave " +
                                                 dump_json(alone.outcome)});
  expect_lawful(found, door.failing(copy));
}

}  // namespace

// Every case: each of kCutBeforeTheirEnd through the request door, and one
// generated input of each door cut at a random byte (JSON half the time
// inside a token). Automatic mutants auto-json-input-117-plus-minus-1 (a
// UTF-8 sequence completed past the end), -206-relational-1 and
// -206-int-literal-2 (a minus sign's digit looked for past the end),
// -331-int-literal-2, -331-plus-minus-1 and -331-relational-1 (an escape
// read past the end), -253-int-literal-2 (a point's digit) and
// -369-relational-1 (a bracket past the end counted in the nesting depth).
POOLCHECK_PROPERTY(DoorLaws, EachDoorReadsOnlyItsBytes, kCutInputs) {
  for (const auto& [cut, rest] : kCutBeforeTheirEnd) expect_read_alike(kRequest, cut + rest, cut.size());
  const std::string request = (*gen_request()).bytes;
  expect_read_alike(kRequest, request, json_cut(request));
  const std::string verify = chance(70) ? (*gen_verify_case()).bytes : (*gen_verify_defect()).bytes;
  expect_read_alike(kVerify, verify, json_cut(verify));
  const std::string wire = chance(70) ? (*gen_wire_case(*gen_pooling_params())).bytes : (*gen_wire_defect()).bytes;
  expect_read_alike(kWire, wire, *rc::gen::inRange<std::size_t>(0, wire.size() + 1));
  const std::string types = (*gen_token_types()).bytes;
  expect_read_alike(kTokenTypes, types, *rc::gen::inRange<std::size_t>(0, types.size() + 1));
}

namespace {

// Each case pays for three 8 MiB inputs.
const PropertySpec kSizeBound{3, {}};

}  // namespace

// The door's size bound is inclusive (spec 10.4: exactly 8 MiB passes): a
// generated request padded with trailing white space to exactly 8 MiB gives
// the answer it gives unpadded, and one byte more is refused with the bound's
// own message. Automatic mutant auto-json-input-390-relational-1 refused
// exactly 8 MiB.
POOLCHECK_PROPERTY(DoorLaws, SizeBoundTakesExactly8MiB, kSizeBound) {
  const std::string request = (*gen_valid_request()).bytes;
  const std::string padded = request + std::string(kMaxInputBytes - request.size(), ' ');
  const laws::CheckResult unpadded = laws::check_request_input(request);
  const laws::CheckResult at_bound = laws::check_request_input(padded);
  laws::Violations found = at_bound.violations;
  if (!json_equal(at_bound.outcome, unpadded.outcome))
    found.push_back({"size-bound", "padded with white space to exactly 8 MiB the request gave " +
                                       dump_json(at_bound.outcome) + "; unpadded, " + dump_json(unpadded.outcome)});
  const laws::CheckResult past = laws::check_request_input(padded + " ");
  const std::string refusal = laws::size_refusal_message(kMaxInputBytes + 1);
  append(found, past.violations);
  if (past.accepted || past.outcome["error"]["message"] != refusal)
    found.push_back({"size-bound", "one byte past 8 MiB gave " + dump_json(past.outcome) + "; expected '" + refusal + "'"});
  expect_lawful(found, request_input(request));
}

}  // namespace poolcheck::props
