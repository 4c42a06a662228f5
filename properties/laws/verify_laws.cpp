#include "properties/laws/verify_laws.hpp"

#include "core/output_json.hpp"
#include "core/verify.hpp"
#include "properties/laws/error_laws.hpp"
#include "properties/laws/params_laws.hpp"

namespace poolcheck::laws {
namespace {

std::string show(const PoolingParams& params) { return dump_json(params_to_object(params)); }

}  // namespace

Violations verify_law(const ModelConfig& model, const PoolingParams& params) {
  Violations out;
  const PoolingParams before = params.clone();
  auto verified = verify_params(params, model);
  if (!deep_equal(before, params))
    out.push_back({"verify", "verify modified its input from " + show(before) + " to " + show(params)});
  if (!verified) {
    append(out, error_law(verified.error()));
    return out;
  }
  if (verified->extra_kwargs && verified->extra_kwargs == params.extra_kwargs)
    out.push_back({"verify", "the verified params share extra_kwargs with the input"});
  auto again = verify_params(*verified, model);
  if (!again)
    out.push_back({"verify", "verify is not idempotent: a second call rejected " + show(*verified) + ": " +
                                 again.error().message});
  else if (!deep_equal(*again, *verified))
    out.push_back({"verify", "verify is not idempotent: " + show(*verified) + " became " + show(*again)});
  append(out, params_round_trip(*verified));
  return out;
}

}  // namespace poolcheck::laws
