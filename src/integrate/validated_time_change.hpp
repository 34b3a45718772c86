#pragma once
// Rigorous integration in a new time variable τ with the old time t carried as a state
// component (dt/dτ > 0 everywhere), and the enclosure of the state at given old times t*.
//
// Guarantee of integrate_to_component_value: if the exact solution's component `index`
// (the old time t) is strictly increasing along every solution from the initial set and
// reaches `target` at some τ*, the returned box contains x(τ*) for every such solution and
// tau contains τ*. Argument: the τ-steps are validated steps (validated_taylor.hpp); within a
// step, s ∉ [0, s_lo] when the component's enclosure over [0, s_lo] lies below target and
// s ∉ [s_hi, h̄] when its enclosure over [s_hi, h̄] lies above; x(τ_k + s) is then enclosed by
// the step's expansion over [s_lo, s_hi]. Where the step certifies that the component increases
// — its rate, the field evaluated over the segment box (which contains x(s) for every s of the
// step), is certainly positive — the enclosure at the single time s_lo (s_hi) decides the whole
// of [0, s_lo] ([s_hi, h̄]); otherwise the enclosures over those intervals are used. Steps are
// taken until the enclosure at the end of a step lies above target, so every crossing is
// covered. (Point enclosures where they are justified: the polynomial over a wide interval
// overestimates by its higher terms; at order 30 that made the state at t = 1 of the
// logistic/sum instance of tests/integrate/rigorous_model_test.cpp 2.6e-7 wide, against 6.0e-15
// with point enclosures.)
//
// Both take an optional visitor `on_segment(const TubeSegment<S>&)`, called with every step's
// tube segment in order (τ-time segments: the box contains x(τ), t included, for every τ in
// [t0, t1] of the segment); the last one visited is the step that completed the last target,
// so the segments cover every τ up to and beyond the last crossing.
//
// integrate_to_component_values does the same for an increasing list of targets in ONE pass
// (each target's hit is exactly what a separate call would return: the same steps from the
// same start, the same crossing analysis), so a grid of m times costs one integration to the
// last time plus m crossing analyses instead of m integrations from the start.
#include <cstddef>
#include <exception>
#include <utility>
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

namespace detail {

// The part of one validated step (record `rec`, segment box `seg_box`) where component `index`
// may equal `target`, hulled into `hit`. Returns true when the step certainly ends above target
// (no later step can cross it). Precondition: seg_box[index] is not certainly below target.
// `increasing`: certified that x_index increases on the whole step, for every solution.
template <class S, class Field>
bool add_crossing_piece(const StepRecord<S>& rec, const std::vector<S>& seg_box, std::size_t index, const S& target,
                        bool increasing, ComponentHit<S>& hit, bool& have) {
  using B = num::BoundOf<S>;
  const int iters = static_cast<int>(working_bits<S>()) + 8;
  const B hbar = num::upper(rec.h);
  // Increasing: a bound at the time s holds on a whole side of it.
  auto below = [&](const B& s) {  // x_index < target on all of [0, s]
    return num::certainly_lt(rec.component(index, num::hull_of_bounds<S>(increasing ? s : B(0), s)), target);
  };
  auto above = [&](const B& s) {  // x_index > target on all of [s, h̄]
    return num::certainly_gt(rec.component(index, num::hull_of_bounds<S>(s, increasing ? s : hbar)), target);
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
  for (std::size_t i = 0; i < piece.size(); ++i) piece[i] = ValidatedTaylor<S, Field>::intersect(piece[i], seg_box[i]);
  const S tau_piece = rec.t0 + range;
  if (!have) {
    hit.box = piece;
    hit.tau = tau_piece;
    have = true;
  } else {
    for (std::size_t i = 0; i < piece.size(); ++i) hit.box[i] = num::hull(hit.box[i], piece[i]);
    hit.tau = num::hull(hit.tau, tau_piece);
  }
  return done;
}

// The default visitor: ignores the segments.
struct IgnoreSegments {
  template <class Segment>
  void operator()(const Segment&) const {}
};

}  // namespace detail

// Guarantee: as integrate_to_component_value, for every target; hits[k] belongs to targets[k]
// and hits[k].steps counts the steps taken until its crossing was complete. `targets` must be
// certainly increasing and certainly after x0[index] (else ValidationFailure).
template <class S, class Field, class OnSegment = detail::IgnoreSegments>
std::vector<ComponentHit<S>> integrate_to_component_values(ValidatedTaylor<S, Field>& vt, const std::vector<S>& x0,
                                                           std::size_t index, const std::vector<S>& targets,
                                                           const S& tau_cap, std::size_t max_steps,
                                                           OnSegment&& on_segment = {}) {
  std::vector<ComponentHit<S>> hits(targets.size());
  if (targets.empty()) return hits;
  // The crossing is bracketed with each step's record (vt.last_step()), which the ball step
  // does not keep.
  if (vt.options().log_norm_ball) throw std::invalid_argument("time change: needs the Lohner step (not log_norm_ball)");
  if (!num::certainly_lt(x0[index], targets.front())) throw ValidationFailure("time change: the target is not after the start");
  for (std::size_t k = 1; k < targets.size(); ++k)
    if (!num::certainly_lt(targets[k - 1], targets[k])) throw ValidationFailure("time change: the targets are not increasing");
  std::vector<char> have(targets.size(), 0);
  const BoxField<S> rate = vt.box_field();  // empty when the field only records on Taylor variables
  std::vector<S> dx(x0.size());
  LohnerSet<S> set = LohnerSet<S>::from_box(x0);
  S tau(0);
  bool reached = false;
  std::size_t steps = 0, next = 0;  // targets before `next` are complete
  while (next < targets.size()) {
    if (++steps > max_steps) throw ValidationFailure("time change: step budget exhausted before reaching the target");
    if (reached) throw ValidationFailure("time change: τ cap reached before the target");
    const TubeSegment<S> seg = vt.step(set, tau, tau_cap, reached);
    on_segment(seg);
    const StepRecord<S>& rec = vt.last_step();
    // x_index increases on this step if its rate is certainly positive over the segment box (the
    // box holds x(s) for every s of the step); evaluated only on steps that may hold a crossing.
    bool increasing = false, rate_known = false;
    // Targets are increasing: once one is certainly beyond this step, so are all later ones.
    for (std::size_t k = next; k < targets.size(); ++k) {
      if (num::certainly_lt(seg.box[index], targets[k])) break;
      if (!rate_known && rate) {
        try {
          rate(seg.box, dx);
          increasing = num::certainly_positive(dx[index]);
        } catch (const std::exception&) {
          increasing = false;  // the field refused the box (e.g. a kink's sign undecided): interval tests
        }
      }
      rate_known = true;
      bool have_k = have[k] != 0;
      const bool done =
          detail::add_crossing_piece<S, Field>(rec, seg.box, index, targets[k], increasing, hits[k], have_k);
      have[k] = have_k ? 1 : 0;
      // done for targets[k] implies done for every earlier target (they are smaller), all of
      // which this loop has just completed: so done targets stay a prefix.
      if (done) {
        hits[k].steps = steps;
        next = k + 1;
      }
    }
  }
  return hits;
}

template <class S, class Field, class OnSegment = detail::IgnoreSegments>
ComponentHit<S> integrate_to_component_value(ValidatedTaylor<S, Field>& vt, const std::vector<S>& x0, std::size_t index,
                                             const S& target, const S& tau_cap, std::size_t max_steps,
                                             OnSegment&& on_segment = {}) {
  return integrate_to_component_values(vt, x0, index, std::vector<S>{target}, tau_cap, max_steps,
                                       std::forward<OnSegment>(on_segment)).front();
}

}  // namespace softcert::integrate
