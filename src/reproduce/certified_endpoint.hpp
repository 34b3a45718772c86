#pragma once
// The rigorous tier's answer at the end of an authors' run, for `softcert reproduce`'s notebook
// figures: where the validated integrator reaches the authors' horizon within a step budget, the
// entropy and the largest weight of α/Σα (and the loss) at that time are enclosed, and the
// figure's endpoint is "proved" rather than "confirmed". Runs it cannot reach (too many states
// for the budget, a kink of |x| or relu, a budget exhausted) say so and stay "confirmed".
#include <cstddef>
#include <string>

#include "instances/instance.hpp"
#include "integrate/plan_choices.hpp"

namespace softcert::reproduce {

struct EndpointBudget {
  std::size_t max_states = 120;   // skip instances with more state components (cost grows ~n^2 per step)
  std::size_t max_steps = 3000;   // validated steps before giving up
};

// Guarantee: when `proved`, [entropy_lower, entropy_upper] contains the entropy of α/Σα of the
// exact gradient flow at t = `t` from the instance's exact decimal data, [max_weight_lower,
// max_weight_upper] contains max_k α_k/Σα and [loss_lower, loss_upper] the loss, every end
// rounded outward to 9 significant digits. entropy_* are empty when the entropy is not defined
// or its sign is not certain (signed weights of the sum normalization). When not `proved`,
// `note` says why (not attempted, or the rigorous tier's failure) and no number is given.
struct CertifiedEndpoint {
  bool proved = false;
  std::string t;
  std::string note;
  std::size_t steps = 0;
  integrate::PlanTime time_variable = integrate::PlanTime::t;
  std::string entropy_lower, entropy_upper, max_weight_lower, max_weight_upper, loss_lower, loss_upper;
};

// `t` is a decimal string (the authors' horizon, authors_run.horizon).
CertifiedEndpoint certify_endpoint(const instances::Instance& inst, const std::string& t, const EndpointBudget& budget);

}  // namespace softcert::reproduce
