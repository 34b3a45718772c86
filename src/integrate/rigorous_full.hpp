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
// (dτ = γ dt), which keeps long horizons short (on the authors' tied D = 10 instance t-time
// needed 1602 steps, 304 s, to reach t = 20, with the step count growing); t-time otherwise.
//
// Guarantee: if the function returns, then for every initial state x0 in the box
// initial_state() — which contains the instance's exact initial data — the exact solution of
// ẋ = rhs(x) from x0 exists on [0, END] (τ-time: until its t component reaches END; t is
// strictly increasing since dt/dτ ≥ 1), and for every component i
//     result.x[i] ∋ x_i(END)            (τ-time: x at the τ where t = END; x[time_index] ∋ END),
//     result.alpha[k] ∋ α_k(x(END))     (when the model has attention(x); empty otherwise),
// and on_segment, if given, has been called with every validated step's tube segment in order,
// each of whose boxes contains x(s) for every s in [seg.t0, seg.t1] (s is t, or τ in τ-time);
// the segments cover [0, END] (τ-time: [0, τ(END)] and at most one step beyond). A property
// certainly true on every segment box therefore holds for all t in [0, END].
// options.on_step (progress only) gets t as its second argument in both time variables: in
// τ-time it is read from the state's t component (the midpoint), not τ.
// If a step cannot be validated — blow-up, step budget, a singular normalization (F = Σ f(a_j)
// not certainly nonzero), or an abs/relu argument whose sign is not certain over a step's a
// priori box (the kink is not crossed rigorously) — it throws RigorousFailure naming the
// reason; it never returns an unproved result. For an |x| or relu normalization that reason is a
// KinkPossible (integrate/kink_report.hpp): how far the kink is certainly not reached.
//
// Used by the checks that compare normalizations and losses, the tied model and the KL loss
// (proofs_checks/varre2026_*), where the reduced 2T-dimensional logistic system of
// rigorous_integrate.hpp does not apply.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/full_state_orders.hpp"
#include "integrate/kink_report.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/make_model.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
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
};

// |x| and relu under logistic loss: through the kinks where they are certified transversal
// (integrate/kink_crossing.hpp, which defines it; compiled in integrate/kink_crossing.cpp).
template <class S>
FullStateEnclosure<S> enclose_kinked_full_state(const instances::Instance& inst, const S& t_end, ValidatedOptions options);

// Guarantee: see the top of this file.
template <class S, class Model, class OnSegment = detail::IgnoreSegments>
FullStateEnclosure<S> enclose_model_state(const Model& model, const S& t_end, ValidatedOptions options,
                                          OnSegment&& on_segment = {}) {
  FullStateEnclosure<S> out;
  if constexpr (requires { model.a_offset(); }) out.a_offset = model.a_offset();
  out.tau_time = models::carries_time(model);
  options.keep_segments = false;
  if constexpr (requires { model.time_index(); })
    if (out.tau_time && options.on_step)
      options.on_step = [report = options.on_step, ti = model.time_index()](std::size_t n, double, const std::vector<double>& x) {
        report(n, x[ti], x);
      };
  // Over double intervals the derivative pass dominates a step at the papers' sizes: unless the
  // caller chose q, differentiate only to the order full_state_orders.hpp gives (p/2 within
  // [8, 10] in τ-time, at most 20 in t-time; ValidatedOptions::jacobian_order, docs/method.md §2).
  if (options.jacobian_order == 0)
    options.jacobian_order = full_state_jacobian_order<S>(out.tau_time, options.order);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), options);
  S t(0);  // t-time: the end of the last validated step (a step updates it only once validated)
  std::size_t validated = 0;
  auto count_and_pass = [&validated, &on_segment](const TubeSegment<S>& seg) {
    ++validated;
    on_segment(seg);
  };
  // A step not validated: RigorousFailure, or KinkPossible for |x| / relu (kink_report.hpp),
  // from the end of the last validated step (τ-time: its box's t component).
  auto stopped = [&](const char* why) {
    const std::vector<S>& last = vt.last_box();
    S t_reached = t;
    if constexpr (requires { model.time_index(); })
      if (out.tau_time) t_reached = last.empty() ? S(0) : last[model.time_index()];
    rethrow_stopped(model, last, t_reached, validated, why);
  };
  try {
    if (!num::certainly_positive(t_end)) {
      if (!(num::certainly_nonnegative(t_end) && num::certainly_nonpositive(t_end)))
        throw std::invalid_argument("END: the horizon must be 0 or certainly positive");
      out.x = model.initial_state();
    } else if (out.tau_time) {
      if constexpr (requires { model.time_index(); }) {
        // τ ≤ t along the orbit (dt/dτ ≥ 1), so τ(END) ≤ END caps the search.
        const auto hit = integrate_to_component_value(vt, model.initial_state(), model.time_index(), t_end,
                                                      S(t_end + S(1)), options.max_steps, count_and_pass);
        out.x = hit.box;
        out.steps = hit.steps;
      } else {
        throw std::invalid_argument("model: carries time but has no time_index()");
      }
    } else {
      LohnerSet<S> set = LohnerSet<S>::from_box(model.initial_state());
      bool reached = false;
      while (!reached) {
        if (++out.steps > options.max_steps) throw ValidationFailure("integrate: step budget exhausted");
        count_and_pass(vt.step(set, t, t_end, reached));
      }
      out.x = vt.last_box();
    }
    if constexpr (requires { model.attention(out.x); }) out.alpha = model.attention(out.x);
  } catch (const ValidationFailure& e) {
    stopped(e.what());
  } catch (const std::domain_error& e) {  // a kink or singular normalization met on a box
    stopped(e.what());
  }
  return out;
}

// The state at several times in ONE validated pass (for trajectories): `times` certainly
// increasing and certainly > 0. Guarantee: element k has the guarantee of enclose_model_state
// for END = times[k] (its `steps` = validated steps until times[k] was passed). In t-time the
// step that would pass times[k] is shortened to end on it exactly (ValidatedTaylor::step's
// `reached`), then the pass continues from that set; in τ-time every crossing t = times[k] is
// bracketed by integrate_to_component_values. Failures as enclose_model_state (the kink report
// then covers the pass up to where it stopped).
template <class S, class Model>
std::vector<FullStateEnclosure<S>> enclose_model_states_at(const Model& model, const std::vector<S>& times,
                                                           ValidatedOptions options) {
  std::vector<FullStateEnclosure<S>> out;
  if (times.empty()) return out;
  if (!num::certainly_positive(times.front())) throw std::invalid_argument("times: must be certainly > 0");
  for (std::size_t k = 1; k < times.size(); ++k)
    if (!num::certainly_lt(times[k - 1], times[k])) throw std::invalid_argument("times: must be strictly increasing");
  FullStateEnclosure<S> proto;
  if constexpr (requires { model.a_offset(); }) proto.a_offset = model.a_offset();
  proto.tau_time = models::carries_time(model);
  options.keep_segments = false;
  if constexpr (requires { model.time_index(); })
    if (proto.tau_time && options.on_step)
      options.on_step = [report = options.on_step, ti = model.time_index()](std::size_t n, double, const std::vector<double>& x) {
        report(n, x[ti], x);
      };
  if (options.jacobian_order == 0) options.jacobian_order = full_state_jacobian_order<S>(proto.tau_time, options.order);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), options);
  S t(0);
  std::size_t steps = 0;
  auto stopped = [&](const char* why) {
    const std::vector<S>& last = vt.last_box();
    S t_reached = t;
    if constexpr (requires { model.time_index(); })
      if (proto.tau_time) t_reached = last.empty() ? S(0) : last[model.time_index()];
    rethrow_stopped(model, last, t_reached, steps, why);
  };
  auto finish = [&](std::vector<S> x, std::size_t at_steps) {
    FullStateEnclosure<S> e = proto;
    e.x = std::move(x);
    e.steps = at_steps;
    if constexpr (requires { model.attention(e.x); }) e.alpha = model.attention(e.x);
    out.push_back(std::move(e));
  };
  try {
    if (proto.tau_time) {
      if constexpr (requires { model.time_index(); }) {
        auto count = [&steps](const TubeSegment<S>&) { ++steps; };
        const auto hits = integrate_to_component_values(vt, model.initial_state(), model.time_index(), times,
                                                        S(times.back() + S(1)), options.max_steps, count);
        for (const auto& h : hits) finish(h.box, h.steps);
      } else {
        throw std::invalid_argument("model: carries time but has no time_index()");
      }
    } else {
      LohnerSet<S> set = LohnerSet<S>::from_box(model.initial_state());
      for (const S& target : times) {
        bool reached = false;
        while (!reached) {
          if (++steps > options.max_steps) throw ValidationFailure("integrate: step budget exhausted");
          vt.step(set, t, target, reached);
        }
        finish(vt.last_box(), steps);
      }
    }
  } catch (const ValidationFailure& e) {
    stopped(e.what());
  } catch (const std::domain_error& e) {
    stopped(e.what());
  }
  return out;
}

// The model of an instance in the rigorous tier: τ-time for logistic loss (ValueSoftmax or
// TiedValueSoftmax), t-time ValueSoftmax otherwise; |x| and relu under logistic loss through
// their certified kink crossings (kink_crossing.hpp, whose guarantee then holds, with
// kink_arrivals). Guarantee: see the top of this file.
template <class S>
FullStateEnclosure<S> enclose_full_state(const instances::Instance& inst, const S& t_end, ValidatedOptions options) {
  if (inst.tied()) return enclose_model_state<S>(models::TiedValueSoftmax<S>(inst, true), t_end, options);
  const bool tau = inst.loss == instances::Loss::logistic;
  const models::ValueSoftmax<S> model(inst, tau);
  if (tau && model.kinked() && !options.log_norm_ball) return enclose_kinked_full_state<S>(inst, t_end, options);
  return enclose_model_state<S>(model, t_end, options);
}

// Compiled once per interval kind, in integrate/rigorous_full.cpp (each instantiation records the
// full model and the tied model on Taylor variables: seconds of compile time in every caller).
extern template FullStateEnclosure<IntervalD> enclose_full_state<IntervalD>(const instances::Instance&, const IntervalD&,
                                                                           ValidatedOptions);
extern template FullStateEnclosure<IntervalMp> enclose_full_state<IntervalMp>(const instances::Instance&,
                                                                             const IntervalMp&, ValidatedOptions);

}  // namespace softcert::integrate
