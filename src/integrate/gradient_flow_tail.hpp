#pragma once
// The rigorous tier for a gradient flow that has nearly stopped: integrate with validated steps
// until the loss is so close to a known lower bound that the rest of the way to END cannot move
// the state far, and bound that rest by the energy identity instead of integrating it.
//
// Lemma (energy tail). Let ẋ = −∇L on [s, T] with L ≥ L_min everywhere. Then for t ∈ [s, T]
//     ‖x(t) − x(s)‖₂ ≤ ∫_s^t ‖ẋ‖ ≤ √(t − s) · (∫_s^t ‖ẋ‖²)^{1/2} = √((t − s)(L(x(s)) − L(x(t))))
//                   ≤ √((T − s)(L(x(s)) − L_min)) =: r,
// by Cauchy–Schwarz and dL/dt = −‖∇L‖² = −‖ẋ‖². So as long as the solution exists it stays in
// the closed ball of radius r around x(s), hence in the box K = [x(s)] + [−r, r]ⁿ. If the field
// is C¹ on a neighbourhood of the compact K, the solution cannot end before T (a maximal
// solution leaves every compact subset of the domain), so it exists on [s, T] and x(T) ∈ K.
//
// enclose_with_energy_tail(model, END, L_min, r_max, options) takes a t-time model with
// dimension(), initial_state(), rhs(x, dxdt), loss_value(x), optionally attention(x) and
// a_offset(). Preconditions (not checkable here, stated by the caller): rhs is exactly −∇ of
// loss_value (for models::ValueSoftmax in t-time, every loss and normalization:
// tests/models/model_gradient_test.cpp), and loss_value ≥ L_min on the whole domain (0 for the
// square, logistic and regression losses). It takes validated steps (validated_taylor.hpp) from
// t = 0 and, after each, encloses L on the step's end box; as soon as
// r = √((END − s)·(upper(L) − L_min)) ≤ r_max and the field evaluates to finite enclosures on
// K (so every denominator — F = Σ f(a_j), 1 + e^{…} — is certainly nonzero on K, and for abs/relu
// every score has a certain sign on K, else the model throws), it returns K. Otherwise it
// integrates on, to END.
//
// C¹ from a finite enclosure. The lemma needs the field C¹ on a neighbourhood of K, and all the
// tail can observe is that rhs evaluated over K gives finite enclosures (or throws). That
// inference is a property of the model's formula, declared by the trait
// FieldIsC1WhereEnclosureFinite (below) and required at compile time: it holds when every
// operation of rhs is C^∞ on all of ℝ (+, −, ×, exp, sqr), a division whose denominator's
// enclosure then excludes 0 (a continuous denominator nonzero on the compact K is nonzero on a
// neighbourhood of it; an enclosure containing 0 gives an infinite quotient or throws — K has
// no thin component, so no numerator is the thin 0 that Boost.Interval divides by such an
// enclosure to 0), or a kink (abs, relu) whose argument has a certain sign on K (else the model
// throws). It does NOT
// hold for a model calling a function that clips its domain (numerics/elementary.hpp: sqrt or
// log of an interval partly outside the domain encloses the image of the part inside, so
// sqrt([−1, 4]) = [0, 2] is finite while √ is not C¹ at 0): such a model is refused, whatever
// its enclosures. models::ValueSoftmax (t-time) declares it: its rhs uses only +, −, ×, ÷, exp,
// sqr, softmax (exp and ÷) and abs/relu with certain signs (src/models/value_softmax.hpp).
//
// Guarantee: if it returns, then for every initial state in the box initial_state() the exact
// solution exists on [0, END] and result.x[i] ∋ x_i(END) (result.alpha[k] ∋ α_k(x(END)) when the
// model has attention(x)); tail.used tells whether the lemma was applied, from tail.from
// (∋ s) with radius tail.radius (≥ r). A step that cannot be validated throws RigorousFailure.
// One run of run_flow (validated_flow.hpp) with the lemma as its finisher; either stepper.
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "integrate/closed_form_jacobian.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/validated_flow.hpp"
#include "models/value_softmax.hpp"

namespace softcert::integrate {

// Whether a finite interval enclosure of Model::rhs over a box K implies that the field is C¹ on
// a neighbourhood of K (the top of this file). false unless a model is listed here, after the
// argument for its formula has been checked.
template <class Model>
struct FieldIsC1WhereEnclosureFinite : std::false_type {};
template <class S>
struct FieldIsC1WhereEnclosureFinite<models::ValueSoftmax<S>> : std::true_type {};

template <class S>
struct EnergyTail {
  bool used = false;
  S from{0};    // s: where the integration stopped
  S radius{0};  // r ≥ √((END − s)(L(x(s)) − L_min))
};

namespace detail {

// Every bound finite (a NaN bound fails the comparison too).
template <class S>
bool all_finite(const std::vector<S>& v) {
  for (const auto& x : v)
    if (!(num::magnitude(x) < 1e300)) return false;
  return true;
}

// K = box + [−r, r]ⁿ. Guarantee: every component of the result contains [lower − r, upper + r]
// exactly (interval addition rounds outward; subtracting r from a bound in the bound type would
// round to nearest and could cut the ball).
template <class S>
std::vector<S> widened_by(const std::vector<S>& box, const num::BoundOf<S>& r) {
  const S ball = num::hull_of_bounds<S>(-r, r);
  std::vector<S> K = box;
  for (auto& k : K) k = k + ball;
  return K;
}

}  // namespace detail

// Guarantee: see the top of this file. Only for models whose finite enclosures mean C¹ (above).
template <class S, class Model>
  requires FieldIsC1WhereEnclosureFinite<Model>::value
FullStateEnclosure<S> enclose_with_energy_tail(const Model& model, const S& t_end, const S& loss_min, double r_max,
                                               ValidatedOptions options, EnergyTail<S>* tail = nullptr) {
  if (models::carries_time(model)) throw std::invalid_argument("model: the energy tail needs a t-time gradient flow");
  if (!(r_max >= 0)) throw std::invalid_argument("r_max: must be >= 0");
  FullStateEnclosure<S> out;
  if constexpr (requires { model.a_offset(); }) out.a_offset = model.a_offset();
  EnergyTail<S> info;
  options.keep_segments = false;
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  if (!num::certainly_positive(t_end)) throw std::invalid_argument("END: must be certainly positive");
  return with_stepper<S>(options, field, model.dimension(), [&](auto& stepper) {
    use_closed_form_jacobian(stepper, model);  // the ball step's Df (closed_form_jacobian.hpp)
    // The finisher (validated_flow.hpp): the lemma from s = the end of a validated step (thin:
    // steps end on representable times), as soon as its ball is small and the field is C¹ on K.
    auto energy_finisher = [&](const auto& st) -> std::optional<TailEnd<S>> {
      const S gap = model.loss_value(st.box) - loss_min;
      const S rest = t_end - st.t;
      const auto g_hi = num::upper(gap), rest_hi = num::upper(rest);
      if (!(g_hi >= 0) || !(g_hi < 1e300)) return std::nullopt;  // a floor above the loss, or not finite: no tail
      const S r = num::sqrt(num::hull_of_bounds<S>(g_hi, g_hi) * num::hull_of_bounds<S>(rest_hi, rest_hi));
      if (!(num::upper(r) <= r_max)) return std::nullopt;
      // K = box + [−r, r], r made strictly positive so that K has no thin component.
      const auto r_hi = num::upper(r) > 0 ? num::upper(r) : num::BoundOf<S>(1e-300);
      std::vector<S> K = detail::widened_by(st.box, r_hi);
      std::vector<S> dK;
      try {
        model.rhs(K, dK);
        if (!detail::all_finite(dK)) return std::nullopt;
        if constexpr (requires { model.attention(K); })
          if (!detail::all_finite(model.attention(K))) return std::nullopt;
      } catch (const std::domain_error&) {
        return std::nullopt;  // a kink inside K
      }
      info.used = true;
      info.from = st.t;
      info.radius = num::hull_of_bounds<S>(r_hi, r_hi);
      return TailEnd<S>{std::move(K), st.t, st.steps};
    };
    auto set = start_set(stepper, model.initial_state());
    FlowControl control;
    control.max_steps = options.max_steps;
    const auto curve =
        run_flow<S>(stepper, set, model.initial_state(), S(0), until_time(t_end), control, energy_finisher);
    if (!curve.completed()) throw support::RigorousFailure(curve.message());
    out.x = curve.end_box();
    out.steps = curve.steps();
    try {
      if constexpr (requires { model.attention(out.x); }) out.alpha = model.attention(out.x);
    } catch (const support::ValidationFailure& e) {
      throw support::RigorousFailure(e.what());
    } catch (const std::domain_error& e) {
      throw support::RigorousFailure(e.what());
    }
    if (tail) *tail = info;
    return out;
  });
}

}  // namespace softcert::integrate
