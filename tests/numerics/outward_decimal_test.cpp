// Printed enclosures round outward: every decimal writer used for a margin or a bracket end
// gives lower ≤ x ≤ upper exactly (checked in rationals), for any double and any digit count.
// Boost's MPFR → rational conversion goes through mpfr_float::str(), where GCC 12 reports a
// false -Wrestrict inside std::string.
#pragma GCC diagnostic ignored "-Wrestrict"
#include <gtest/gtest.h>

#include <cmath>

#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "numerics/decimal.hpp"
#include "support/random_inputs.hpp"

namespace softcert {
namespace {

Rational exact(const std::string& decimal) { return num::parse_decimal<Rational>(decimal); }

TEST(OutwardDecimal, DoubleBoundsEncloseTheDoubleExactly) {
  testing::InputGenerator g(20260516);
  for (int i = 0; i < 20000; ++i) {
    const double x = g.value(-1e3, 1e3);
    if (!std::isfinite(x)) continue;
    const Rational q(x);
    for (int digits : {0, 1, 3, 9, 16, 17}) {
      const std::string lo = num::lower_decimal(IntervalD(x), digits), hi = num::upper_decimal(IntervalD(x), digits);
      ASSERT_TRUE(exact(lo) <= q) << lo << " > " << x << " (" << digits << " digits)";
      ASSERT_TRUE(exact(hi) >= q) << hi << " < " << x << " (" << digits << " digits)";
    }
    for (int digits : {3, 9, 17}) {
      const std::string lo = num::decimal_down(x, digits), hi = num::decimal_up(x, digits);
      ASSERT_TRUE(exact(lo) <= q) << lo << " > " << x;
      ASSERT_TRUE(exact(hi) >= q) << hi << " < " << x;
    }
  }
}

TEST(OutwardDecimal, IntervalBoundsEncloseTheInterval) {
  testing::InputGenerator g(7);
  for (int i = 0; i < 5000; ++i) {
    double a = g.value(-10, 10), b = g.value(-10, 10);
    if (a > b) std::swap(a, b);
    const IntervalD x = num::hull_of_bounds<IntervalD>(a, b);
    ASSERT_TRUE(exact(num::lower_decimal(x)) <= Rational(a));
    ASSERT_TRUE(exact(num::upper_decimal(x)) >= Rational(b));
  }
  for (unsigned bits : {53u, 113u, 300u}) {
    num::PrecisionGuard guard(bits);
    for (int i = 0; i < 500; ++i) {
      const double a = g.value(-1e6, 1e6);
      if (!std::isfinite(a) || a == 0) continue;
      // a non-double endpoint: a / 3 at `bits` bits
      const IntervalMp m = IntervalMp(MpReal(a)) / IntervalMp(3);
      const Rational lo(num::lower(m)), hi(num::upper(m));
      for (int digits : {0, 5, 17, 40}) {
        ASSERT_TRUE(exact(num::lower_decimal(m, digits)) <= lo) << bits << " bits, " << digits << " digits";
        ASSERT_TRUE(exact(num::upper_decimal(m, digits)) >= hi) << bits << " bits, " << digits << " digits";
      }
    }
  }
}

// The writer the cost-scaling margin used before (17 significant digits, rounded to nearest)
// is not outward: some doubles print above themselves. This is why margins use the above.
TEST(OutwardDecimal, NearestRoundingAtSeventeenDigitsIsNotAnEnclosure) {
  testing::InputGenerator g(3);
  int above = 0;
  for (int i = 0; i < 1000; ++i) {
    const double x = g.uniform(0.1, 1);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    if (exact(buf) > Rational(x)) ++above;
  }
  EXPECT_GT(above, 100);
}

}  // namespace
}  // namespace softcert
