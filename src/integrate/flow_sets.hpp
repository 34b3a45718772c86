#pragma once
// The two sets a validated step moves (docs/method.md §2 and §2b), apart from the solver that
// encloses the flow over a step (integrate/validated_taylor.hpp): the doubleton set the Lohner
// step moves (integrate/lohner_step.hpp) and the ball set the ball step moves
// (integrate/ball_step.hpp). A stepper's type fixes which set it moves (TypedStepper::Set), so a
// set of the wrong kind does not compile.
#include <cstddef>
#include <vector>

#include "integrate/lohner_linalg.hpp"
#include "numerics/box_ball.hpp"
#include "numerics/outward_interval_d.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// The doubleton set {c + B r : r ∈ [r]}: c thin, B an n × n point matrix (thin entries,
// row-major), [r] an interval vector.
template <class S>
struct DoubletonSet {
  std::vector<S> c, B, r;

  // Guarantee: the set contains every point of `box` (c its midpoint, B = I, [r] = box − c).
  static DoubletonSet from_box(const std::vector<S>& box) {
    DoubletonSet s;
    const std::size_t n = box.size();
    s.B.assign(n * n, S(0));
    for (std::size_t i = 0; i < n; ++i) {
      s.c.push_back(num::mid_scalar(box[i]));
      s.B[i * n + i] = S(1);
      s.r.push_back(box[i] - s.c[i]);
    }
    return s;
  }
  // Guarantee: a box containing the set.
  // (In the fast arithmetic: the same bounds as IntervalD's operators without a rounding-mode
  // switch per operation, which would be a sizeable part of a step: docs/performance.md, "Scale
  // to the papers' sizes".)
  std::vector<S> box() const {
    std::vector<S> x = lohner::fast_mat_vec(B, r, c.size());
    for (std::size_t i = 0; i < c.size(); ++i) x[i] += c[i];
    return x;
  }
};

// The ball set {c + o + e : o ∈ [o], ‖W e‖₂ ≤ ball}: c thin, ball ≥ 0 a radius in the norm of the
// weights W = diag(weights) (empty: W = I, the Euclidean norm; else positive powers of two,
// BallSettings::ball_weights), and [o] an interval vector the set still carries from the box
// or doubleton it was made from (empty once a ball step has moved it: the step takes [o] into its
// radius).
template <class S>
struct BallSet {
  std::vector<S> c;
  std::vector<S> offset;
  double ball = 0;
  std::vector<double> weights;

  // Guarantee: the set contains every point of `box` (c its midpoint, [o] = box − c).
  static BallSet from_box(const std::vector<S>& box) {
    BallSet s;
    for (std::size_t i = 0; i < box.size(); ++i) {
      s.c.push_back(num::mid_scalar(box[i]));
      s.offset.push_back(box[i] - s.c[i]);
    }
    return s;
  }
  // Guarantee: the set contains every point of `d` ([o] encloses B·[r]).
  static BallSet from(const DoubletonSet<S>& d) {
    BallSet s;
    s.c = d.c;
    s.offset = lohner::fast_mat_vec(d.B, d.r, d.c.size());
    return s;
  }
  // Guarantee: a box containing the set.
  std::vector<S> box() const {
    using Bd = num::BoundOf<S>;
    std::vector<S> x = offset.empty() ? std::vector<S>(c.size(), S(0)) : offset;
    for (std::size_t i = 0; i < c.size(); ++i) x[i] += c[i];
    if (ball > 0)  // each coordinate of e lies in [−ball/w_i, ball/w_i] (|w_i e_i| ≤ ‖W e‖₂)
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double rad = weights.empty() ? ball : (IntervalD(ball) / IntervalD(weights[i])).upper();
        x[i] += num::hull_of_bounds<S>(Bd(-rad), Bd(rad));
      }
    return x;
  }
};

}  // namespace softcert::integrate
