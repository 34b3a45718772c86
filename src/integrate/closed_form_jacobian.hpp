#pragma once
// The ball step's Df over a piece's box from a model's closed form instead of the tape's
// first-order derivative pass (ValidatedStepper::set_box_jacobian; docs/method.md §2b). Today:
// the value-softmax model over intervals of doubles with the softmax normalization in t-time
// and the square or regression loss (models/value_softmax_jacobian.hpp, whose guarantee is what
// set_box_jacobian asks for). Any other model, pair or interval kind keeps the tape: an MPFI
// stepper's model is at its own kind, and the closed form would need the same field's
// parameters at IntervalD. Measured on the authors' κ = 5 regression member: docs/performance.md,
// "A cheaper ball step for the κ = 5 member".
#include <type_traits>
#include <vector>

#include "models/value_softmax.hpp"
#include "models/value_softmax_jacobian.hpp"
#include "numerics/kinds.hpp"

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
  }
}

}  // namespace softcert::integrate
