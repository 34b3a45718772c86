#pragma once
// Shared by the tests of the closed-form Jacobians (tests/models/*_jacobian_test.cpp): the
// tape's first-order derivative pass as the independent reference, sample points of a box, an
// exact containment comparison against a 256-bit reference, bitwise comparisons, and the ball
// step with a closed form on one thread and two.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "integrate/closed_form_jacobian.hpp"
#include "integrate/validated_taylor.hpp"
#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "support/random_inputs.hpp"
#include "taylor/tape.hpp"

namespace softcert::testing {

// The tape's first-order derivative pass over x (a box, or a point) at the model's kind: the
// chain rule through the recorded rhs, independent of any closed form.
template <class Model, class S>
std::vector<S> tape_jacobian(const Model& model, const std::vector<S>& x) {
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  taylor::Tape<S> tape;
  tape.record(field, x, 1);
  tape.solve(true, 1);
  const std::size_t n = x.size();
  std::vector<S> J(n * n);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) J[r * n + c] = tape.derivative(r, 1, c);
  return J;
}

// The number of entries of Df that do not contain the reference entry (both end points,
// compared exactly at 256 bits); the first few misses are reported as failures.
inline std::size_t jacobian_misses(const std::vector<IntervalD>& Df, const std::vector<IntervalMp>& ref, std::size_t n,
                                   const std::string& what) {
  num::PrecisionGuard guard(256);
  std::size_t miss = 0;
  for (std::size_t k = 0; k < n * n; ++k) {
    const bool in = MpReal(Df[k].lower()) <= MpReal(num::lower(ref[k])) && MpReal(num::upper(ref[k])) <= MpReal(Df[k].upper());
    if (!in && ++miss <= 3)
      ADD_FAILURE() << what << ": entry (" << k / n << ", " << k % n << ") [" << Df[k].lower() << ", " << Df[k].upper()
                    << "] misses [" << num::lower(ref[k]) << ", " << num::upper(ref[k]) << "]";
  }
  return miss;
}

// Sample points of the box: the centre, two random corners, three random interior points.
inline std::vector<std::vector<double>> box_sample_points(InputGenerator& gen, const std::vector<IntervalD>& box) {
  std::vector<std::vector<double>> pts;
  std::vector<double> c;
  for (const auto& x : box) c.push_back(x.lower() + (x.upper() - x.lower()) / 2);
  pts.push_back(c);
  for (int k = 0; k < 5; ++k) {
    std::vector<double> p;
    for (const auto& x : box) {
      double v = k < 2 ? (gen.coin() ? x.lower() : x.upper()) : gen.uniform(x.lower(), x.upper());
      v = std::min(std::max(v, x.lower()), x.upper());
      p.push_back(v);
    }
    pts.push_back(p);
  }
  return pts;
}

inline double jacobian_width_sum(const std::vector<IntervalD>& J) {
  double s = 0;
  for (const auto& v : J) s += v.upper() - v.lower();
  return s;
}

// The same double, bit for bit (a result on two threads against one).
inline bool bitwise_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A closed-form Jacobian on one box: every entry contains the reference Jacobian (reference(y),
// 256 bits) at `points` sample points of the box, and it is not much wider than the tape's Df over
// the box (the width sum and the certified μ, printed). closed(box, Df) is the closed form;
// returns (closed-form width sum) / (tape width sum).
template <class Model, class Closed, class Reference>
double check_closed_form_on_box(const Model& model, const Closed& closed, const Reference& reference,
                                const std::vector<IntervalD>& box, InputGenerator& gen, const std::string& what,
                                std::size_t points = 6) {
  const std::size_t n = box.size();
  std::vector<IntervalD> Df;
  EXPECT_TRUE(closed(box, Df)) << what;
  EXPECT_EQ(Df.size(), n * n) << what;
  std::vector<std::vector<double>> pts = box_sample_points(gen, box);
  pts.resize(std::min(points, pts.size()));
  for (std::size_t p = 0; p < pts.size(); ++p)
    EXPECT_EQ(jacobian_misses(Df, reference(pts[p]), n, what + ", point " + std::to_string(p)), 0u);
  const std::vector<IntervalD> tape = tape_jacobian(model, box);
  const double ratio = jacobian_width_sum(Df) / jacobian_width_sum(tape);
  const num::LogNormBound mu_closed = num::log_norm_upper_bound(Df, n), mu_tape = num::log_norm_upper_bound(tape, n);
  std::printf("%s: width sum closed/tape %.3g; mu closed %.6g tape %.6g\n", what.c_str(), ratio, mu_closed.mu, mu_tape.mu);
  // Not much wider than the tape, and μ not much larger.
  EXPECT_LE(ratio, 2.0) << what;
  EXPECT_LE(mu_closed.mu, mu_tape.mu + 0.25 * std::fabs(mu_tape.mu) + 1e-12) << what;
  return ratio;
}

// The ball step (order 16, 4 pieces a step) with the model's closed-form Df from its initial
// state to t_end, on one thread and with the piece helper thread: the same end box, ball and
// last μ bit for bit, and a ball that grew.
template <class Model>
void expect_closed_form_ball_step_same_bits_on_one_and_two_threads(const Model& model, double t_end) {
  auto f = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  std::vector<IntervalD> end[2];
  double ball[2] = {0, 0}, mu[2] = {0, 0};
  for (int threads = 0; threads < 2; ++threads) {
    integrate::BallOptions o;
    o.order = 16;
    o.ball_pieces = 4;
    o.piece_threads = threads == 1;
    integrate::BallStepper<IntervalD, decltype(f)> vt(f, model.dimension(), o);
    integrate::use_closed_form_jacobian(vt, model);
    ASSERT_TRUE(vt.has_box_jacobian());
    integrate::BallSet<IntervalD> set = integrate::BallSet<IntervalD>::from_box(model.initial_state());
    const auto tube = vt.integrate(set, IntervalD(0.0), IntervalD(t_end));
    end[threads] = tube.final_box();
    ball[threads] = set.ball;
    mu[threads] = vt.ball_rule().last_mu;
  }
  ASSERT_EQ(end[0].size(), model.dimension());
  for (std::size_t i = 0; i < end[0].size(); ++i) {
    EXPECT_TRUE(bitwise_equal(end[0][i].lower(), end[1][i].lower())) << i;
    EXPECT_TRUE(bitwise_equal(end[0][i].upper(), end[1][i].upper())) << i;
  }
  EXPECT_TRUE(bitwise_equal(ball[0], ball[1]));
  EXPECT_TRUE(bitwise_equal(mu[0], mu[1]));
  EXPECT_GT(ball[0], 0);
}

}  // namespace softcert::testing
