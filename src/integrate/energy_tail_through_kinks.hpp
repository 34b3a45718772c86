#pragma once
// A t-time value-softmax run to END that ends with the energy tail (gradient_flow_tail.hpp) where
// it can, and steps through certified kink crossings (kink_crossing.hpp, docs/method.md §5c)
// where a score of |x| or relu reaches its kink first.
//
// Why a fallback and not one run: the energy tail's steps stop where a score may reach its kink
// (the step shrinks below h_min there, a RigorousFailure), while enclose_full_state follows the
// score onto the kink when its arrival is certified transversal and pinned. On a model without
// a kink the first failure is the run's and propagates unchanged.
//
// Guarantee: `state` is that of whichever run returned: the energy tail's enclosure of x(END)
// (loss floor 0: rhs is −∇L and L ≥ 0 for every loss of models::ValueSoftmax), or
// enclose_full_state's (through certified crossings only). Throws what the last run throws.
#include <string>

#include "instances/instance.hpp"
#include "integrate/gradient_flow_tail.hpp"
#include "integrate/rigorous_full.hpp"
#include "support/failures.hpp"
#include "models/value_softmax.hpp"

namespace softcert::integrate {

template <class S>
struct EnergyTailOrKinksRun {
  FullStateEnclosure<S> state;
  EnergyTail<S> tail;               // tail.used: the energy tail finished the run
  std::string tail_stopped_by_kink;  // non-empty: the tail's run stopped (its message) and the
                                     // crossing run gave `state`
};

template <class S>
EnergyTailOrKinksRun<S> enclose_with_energy_tail_or_kinks(const instances::Instance& inst, const S& t_end,
                                                          double r_max, const ValidatedOptions& options) {
  const models::ValueSoftmax<S> model(inst, false);
  EnergyTailOrKinksRun<S> out;
  try {
    out.state = enclose_with_energy_tail<S>(model, t_end, S(0), r_max, options, &out.tail);
  } catch (const support::RigorousFailure& stopped) {
    if (!model.kinked()) throw;
    out.tail = EnergyTail<S>{};
    out.tail_stopped_by_kink = stopped.what();
    out.state = enclose_full_state<S>(inst, t_end, options);
  }
  return out;
}

}  // namespace softcert::integrate
