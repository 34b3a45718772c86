// num::Enclosure (numerics/enclosure.hpp): binary ends, written outward only at the edge, read
// back exactly. The values below have decimals that are not exact at the digits written, so a
// writer that rounded to nearest instead of outward would put an end on the wrong side.
#include <gtest/gtest.h>

#include <cmath>

#include "numerics/decimal.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert::num {
namespace {

Rational exact_of(double x) { return Rational(x); }
Rational text_value(const std::string& s) { return parse_decimal<Rational>(s); }

// lower text ≤ lower end and upper end ≤ upper text, exactly in rationals.
void expect_written_outward(const Enclosure& e) {
  EXPECT_LE(text_value(e.lower_text()), e.lower_rational()) << e.lower_text();
  EXPECT_GE(text_value(e.upper_text()), e.upper_rational()) << e.upper_text();
}

TEST(Enclosure, OutwardDoubleIsTheNeighbourOnTheAskedSide) {
  const Rational third = Rational(1) / 3;
  const double lo = num::outward_double(third, false), hi = num::outward_double(third, true);
  EXPECT_LT(Rational(lo), third);
  EXPECT_GT(Rational(hi), third);
  EXPECT_EQ(std::nextafter(lo, 1.0), hi);  // adjacent: no wider than one ulp
  EXPECT_EQ(num::outward_double(Rational(-5, 4), false), -1.25);  // a double is returned as is
  EXPECT_EQ(num::outward_double(Rational(-5, 4), true), -1.25);
  const Rational minus_third = -third;
  EXPECT_EQ(num::outward_double(minus_third, false), -hi);
}

TEST(Enclosure, DoubleEndsAreWrittenOutward) {
  // 2/3 and 0.1 as doubles: 17 digits to nearest rounds 2/3's double up and 0.1's double down
  for (const double x : {2.0 / 3.0, 1.0 / 3.0, 0.1, -2.0 / 3.0, -0.1, 1e-300 / 3.0, 12345.678901234567}) {
    for (const int digits : {17, 5, 1}) {
      const Enclosure e(IntervalD(x, x), digits);
      expect_written_outward(e);
      EXPECT_LE(text_value(e.lower_text()), exact_of(x)) << x << " " << digits;
      EXPECT_GE(text_value(e.upper_text()), exact_of(x)) << x << " " << digits;
      // the text is num::lower_decimal's, character for character (records unchanged)
      EXPECT_EQ(e.lower_text(), lower_decimal(IntervalD(x, x), digits));
      EXPECT_EQ(e.upper_text(), upper_decimal(IntervalD(x, x), digits));
    }
  }
  // the values discriminate: the nearest 17-digit decimal of 2/3's double is above it (a lower
  // end written to nearest fails above), of 1/3's below it (an upper end written so fails)
  EXPECT_GT(text_value(decimal_nearest(2.0 / 3.0, 17)), exact_of(2.0 / 3.0));
  EXPECT_LT(text_value(decimal_nearest(1.0 / 3.0, 17)), exact_of(1.0 / 3.0));
}

TEST(Enclosure, MpfiEndsKeepTheirPrecisionAndAreWrittenOutward) {
  PrecisionGuard guard(200);
  const IntervalMp third = IntervalMp(1) / IntervalMp(3);
  const Enclosure e(third);  // digits 0: enough for 200 bits
  expect_written_outward(e);
  EXPECT_LT(text_value(e.lower_text()), Rational(1, 3));
  EXPECT_GT(text_value(e.upper_text()), Rational(1, 3));
  EXPECT_EQ(e.lower_text(), lower_decimal(third));
  EXPECT_EQ(e.upper_text(), upper_decimal(third));
  EXPECT_GT(e.lower_text().size(), 60u);  // the 200-bit ends, not a double's
  // the ends stay the 200-bit values after the working precision changes
  {
    PrecisionGuard low(64);
    EXPECT_EQ(e.lower_text(), lower_decimal(third));
  }
  const Enclosure ten(third, 10);
  EXPECT_EQ(ten.lower_text(), "3.333333333e-1");
  EXPECT_EQ(ten.upper_text(), "3.333333334e-1");
}

TEST(Enclosure, SignsAreReadOnTheEnds) {
  PrecisionGuard guard(300);
  // a lower end 2^-1000 > 0 whose double would underflow to 0
  const IntervalMp tiny = hull_of_bounds<IntervalMp>(MpReal(boost::multiprecision::ldexp(MpReal(1), -1100)), MpReal(1));
  const Enclosure pos(tiny);
  EXPECT_EQ(pos.certain_sign(), 1);
  EXPECT_EQ(pos.lower_down(), 0.0);  // outward to double: 0, still a lower bound
  const Enclosure neg(IntervalMp(-tiny));
  EXPECT_EQ(neg.certain_sign(), -1);
  const Enclosure straddle(IntervalD(-1, 1));
  EXPECT_EQ(straddle.certain_sign(), 0);
  EXPECT_EQ(*straddle.lower_sign(), -1);
  EXPECT_EQ(*straddle.upper_sign(), 1);
  EXPECT_EQ(Enclosure().certain_sign(), 0);
  EXPECT_FALSE(Enclosure().lower_sign().has_value());
  // a rational bound is enclosed by doubles, and the sign is the printed end's: a positive
  // rational below the least double is not certainly positive (its lower text is "0")
  const Rational below_doubles = Rational(1) / Rational(boost::multiprecision::mpz_int(1) << 1200);
  const Enclosure r = Enclosure::of_rationals(below_doubles, Rational(1));
  EXPECT_EQ(r.lower_text(), "0");
  EXPECT_EQ(r.certain_sign(), 0);
  const Enclosure exact_zero = Enclosure::of_exact(0);
  EXPECT_TRUE(exact_zero.exact());
  EXPECT_EQ(exact_zero.lower_text(), "0");
  EXPECT_EQ(exact_zero.upper_text(), "0");
  EXPECT_EQ(*exact_zero.lower_sign(), 0);
  const Enclosure fifth = Enclosure::of_exact(Rational(1, 5));
  expect_written_outward(fifth);
  EXPECT_LT(fifth.lower_rational(), Rational(1, 5));
  EXPECT_GT(fifth.upper_rational(), Rational(1, 5));
}

TEST(Enclosure, LowerBoundOnlyHasAnInfiniteUpperEnd) {
  const Enclosure e = Enclosure::at_least(IntervalD(0.25, 0.5));
  EXPECT_EQ(e.lower_text(), "2.5e-1");
  EXPECT_EQ(e.upper_text(), "inf");
  EXPECT_EQ(e.certain_sign(), 1);
  EXPECT_TRUE(e.ordered());
  EXPECT_EQ(e.upper_up(), std::numeric_limits<double>::infinity());
}

TEST(Enclosure, TextReadBackIsExactAndWritesIdentically) {
  PrecisionGuard guard(128);
  const IntervalMp x = exp(IntervalMp(-7)) - IntervalMp(1) / IntervalMp(1000);
  for (const Enclosure& written : {Enclosure(IntervalD(2.0 / 3.0, 0.7)), Enclosure(x), Enclosure(x, 17),
                                   Enclosure::at_least(IntervalD(-1e-30, 0)), Enclosure::of_exact(0),
                                   Enclosure::of_doubles(-std::numeric_limits<double>::infinity(), -1.5e-3)}) {
    const Enclosure read = Enclosure::parse(written.lower_text(), written.upper_text());
    EXPECT_EQ(read.lower_text(), written.lower_text());
    EXPECT_EQ(read.upper_text(), written.upper_text());
    EXPECT_EQ(read.lower_sign(), written.lower_sign());
    EXPECT_EQ(read.upper_sign(), written.upper_sign());
    EXPECT_EQ(read.certain_sign(), written.certain_sign());
    EXPECT_TRUE(read.ordered());
    // the text's values enclose the written ends
    if (std::isfinite(written.lower_down())) {
      EXPECT_LE(read.lower_rational(), written.lower_rational());
    }
    if (std::isfinite(written.upper_up())) {
      EXPECT_GE(read.upper_rational(), written.upper_rational());
    }
  }
  // read exactly: "0.1" is one tenth, not a double near it
  const Enclosure tenth = Enclosure::parse("0.1", "0.1");
  EXPECT_TRUE(tenth.exact());
  EXPECT_EQ(tenth.lower_rational(), Rational(1, 10));
  EXPECT_EQ(tenth.lower_text(), "1e-1");
  const IntervalD d = tenth.to_interval_d();
  EXPECT_LT(Rational(d.lower()), Rational(1, 10));
  EXPECT_GT(Rational(d.upper()), Rational(1, 10));
  EXPECT_FALSE(Enclosure::parse("1.5", "1.25").ordered());
  EXPECT_TRUE(Enclosure::parse("-inf", "+inf").ordered());
  EXPECT_THROW(Enclosure::parse("nan", "1"), std::invalid_argument);
  EXPECT_THROW(Enclosure::parse("1", "1..2"), std::invalid_argument);
}

TEST(Enclosure, ConversionsRoundOutward) {
  PrecisionGuard guard(200);
  const IntervalMp third = IntervalMp(1) / IntervalMp(3);
  const Enclosure e(third);
  const IntervalD d = e.to_interval_d();
  EXPECT_LT(Rational(d.lower()), Rational(1, 3));
  EXPECT_GT(Rational(d.upper()), Rational(1, 3));
  EXPECT_LT(d.upper() - d.lower(), 1e-16);
  PrecisionGuard low(64);
  const IntervalMp m = e.to_interval_mp();
  EXPECT_TRUE(certainly_lt(m, IntervalMp(1)));
  EXPECT_LE(lower(m), MpReal(lower(third)));
  EXPECT_GE(upper(m), MpReal(upper(third)));
}

}  // namespace
}  // namespace softcert::num
