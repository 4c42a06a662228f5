// Errors are exact and every message the spec quotes is reachable. Each case
// takes an input the core accepts (or builds one that is valid by
// construction), makes exactly one thing wrong, and requires the rejection to
// be for that defect (laws::rejected_for) on top of every other law. Across a
// run, every spec message family must be seen in a rejection: the coverage
// check fails naming the families no generated input reached.
#include "properties/laws/check.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/suites/params_generators.hpp"
#include "properties/suites/request_generators.hpp"
#include "properties/suites/runner.hpp"
#include "properties/suites/suite_support.hpp"
#include "properties/suites/token_type_generators.hpp"

namespace poolcheck::props {
namespace {

laws::Violations with_defect_law(laws::Violations violations, const laws::CheckResult& result,
                                 const std::string& family) {
  laws::append(violations, laws::rejected_for(result.outcome, family));
  return violations;
}

void expect_reported(const laws::CheckResult& result, const std::string& defect, const std::string& family,
                     const FailingInput& input) {
  see("defect " + defect);
  if (!result.accepted) see("family " + rejected_family(result));
  expect_lawful(with_defect_law(result.violations, result, family), input);
}

// A request the core accepted, then the same request with one defect.
void request_defect() {
  const DefectKind kind = *gen_defect_kind();
  const RequestCase base = *gen_valid_request(kind.base);
  const laws::CheckResult accepted = laws::check_request_input(base.bytes);
  expect_lawful(accepted.violations, request_input(base.bytes));
  if (!accepted.accepted) {
    see("request: base rejected (" + rejected_family(accepted) + ")");
    return;
  }
  see("request: base accepted");
  const RequestCase broken = *gen_with_defect(base, kind);
  expect_reported(laws::check_request_input(broken.bytes), kind.name, kind.family, request_input(broken.bytes));
}

PropertySpec defect_spec() {
  PropertySpec spec{15000,
                    {{"target request", 0.45},
                     {"request: base accepted", 0.35},
                     {"target verify", 0.10},
                     {"target params_wire", 0.05},
                     {"target token_types", 0.05}}};
  for (const auto& family : laws::spec_message_families()) spec.coverage.push_back({"family " + family, 0});
  for (const auto& defect : defect_names()) spec.coverage.push_back({"defect " + defect, 0});
  return spec;
}

}  // namespace

POOLCHECK_PROPERTY(ErrorLaws, EachDefectIsReportedAsItself, defect_spec()) {
  const std::string target = *rc::gen::weightedElement<std::string>(
      {{6, "request"}, {2, "verify"}, {1, "params_wire"}, {1, "token_types"}});
  see_and_tag("target " + target);
  if (target == "request") {
    request_defect();
  } else if (target == "verify") {
    const VerifyCase input = *gen_verify_defect();
    expect_reported(laws::check_verify_input(input.bytes), input.defect, input.expected_family,
                    verify_input(input.bytes));
  } else if (target == "params_wire") {
    const WireCase input = *gen_wire_defect();
    expect_reported(laws::check_params_wire_input(input.bytes), input.kind, input.expected_family,
                    wire_input(input.bytes));
  } else {
    const TokenTypesCase input = *gen_misordered_token_types();
    expect_reported(laws::check_token_types_input(input.bytes), "token types out of order", "token-type-order",
                    token_types_input(input.bytes));
  }
}

}  // namespace poolcheck::props
