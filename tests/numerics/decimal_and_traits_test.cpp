// Decimal strings enter every kind with one rounding (or an enclosure), and the traits
// interface answers certainly/possibly questions correctly on overlapping intervals.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "numerics/decimal.hpp"
#include "numerics/elementary.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert {
namespace {

TEST(Decimal, OneTenthIsEnclosedByBothIntervalKinds) {
  const IntervalD d = num::parse_decimal<IntervalD>("0.1");
  EXPECT_LT(d.lower(), d.upper());  // 1/10 is not a double
  // 1/10 lies in [lo, hi] iff 10·lo ≤ 1 ≤ 10·hi, checked exactly in rationals
  EXPECT_LE(Rational(d.lower()) * 10, Rational(1));
  EXPECT_GE(Rational(d.upper()) * 10, Rational(1));
  for (unsigned bits : {53u, 200u, 1000u}) {
    num::PrecisionGuard g(bits);
    const IntervalMp m = num::parse_decimal<IntervalMp>("0.1");
    EXPECT_LE(Rational(num::lower(m)) * 10, Rational(1));
    EXPECT_GE(Rational(num::upper(m)) * 10, Rational(1));
    EXPECT_LT(num::lower(m), num::upper(m));
  }
}

TEST(Decimal, ExactValuesGiveThinIntervalsAndExactRationals) {
  const IntervalD d = num::parse_decimal<IntervalD>("-2.5e3");
  EXPECT_EQ(d.lower(), -2500.0);
  EXPECT_EQ(d.upper(), -2500.0);
  EXPECT_EQ(num::parse_decimal<Rational>("0.1"), Rational(1) / 10);
  EXPECT_EQ(num::parse_decimal<Rational>("-1.25E-2"), Rational(-1) / 80);
  EXPECT_EQ(num::parse_decimal<Rational>("12e2"), Rational(1200));
  EXPECT_EQ(num::parse_decimal<Rational>("0.5"), Rational(1, 2));
  // docs/instances.md's grammar: digits on both sides of a point
  for (const char* outside : {".5", "+.5", "5.", "-5.e3", "."}) {
    EXPECT_FALSE(num::is_decimal_syntax(outside)) << outside;
    EXPECT_THROW(num::parse_decimal<Rational>(outside), std::invalid_argument) << outside;
  }
  // leading zeros are not an octal prefix
  EXPECT_EQ(num::parse_decimal<Rational>("0.3412010552474289"), Rational(3412010552474289) / Rational(10000000000000000));
  EXPECT_EQ(num::parse_decimal<Rational>("0089"), Rational(89));
  EXPECT_EQ(num::parse_decimal<Rational>("-0.0"), Rational(0));
  // the extreme exponents are exact (10^k by binary powering), and beyond 10^±100000 refused
  boost::multiprecision::mpz_int p10 = 1;
  for (int k = 0; k < 4000; ++k) p10 *= 10;
  EXPECT_EQ(num::parse_decimal<Rational>("3e-4000"), Rational(3) / Rational(p10));
  EXPECT_EQ(num::parse_decimal<Rational>("-2.5e4001"), Rational(-25) * Rational(p10));
  const Rational tiny = num::parse_decimal<Rational>("1e-99999");
  EXPECT_GT(tiny, 0);
  EXPECT_EQ(tiny * num::parse_decimal<Rational>("1e99999"), Rational(1));
  EXPECT_THROW(num::parse_decimal<Rational>("1e-100001"), std::invalid_argument);
}

TEST(Decimal, DoubleParseIsCorrectlyRounded) {
  // The classic double-rounding trap: this decimal lies just above the midpoint between two
  // doubles; a correctly rounded parse gives the upper one.
  EXPECT_EQ(num::parse_decimal<Real>("9007199254740993.0000000001"), 9007199254740994.0);
  EXPECT_EQ(num::parse_decimal<Real>("0.1"), 0.1);
}

TEST(Decimal, RejectsWhatIsNotANumber) {
  for (const char* bad : {"", "abc", "1.2.3", "nan", "inf", "1e", "--1", "1e5x", " 1", "0x10", "1e2000000"}) {
    EXPECT_THROW(num::parse_decimal<Real>(bad), std::invalid_argument) << bad;
    EXPECT_THROW(num::parse_decimal<IntervalD>(bad), std::invalid_argument) << bad;
    EXPECT_THROW(num::parse_decimal<Rational>(bad), std::invalid_argument) << bad;
  }
  EXPECT_THROW(num::parse_decimal<Real>("1e400"), std::invalid_argument);  // overflows double
  EXPECT_THROW(num::parse_decimal<IntervalD>("-1e400"), std::invalid_argument);
}

TEST(Decimal, BoundsAreWrittenOutward) {
  const IntervalD third = IntervalD(1.0) / IntervalD(3.0);
  // Parsing the written bounds back must still enclose 1/3.
  const Rational lo = num::parse_decimal<Rational>(num::lower_decimal(third, 5));
  const Rational hi = num::parse_decimal<Rational>(num::upper_decimal(third, 5));
  EXPECT_LT(lo, Rational(1, 3));
  EXPECT_GT(hi, Rational(1, 3));
  num::PrecisionGuard g(256);
  const IntervalMp m = IntervalMp(1) / IntervalMp(3);
  EXPECT_LT(num::parse_decimal<Rational>(num::lower_decimal(m, 10)), Rational(1, 3));
  EXPECT_GT(num::parse_decimal<Rational>(num::upper_decimal(m, 10)), Rational(1, 3));
  EXPECT_LT(num::parse_decimal<Rational>(num::lower_decimal(m)), Rational(1, 3));
  EXPECT_GT(num::parse_decimal<Rational>(num::upper_decimal(m)), Rational(1, 3));
}

TEST(Traits, CertainlyAndPossiblyOnOverlappingIntervals) {
  const IntervalD a(1.0, 2.0), b(1.5, 3.0), c(2.5, 4.0);
  EXPECT_FALSE(num::certainly_lt(a, b));
  EXPECT_TRUE(num::possibly_lt(a, b));
  EXPECT_TRUE(num::possibly_gt(a, b));
  EXPECT_TRUE(num::certainly_lt(a, c));
  EXPECT_FALSE(num::possibly_gt(a, c));
  EXPECT_TRUE(num::possibly_zero(IntervalD(-1.0, 1.0)));
  EXPECT_FALSE(num::certainly_positive(IntervalD(0.0, 1.0)));
  EXPECT_TRUE(num::certainly_nonnegative(IntervalD(0.0, 1.0)));
  EXPECT_TRUE(num::interior_subset(IntervalD(1.1, 1.9), a));
  EXPECT_FALSE(num::interior_subset(IntervalD(1.0, 1.9), a));
  EXPECT_EQ(num::magnitude(IntervalD(-3.0, 2.0)), 3.0);
}

TEST(Traits, IntervalMpBoundsAreExactAtAnyPrecision) {
  num::PrecisionGuard g(300);
  const IntervalMp third = IntervalMp(1) / IntervalMp(3);
  {
    num::PrecisionGuard low(53);  // bounds taken at a lower default precision stay exact
    const MpReal lo = num::lower(third), hi = num::upper(third);
    EXPECT_GE(mpfr_get_prec(lo.backend().data()), 300);
    EXPECT_LT(Rational(lo), Rational(1, 3));
    EXPECT_GT(Rational(hi), Rational(1, 3));
    EXPECT_TRUE(num::contains(third, lo));
  }
  EXPECT_TRUE(num::certainly_lt(third, IntervalMp(1) / IntervalMp(2)));
  EXPECT_FALSE(num::certainly_lt(third, third));
  EXPECT_TRUE(num::possibly_le(third, third));
}

TEST(Traits, UncertainRawComparisonsOfBoostIntervalsThrow) {
  // The reason certainly_/possibly_ exist: Boost.Interval refuses undecided comparisons.
  const IntervalD a(1.0, 2.0), b(1.5, 3.0);
  EXPECT_THROW((void)(a < b), boost::numeric::interval_lib::comparison_error);
}

TEST(Traits, PointKindsAreDegenerateIntervals) {
  EXPECT_TRUE(num::certainly_lt(1.0, 2.0));
  EXPECT_FALSE(num::possibly_lt(2.0, 1.0));
  EXPECT_EQ(num::width(Rational(1, 3)), Rational(0));
  num::PrecisionGuard g(128);
  EXPECT_EQ(num::to_decimal(MpReal(0.5)), "5e-1");
  EXPECT_EQ(num::to_decimal(Rational(1, 3)), "1/3");
}

}  // namespace
}  // namespace softcert

// max_of / min_of / abs_of enclose the pointwise functions for every point pair; checked on
// sampled points of overlapping, disjoint and sign-straddling intervals.
TEST(Traits, MaxMinAbsEncloseEveryPointwiseValue) {
  namespace num = softcert::num;
  using softcert::IntervalD;
  using softcert::IntervalMp;
  const std::vector<std::pair<double, double>> boxes = {{-3, -1}, {-2, 0.5}, {-0.25, 4}, {1, 2}, {0, 0}, {-1e-300, 1e-300}};
  for (const auto& [alo, ahi] : boxes)
    for (const auto& [blo, bhi] : boxes) {
      const IntervalD a(alo, ahi), b(blo, bhi);
      const IntervalD mx = num::max_of(a, b), mn = num::min_of(a, b), ab = num::abs_of(a);
      for (int i = 0; i <= 8; ++i)
        for (int j = 0; j <= 8; ++j) {
          const double x = alo + (ahi - alo) * i / 8.0, y = blo + (bhi - blo) * j / 8.0;
          EXPECT_TRUE(num::contains(mx, std::max(x, y))) << x << " " << y;
          EXPECT_TRUE(num::contains(mn, std::min(x, y))) << x << " " << y;
          EXPECT_TRUE(num::contains(ab, std::abs(x))) << x;
        }
      // tightness: the bounds are attained (so a wrong-direction bound would be caught above or here)
      EXPECT_EQ(num::upper(mx), std::max(ahi, bhi));
      EXPECT_EQ(num::lower(mn), std::min(alo, blo));
      EXPECT_EQ(num::lower(ab), (alo <= 0 && ahi >= 0) ? 0.0 : std::min(std::abs(alo), std::abs(ahi)));
    }
  num::PrecisionGuard g(200);
  const IntervalMp m = num::abs_of(num::hull_of_bounds<IntervalMp>(-2, 1));
  EXPECT_EQ(num::lower(m), 0);
  EXPECT_EQ(num::upper(m), 2);
}

// Boost's default precision is process-wide: guards on two threads at different precisions
// must not leak into each other's new values (a result would depend on the thread count).
TEST(Precision, GuardsOnTwoThreadsKeepTheirOwnPrecision) {
  namespace num = softcert::num;
  auto worker = [](unsigned bits, bool& ok) {
    ok = true;
    for (int i = 0; i < 2000; ++i) {
      num::PrecisionGuard g(bits);
      const softcert::IntervalMp x(1);
      const softcert::MpReal y(1);
      if (mpfi_get_prec(x.backend().data()) < bits || mpfr_get_prec(y.backend().data()) < bits ||
          mpfi_get_prec(x.backend().data()) > bits + 8)
        ok = false;
    }
  };
  bool ok_low = false, ok_high = false;
  std::thread a(worker, 106u, std::ref(ok_low)), b(worker, 256u, std::ref(ok_high));
  a.join();
  b.join();
  EXPECT_TRUE(ok_low);
  EXPECT_TRUE(ok_high);
}
