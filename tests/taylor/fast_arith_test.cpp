// The tape's inner-loop arithmetic (taylor/fast_arith.hpp) must enclose exact results like
// IntervalD does. The branch-free product is checked against exact end-point products
// (MPFR at 256 bits: a product of two doubles is exact in 106 bits) for every sign pattern,
// for containment AND for tightness (each bound within one rounding of the exact one), so a
// wrong or needlessly loose product fails.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <vector>

#include "instances/generator.hpp"
#include "numerics/kinds.hpp"
#include "taylor/fast_arith.hpp"

namespace {

using softcert::taylor::FastArith;
using softcert::taylor::FastIntervalD;

// Exact min and max of the four end-point products, compared with lo and hi.
struct Exact {
  mpfr_t p[4], lo_m, hi_m;
  Exact() {
    for (auto& v : p) mpfr_init2(v, 256);
    mpfr_init2(lo_m, 256);
    mpfr_init2(hi_m, 256);
  }
  ~Exact() {
    for (auto& v : p) mpfr_clear(v);
    mpfr_clear(lo_m);
    mpfr_clear(hi_m);
  }
  // true when [lo, hi] ⊇ exact image and each bound is at most one ulp away from it.
  void check(double a, double b, double c, double d, double lo, double hi) {
    const double xs[2] = {a, b}, ys[2] = {c, d};
    for (int i = 0; i < 4; ++i) {
      mpfr_set_d(p[i], xs[i / 2], MPFR_RNDN);
      mpfr_mul_d(p[i], p[i], ys[i % 2], MPFR_RNDN);  // exact at 256 bits
    }
    mpfr_set(lo_m, p[0], MPFR_RNDN);
    mpfr_set(hi_m, p[0], MPFR_RNDN);
    for (int i = 1; i < 4; ++i) {
      mpfr_min(lo_m, lo_m, p[i], MPFR_RNDN);
      mpfr_max(hi_m, hi_m, p[i], MPFR_RNDN);
    }
    EXPECT_GE(mpfr_cmp_d(lo_m, lo), 0) << a << " " << b << " " << c << " " << d;  // lo ≤ exact min
    EXPECT_LE(mpfr_cmp_d(hi_m, hi), 0) << a << " " << b << " " << c << " " << d;  // hi ≥ exact max
    // Tightness: the next double inward would no longer be a bound.
    EXPECT_LT(mpfr_cmp_d(lo_m, std::nextafter(lo, std::numeric_limits<double>::infinity())), 0);
    EXPECT_GT(mpfr_cmp_d(hi_m, std::nextafter(hi, -std::numeric_limits<double>::infinity())), 0);
  }
};

TEST(FastIntervalProduct, EnclosesAndIsTightForEverySignPattern) {
  softcert::instances::NormalSource g(77);
  Exact exact;
  int patterns[9] = {0};
  for (int trial = 0; trial < 20000; ++trial) {
    double a = g.normal() * 3, b = g.normal() * 3, c = g.normal() * 3, d = g.normal() * 3;
    if (trial % 7 == 0) a = 0;   // zero end points
    if (trial % 11 == 0) d = 0;
    if (trial % 13 == 0) b = a;  // thin operands
    if (a > b) std::swap(a, b);
    if (c > d) std::swap(c, d);
    patterns[(a >= 0 ? 0 : b <= 0 ? 1 : 2) * 3 + (c >= 0 ? 0 : d <= 0 ? 1 : 2)]++;
    FastIntervalD r;
    {
      [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
      r = FastIntervalD(a, b) * FastIntervalD(c, d);
    }
    exact.check(a, b, c, d, r.lower(), r.upper());
    // Same as the reference product of IntervalD (Boost's case analysis, own rounding).
    const softcert::IntervalD ref = softcert::IntervalD(a, b) * softcert::IntervalD(c, d);
    EXPECT_EQ(r.lower(), ref.lower());
    EXPECT_EQ(r.upper(), ref.upper());
    if (HasFailure()) break;
  }
  for (int p : patterns) EXPECT_GT(p, 100);  // every (sign of X, sign of Y) case was exercised
}

TEST(FastIntervalProduct, RoundsOutwardOnInexactProducts) {
  // 0.1 is not a double: [0.1]·[3] must have width > 0 around the exact 0.3000000000000000166…
  [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
  const FastIntervalD r = FastIntervalD(0.1, 0.1) * FastIntervalD(3.0, 3.0);
  EXPECT_LT(r.lower(), r.upper());
  const FastIntervalD s = FastIntervalD(-0.1, -0.1) * FastIntervalD(3.0, 3.0);
  EXPECT_EQ(s.lower(), -r.upper());
  EXPECT_EQ(s.upper(), -r.lower());
}

TEST(FastIntervalProduct, InfiniteEndPointsFallBackToBoost) {
  const double inf = std::numeric_limits<double>::infinity();
  [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
  const FastIntervalD r = FastIntervalD(0.0, inf) * FastIntervalD(1.0, 2.0);
  EXPECT_EQ(r.lower(), 0.0);
  EXPECT_EQ(r.upper(), inf);
  const FastIntervalD s = FastIntervalD(-1.0, 2.0) * FastIntervalD(-inf, 1.0);
  EXPECT_EQ(s.lower(), -inf);
  EXPECT_EQ(s.upper(), inf);
  const FastIntervalD z = FastIntervalD(0.0, 0.0) * FastIntervalD(1.0, inf);
  EXPECT_EQ(z.lower(), 0.0);
  EXPECT_EQ(z.upper(), 0.0);
}

}  // namespace

namespace {

// A scope's last operation whose result is used only after the Guard has restored the mode:
// the result must still be the upward-rounded one. 1 + 2⁻⁶⁰ rounds to 1 to nearest and to
// 1 + 2⁻⁵² upward. The operands come from volatiles so that nothing is known at compile time.
[[gnu::noinline]] double sum_upper_after_scope(double x, double y) {
  double up;
  {
    FastArith<softcert::IntervalD>::Guard guard;
    const FastIntervalD s = FastIntervalD(x, x) + FastIntervalD(y, y);
    up = s.upper();
  }
  return up;
}

[[gnu::noinline]] double product_upper_after_scope(double x, double y) {
  double up;
  {
    FastArith<softcert::IntervalD>::Guard guard;
    const FastIntervalD p = FastIntervalD(x, x) * FastIntervalD(y, y);
    up = p.upper();
  }
  return up;
}

TEST(FastIntervalScope, TheLastOperationOfAScopeIsRoundedInsideIt) {
  volatile double one = 1.0, tiny = std::ldexp(1.0, -60), next = 1.0 + std::ldexp(1.0, -52);
  EXPECT_GT(sum_upper_after_scope(one, tiny), 1.0);
  // (1 + 2⁻⁵²)² = 1 + 2⁻⁵¹ + 2⁻¹⁰⁴: to nearest 1 + 2⁻⁵¹, upward the next double above it
  EXPECT_GT(product_upper_after_scope(next, next), 1.0 + std::ldexp(1.0, -51));
}

}  // namespace
