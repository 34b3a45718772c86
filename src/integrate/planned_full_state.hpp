#pragma once
// The full state at t = END as a plan (integrate/run_plan.hpp) says to reach it, the one place
// that reads the plan's tail and time variable for a full-state run: the PL tail
// (integrate/pl_tail.hpp; square and regression loss, t-time) when the plan has it and END > 0,
// else validated steps in the plan's time variable (integrate/rigorous_full.hpp). Guarantee: the
// one of the function it calls — every box of the result contains the exact state at END.
#include "integrate/pl_tail.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/run_plan.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// `vo` is validated_options(plan), possibly with the caller's on_step; `tail`, when not null,
// receives what the PL tail did (only when it ran: plan.tail == pl and END certainly > 0).
template <class S>
FullStateEnclosure<S> enclose_planned_full_state(const instances::Instance& inst, const S& t_end, const RunPlan& plan,
                                                 const ValidatedOptions& vo, PlTail<S>* tail = nullptr) {
  if (plan.tail == PlanTail::pl && num::certainly_positive(t_end)) {
    PlTailOptions tail_options;
    tail_options.width = plan.tail_width;
    tail_options.decided = plan.tail_decided;
    return enclose_with_pl_tail<S>(models::ValueSoftmax<S>(inst), t_end, vo, tail_options, tail);
  }
  const bool tau = plan.time == PlanTime::tau;
  // enclose_full_state's own time variable (τ for logistic loss and the tied model) where the plan
  // agrees, else the model in the plan's time variable.
  if (tau == (inst.tied() || inst.loss == instances::Loss::logistic)) return enclose_full_state<S>(inst, t_end, vo);
  if (inst.tied()) return enclose_model_state<S>(models::TiedValueSoftmax<S>(inst, tau), t_end, vo);
  return enclose_model_state<S>(models::ValueSoftmax<S>(inst, tau), t_end, vo);
}

}  // namespace softcert::integrate
