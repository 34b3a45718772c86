// The ball step's pieces (integrate/ball_pieces.hpp) against the exact partition bound: for
// random contracting (μ_i < 0) and mixed cases with 3 and 5 pieces, the growth factor's upper
// end must be ≥ e^{Σ μ_i ℓ_i} for the exact lengths ℓ_i of the real partition of [0, h] the cuts
// make (exact rationals, then MPFR), for every h in an interval step. And the criterion is not
// vacuous: overlapping pieces (a piece starting at lower(h̄·i/m), the previous ending at
// upper(h̄·i/m)) fall below the best partition their boxes allow in some of the same cases.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <random>
#include <vector>

#include "integrate/ball_pieces.hpp"
#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"

namespace softcert {
namespace {

Rational exact_of(double x) { return Rational(x); }  // exact (mpq_set_d)

// e^{q} rounded down to 256 bits ≤ a double? (the factor's upper end must not be below e^{q})
bool factor_covers(const Rational& q, double factor_upper) {
  mpfr_t e;
  mpfr_init2(e, 256);
  mpq_t r;
  mpq_init(r);
  mpq_set(r, q.backend().data());
  mpfr_set_q(e, r, MPFR_RNDD);
  mpfr_exp(e, e, MPFR_RNDD);  // ≤ e^{q}·(1 + 2^−250): far below a double's ulp
  const bool ok = mpfr_cmp_d(e, factor_upper) <= 0;
  mpq_clear(r);
  mpfr_clear(e);
  return ok;
}

struct PieceCase {
  double h_lo, h_hi;
  std::vector<double> mu;
};

PieceCase random_case(std::mt19937_64& gen, unsigned m, bool contracting) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  PieceCase c;
  // steps like the integrator's (dyadic) and arbitrary doubles, over many scales
  const double h = std::ldexp(0.5 + 0.5 * unit(gen), -static_cast<int>(gen() % 12));
  c.h_lo = (gen() % 2) ? std::ldexp(std::floor(std::ldexp(h, 40)), -40) : h;
  c.h_hi = (gen() % 4 == 0) ? std::nextafter(c.h_lo, 1.0) : c.h_lo;  // sometimes an interval step
  for (unsigned i = 0; i < m; ++i) {
    const double scale = std::ldexp(1.0, static_cast<int>(gen() % 40) - 10);
    const double v = scale * (0.5 + unit(gen));
    c.mu.push_back(contracting || gen() % 2 ? -v : v);
  }
  return c;
}

// Σ μ_i (c_i − c_{i−1}), c_0 = 0, c_m = h, exactly.
Rational exact_exponent(const std::vector<double>& mu, const std::vector<double>& cuts, double h) {
  Rational sum = 0, prev = 0;
  for (std::size_t i = 0; i < mu.size(); ++i) {
    const Rational end = i + 1 == mu.size() ? exact_of(h) : exact_of(cuts[i]);
    sum += exact_of(mu[i]) * (end - prev);
    prev = end;
  }
  return sum;
}

TEST(BallPieces, CutsAreOnePartitionOfTheStep) {
  for (unsigned m : {1u, 2u, 3u, 5u, 7u}) {
    const double h = 0.1;
    const auto cuts = integrate::ball_piece_cuts(h, m);
    ASSERT_EQ(cuts.size(), m - 1) << m;
    double prev = 0;
    for (double c : cuts) {
      EXPECT_GT(c, prev);
      EXPECT_LE(c, h);
      prev = c;
    }
  }
  // too short a step to cut into distinct doubles: one piece
  EXPECT_TRUE(integrate::ball_piece_cuts(4.9e-324, 3).empty());
  EXPECT_THROW((void)integrate::ball_growth_exponent({-1.0, -1.0}, {0.2}, IntervalD(0.1)), std::invalid_argument);
}

TEST(BallPieces, GrowthFactorCoversTheExactPartitionBound) {
  std::mt19937_64 gen(28);
  for (unsigned m : {3u, 5u}) {
    for (int k = 0; k < 4000; ++k) {
      const PieceCase c = random_case(gen, m, k % 4 != 3);
      const IntervalD h(c.h_lo, c.h_hi);
      const auto cuts = integrate::ball_piece_cuts(c.h_lo, m);
      ASSERT_EQ(cuts.size(), m - 1);
      const IntervalD exponent = integrate::ball_growth_exponent(c.mu, cuts, h);
      const double factor = num::exp(exponent).upper();
      for (double hx : {c.h_lo, c.h_hi}) {  // every h in the step (the sum is linear in h)
        const Rational q = exact_exponent(c.mu, cuts, hx);
        ASSERT_LE(exact_of(exponent.lower()), q) << m << " pieces, case " << k;
        ASSERT_GE(exact_of(exponent.upper()), q) << m << " pieces, case " << k;
        ASSERT_TRUE(factor_covers(q, factor)) << m << " pieces, case " << k;
      }
    }
  }
}

// The overlapping pieces' exponent: piece i from lower(h̄·i/m) to upper(h̄·(i+1)/m) (the last to h), the
// lengths enclosed as differences of those ends.
IntervalD overlapping_exponent(const std::vector<double>& mu, const IntervalD& h, std::vector<double>& lo,
                               std::vector<double>& hi) {
  const std::size_t m = mu.size();
  const IntervalD hbar(h.upper());
  lo.assign(m, 0.0);
  hi.assign(m, h.upper());
  IntervalD e(0.0);
  for (std::size_t i = 0; i < m; ++i) {
    if (i > 0) lo[i] = (hbar * IntervalD(static_cast<double>(i)) / IntervalD(static_cast<double>(m))).lower();
    if (i + 1 < m) hi[i] = (hbar * IntervalD(static_cast<double>(i + 1)) / IntervalD(static_cast<double>(m))).upper();
    const IntervalD len = i + 1 == m ? h - IntervalD(lo[i]) : IntervalD(hi[i]) - IntervalD(lo[i]);
    e += IntervalD(mu[i]) * IntervalD(std::max(0.0, len.lower()), len.upper());
  }
  return e;
}

TEST(BallPieces, TheCriterionCatchesOverlappingPieces) {
  std::mt19937_64 gen(28);
  int below = 0;
  for (unsigned m : {3u, 5u}) {
    for (int k = 0; k < 4000; ++k) {
      PieceCase c = random_case(gen, m, true);
      c.h_hi = c.h_lo;
      std::vector<double> lo, hi;
      const IntervalD e = overlapping_exponent(c.mu, IntervalD(c.h_lo), lo, hi);
      // the smallest exponent over the partitions these boxes allow: cut i anywhere in
      // [lo[i+1], hi[i]]; Σ μ_i ℓ_i = μ_m h + Σ_{i<m} c_i (μ_i − μ_{i+1}) is linear in each cut
      Rational best = exact_of(c.mu[m - 1]) * exact_of(c.h_lo);
      for (std::size_t i = 0; i + 1 < m; ++i) {
        const Rational slope = exact_of(c.mu[i]) - exact_of(c.mu[i + 1]);
        best += slope * (slope > 0 ? exact_of(lo[i + 1]) : exact_of(hi[i]));
      }
      below += exact_of(e.upper()) < best;
    }
  }
  EXPECT_GT(below, 0) << "the exact partition bound would not have caught the ulp overlap";
}

}  // namespace
}  // namespace softcert

namespace softcert {
namespace {

num::LogNormBound bound_of(double mid, double radius) {
  num::LogNormBound b;
  b.lambda_mid = mid;
  b.rho_radius = radius;
  b.mu = mid + radius;
  b.by_cholesky = true;
  return b;
}

// integrate::BallPieceRule (ValidatedOptions::ball_pieces = 0): more pieces exactly when the
// last step's radius term cost more than `excess` in the exponent AND the ball was wider than
// `floor`; back to one piece when the pieces' radius term is small; a bound without the factor
// certificate counts wholly as radius.
TEST(BallPieceRule, SwitchesOnTheRadiusTermAndTheBallAndBack) {
  integrate::BallPieceRule rule;
  EXPECT_EQ(rule.next, 1u);
  // radius term 0.06 × h 0.1 = 6e-3 > 1e-3, ball 1e-8 > 1e-9: four pieces next
  rule.observe(1, 0.1, 1e-8, {bound_of(0.07, 0.06)});
  EXPECT_EQ(rule.next, rule.many);
  EXPECT_DOUBLE_EQ(rule.last_radius, 0.06);
  EXPECT_DOUBLE_EQ(rule.last_mid, 0.07);
  // the same step from a ball narrower than the floor: one piece (its growth costs nothing yet)
  integrate::BallPieceRule narrow;
  narrow.observe(1, 0.1, 1e-12, {bound_of(0.07, 0.06)});
  EXPECT_EQ(narrow.next, 1u);
  // a cheap radius term (2e-3 × 0.1 = 2e-4 ≤ 1e-3) with a wide ball: one piece
  integrate::BallPieceRule cheap;
  cheap.observe(1, 0.1, 1e-6, {bound_of(0.07, 2e-3)});
  EXPECT_EQ(cheap.next, 1u);
  // at four pieces: the largest piece's radius term decides; stays while 2·4·ρh ≥ excess ...
  rule.observe(4, 0.1, 1e-8, {bound_of(0.07, 1e-3), bound_of(0.07, 0.02), bound_of(0.07, 1e-3), bound_of(0.07, 1e-3)});
  EXPECT_EQ(rule.next, 4u);
  EXPECT_DOUBLE_EQ(rule.last_radius, 0.02);
  // ... and returns to one piece below it (2·4·1e-4·0.1 = 8e-5 < 1e-3)
  rule.observe(4, 0.1, 1e-8, {bound_of(0.07, 1e-4), bound_of(0.07, 1e-4), bound_of(0.07, 1e-4), bound_of(0.07, 1e-4)});
  EXPECT_EQ(rule.next, 1u);
  EXPECT_EQ(rule.steps, 3u);
  EXPECT_EQ(rule.steps_with_many, 2u);
  // Gershgorin's bound (no factor certificate): all of μ = 0.05 is radius, 0.05·0.1 > 1e-3
  integrate::BallPieceRule gersh;
  num::LogNormBound g;
  g.mu = 0.05;
  gersh.observe(1, 0.1, 1e-8, {g});
  EXPECT_EQ(gersh.next, gersh.many);
}

}  // namespace
}  // namespace softcert
