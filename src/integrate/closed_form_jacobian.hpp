#pragma once
// The ball step's Df over a piece's box from a model's closed form instead of the tape's
// first-order derivative pass (ValidatedStepper::set_box_jacobian; docs/method.md §2b). Today,
// over intervals of doubles: the value-softmax model with the softmax normalization in t-time
// and the square or regression loss (models/value_softmax_jacobian.hpp), and the tied model in
// τ-time (models/tied_value_softmax_jacobian.hpp, and as two thin factors:
// models/tied_value_softmax_jacobian_factors.hpp); their guarantees are what set_box_jacobian
// and set_box_jacobian_factors ask for. Any other model, pair or interval kind keeps the tape: an MPFI
// stepper's model is at its own kind, and the closed form would need the same field's
// parameters at IntervalD. Measured on the authors' κ = 5 regression member: docs/performance.md,
// "A cheaper ball step for the κ = 5 member".
#include <functional>
#include <type_traits>
#include <vector>

#include "models/tied_value_softmax.hpp"
#include "models/tied_value_softmax_jacobian.hpp"
#include "models/tied_value_softmax_jacobian_factors.hpp"
#include "models/value_softmax.hpp"
#include "models/value_softmax_jacobian.hpp"
#include "numerics/kinds.hpp"
#include "support/cpu_cap.hpp"

namespace softcert::integrate {

// Sets stepper's box Jacobian from model's closed form when it has one (else does nothing).
// model must outlive the stepper (it is read by reference at every ball step). Only the ball
// step reads it; a Lohner stepper ignores it.
template <class Stepper, class Model>
void use_closed_form_jacobian(Stepper& stepper, const Model& model) {
  if constexpr (std::is_same_v<Model, models::ValueSoftmax<IntervalD>>) {
    if (!models::has_closed_form_jacobian(model)) return;
    stepper.set_box_jacobian([m = &model](const std::vector<IntervalD>& box, std::vector<IntervalD>& Df) {
      return models::value_softmax_jacobian(*m, box, Df);
    });
  } else if constexpr (std::is_same_v<Model, models::TiedValueSoftmax<IntervalD>>) {
    if (!models::has_closed_form_jacobian(model)) return;
    // μ from the two thin factors (models/tied_value_softmax_jacobian_factors.hpp); the dense
    // closed form below serves a piece where they decline
    stepper.set_box_jacobian_factors(
        [m = &model](const std::vector<IntervalD>& box, std::vector<IntervalD>& left, std::vector<IntervalD>& right, std::size_t& k) {
          return models::tied_value_softmax_jacobian_factors(*m, box, left, right, k);
        });
    stepper.set_box_jacobian([m = &model](const std::vector<IntervalD>& box, std::vector<IntervalD>& Df) {
      // the rows in two halves, the second on a core the CPU cap has free (the same bits)
      return models::tied_value_softmax_jacobian(*m, box, Df, [](const std::function<void()>& a, const std::function<void()>& b) {
        support::run_both(a, b);
      });
    });
  }
}

}  // namespace softcert::integrate
