// Errors are exact and every message the spec quotes is reachable. Each case
// takes an input the core accepts (or builds one that is valid by
// construction), makes exactly one thing wrong, and requires the rejection to
// be for that defect (laws::rejected_for) on top of every other law. Across a
// run, every spec message family must be seen in a rejection: the coverage
// check fails naming the families no generated input reached.
#include <algorithm>

#include "core/output_json.hpp"
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

// A defect whose message the generator knows to the byte (it wrote the bad
// byte itself): the family alone would pass another message of the same
// family, such as the type byte's own refusal in place of the map key's.
laws::Violations message_as_written(const laws::CheckResult& result, const std::string& expected) {
  if (expected.empty() || result.accepted) return {};
  const auto error = result.outcome.find("error");
  if (error != result.outcome.end() && error->is_object() && error->value("message", Json()) == expected) return {};
  return {{"message-as-written", "expected the message \"" + expected + "\", got " + dump_json(result.outcome)}};
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
  // The family as the defect set it: a refused spelling's is its own message's.
  expect_reported(laws::check_request_input(broken.bytes), kind.name, broken.expected_family,
                  request_input(broken.bytes));
}

// Spec 10.2: the first failure wins. `normalize` is checked first and
// `cache_salt` right after it, before every other field of the body.
bool is_leading(const std::string& name) {
  return name == "normalize given" || name.rfind("cache_salt ", 0) == 0;
}

// Defects of the envelope, checked before the body is read at all.
bool precedes_the_body(const std::string& name) {
  return name == "max_model_len below 1" || name == "vocab_size below 1001" || name == "vocab_size above 2^30" ||
         name == "unknown endpoint" || name == "broken string";  // the bytes do not parse at all
}

rc::Gen<DefectKind> gen_defect_named(const std::string& name) {
  return rc::gen::suchThat(gen_defect_kind(), [name](const DefectKind& kind) { return kind.name == name; });
}

// An online request the core accepted, a defect of a later check, then a
// leading one (sometimes normalize on top of a cache_salt one): the error
// must be the earliest check's.
void earlier_check_wins() {
  DefectKind later = *rc::gen::suchThat(gen_defect_kind(), [](const DefectKind& kind) {
    if (is_leading(kind.name) || precedes_the_body(kind.name)) return false;
    const auto& e = kind.base.endpoints;
    return std::find(e.begin(), e.end(), "score") != e.end() || std::find(e.begin(), e.end(), "rerank") != e.end();
  });
  std::erase(later.base.endpoints, std::string("llm.score"));
  const RequestCase base = *gen_valid_request(later.base);
  if (!laws::check_request_input(base.bytes).accepted) {
    see("base rejected");
    return;
  }
  see("base accepted");
  const DefectKind leading = *rc::gen::suchThat(gen_defect_kind(), [](const DefectKind& k) { return is_leading(k.name); });
  RequestCase both = *gen_with_defect(*gen_with_defect(base, later), leading);
  std::string family = leading.family;
  if (leading.name != "normalize given" && chance(30)) {
    const DefectKind normalize = *gen_defect_named("normalize given");
    both = *gen_with_defect(both, normalize);
    family = normalize.family;
  }
  see_and_tag("earlier " + family);
  const laws::CheckResult result = laws::check_request_input(both.bytes);
  expect_lawful(with_defect_law(result.violations, result, family), request_input(both.bytes));
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

POOLCHECK_PROPERTY(ErrorLaws, TheEarlierCheckWins,
                   (PropertySpec{3000,
                                 {{"base accepted", 0.5},
                                  {"earlier normalize-removed", 0.15},
                                  {"earlier cache-salt-empty", 0.15},
                                  {"earlier cache-salt-chars", 0.15}}})) {
  earlier_check_wins();
}

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
    const laws::CheckResult result = laws::check_params_wire_input(input.bytes);
    laws::Violations found = result.violations;
    laws::append(found, message_as_written(result, input.expected_message));
    expect_reported({std::move(found), result.accepted, result.outcome}, input.kind, input.expected_family,
                    wire_input(input.bytes));
  } else {
    const TokenTypesCase input = *gen_misordered_token_types();
    expect_reported(laws::check_token_types_input(input.bytes), "token types out of order", "token-type-order",
                    token_types_input(input.bytes));
  }
}

}  // namespace poolcheck::props
