#pragma once
// Walking a validated trajectory step by step: the integrator takes one step at a time and a
// visitor examines each TubeStep (tube.hpp) while its record is at hand, so a check can ask
// for enclosures inside the step (sub-intervals, differences, Taylor forms, derivatives along
// the flow) without storing the whole tube.
//
// Guarantee of walk(): the visited steps are consecutive validated steps from the initial set
// (their time ranges cover [t_start, end of the last visited step] without gaps); every query
// of a visited step holds as TubeStep states. `covered` is true exactly when the walk stopped
// because done(step) was true for the last visited step, or because the end time was reached.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "integrate/tube.hpp"
#include "integrate/validated_flow.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

struct WalkOutcome {
  bool covered = false;   // done() held after the last step, or t_end was reached
  bool stopped = false;   // the visitor asked to stop
  std::string failure;    // why the walk ended early (validation failure, budget)
  std::size_t steps = 0;  // steps visited
};

// Walks from `x0` at time t_start towards t_end with vt (the options' max_steps is the
// budget), calling visit(step) after each step; visit returns false to stop the walk, and the
// walk ends covered when done(step) holds after a visit. A validation failure ends the walk with
// `failure` set; it is never hidden. A thin adapter over run_flow (validated_flow.hpp): the
// visit is an observer of the TubeStep, so walk needs the Lohner stepper (records).
template <class S, class Field, class Visit, class Done>
WalkOutcome walk(LohnerStepper<S, Field>& vt, const std::vector<S>& x0, const S& t_start, const S& t_end, Visit&& visit,
                 Done&& done) {
  DoubletonSet<S> set = DoubletonSet<S>::from_box(x0);
  FlowControl control;
  control.max_steps = vt.options().max_steps;
  const auto curve =
      run_flow<S>(vt, set, x0, t_start, until_time(t_end), control, no_finisher, on_tube_step([&](const TubeStep<S>& st) {
        if (!visit(st)) return FlowAction::stop;
        return done(st) ? FlowAction::complete : FlowAction::proceed;
      }));
  WalkOutcome out;
  out.steps = curve.steps();
  switch (curve.end()) {
    case FlowEnd::reached_end:
    case FlowEnd::predicate:
    case FlowEnd::finisher: out.covered = true; break;
    case FlowEnd::observer_stop: out.stopped = true; break;
    case FlowEnd::budget: out.failure = "step budget exhausted before t reached the horizon"; break;
    case FlowEnd::failure:
      if (!curve.failed_in_validation()) curve.rethrow();  // a std::domain_error: not the walk's to report
      out.failure = "validation failed: " + curve.message();
      break;
  }
  return out;
}

// Walks the validated tube of a model that carries the old time t as the state component
// model.time_index() (a τ-time model, dt/dτ > 0) from its initial state until t ≥ H is certain
// at a step's end. τ-time has the same orbit as t-time, so orderings and the signs of
// derivatives along the flow are the same in both times; long t-horizons are short in τ.
// Guarantee: when `covered`, the visited steps cover every t ∈ [0, H] (t increases along the
// orbit and the last step's end certainly has t ≥ H).
template <class S, class Model, class Visit>
WalkOutcome walk_until_time(const Model& model, double H, ValidatedOptions options, Visit&& visit) {
  auto field = [&model](const auto& x, auto& dx) { model.rhs(x, dx); };
  ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), options);
  const std::size_t ti = model.time_index();
  const S tau_end(1e12);  // far beyond reach: the walk stops on t ≥ H
  bool t_passed = false;
  WalkOutcome out = walk(vt, model.initial_state(), S(0), tau_end, std::forward<Visit>(visit), [&](const TubeStep<S>& st) {
    t_passed = num::lower(st.end()[ti]) >= H;
    return t_passed;
  });
  if (out.covered && !t_passed) {  // the τ cap was reached first: [0, H] is not covered
    out.covered = false;
    out.failure = "the tau cap was reached before t reached the horizon";
  }
  return out;
}

}  // namespace softcert::integrate
