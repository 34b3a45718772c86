#pragma once
// What the full-state rigorous tier can still certify when it stops early on a model with a
// kinked normalization (|x| or relu, models::ValueSoftmax::kinked()): the kink is never
// integrated through, but the run up to its last validated step says when the kink is not yet
// possible.
//
// Guarantee of KinkPossible (thrown by rethrow_stopped below): for every initial state in the
// model's initial box, no attention score a_k with a_k(0) ≠ 0 is 0 at any t ≤
// info.stopped_at.lower — the kink is certainly not touched before that time — and the last
// validated step ended at a time t_N ∈ [stopped_at.lower, stopped_at.upper]. Why: a validated
// step records the vector field over its a priori box E, which contains the solution over the
// whole step (docs/method.md §1), and ValueSoftmax refuses to evaluate |x| or relu on a box where
// a score's sign is not certain (models/value_softmax.hpp); so on every step each score that is
// not identically 0 keeps one strict sign over E, and by induction from t = 0 keeps the sign of
// a_k(0). In τ-time the segments cover τ ∈ [0, τ_N] and t(τ) is increasing, so they cover
// t ∈ [0, t(τ_N)] with t(τ_N) ∈ stopped_at. Scores exactly 0 at t = 0 (zero_from_start) sit on
// the kink from the start (the first step's a priori box then straddles it, so no step
// validates); the statement is about the others. Nothing is claimed after t_N: "kink possible"
// means the kink can no longer be excluded, not that it is reached (the cause of the stop is kept
// in `cause`).
// nearest_score is the score of the last validated box whose enclosure is closest to 0 — a hint
// of which score is approaching its kink, not a certificate.
// After certified arrivals (integrate/kink_crossing.hpp, info.arrivals non-empty) the statement
// is about the other scores: each listed score reaches a_k = 0 at a time in its enclosure and
// stays there up to the stop (certified by kink_crossing.hpp's argument, docs/method.md §5c);
// every score not listed keeps the sign of a_k(0) for t ≤ info.stopped_at.lower.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/enclosed_value.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "numerics/decimal.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

namespace kink_detail {

// min |x| over the interval x (0 when x contains 0), as a double: only ranks the scores for the
// nearest_score hint.
template <class S>
double mignitude(const S& x) {
  if (!num::certainly_positive(x) && !num::certainly_negative(x)) return 0.0;
  const auto m = num::lower(x) > 0 ? num::lower(x) : -num::upper(x);
  return num::to_double(num::hull_of_bounds<S>(m, m));
}

// Builds and throws the KinkPossible of a kinked model (the guarantee at the top of this file).
template <class S, class Model>
[[noreturn]] void throw_kink_possible(const Model& model, const std::vector<S>& last_box, const S& t_reached,
                                      std::size_t steps, const std::string& cause,
                                      std::vector<KinkArrival> arrivals = {}) {
  const std::vector<S> start = model.initial_state();
  const std::vector<S>& box = last_box.empty() ? start : last_box;
  KinkInfo info;
  info.normalization = instances::to_string(model.normalization());
  info.stopped_at = enclosed_value(t_reached);
  info.steps = steps;
  info.cause = cause;
  info.arrivals = std::move(arrivals);
  const std::size_t a0 = model.a_offset();
  double nearest = -1;
  for (std::size_t k = 0; k < model.tokens(); ++k) {
    const S& s0 = start[a0 + k];
    if (num::certainly_nonnegative(s0) && num::certainly_nonpositive(s0)) {
      info.zero_from_start.push_back(k);
      continue;
    }
    if (std::any_of(info.arrivals.begin(), info.arrivals.end(), [k](const KinkArrival& a) { return a.score == k; })) continue;
    const double m = mignitude(box[a0 + k]);
    if (nearest < 0 || m < nearest) {
      nearest = m;
      info.has_nearest = true;
      info.nearest_score = k;
      info.nearest_score_value = enclosed_value(box[a0 + k]);
    }
  }
  throw KinkPossible(std::move(info));
}

}  // namespace kink_detail

// Rethrows a failure of the full-state rigorous tier: as KinkPossible (guarantee at the top of
// this file) when the model has a kinked normalization, else as RigorousFailure(cause).
// `last_box` is the validated box at the end of the last step (empty: no step validated, the
// initial box is used), `t_reached` an enclosure of the time t at its end (t-time: the exact
// step end; τ-time: the box's t component), `steps` the validated steps before the failure.
template <class S, class Model>
[[noreturn]] void rethrow_stopped(const Model& model, const std::vector<S>& last_box, const S& t_reached,
                                  std::size_t steps, const std::string& cause) {
  if constexpr (!requires { model.kinked(); }) {
    throw support::RigorousFailure(cause);
  } else {
    if (!model.kinked()) throw support::RigorousFailure(cause);
    kink_detail::throw_kink_possible(model, last_box, t_reached, steps, cause);
  }
}

}  // namespace softcert::integrate
