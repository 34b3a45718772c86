#include "reproduce/certified_endpoint.hpp"

#include <vector>

#include "integrate/derived_enclosures.hpp"
#include "integrate/rigorous_model.hpp"
#include "numerics/decimal.hpp"
#include "numerics/traits.hpp"

namespace softcert::reproduce {

namespace {

// An enclosure as an IntervalD containing it (its ends as they are at 53 bits, else outward).
IntervalD interval_of(const integrate::EnclosedValue& e) { return e.value.to_interval_d(); }

}  // namespace

CertifiedEndpoint certify_endpoint(const instances::Instance& inst, const std::string& t, const EndpointBudget& budget) {
  CertifiedEndpoint out;
  out.t = t;
  const std::size_t states = inst.d * inst.T + inst.T;
  if (states > budget.max_states) {
    out.note = "not attempted: " + std::to_string(states) + " state components > " + std::to_string(budget.max_states) +
               " (setting rigorous_max_states)";
    return out;
  }
  integrate::RigorousIntegrateOptions o;
  o.precision_bits = 53;
  o.max_steps = budget.max_steps;
  integrate::RigorousIntegrateResult r;
  try {
    r = integrate::rigorous_integrate_model(inst, t, o);
  } catch (const support::RigorousFailure& e) {
    out.note = std::string("the rigorous tier did not reach t = ") + t + ": " + e.what();
    return out;
  }
  out.proved = true;
  out.steps = r.steps;
  out.time_variable = r.time_variable;
  // The shared derived quantities (integrate/derived_enclosures.hpp), shortened outward.
  const integrate::DerivedEnclosures dq = integrate::derive_enclosures(r);
  if (dq.entropy) {
    const IntervalD h = interval_of(*dq.entropy);
    out.entropy_lower = num::decimal_down(num::lower(h));
    out.entropy_upper = num::decimal_up(num::upper(h));
  }
  if (dq.max_weight) {
    const IntervalD m = interval_of(*dq.max_weight);
    out.max_weight_lower = num::decimal_down(num::lower(m));
    out.max_weight_upper = num::decimal_up(num::upper(m));
  }
  const IntervalD loss = interval_of(r.loss);
  out.loss_lower = num::decimal_down(num::lower(loss));
  out.loss_upper = num::decimal_up(num::upper(loss));
  return out;
}

}  // namespace softcert::reproduce
