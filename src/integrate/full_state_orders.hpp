#pragma once
// The Taylor order p and the derivative order q (ValidatedOptions::jacobian_order) of a validated
// full-state run — the value–softmax model, the tied model and the KL walk — when the caller
// does not choose them. No role in any guarantee: every p and q give enclosures with the
// guarantee of validated_taylor.hpp; these only set how many steps a run takes and what each
// costs.
//
// Why p = 30 over double intervals (docs/performance.md, "A longer series, the same Jacobian"):
// at the papers' sizes the steps are limited by the remainder x_{p+1}(E)·h^{p+1}, whose interval
// coefficient over the a priori box E is many orders of magnitude wider than its value, and
// those widths fall slowly with the order while h^{p+1} falls geometrically: a longer series buys
// longer steps. What makes a longer series expensive is the derivative pass (~nodes·q²·n, most of
// a step); capping q keeps that cost, because the coefficients q < k ≤ p then enter as their
// (narrow) enclosures over the set's box instead of the mean value form. 30 and not more: the
// tapes hold p + 1 orders. The reduced logistic form (rigorous_integrate.cpp) keeps p = 20: its
// derivative pass is small and q = p there, so a longer series costs more than its fewer steps
// save.
#include <algorithm>
#include <type_traits>

#include "integrate/validated_taylor.hpp"

namespace softcert::integrate {

// p for a full-state run at `bits` of precision (53: intervals over double).
inline unsigned default_full_state_order(unsigned bits) { return bits <= 53 ? 30 : std::max(20u, bits / 4); }

// q for a full-state run of order p in t-time or τ-time; over MPFI kinds (double_intervals
// false) 0, i.e. q = p. τ-time: p/2 within [8, 10] — on the notebook's normalization instance as
// wide as q = p and cheaper than q = 15 or q = p. t-time: p up to 20 — on the small square-loss
// instances of the quick suite q = p/2 widens the margins by orders of magnitude (both measured:
// docs/performance.md, "Scale to the papers' sizes").
inline unsigned default_full_state_jacobian_order(bool double_intervals, bool tau_time, unsigned p) {
  if (!double_intervals) return 0;
  if (tau_time) return std::min(p, std::clamp(p / 2, 8u, 10u));
  return std::min(p, 20u);
}

// The order of a full-state run at interval kind S: `chosen`, or the default above when 0.
template <class S>
unsigned full_state_order(unsigned chosen) {
  return chosen != 0 ? chosen : default_full_state_order(working_bits<S>());
}

// q for that run at kind S (ValidatedOptions::jacobian_order; 0 = p).
template <class S>
unsigned full_state_jacobian_order(bool tau_time, unsigned p) {
  return default_full_state_jacobian_order(std::is_same_v<S, IntervalD>, tau_time, p);
}

}  // namespace softcert::integrate
