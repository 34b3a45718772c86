#pragma once
// The rigorous tier for any full model: the state of the gradient flow at t = END, enclosed by
// the validated Taylor–Lohner integrator (validated_taylor.hpp, docs/method.md).
//
// enclose_model_state<S>(model, END, options[, on_segment]) takes any model built at an
// interval kind S that has
//     dimension(), initial_state() (boxes enclosing the instance's exact decimal data) and
//     rhs(x, dxdt) templated on the scalar (so that it evaluates on Taylor series over S),
// and optionally attention(x) (α of a state) and a_offset(). A model that carries the old
// time t as a state component (models::carries_time, e.g. ValueSoftmax in τ-time) is
// integrated in its own time variable until the t component reaches END; any other model is
// integrated in t. enclose_full_state(inst, END, options) picks the model of an instance: for
// logistic loss — ValueSoftmax, and TiedValueSoftmax for model "tied_value_softmax" — τ-time
// (dτ = γ dt), which keeps long horizons short (in t-time the steps shrink as the scores grow:
// docs/performance.md, "The tied model at D = 50 and 100"); t-time otherwise.
//
// Guarantee: if the function returns, then for every initial state x0 in the box
// initial_state() — which contains the instance's exact initial data — the exact solution of
// ẋ = rhs(x) from x0 exists on [0, END] (τ-time: until its t component reaches END; t is
// strictly increasing since dt/dτ ≥ 1), and for every component i
//     result.x[i] ∋ x_i(END)            (τ-time: x at the τ where t = END; x[time_index] ∋ END),
//     result.alpha[k] ∋ α_k(x(END))     (when the model has attention(x); empty otherwise),
// and on_segment, if given, has been called with every validated step's tube segment in order
// (a visitor of TubeStep<S>: with every Lohner step and its record, detail::full_state_observer),
// each of whose boxes contains x(s) for every s in [seg.t0, seg.t1] (s is t, or τ in τ-time);
// the segments cover [0, END] (τ-time: [0, τ(END)] and at most one step beyond). A property
// certainly true on every segment box therefore holds for all t in [0, END].
// options.on_step (progress only) gets t as its second argument in both time variables: in
// τ-time it is read from the state's t component (the midpoint), not τ.
// If a step cannot be validated — blow-up, step budget, a singular normalization (F = Σ f(a_j)
// not certainly nonzero), or an abs/relu argument whose sign is not certain over a step's a
// priori box (the kink is not crossed rigorously) — it throws RigorousFailure naming the
// reason; it never returns an unproved result. For an |x| or relu normalization that reason is a
// KinkPossible (integrate/kink_report.hpp): how far the kink is certainly not reached. On the
// Lohner step, enclose_model_state (without a segment visitor), enclose_model_states_at and
// enclose_full_state take a value-softmax model with |x| or relu through its certified kink
// crossings instead, in either time variable (integrate/kink_crossing.hpp, whose guarantee then
// holds: the Filippov solution, result.kink_arrivals), and stop with KinkPossible where one is
// not certified.
//
// Used by the checks that compare normalizations and losses, the tied model and the KL loss
// (proofs_checks/varre2026_*), where the reduced 2T-dimensional logistic system of
// rigorous_integrate.hpp does not apply.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/closed_form_jacobian.hpp"
#include "integrate/full_state_orders.hpp"
#include "integrate/kink_report.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/validated_flow.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/make_model.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
#include "numerics/box_ball.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
struct FullStateEnclosure {
  std::vector<S> x;           // the state at END (τ-time models: t included), each component enclosed
  std::vector<S> alpha;       // the attention α(x(END)), enclosed (empty when the model has none)
  std::size_t steps = 0;      // validated steps taken
  std::size_t a_offset = 0;   // index of a_0 in x (0 when the model does not say)
  bool tau_time = false;      // integrated in τ with t as a state component
  std::vector<KinkArrival> kink_arrivals;  // scores certified to reach their kink (kink_crossing.hpp)
  // When a PL tail ended the run (integrate/pl_tail.hpp): x(END) lies within Euclidean distance
  // upper(radius) of a point of its centre box, and x = tail_ball->box(). A caller may enclose a
  // function of x(END) over this set instead of the box (numerics/entropy_enclosure.hpp).
  std::optional<num::BoxBall<S>> tail_ball;
};

// A value-softmax model with |x| or relu, in either time variable, at each time of `times`:
// through the kinks where they are certified transversal and pinned (integrate/kink_crossing.hpp,
// which defines it and states its guarantee; compiled in integrate/kink_crossing.cpp).
template <class S>
std::vector<FullStateEnclosure<S>> enclose_kinked_states_at(const models::ValueSoftmax<S>& model, const std::vector<S>& times,
                                                            ValidatedOptions options);

namespace detail {
// Whether a run of `model` may go through kink_crossing.hpp (a value-softmax model; it does when
// kinked() and on the Lohner step, whose records the crossing reads).
template <class S, class Model>
inline constexpr bool may_cross_kinks = std::is_same_v<Model, models::ValueSoftmax<S>>;
}  // namespace detail

namespace detail {

// A τ-time model's time component (0 when the model carries no time).
template <class Model>
std::size_t time_index_of(const Model& model) {
  if constexpr (requires { model.time_index(); }) return model.time_index();
  else return 0;
}

// The weight of the old time t in the ball's norm of a τ-time run to END (BallSettings::
// ball_weights): 2^−k with 2^k ≥ 8·max(END, 1). Why: t's row of Df is ∇(1 + e^m) = e^m ∇m, and
// e^m grows about like t along these flows (the loss, hence γ = 1/(1 + e^m), decays like 1/t),
// so in the Euclidean norm that row alone made μ ≈ e^m/2 and the ball blew up by t ≈ 50 on the
// authors' tied D = 20 (docs/performance.md, "The ball step in τ-time"). Weighted, the row is
// at most ~END·2^−k ≤ 1/8 of its size; t's own enclosure widens to ±ρ·2^k. Soundness does not
// depend on the choice (any positive power of two is a valid weight).
inline double tau_time_weight(double end) {
  int k = 0;
  std::frexp(8.0 * std::max(end, 1.0), &k);  // 2^(k−1) ≤ 8·END < 2^k
  return std::ldexp(1.0, -k);
}
// The ball's weights of a τ-time state of n components whose t is component `time_index`: 1 for
// every component but t, tau_time_weight(end) for t.
inline std::vector<double> tau_time_ball_weights(std::size_t n, std::size_t time_index, double end) {
  std::vector<double> w(n, 1.0);
  w.at(time_index) = tau_time_weight(end);
  return w;
}

// The options every full-state run starts from: no kept segments, progress reported in t (read
// from the state in τ-time), the derivative order full_state_orders.hpp gives unless the
// caller chose q (over double intervals the derivative pass dominates a step at the papers'
// sizes: p/2 within [8, 10] in τ-time, at most 20 in t-time; LohnerSettings::jacobian_order,
// docs/method.md §2), and for the ball step in τ-time the weight of t in its norm
// (tau_time_weight, for the last time `end` of the run).
template <class S, class Model>
ValidatedOptions full_state_options(const Model& model, bool tau_time, ValidatedOptions options, double end) {
  options.keep_segments = false;
  if constexpr (requires { model.time_index(); })
    if (tau_time && options.log_norm_ball && options.ball_weights.empty())
      options.ball_weights = tau_time_ball_weights(model.dimension(), model.time_index(), end);
  if constexpr (requires { model.time_index(); })
    if (tau_time && options.on_step)
      options.on_step = [report = options.on_step, ti = model.time_index()](std::size_t n, double, const std::vector<double>& x) {
        report(n, x[ti], x);
      };
  if (options.jacobian_order == 0) options.jacobian_order = full_state_jacobian_order<S>(tau_time, options.order);
  return options;
}

// A run that stopped: RigorousFailure, or KinkPossible for |x| / relu (kink_report.hpp), from
// the end of the last validated step (τ-time: its box's t component).
template <class S, class Model>
[[noreturn]] void full_state_stopped(const Model& model, bool tau_time, const std::vector<S>& last, const S& t,
                                     std::size_t validated, const std::string& why) {
  S t_reached = t;
  if constexpr (requires { model.time_index(); })
    if (tau_time) t_reached = last.empty() ? S(0) : last[model.time_index()];
  rethrow_stopped(model, last, t_reached, validated, why);
}

// The stop rule of a full-state run to the times `times`: in τ-time the crossings of the t
// component (τ ≤ t along the orbit, dt/dτ ≥ 1, so τ(t_k) ≤ t_k caps the search at the last time
// + 1), in t-time the times themselves. Calls f(rule, control).
template <class S, class Model, class F>
auto with_full_state_rule(const Model& model, bool tau_time, const std::vector<S>& times,
                          std::size_t max_steps, F&& f) {
  FlowControl control;
  control.max_steps = max_steps;
  if (tau_time) {
    if constexpr (!requires { model.time_index(); }) {
      throw std::invalid_argument("model: carries time but has no time_index()");
    } else {
      control.budget_message = "time change: step budget exhausted before reaching the target";
      return f(until_component(model.time_index(), times, S(times.back() + S(1))), control);
    }
  }
  return f(until_times(times), control);
}

// The observer of a full-state run for the caller's visitor: one that takes a TubeSegment<S> sees
// every segment; one that takes only a TubeStep<S> (a certificate writer, step_certificate.hpp)
// sees every Lohner step with its record and is never called on ball steps, which keep none.
template <class S, class Stepper, class Visit>
auto full_state_observer(Visit& visit) {
  if constexpr (std::is_invocable_v<Visit&, const TubeSegment<S>&>) {
    return on_segment([&visit](const TubeSegment<S>& seg) { visit(seg); });
  } else if constexpr (std::remove_cvref_t<Stepper>::has_records) {
    return on_tube_step([&visit](const TubeStep<S>& st) { visit(st); });
  } else {
    return on_segment([](const TubeSegment<S>&) {});
  }
}

}  // namespace detail

// Guarantee: see the top of this file.
template <class S, class Model, class OnSegment = detail::IgnoreSegments>
FullStateEnclosure<S> enclose_model_state(const Model& model, const S& t_end, ValidatedOptions options,
                                          OnSegment&& on_segment_visit = {}) {
  // |x| and relu through their certified kinks (a caller that visits the segments keeps the
  // plain run, which stops at the first kink).
  if constexpr (detail::may_cross_kinks<S, Model> && std::is_same_v<std::remove_cvref_t<OnSegment>, detail::IgnoreSegments>)
    if (model.kinked() && !options.log_norm_ball && num::certainly_positive(t_end))
      return enclose_kinked_states_at<S>(model, std::vector<S>{t_end}, std::move(options)).front();
  FullStateEnclosure<S> out;
  if constexpr (requires { model.a_offset(); }) out.a_offset = model.a_offset();
  out.tau_time = models::carries_time(model);
  options = detail::full_state_options<S>(model, out.tau_time, std::move(options), num::to_double(num::upper(t_end)));
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  return with_stepper<S>(options, field, model.dimension(), [&](auto& stepper) {
    use_closed_form_jacobian(stepper, model);  // the ball step's Df (closed_form_jacobian.hpp)
    S t(0);  // the end of the last validated step (t-time; τ-time reads t from the box)
    if (!num::certainly_positive(t_end)) {
      if (!(num::certainly_nonnegative(t_end) && num::certainly_nonpositive(t_end)))
        throw std::invalid_argument("END: the horizon must be 0 or certainly positive");
      out.x = model.initial_state();
    } else {
      auto set = start_set(stepper, model.initial_state());
      const auto curve = detail::with_full_state_rule<S>(
          model, out.tau_time, std::vector<S>{t_end}, options.max_steps, [&](const auto& rule, const FlowControl& control) {
            return run_flow<S>(stepper, set, model.initial_state(), S(0), rule, control, no_finisher,
                               detail::full_state_observer<S, decltype(stepper)>(on_segment_visit));
          });
      if (!curve.completed())
        detail::full_state_stopped(model, out.tau_time, curve.last_box(), curve.t_reached(), curve.steps(), curve.message());
      out.x = curve.crossings().front().box;
      out.steps = curve.crossings().front().steps;
      t = curve.t_reached();
    }
    try {
      if constexpr (requires { model.attention(out.x); }) out.alpha = model.attention(out.x);
    } catch (const support::ValidationFailure& e) {
      detail::full_state_stopped(model, out.tau_time, stepper.last_box(), t, out.steps, e.what());
    } catch (const std::domain_error& e) {  // a kink or singular normalization met on a box
      detail::full_state_stopped(model, out.tau_time, stepper.last_box(), t, out.steps, e.what());
    }
    return out;
  });
}

// The state at several times in ONE validated pass (for trajectories): `times` certainly
// increasing and certainly > 0. Guarantee: element k has the guarantee of enclose_model_state
// for END = times[k] (its `steps` = validated steps until times[k] was passed). In t-time the
// step that would pass times[k] is shortened to end on it exactly (until_times), then the pass
// continues from that set; in τ-time every crossing t = times[k] is bracketed (until_component,
// validated_flow.hpp). Failures as enclose_model_state (the kink report then covers the pass up
// to where it stopped).
template <class S, class Model>
std::vector<FullStateEnclosure<S>> enclose_model_states_at(const Model& model, const std::vector<S>& times,
                                                           ValidatedOptions options) {
  std::vector<FullStateEnclosure<S>> out;
  if (times.empty()) return out;
  if (!num::certainly_positive(times.front())) throw std::invalid_argument("times: must be certainly > 0");
  for (std::size_t k = 1; k < times.size(); ++k)
    if (!num::certainly_lt(times[k - 1], times[k])) throw std::invalid_argument("times: must be strictly increasing");
  if constexpr (detail::may_cross_kinks<S, Model>)
    if (model.kinked() && !options.log_norm_ball) return enclose_kinked_states_at<S>(model, times, std::move(options));
  FullStateEnclosure<S> proto;
  if constexpr (requires { model.a_offset(); }) proto.a_offset = model.a_offset();
  proto.tau_time = models::carries_time(model);
  options = detail::full_state_options<S>(model, proto.tau_time, std::move(options), num::to_double(num::upper(times.back())));
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  return with_stepper<S>(options, field, model.dimension(), [&](auto& stepper) {
    use_closed_form_jacobian(stepper, model);  // the ball step's Df (closed_form_jacobian.hpp)
    auto set = start_set(stepper, model.initial_state());
    const auto curve = detail::with_full_state_rule<S>(
        model, proto.tau_time, times, options.max_steps, [&](const auto& rule, const FlowControl& control) {
          return run_flow<S>(stepper, set, model.initial_state(), S(0), rule, control, no_finisher);
        });
    if (!curve.completed())
      detail::full_state_stopped(model, proto.tau_time, curve.last_box(), curve.t_reached(), curve.steps(), curve.message());
    try {
      for (const Crossing<S>& c : curve.crossings()) {
        FullStateEnclosure<S> e = proto;
        e.x = c.box;
        e.steps = c.steps;
        if constexpr (requires { model.attention(e.x); }) e.alpha = model.attention(e.x);
        out.push_back(std::move(e));
      }
    } catch (const support::ValidationFailure& e) {
      detail::full_state_stopped(model, proto.tau_time, curve.last_box(), curve.t_reached(), curve.steps(), e.what());
    } catch (const std::domain_error& e) {
      detail::full_state_stopped(model, proto.tau_time, curve.last_box(), curve.t_reached(), curve.steps(), e.what());
    }
    return out;
  });
}

// The model of an instance in the rigorous tier: τ-time for logistic loss (ValueSoftmax or
// TiedValueSoftmax), t-time ValueSoftmax otherwise; |x| and relu under logistic loss through
// their certified kink crossings (kink_crossing.hpp, whose guarantee then holds, with
// kink_arrivals). Guarantee: see the top of this file.
template <class S>
FullStateEnclosure<S> enclose_full_state(const instances::Instance& inst, const S& t_end, ValidatedOptions options) {
  if (inst.tied()) return enclose_model_state<S>(models::TiedValueSoftmax<S>(inst, true), t_end, options);
  // (|x| and relu through their certified kinks: enclose_model_state routes them)
  return enclose_model_state<S>(models::ValueSoftmax<S>(inst, inst.loss == instances::Loss::logistic), t_end, options);
}

class StepCertificateWriter;  // integrate/step_certificate.hpp
// enclose_model_state of the value-softmax model of `inst` in τ-time (logistic loss) over double
// intervals, with every Lohner step handed to `writer` (a certificate of the run; a run of ball
// steps writes none). The same run as enclose_full_state's for such an instance and its guarantee;
// compiled once, in integrate/rigorous_full.cpp.
FullStateEnclosure<IntervalD> enclose_tau_full_state_writing(const instances::Instance& inst, const IntervalD& t_end,
                                                            ValidatedOptions options, StepCertificateWriter& writer);

// Compiled once per interval kind, in integrate/rigorous_full.cpp (each instantiation records the
// full model and the tied model on Taylor variables: seconds of compile time in every caller).
extern template FullStateEnclosure<IntervalD> enclose_full_state<IntervalD>(const instances::Instance&, const IntervalD&,
                                                                           ValidatedOptions);
extern template FullStateEnclosure<IntervalMp> enclose_full_state<IntervalMp>(const instances::Instance&,
                                                                             const IntervalMp&, ValidatedOptions);

}  // namespace softcert::integrate
