// PoolingParams on their other paths: the wire form (MessagePack bytes the
// engine core receives, damaged sometimes) and verify. The round-trip,
// canonical-encoding and verify laws live in properties/laws/.
#include "core/json_equality.hpp"
#include "core/output_json.hpp"
#include "core/wire.hpp"
#include "properties/laws/check.hpp"
#include "properties/laws/params_laws.hpp"
#include "properties/suites/params_generators.hpp"
#include "properties/suites/runner.hpp"
#include "properties/suites/suite_support.hpp"

namespace poolcheck::props {
namespace {

bool adversarial_key(const std::string& key) {
  return key.empty() || static_cast<unsigned char>(key[0]) >= 0x80 || key == "compressed_token_type_ids" ||
         key == "cache_salt" || key == "mm_processor_kwargs" || key == "max_tokens_per_query";
}

void classify_params(const PoolingParams& params, const WireCase& input) {
  if (params.extra_kwargs) see("extra_kwargs");
  if (input.nested_extras) see("extra_kwargs: nested values");
  if (params.extra_kwargs)
    for (const auto& [key, value] : params.extra_kwargs->items())
      if (adversarial_key(key)) see("extra_kwargs: adversarial key");
  if (input.late_interaction) see("late_interaction_params");
  if (input.encoded_length == 0) see("wire: all defaults, empty array");
  see(input.encoded_length == 9 ? "wire: 9 elements" : "wire: fewer than 9 elements");
}

const PropertySpec kWire{20000,
                         {{"encoded", 0.35},
                          {"wider forms", 0.10},
                          {"mutated bytes", 0.15},
                          {"mutated bytes: still decode", 0},
                          {"mutated bytes: rejected", 0.08},
                          {"extra_kwargs", 0.30},
                          {"extra_kwargs: nested values", 0.08},
                          {"extra_kwargs: adversarial key", 0.08},
                          {"late_interaction_params", 0.10},
                          {"wire: all defaults, empty array", 0},
                          {"wire: 9 elements", 0.30},
                          {"wire: fewer than 9 elements", 0.10}}};

// msgspec writes the shortest forms and reads any: the same params with wider
// lengths and integers, and floats as float32 where that holds them, must give
// the check's outcome of the shortest bytes.
// (The wire laws compare decoded values, so a decoder that misreads only a
// form msgspec never writes, a str32 key say, passes them.)
laws::Violations wider_forms_read_alike(const PoolingParams& params, const laws::CheckResult& wider) {
  const laws::CheckResult shortest = laws::check_params_wire_input(encode_wire_msgpack(params).value());
  if (json_equal(shortest.outcome, wider.outcome)) return {};
  return {{"wider-forms-read-alike", "the params in wider MessagePack forms gave " + dump_json(wider.outcome) +
                                         ", in msgspec's shortest " + dump_json(shortest.outcome)}};
}

}  // namespace

// decode(encode(p)) == p through the MessagePack bytes, the JSON view and the
// object form; the encoding ends in a non-default (canonical); damaged bytes
// are rejected exactly or decode to a fixed point.
POOLCHECK_PROPERTY(ParamsLaws, WireAndObjectFormsRoundTrip, kWire) {
  const PoolingParams params = *gen_pooling_params();
  const WireCase input = *gen_wire_case(params);
  const laws::CheckResult result = laws::check_params_wire_input(input.bytes);
  see_and_tag(input.kind);
  classify_params(params, input);
  laws::Violations violations = result.violations;
  if (input.kind == "encoded") {
    laws::append(violations, laws::params_round_trip(params));
    laws::append(violations, laws::comparator_sees_each_field(params));
  }
  else if (input.kind == "wider forms") laws::append(violations, wider_forms_read_alike(params, result));
  else see(result.accepted ? "mutated bytes: still decode" : "mutated bytes: rejected");
  expect_lawful(violations, wire_input(input.bytes));
}

namespace {

const PropertySpec kVerify{10000,
                           {{"task null", 0.04},
                            {"task embed", 0.04},
                            {"task classify", 0.04},
                            {"task token_embed", 0.04},
                            {"task token_classify", 0.04},
                            {"task plugin", 0.03},
                            {"task other", 0.01},
                            {"pooler STEP", 0.10},
                            {"Matryoshka model", 0.20},
                            {"accepted", 0.30},
                            {"rejected", 0.10}}};

std::string task_class(const std::string& task) {
  for (const char* known : {"null", "embed", "classify", "token_embed", "token_classify", "plugin"})
    if (task == known) return task;
  return "other";
}

}  // namespace

// verify leaves its input alone, shares nothing with it, is idempotent, and
// rejects only with the spec's exact messages, over models of every pooler.
POOLCHECK_PROPERTY(VerifyLaws, IdempotentAndExact, kVerify) {
  const VerifyCase input = *gen_verify_case();
  const laws::CheckResult result = laws::check_verify_input(input.bytes);
  see_and_tag(result.accepted ? "accepted" : "rejected");
  see("task " + task_class(input.task));
  see("pooler " + input.pooling_type);
  if (input.matryoshka) see("Matryoshka model");
  expect_lawful(result.violations, verify_input(input.bytes));
}

}  // namespace poolcheck::props
