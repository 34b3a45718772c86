#pragma once
// The rigorous tier for the FULL value-softmax model (models/value_softmax.hpp), any loss and
// any normalization: the state x = (V row-major, a) of the gradient flow at t = END,
// enclosed by the validated Taylor–Lohner integrator (validated_taylor.hpp, docs/method.md).
//
// Guarantee: if enclose_full_state returns, then for every initial state in the enclosure of
// the instance's exact decimal data, the exact solution exists on [0, END] and
// result.x[i] ∋ x_i(END). If a step cannot be validated — blow-up, a singular normalization
// (F = Σ f(a_j) not certainly nonzero), or an abs/relu argument whose sign is not certain over
// a step's a priori box (the kink is not crossed rigorously) — it throws RigorousFailure naming
// the reason; it never returns an unproved result.
//
// Time variable: logistic loss runs in τ-time (dτ = γ dt, t carried as a state component, the
// state at t = END located by validated_time_change.hpp), which keeps long horizons short;
// other losses run in t-time.
//
// Used by the checks that compare normalizations and losses (proofs_checks/varre2026_*), where
// the reduced 2T-dimensional logistic system of rigorous_integrate.hpp does not apply.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/value_softmax.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
struct FullStateEnclosure {
  std::vector<S> x;           // (V row-major, a[, t]) at END, each component enclosed
  std::vector<S> alpha;       // the normalized attention α(a(END)), enclosed
  std::size_t steps = 0;      // validated steps taken
  std::size_t a_offset = 0;   // index of a_0 in x
};

template <class S>
FullStateEnclosure<S> enclose_full_state(const instances::Instance& inst, const S& t_end, ValidatedOptions options) {
  const bool tau = inst.loss == instances::Loss::logistic;
  const models::ValueSoftmax<S> model(inst, tau);
  FullStateEnclosure<S> out;
  out.a_offset = model.a_offset();
  options.keep_segments = false;
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), options);
  try {
    if (!num::certainly_positive(t_end)) {
      out.x = model.initial_state();
    } else if (tau) {
      // τ ≤ t along the orbit (dt/dτ = 1 + e^{m} ≥ 1), so τ(END) ≤ END caps the search.
      const auto hit = integrate_to_component_value(vt, model.initial_state(), model.time_index(), t_end,
                                                    S(t_end + S(1)), options.max_steps);
      out.x = hit.box;
      out.steps = hit.steps;
    } else {
      const auto tube = vt.integrate(model.initial_state(), S(0), t_end);
      out.x = tube.final_box();
      out.steps = vt.steps_taken();
    }
    const std::vector<S> a(out.x.begin() + static_cast<std::ptrdiff_t>(out.a_offset),
                           out.x.begin() + static_cast<std::ptrdiff_t>(out.a_offset + inst.T));
    std::vector<S> w;
    model.normalize(a, out.alpha, w);
  } catch (const ValidationFailure& e) {
    throw RigorousFailure(e.what());
  } catch (const std::domain_error& e) {  // a kink or singular normalization met on a box
    throw RigorousFailure(e.what());
  }
  return out;
}

}  // namespace softcert::integrate
