#pragma once
// Rigorous integration in a new time variable τ with the old time t carried as a state
// component (dt/dτ > 0 everywhere), and the enclosure of the state at a given old time t*.
//
// Guarantee of integrate_to_component_value: if the exact solution's component `index`
// (the old time t) is strictly increasing along every solution from the initial set and
// reaches `target` at some τ*, the returned box contains x(τ*) for every such solution and
// tau contains τ*. Argument: the τ-steps are validated steps (validated_taylor.hpp); within a
// step, any s with x_index(τ_k + s) = target satisfies target ∈ enclosure of x_index over every
// interval containing s, so s ∉ [0, s_lo] when the enclosure over [0, s_lo] lies below target
// and s ∉ [s_hi, h̄] when the enclosure over [s_hi, h̄] lies above; x(τ_k + s) is then enclosed
// by the step's expansion over [s_lo, s_hi]. Steps are taken until the enclosure at the end of
// a step lies above target, so every crossing is covered.
#include <cstddef>
#include <vector>

#include "integrate/validated_taylor.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
struct ComponentHit {
  std::vector<S> box;  // x at the crossing
  S tau;               // τ at the crossing
  std::size_t steps = 0;
};

template <class S, class Field>
ComponentHit<S> integrate_to_component_value(ValidatedTaylor<S, Field>& vt, const std::vector<S>& x0, std::size_t index,
                                             const S& target, const S& tau_cap, std::size_t max_steps) {
  using B = num::BoundOf<S>;
  ComponentHit<S> hit;
  if (!num::certainly_lt(x0[index], target)) throw ValidationFailure("time change: the target is not after the start");
  LohnerSet<S> set = LohnerSet<S>::from_box(x0);
  S tau(0);
  bool have = false, reached = false;
  const int iters = static_cast<int>(working_bits<S>()) + 8;
  while (true) {
    if (++hit.steps > max_steps) throw ValidationFailure("time change: step budget exhausted before reaching the target");
    if (reached) throw ValidationFailure("time change: τ cap reached before the target");
    const TubeSegment<S> seg = vt.step(set, tau, tau_cap, reached);
    if (num::certainly_lt(seg.box[index], target)) continue;
    const StepRecord<S>& rec = vt.last_step();
    const B hbar = num::upper(rec.h);
    auto below = [&](const B& s) {  // x_index < target on all of [0, s]
      return num::certainly_lt(rec.component(index, num::hull_of_bounds<S>(B(0), s)), target);
    };
    auto above = [&](const B& s) {  // x_index > target on all of [s, h̄]
      return num::certainly_gt(rec.component(index, num::hull_of_bounds<S>(s, hbar)), target);
    };
    B s_lo(0);
    if (below(B(0))) {
      B lo(0), hi = hbar;
      for (int i = 0; i < iters; ++i) {
        const B m = (lo + hi) / 2;
        if (below(m)) lo = m;
        else hi = m;
      }
      s_lo = lo;
    }
    const bool done = above(hbar);
    B s_hi = hbar;
    if (done) {
      B lo = s_lo, hi = hbar;
      for (int i = 0; i < iters; ++i) {
        const B m = (lo + hi) / 2;
        if (above(m)) hi = m;
        else lo = m;
      }
      s_hi = hi;
    }
    const S range = num::hull_of_bounds<S>(s_lo, s_hi);
    std::vector<S> piece = rec.enclose(range);
    // The segment box also contains x on [s_lo, s_hi] ⊂ [0, h̄]: intersect.
    for (std::size_t i = 0; i < piece.size(); ++i) piece[i] = ValidatedTaylor<S, Field>::intersect(piece[i], seg.box[i]);
    const S tau_piece = rec.t0 + range;
    if (!have) {
      hit.box = piece;
      hit.tau = tau_piece;
      have = true;
    } else {
      for (std::size_t i = 0; i < piece.size(); ++i) hit.box[i] = num::hull(hit.box[i], piece[i]);
      hit.tau = num::hull(hit.tau, tau_piece);
    }
    if (done) return hit;
  }
}

}  // namespace softcert::integrate
