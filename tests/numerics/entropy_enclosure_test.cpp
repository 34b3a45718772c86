// numerics/entropy_enclosure.hpp: every enclosure contains the value computed with MPFR at
// 256 bits from points of the input boxes; the interior minimum of x log x (at 1/e) is not
// missed; signs that make the entropy undefined or uncertain are reported, never enclosed.
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

}  // namespace
}  // namespace softcert
