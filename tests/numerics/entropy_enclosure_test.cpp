// numerics/entropy_enclosure.hpp: every enclosure contains the value computed with MPFR at
// 256 bits from points of the input boxes; the interior minimum of x log x (at 1/e) is not
// missed; signs that make the entropy undefined or uncertain are reported, never enclosed; the
// entropy of softmax over a box plus a Euclidean ball contains its value at points of the ball,
// including the ball's edge along the gradient, where a missing radius term or a gradient bound
// taken at the centre only is caught.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "numerics/entropy_enclosure.hpp"

namespace softcert {
namespace {

// −Σ (w_k/Σw) log(w_k/Σw) at 256 bits, as a double pair bracketing it (lower ≤ H ≤ upper).
void reference_entropy(const std::vector<double>& w, double& lo, double& hi) {
  mpfr_t s, p, l, h;
  mpfr_inits2(256, s, p, l, h, (mpfr_ptr)nullptr);
  mpfr_set_zero(s, 1);
  for (double x : w) mpfr_add_d(s, s, x, MPFR_RNDN);  // exact: 256 bits hold a sum of a few doubles
  mpfr_set_zero(h, 1);
  for (double x : w) {
    if (x == 0) continue;
    mpfr_set_d(p, x, MPFR_RNDN);
    mpfr_div(p, p, s, MPFR_RNDN);
    mpfr_log(l, p, MPFR_RNDN);
    mpfr_mul(l, l, p, MPFR_RNDN);
    mpfr_sub(h, h, l, MPFR_RNDN);
  }
  lo = mpfr_get_d(h, MPFR_RNDD);
  hi = mpfr_get_d(h, MPFR_RNDU);
  mpfr_clears(s, p, l, h, (mpfr_ptr)nullptr);
}

TEST(EntropyEnclosure, ContainsTheReferenceAtPointsOfRandomBoxes) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 2 + trial % 9;
    std::vector<IntervalD> box(n);
    std::vector<double> lo(n), hi(n);
    const double width = trial % 3 == 0 ? 0.0 : (trial % 3 == 1 ? 1e-12 : 1e-3);
    for (std::size_t k = 0; k < n; ++k) {
      lo[k] = u(rng) * (trial % 5 == 0 ? 1e-6 : 1.0);  // some tiny weights: x log x near 0
      hi[k] = lo[k] + width * u(rng);
      box[k] = num::hull_of_bounds<IntervalD>(lo[k], hi[k]);
    }
    bool undefined = true;
    const auto h = num::entropy_enclosure(box, undefined);
    ASSERT_TRUE(h.has_value()) << trial;
    EXPECT_FALSE(undefined);
    for (int s = 0; s < 3; ++s) {
      std::vector<double> w(n);
      for (std::size_t k = 0; k < n; ++k) w[k] = s == 0 ? lo[k] : (s == 1 ? hi[k] : lo[k] + (hi[k] - lo[k]) * u(rng));
      double r_lo = 0, r_hi = 0;
      reference_entropy(w, r_lo, r_hi);
      EXPECT_LE(num::lower(*h), r_lo) << trial << " sample " << s;
      EXPECT_GE(num::upper(*h), r_hi) << trial << " sample " << s;
    }
    const auto m = num::max_weight_enclosure(box);
    ASSERT_TRUE(m.has_value());
    double top = 0, sum = 0;
    for (std::size_t k = 0; k < n; ++k) {
      top = std::max(top, lo[k]);
      sum += lo[k];
    }
    // At the lower corner the exact max_k lo_k/Σ lo lies within 1e-12 (relative) of its double
    // evaluation; the enclosure must reach it.
    const double ratio = top / sum;
    EXPECT_LE(num::lower(*m), ratio * (1 + 1e-12)) << trial;
    EXPECT_GE(num::upper(*m), ratio * (1 - 1e-12)) << trial;
  }
}

// A thin 1/2: −(1/2) log(1/2) · 2 = log 2, which no double equals; a rounding to nearest of
// either end would leave it out half the time. The enclosure must contain log 2 strictly.
TEST(EntropyEnclosure, ThinHalfEnclosesLogTwoStrictly) {
  bool undefined = false;
  const auto h = num::entropy_enclosure(std::vector<IntervalD>{IntervalD(0.5), IntervalD(0.5)}, undefined);
  ASSERT_TRUE(h.has_value());
  mpfr_t l2;
  mpfr_init2(l2, 256);
  mpfr_const_log2(l2, MPFR_RNDN);
  EXPECT_LT(mpfr_cmp_d(l2, num::upper(*h)), 0);
  EXPECT_GT(mpfr_cmp_d(l2, num::lower(*h)), 0);
  mpfr_clear(l2);
}

// x log x over [0.3, 0.4] reaches its minimum −1/e inside, below both ends' values.
TEST(EntropyEnclosure, XLogXKeepsTheInteriorMinimum) {
  const IntervalD r = num::xlogx_enclosure(num::hull_of_bounds<IntervalD>(0.3, 0.4));
  EXPECT_LE(num::lower(r), -0.36787944117144233);  // −1/e rounded up: the true −1/e is below it
  EXPECT_GE(num::upper(r), 0.4 * std::log(0.4));
  const IntervalD z = num::xlogx_enclosure(num::hull_of_bounds<IntervalD>(0.0, 0.0));
  EXPECT_EQ(num::lower(z), 0.0);
  EXPECT_EQ(num::upper(z), 0.0);
}

TEST(EntropyEnclosure, EnclosuresAreClippedToTheirNaturalRanges) {
  // a near one-hot box: the naive enclosures reach below 0 (entropy) and above 1 (largest
  // weight), which the reports printed as [-3.3e-7, ...] and 1.00000034
  const std::vector<IntervalD> alpha = {num::hull_of_bounds<IntervalD>(0.9999997, 1.0000003),
                                        num::hull_of_bounds<IntervalD>(0.0, 3e-7)};
  bool undefined = false;
  const auto h = num::entropy_enclosure(alpha, undefined);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(num::lower(*h), 0.0);
  EXPECT_GT(num::upper(*h), 0.0);
  EXPECT_LE(num::upper(*h), std::log(2.0) + 1e-15);
  const auto m = num::max_weight_enclosure(alpha);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(num::upper(*m), 1.0);
  EXPECT_LT(num::lower(*m), 1.0);
  // the true values stay inside: the exact one-hot (1, 0) has entropy 0 and largest weight 1
  EXPECT_TRUE(num::possibly_le(*h, IntervalD(0.0)) && num::possibly_ge(*m, IntervalD(1.0)));
  // a uniform box is clipped at log 2 from above and 1/2 from below
  const std::vector<IntervalD> even = {num::hull_of_bounds<IntervalD>(0.49, 0.51), num::hull_of_bounds<IntervalD>(0.49, 0.51)};
  const auto he = num::entropy_enclosure(even, undefined);
  ASSERT_TRUE(he.has_value());
  EXPECT_LE(num::upper(*he), std::nextafter(std::log(2.0), 1.0));
  EXPECT_GE(num::upper(*he), std::log(2.0));  // log 2 itself is possible (the uniform point)
  EXPECT_GE(num::lower(*num::max_weight_enclosure(even)), 0.5 - 1e-16);
  // signed weights (the sum normalization): the largest can exceed 1 and is not clipped there
  const std::vector<IntervalD> signed_w = {IntervalD(6.62), IntervalD(0.79), IntervalD(-6.41)};
  EXPECT_GT(num::lower(*num::max_weight_enclosure(signed_w)), 6.0);
}

TEST(EntropyEnclosure, SignsTheEntropyCannotTakeAreReportedNotEnclosed) {
  bool undefined = false;
  EXPECT_FALSE(num::entropy_enclosure(std::vector<IntervalD>{IntervalD(1.5), IntervalD(-0.5)}, undefined).has_value());
  EXPECT_TRUE(undefined);  // −0.5/1: certainly negative
  EXPECT_FALSE(num::entropy_enclosure(std::vector<IntervalD>{IntervalD(1.0), num::hull_of_bounds<IntervalD>(-1e-9, 1e-9)},
                                      undefined)
                   .has_value());
  EXPECT_FALSE(undefined);  // the sign is merely uncertain
  EXPECT_FALSE(num::max_weight_enclosure(std::vector<IntervalD>{num::hull_of_bounds<IntervalD>(-1.0, 1.0)}).has_value());
}

// H(softmax(a)) = log Σ e^{a_j} − Σ σ_j a_j at 256 bits for a vector of doubles, as a bracket.
void reference_softmax_entropy(const std::vector<double>& a, double& lo, double& hi) {
  mpfr_t m, e, z, s, h, t;
  mpfr_inits2(256, m, e, z, s, h, t, (mpfr_ptr)nullptr);
  double top = a[0];
  for (double x : a) top = std::max(top, x);
  mpfr_set_zero(z, 1);
  mpfr_set_zero(s, 1);
  for (double x : a) {
    mpfr_set_d(t, x, MPFR_RNDN);
    mpfr_sub_d(t, t, top, MPFR_RNDN);  // exact at 256 bits
    mpfr_exp(e, t, MPFR_RNDN);
    mpfr_add(z, z, e, MPFR_RNDN);      // Σ e^{a_j − top}
    mpfr_mul_d(e, e, x, MPFR_RNDN);
    mpfr_add(s, s, e, MPFR_RNDN);      // Σ e^{a_j − top} a_j
  }
  mpfr_div(s, s, z, MPFR_RNDN);        // Σ σ_j a_j
  mpfr_log(h, z, MPFR_RNDN);
  mpfr_add_d(h, h, top, MPFR_RNDN);    // logsumexp
  mpfr_sub(h, h, s, MPFR_RNDN);
  lo = mpfr_get_d(h, MPFR_RNDD);
  hi = mpfr_get_d(h, MPFR_RNDU);
  mpfr_clears(m, e, z, s, h, t, (mpfr_ptr)nullptr);
}

// ∇H at a point (doubles; only a direction to walk along, no guarantee needed).
std::vector<double> entropy_gradient(const std::vector<double>& a) {
  double top = a[0], z = 0;
  for (double x : a) top = std::max(top, x);
  std::vector<double> s(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) z += s[i] = std::exp(a[i] - top);
  double mean = 0;
  for (std::size_t i = 0; i < a.size(); ++i) mean += (s[i] /= z) * a[i];
  std::vector<double> g(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) g[i] = -s[i] * (a[i] - mean);
  return g;
}

// Points a0 + Δ with a0 in the centre box and ‖Δ‖₂ ≤ R — random ones, and ones on the edge along
// ±∇H(a0) (where H moves fastest) — have their 256-bit entropy inside the enclosure. Centres:
// uniform scores (∇H = 0 there, so the ball's whole effect is the radius term over K), near
// one-hot scores, and two scores far apart (T = 2, where ‖∇H‖₂ ≈ √2·H: a bound of H instead of
// 2H would be too small). Radii from 0 to 2.
TEST(SoftmaxEntropyOverBall, ContainsTheEntropyAtPointsOfTheBallAndOnItsEdge) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const double radii[] = {0.0, 1e-9, 1e-3, 0.05, 0.5, 2.0};
  for (int trial = 0; trial < 600; ++trial) {
    const int kind = trial % 3;
    const std::size_t T = kind == 2 ? 2 : 2 + static_cast<std::size_t>(trial % 19);
    std::vector<double> c(T);
    for (std::size_t i = 0; i < T; ++i) {
      if (kind == 0) c[i] = 1.0;                                     // uniform
      else if (kind == 1) c[i] = (i == 0 ? 6.0 : 0.0) + 0.3 * gauss(rng);  // near one-hot
      else c[i] = i == 0 ? 5.0 + u(rng) : 0.0;                       // two scores far apart
    }
    const double width = trial % 4 == 0 ? 0.0 : 1e-6 * u(rng);
    num::BoxBall<IntervalD> ball;
    for (double x : c) ball.centre.push_back(num::hull_of_bounds<IntervalD>(x, x + width));
    const double R = radii[trial % 6];
    ball.radius = IntervalD(R);
    const IntervalD h = num::softmax_entropy_over_ball(ball);
    for (int sample = 0; sample < 8; ++sample) {
      std::vector<double> a0(T), delta(T);
      for (std::size_t i = 0; i < T; ++i) a0[i] = c[i] + width * u(rng);
      if (sample < 2) {
        delta = entropy_gradient(a0);
        if (sample == 1)
          for (auto& x : delta) x = -x;
      } else {
        for (auto& x : delta) x = gauss(rng);
      }
      double norm = 0;
      for (double x : delta) norm += x * x;
      norm = std::sqrt(norm);
      if (!(norm > 0)) continue;  // ∇H = 0 at a uniform point: the random samples cover it
      // on the edge (shrunk by 1e-9 so rounding keeps it inside) or inside
      const double scale = R * (sample < 4 ? 1 - 1e-9 : u(rng)) / norm;
      std::vector<double> a(T);
      for (std::size_t i = 0; i < T; ++i) a[i] = a0[i] + delta[i] * scale;
      double r_lo = 0, r_hi = 0;
      reference_softmax_entropy(a, r_lo, r_hi);
      EXPECT_LE(num::lower(h), r_lo) << "trial " << trial << " sample " << sample << " R " << R;
      EXPECT_GE(num::upper(h), r_hi) << "trial " << trial << " sample " << sample << " R " << R;
    }
  }
}

// The reason for the ball form: near uniform scores its width is second order in R while the
// box's interval evaluation is first order, so at T = 20 and R = 0.01 it is far narrower.
TEST(SoftmaxEntropyOverBall, IsNarrowerThanTheBoxEvaluationNearUniformScores) {
  num::BoxBall<IntervalD> ball;
  for (int i = 0; i < 20; ++i) ball.centre.push_back(IntervalD(1.0 + 1e-4 * i));
  ball.radius = IntervalD(0.01);
  const IntervalD over_ball = num::softmax_entropy_over_ball(ball);
  const IntervalD over_box = num::softmax_entropy(ball.box());
  EXPECT_LT(num::width(over_ball) * 10, num::width(over_box));
  EXPECT_LE(num::lower(over_box), num::lower(over_ball));
  EXPECT_GE(num::upper(over_box), num::upper(over_ball));
}

// 0 ≤ H ≤ log T: a wide ball around uniform scores (whose centre has H = log T exactly) is
// clipped to log T rounded upward — no higher (before, the box's enclosure reached 3.016 > ln 20
// on the regression check's κ = 1 member) and not below the 256-bit log T (a clip rounded down
// would exclude the centre's own entropy).
TEST(SoftmaxEntropyOverBall, StaysWithinLogTAndKeepsTheUniformPoint) {
  for (std::size_t T = 2; T <= 20; ++T) {
    num::BoxBall<IntervalD> ball;
    for (std::size_t i = 0; i < T; ++i) ball.centre.push_back(IntervalD(0.25));
    ball.radius = IntervalD(2.0);
    const IntervalD h = num::softmax_entropy_over_ball(ball);
    double r_lo = 0, r_hi = 0;
    reference_softmax_entropy(std::vector<double>(T, 0.25), r_lo, r_hi);  // = log T
    EXPECT_GE(num::upper(h), r_hi) << "T " << T;
    EXPECT_LE(num::upper(h), std::nextafter(r_hi, 10.0)) << "T " << T;
    EXPECT_LE(num::lower(h), r_lo) << "T " << T;
    EXPECT_GE(num::lower(h), 0.0) << "T " << T;
  }
}

}  // namespace
}  // namespace softcert
