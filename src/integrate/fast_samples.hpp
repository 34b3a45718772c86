#pragma once
// The fast tier's flow at many times in one run: the t-time model integrated by one controlled
// stepper in double (dopri5 by default), landing exactly on each requested time. For figures
// that put the flow beside the authors' gradient descent (src/reproduce/).
//
// No guarantee (fast tier): run it twice at tolerances a factor 2^{-10} apart and report the
// digits on which the two agree (sample_agreement) — that is how `reproduce` labels these
// curves "confirmed (fast tier)" rather than proved.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "integrate/fast_stepper.hpp"
#include "integrate/odeint_system.hpp"

namespace softcert::integrate {

// The states of one run at its own scalar kind K (double, or MpReal at the current MPFR
// precision).
template <class K>
struct FlowSamplesOf {
  std::vector<double> times;
  std::vector<std::vector<K>> states;  // states[i] = x(times[i])
  StepCount steps;
};
using FlowSamples = FlowSamplesOf<double>;

// x(t) at every t in `times` (sorted, ≥ 0), from the model's initial state, at the model's
// scalar kind (a model over MpReal runs at the current MPFR precision).
template <class Model>
auto flow_at_times(const Model& model, const std::vector<double>& times, double tol, Stepper stepper = Stepper::dopri5,
                   std::size_t max_steps = 0) {
  using K = typename std::decay_t<decltype(model.initial_state())>::value_type;
  if (!std::is_sorted(times.begin(), times.end()) || (!times.empty() && !(times.front() >= 0)))
    throw std::invalid_argument("times: must be sorted and ≥ 0");
  FlowSamplesOf<K> out;
  out.times = times;
  out.steps.limit = max_steps;
  std::vector<K> x = model.initial_state();
  ControlledStepper<K> st(stepper, K(tol));
  const auto sys = odeint_system(model);
  K t(0), dt = K(1) / K(64);
  for (double target : times) {
    if (K(target) > t) advance_to(st, sys, x, t, K(target), dt, out.steps);
    out.states.push_back(x);
  }
  return out;
}

// Digits on which two sample sets agree over the components `pick` extracts (a function of
// one state returning a vector): min over samples and components of
// −log10(|p − q| / max(|q|, floor)), capped at 16.
template <class Pick>
double sample_agreement(const FlowSamples& p, const FlowSamples& q, Pick pick, double floor = 1e-12) {
  double digits = 16;
  for (std::size_t i = 0; i < p.states.size() && i < q.states.size(); ++i) {
    const std::vector<double> a = pick(p.states[i]), b = pick(q.states[i]);
    for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
      const double diff = std::abs(a[k] - b[k]);
      if (diff == 0) continue;
      digits = std::min(digits, -std::log10(diff / std::max(std::abs(b[k]), floor)));
    }
  }
  return std::max(0.0, digits);
}

}  // namespace softcert::integrate
