#pragma once
// Running a model to a horizon in the fast tier, in t-time or in τ-time.
//
// τ-time models (LogisticReducedTau, ValueSoftmax with tau_time) carry t as a state component
// (dt/dτ = 1 + e^{uᵀs} > 0, so t is increasing in τ). run_to_time integrates them in τ until t
// passes END, then finds τ* with t(τ*) = END by Newton's method in which every evaluation
// re-integrates exactly from the start of the crossing step (so τ* is as accurate as the
// stepper, not as a dense-output interpolant), and finally sets the t component to END.
#include <chrono>
#include <cstddef>
#include <vector>

#include "integrate/fast_stepper.hpp"
#include "models/make_model.hpp"

namespace softcert::integrate {

template <class K>
struct FastRun {
  std::vector<K> x;  // the state at the horizon (τ-time models: t is x[time_index()] = END)
  K t{0};            // the horizon reached (t for every form)
  K tau{0};          // τ at the horizon (τ-time models), else 0
  StepCount steps;
  std::size_t landing_iterations = 0;
  double seconds = 0;
};

template <class Model>
std::size_t time_index_of(const Model& m) {
  if constexpr (requires { m.time_index(); }) return m.time_index();
  else return static_cast<std::size_t>(-1);
}

// Integrates `model` (built at kind K) from its initial state to t = t_end > 0.
template <class K, class Model>
FastRun<K> run_to_time(const Model& model, const K& t_end, Stepper kind, const K& tol, std::size_t max_steps = 0) {
  const auto start = std::chrono::steady_clock::now();
  FastRun<K> run;
  run.steps.limit = max_steps;
  run.x = model.initial_state();
  ControlledStepper<K> st(kind, tol);
  const auto sys = odeint_system(model);
  // The Taylor stepper chooses its own step from its coefficients and only treats dt as a cap,
  // so its first trial is the whole horizon (τ ≤ t, so also a cap in τ-time); the others start
  // small and grow.
  K dt = kind == Stepper::taylor ? t_end : K(1) / K(64);
  if (!models::carries_time(model)) {
    K t(0);
    advance_to(st, sys, run.x, t, t_end, dt, run.steps);
    run.t = t;
  } else {
    const std::size_t ti = time_index_of(model);
    K tau(0);
    std::vector<K> x0 = run.x;
    K tau0 = tau;
    // Accepted steps in τ until t passes END.
    while (run.x[ti] < t_end) {
      x0 = run.x;
      tau0 = tau;
      accepted_step(st, sys, run.x, tau, dt, run.steps);
    }
    // Newton on τ ↦ t(τ) − END from the start of the crossing step, re-integrating each time.
    K target = tau0 + (tau - tau0) * ((t_end - x0[ti]) / (run.x[ti] - x0[ti]));
    std::vector<K> y, f;
    using std::abs;
    for (int it = 0; it < 30; ++it) {
      y = x0;
      K s = tau0, h = target - tau0;
      st.reset();
      if (target > tau0) advance_to(st, sys, y, s, target, h, run.steps);
      ++run.landing_iterations;
      const K residual = y[ti] - t_end;
      // t(τ*) is only as accurate as the stepper (relative tol): stop there.
      if (!(abs(residual) > abs(t_end) * tol)) break;
      model.rhs(y, f);
      target = target - residual / f[ti];
    }
    run.x = y;
    run.x[ti] = t_end;  // the residual is below the stepper's tolerance (see above)
    run.tau = target;
    run.t = t_end;
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace softcert::integrate
