#pragma once
// The executor: what a theorem check asks of the flows. A check states its claim over a solution
// curve; it asks here for the curve — the state at given times, enclosed (rigorous tier) or
// estimated (fast tier) — in typed values, and never sees steppers, sets, tapes or decimal text.
// What runs (form, time variable, set, tail) is integrate::plan_run's, decided once per call; a
// failure is typed (support::RigorousFailure, support::ValidationFailure, support::MemoryLimit)
// and becomes a verdict in the engine (engine/verdict_policy.hpp), not here.
//
// Times are doubles, each standing for its own exact value (the value a check's horizon parsed to
// and its record prints): the flow is integrated to exactly that time.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/cross_entropy_tail.hpp"
#include "integrate/energy_tail_through_kinks.hpp"
#include "integrate/fast_events.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/fast_samples.hpp"
#include "integrate/fast_stepper.hpp"
#include "integrate/full_state_orders.hpp"
#include "integrate/gd_certificate.hpp"
#include "integrate/gradient_descent.hpp"
#include "integrate/gradient_descent_lohner.hpp"
#include "integrate/plan_choices.hpp"
#include "integrate/planned_full_state.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/run_knobs.hpp"
#include "integrate/run_plan.hpp"
#include "integrate/step_certificate.hpp"
#include "integrate/tube.hpp"
#include "integrate/validated_flow.hpp"
#include "integrate/walk.hpp"
#include "models/logistic_reduced_jacobian.hpp"
#include "models/softmax_form.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
#include "numerics/kinds.hpp"
#include "numerics/outward_interval_d.hpp"

namespace softcert::flow {

// One enclosed number of the state, and the whole state at one time: a, u, σ(a), the loss, V,
// each an enclosure of the exact flow's value (integrate/rigorous_integrate.hpp states the
// guarantee), with the steps and the plan that produced it.
using integrate::EnclosedValue;
using StateEnclosure = integrate::RigorousIntegrateResult;
// One fast-tier run's state (no guarantee): a, u, α, the loss, V as doubles (and MPFR above 53 bits).
using StateEstimate = integrate::FastState;
// The full state of the full model (a, V or U, α), enclosed, with its steps and kink arrivals, and
// the plan that ran it.
template <class S>
struct FullStateEnclosure : integrate::FullStateEnclosure<S> {
  integrate::RunPlan plan;
  // With a certificate asked for (full_state_at) and a run softcert-verify can re-check: the
  // certificate's step lines (integrate/step_certificate.hpp, docs/certificates.md).
  std::optional<std::vector<std::string>> certificate;
};
// One validated step of a full-state curve: its time range [t0, t1] in the run's time variable and
// a box holding the state over it (integrate/tube.hpp).
template <class S>
using FullSegment = integrate::TubeSegment<S>;
using integrate::KinkArrival;
using integrate::TailPolicy;

// What a check may choose about a run, the plan's request (integrate/run_plan.hpp): precision,
// time variable, set, order, tail, budget; every choice left empty is the plan's. The verbs set its
// tier, form and horizon themselves.
using Request = integrate::RunRequest;
// The request's choices as a check's params name them ("auto", "t", "tau"; "auto", "lohner",
// "ball"): the one parser of these knobs, shared with the CLI, suites and Python
// (integrate/run_knobs.hpp); std::invalid_argument naming the field for anything else.
using integrate::parse_plan_set;
using integrate::parse_plan_time;

// The state at time t > 0, enclosed. Throws std::invalid_argument for an instance no method serves
// (naming the field) and the typed failures above when the run cannot reach t.
StateEnclosure state_at(const instances::Instance& instance, double t, const Request& request = {});

// The state at each of `times` (> 0, strictly increasing) from one pass of the flow.
std::vector<StateEnclosure> states_at(const instances::Instance& instance, const std::vector<double>& times,
                                      const Request& request = {});

// The curve over [0, H] segment by segment (reduced logistic form): every t ∈ [0, t_reached] lies
// in a segment whose enclosures hold the state at t, so a property proved on every segment holds
// for all t there (integrate::CurveEnclosure states it). Stops after the step in which *cancel
// becomes true and returns the curve validated so far, marked incomplete.
using integrate::CurveEnclosure;
using integrate::CurveSegment;
CurveEnclosure curve_over(const instances::Instance& instance, double H, const Request& request = {},
                          const std::atomic<bool>* cancel = nullptr);

// The time t as an interval, for a check's arithmetic with it.
inline IntervalD time_enclosure(double t) { return IntervalD(t, t); }

namespace detail {
// A full-state request for S to H: what every full-state verb sets itself (the entry point sets
// the tier and the form).
template <class S>
Request full_state_request(Request request, double H) {
  request.horizon = H;
  request.precision_bits = integrate::working_bits<S>();
  return request;
}
}  // namespace detail

// The plan full_state_at<S> runs for this request: a check that must know before the run (e.g.
// whether a PL tail will end it) asks here, so that it cannot plan differently from the run.

template <class S>
integrate::RunPlan full_state_plan(const instances::Instance& instance, double H, const Request& request) {
  return integrate::plan_entry(instance, detail::full_state_request<S>(request, H), integrate::RunEntry::full_state);
}

// The full state of the full model at t = H > 0, enclosed in the interval kind S, as plan_run plans
// it for `request` (its form, tier, horizon and precision are set here; the time variable, set,
// order, budget and tail — the PL tail for square and regression loss unless request.tail is off —
// are the plan's where the request leaves them empty): integrate/planned_full_state.hpp, whose
// guarantee it is. A run that stops throws a typed failure.
//
// With `certificate`, a run the verifier can re-check also writes its steps as certificate lines
// (out.certificate): the value-softmax model under logistic loss in τ-time with softmax, x² or
// the elementwise sigmoid, Lohner steps over double intervals, no tail. (Under α = a/Σa the sets
// grow so wide that the verifier's looser enclosure of the moved set outgrows any fixed widening:
// no certificate.) The run is the same either way: the writer only reads each step's record.
template <class S>
FullStateEnclosure<S> full_state_at(const instances::Instance& instance, double H, const Request& request,
                                    bool certificate = false) {
  FullStateEnclosure<S> out;
  out.plan = full_state_plan<S>(instance, H, request);
  const integrate::ValidatedOptions vo = integrate::validated_options(out.plan);
  auto& enclosure = static_cast<integrate::FullStateEnclosure<S>&>(out);
  if constexpr (std::is_same_v<S, IntervalD>) {
    using N = instances::Normalization;
    const N norm = instance.normalization;
    const bool certifiable = certificate && !instance.tied() && instance.loss == instances::Loss::logistic &&
                             (norm == N::softmax || norm == N::square || norm == N::sigmoid) &&
                             out.plan.time == integrate::PlanTime::tau && out.plan.tail != integrate::PlanTail::pl &&
                             !vo.log_norm_ball && H > 0;
    if (certifiable) {  // enclose_planned_full_state's run for this plan, with a step visitor
      integrate::StepCertificateWriter writer(8);  // the full model's widening
      enclosure = integrate::enclose_tau_full_state_writing(instance, S(H), vo, writer);
      if (writer.usable()) out.certificate = writer.lines();
      return out;
    }
  }
  enclosure = integrate::enclose_planned_full_state<S>(instance, S(H), out.plan, vo);
  return out;
}

// The full state at t = H > 0 of a square-loss instance, ended by the energy tail where it applies
// (integrate/energy_tail_through_kinks.hpp, whose guarantee it is): validated steps as the plan
// sets them for `request` (its own tail off), the tail once the state is within tail_radius of a
// certified minimiser, and for |x| or relu the certified kink crossings to H where a score reaches
// its kink first. A run that stops throws a typed failure.
template <class S>
using EnergyTailRun = integrate::EnergyTailOrKinksRun<S>;
template <class S>
EnergyTailRun<S> full_state_with_energy_tail(const instances::Instance& instance, double H, double tail_radius,
                                             Request request) {
  request.tail = TailPolicy::off;
  const integrate::RunPlan plan = full_state_plan<S>(instance, H, request);
  return integrate::enclose_with_energy_tail_or_kinks<S>(instance, S(H), tail_radius, integrate::validated_options(plan));
}

// The full model's curve over [0, H]: on_segment(segment) for every validated step, in order, then
// the state at H, enclosed (integrate/rigorous_full.hpp's guarantee; every segment up to H, so no
// tail). The model is the instance's in the plan's time variable; a τ-time segment's t range is its
// box's t component.
template <class S, class OnSegment>
FullStateEnclosure<S> full_curve_over(const instances::Instance& instance, double H, Request request,
                                      OnSegment&& on_segment) {
  request.tail = TailPolicy::off;
  FullStateEnclosure<S> out;
  out.plan = full_state_plan<S>(instance, H, request);
  const integrate::ValidatedOptions vo = integrate::validated_options(out.plan);
  const bool tau = out.plan.time == integrate::PlanTime::tau;
  auto& enclosure = static_cast<integrate::FullStateEnclosure<S>&>(out);
  if (instance.tied())
    enclosure = integrate::enclose_model_state<S>(models::TiedValueSoftmax<S>(instance, tau), S(H), vo, on_segment);
  else
    enclosure = integrate::enclose_model_state<S>(models::ValueSoftmax<S>(instance, tau), S(H), vo, on_segment);
  return out;
}

// The validated steps of a full model (its own time variable: t for ValueSoftmax(inst, false))
// from its initial state towards t = H, each handed to after_step(segment) as it is validated;
// after_step returns Action::proceed, or Action::complete when what the caller needs is already
// settled (the walk then ends, completed), or Action::stop. The segment's box holds the state over
// [t0, t1], its end the state at t1 (integrate/tube.hpp).
using Action = integrate::FlowAction;
struct StepRequest {
  unsigned order = 0;           // Taylor order; 0: the full state's default at S's precision
  unsigned jacobian_order = 0;  // 0: the full state's default for the order
  std::size_t max_steps = 1000000;
  bool ball = false;            // the ball step (log-norm) instead of the Lohner doubleton
  unsigned ball_pieces = 1;     // with the ball step
};
struct StepWalk {
  std::size_t steps = 0;
  bool completed = false;  // t = H reached, or after_step said complete
  std::string failure;     // why the walk ended early: the step budget, or a step that did not validate
};
template <class S, class Model, class AfterStep>
StepWalk steps_until(const Model& model, double H, const StepRequest& request, AfterStep&& after_step) {
  integrate::ValidatedOptions vo;
  vo.order = integrate::full_state_order<S>(request.order);
  vo.jacobian_order = request.jacobian_order != 0 ? std::min(request.jacobian_order, vo.order)
                                                  : integrate::full_state_jacobian_order<S>(false, vo.order);
  vo.keep_segments = false;
  vo.max_steps = request.max_steps;
  vo.log_norm_ball = request.ball;
  vo.ball_pieces = request.ball_pieces;
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  StepWalk out;
  integrate::with_stepper<S>(vo, field, model.dimension(), [&](auto& stepper) {
    auto start = integrate::start_set(stepper, model.initial_state());
    integrate::FlowControl control;
    control.max_steps = vo.max_steps;
    const auto curve = integrate::run_flow<S>(stepper, start, model.initial_state(), S(0), integrate::until_time(S(H)),
                                              control, integrate::no_finisher, integrate::on_segment(after_step));
    out.steps = curve.steps();
    out.completed = curve.completed();
    if (curve.end() == integrate::FlowEnd::budget) out.failure = "step budget exhausted before t reached the horizon";
    if (curve.end() == integrate::FlowEnd::failure) {
      if (!curve.failed_in_validation()) curve.rethrow();  // a std::domain_error: the caller's to word
      out.failure = "validation failed: " + curve.message();
    }
  });
  return out;
}

// A cross-entropy loss approaching its infimum L*: the validated steps of steps_until, and after
// each the gap L − L* at the step's end, enclosed (integrate::loss_gap_enclosure). The walk
// completes once the gap is certainly below δ (closed by the loss: L is nonincreasing, so the gap
// at H is below it too), or, with the tail, once the cross-entropy tail lemma bounds the gap at H
// below δ from the gap at the step's end (integrate/cross_entropy_tail.hpp, docs/method.md 5c).
// t is the sum of the steps' lengths, an enclosure of the last step's end time.
struct LossGapRequest {
  double delta = 1e-6;
  bool tail = true;  // try the cross-entropy tail lemma once the gap is below 1
  StepRequest steps;
};
enum class GapClosed { no, by_loss, by_tail };
template <class S>
struct LossGapWalk : StepWalk {
  S t{0}, gap{0};
  GapClosed closed = GapClosed::no;
  integrate::CrossEntropyTail tail;  // with closed = by_tail: the lemma's bound and stages
};
template <class S>
LossGapWalk<S> loss_gap_until(const models::ValueSoftmax<S>& model, double H, const S& l_star,
                              const std::vector<IntervalD>& p, const LossGapRequest& request) {
  LossGapWalk<S> out;
  out.gap = S(model.loss_value(model.initial_state()) - l_star);
  const S delta(request.delta), end(H);
  auto after_step = [&](const FullSegment<S>& seg) {
    out.t = out.t + S(seg.t1 - seg.t0);
    out.gap = integrate::loss_gap_enclosure(model, seg.end, l_star);
    if (num::certainly_lt(out.gap, delta)) {  // strict: the margin δ − [0, gap] is then certainly > 0
      out.closed = GapClosed::by_loss;
    } else if (request.tail && num::upper(out.gap) < 1) {
      // The gap at H from the gap at s: H − s ≥ lower(H − t).
      const IntervalD left = num::outward_interval_d(S(end - out.t)), g = num::outward_interval_d(out.gap);
      const auto tb = integrate::cross_entropy_tail_bound(p, model.tokens(), g.upper(), left.lower(), request.delta);
      if (tb.gap_bound < request.delta) {
        out.tail = tb;
        out.closed = GapClosed::by_tail;
      }
    }
    return out.closed != GapClosed::no ? Action::complete : Action::proceed;
  };
  static_cast<StepWalk&>(out) = steps_until<S>(model, H, request.steps, after_step);
  return out;
}

// The fast tier's curve of a model at `times` (sorted, ≥ 0) in one run at the model's scalar kind
// (double, or MpReal at the current MPFR precision), landing exactly on each time; no guarantee.
// The run is either the engine's first run (a 5th-order pair) or its reference (an 8th-order
// pair, for the 2p-bit run engine::decide_fast compares with it).
template <class K>
using Samples = integrate::FlowSamplesOf<K>;
struct SampleRequest {
  double tolerance = 1e-11;  // absolute = relative, per step
  bool reference = false;
  std::size_t max_steps = 0;  // 0: no limit (exceeded: runtime_error)
};
template <class Model>
auto samples_at(const Model& model, const std::vector<double>& times, const SampleRequest& request) {
  return integrate::flow_at_times(model, times, request.tolerance,
                                  request.reference ? integrate::Stepper::rkf78 : integrate::Stepper::dopri5,
                                  request.max_steps);
}

// The fast tier's dense samples of a model that carries t as the state component
// model.time_index() (a τ-time model): one controlled run (as samples_at chooses the pair) from
// the initial state until t ≥ H, steps at most dt_max long; sample(x, f) with f the field at x is
// called at the start, at 4 Hermite points inside every accepted step whose t is ≤ H, and at every
// step's end (the last may pass H by one step). No guarantee: a sign change between samples can be
// missed. Returns the accepted steps and, when the run stopped early (budget, overflow), why.
struct DenseRun {
  std::size_t steps = 0;
  std::string failure;
};
template <class Model, class Sample>
DenseRun dense_samples_until_time(const Model& model, double H, const SampleRequest& request, double dt_max,
                                  Sample&& sample) {
  using K = typename std::decay_t<decltype(model.initial_state())>::value_type;
  const std::size_t ti = model.time_index();
  integrate::ControlledStepper<K> st(request.reference ? integrate::Stepper::rkf78 : integrate::Stepper::dopri5,
                                    K(request.tolerance));
  const auto sys = integrate::odeint_system(model);
  std::vector<K> x = model.initial_state(), f, x0, f0, xs, fs;
  model.rhs(x, f);
  K tau(0), dt = K(1) / K(64);
  const K dt_cap(dt_max);
  integrate::StepCount count;
  count.limit = request.max_steps;
  DenseRun out;
  sample(static_cast<const std::vector<K>&>(x), static_cast<const std::vector<K>&>(f));
  try {
    while (static_cast<double>(x[ti]) < H) {
      x0 = x;
      f0 = f;
      const K tau0 = tau;
      if (dt > dt_cap) dt = dt_cap;
      integrate::accepted_step(st, sys, x, tau, dt, count);
      model.rhs(x, f);
      const K h = tau - tau0;
      for (int q = 1; q <= 4; ++q) {
        integrate::hermite_interpolate(x0, f0, x, f, h, K(q) / K(5), xs);
        model.rhs(xs, fs);
        if (static_cast<double>(xs[ti]) <= H) sample(static_cast<const std::vector<K>&>(xs), static_cast<const std::vector<K>&>(fs));
      }
      sample(static_cast<const std::vector<K>&>(x), static_cast<const std::vector<K>&>(f));
      ++out.steps;
    }
  } catch (const std::runtime_error& e) {
    out.failure = e.what();
  }
  return out;
}

// A walk along the validated τ-tube of a model that carries t as a state component: one
// validated step after another, each handed to the caller while its record is at hand
// (integrate/walk.hpp: a step's box, its end, its Taylor series in time, sub-ranges).
template <class S>
using TubeStep = integrate::TubeStep<S>;
template <class S>
using StepSeries = integrate::StepSeries<S>;
struct WalkRequest {
  unsigned order = 20;              // Taylor order
  std::size_t max_steps = 1000000;  // step budget
  double h_max = 0;                 // largest step in τ (0: none)
  bool certificate = false;         // IntervalD runs: write each step for softcert-verify
  double certificate_widening = 4;  // the writer's radius factor (integrate/step_certificate.hpp)
};
struct WalkResult : integrate::WalkOutcome {
  // With request.certificate on an IntervalD run whose steps were all writable: the certificate's
  // step lines (integrate/step_certificate.hpp, docs/certificates.md).
  std::optional<std::vector<std::string>> certificate;
};

// Walks from the model's initial state until t ≥ H is certain at a step's end, calling
// visit(step) after each step (false stops the walk). Guarantee (integrate::walk_until_time):
// when `covered`, the visited steps cover every t ∈ [0, H]; a validation failure ends the walk
// with `failure` set.
template <class S, class Model, class Visit>
WalkResult walk_until_time(const Model& model, double H, const WalkRequest& request, Visit&& visit) {
  integrate::ValidatedOptions vo;
  vo.order = request.order;
  vo.max_steps = request.max_steps;
  vo.h_max = request.h_max;
  vo.keep_segments = false;  // the visitor sees every step; nothing is stored
  std::optional<integrate::StepCertificateWriter> writer;
  if constexpr (std::is_same_v<S, IntervalD>)
    if (request.certificate) writer.emplace(request.certificate_widening);
  WalkResult out;
  static_cast<integrate::WalkOutcome&>(out) =
      integrate::walk_until_time<S>(model, H, vo, [&](const integrate::TubeStep<S>& st) {
        if constexpr (std::is_same_v<S, IntervalD>)
          if (writer) writer->visit(st);
        return visit(st);
      });
  if (writer && writer->usable()) out.certificate = writer->lines();
  return out;
}

// The iterates of exact real gradient descent x_{k+1} = x_k + lr·f(x_k) on the reduced logistic
// model, enclosed: visit(k, box) for k = 0, 1, … until it returns false or k = iterations; returns
// the last k visited. With wrapping, Lohner's wrapping control for maps with the model's
// closed-form Jacobian (integrate/gradient_descent_lohner.hpp); without, plain interval
// iteration (integrate/gradient_descent.hpp). Each states its guarantee. With `certificate` on
// an IntervalD run with wrapping: every visited iterate's doubleton as certificate lines
// (integrate/gd_certificate.hpp, docs/certificates.md), left empty when they cannot be written.
enum class GdWrapping { lohner, none };
template <class S, class Model, class Visit>
std::uint64_t gradient_descent_iterates(const Model& model, const S& lr, std::uint64_t iterations, GdWrapping wrapping,
                                        Visit&& visit, std::vector<std::string>* certificate = nullptr) {
  if (wrapping == GdWrapping::none) return integrate::enclose_gradient_descent<S>(model, lr, iterations, visit);
  const auto jacobian = [](const Model& m, const std::vector<S>& x, std::vector<S>& Df) {
    models::logistic_reduced_jacobian(m, x, Df);
  };
  // The field at the thin centres in softmax's O(T) quotient form: as tight there as the O(T²) one.
  const auto quotient = model.with_softmax_form(models::SoftmaxForm::quotient);
  if constexpr (std::is_same_v<S, IntervalD>) {
    if (certificate) {
      integrate::GdCertificateWriter writer;
      const std::uint64_t last = integrate::enclose_gradient_descent_lohner<S>(
          quotient, lr, iterations, jacobian, visit, [&](std::uint64_t k, const auto& d) { writer.visit(k, d); });
      certificate->clear();
      if (writer.usable()) *certificate = writer.lines();
      return last;
    }
  }
  return integrate::enclose_gradient_descent_lohner<S>(quotient, lr, iterations, jacobian, visit);
}

// The state at time t by one fast-tier run at `bits` (53: double; more: MPFR), no guarantee. Two
// calls, at p and 2p bits, give the two estimates engine::decide_fast compares.
StateEstimate estimate_at(const instances::Instance& instance, double t, unsigned bits);

// The full state at time t by the fast tier (no guarantee): one run at `precision_bits` and, with
// `reference`, a second at twice the bits compared with it (integrate/fast_integrate.hpp).
struct EstimateRequest {
  unsigned precision_bits = 53;
  bool reference = true;
  std::size_t max_steps = 0;  // per run, accepted + rejected; 0: no limit (exceeded: runtime_error)
};
using EstimatePair = integrate::FastReport;
EstimatePair estimate_full_at(const instances::Instance& instance, double t, const EstimateRequest& request = {});

}  // namespace softcert::flow
