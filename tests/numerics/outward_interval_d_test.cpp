// num::outward_interval_d: an MPFI interval narrower than a double's spacing still becomes a
// double interval that contains it, so a wrong rounding direction on either end is caught.
#include <gtest/gtest.h>

#include "numerics/outward_interval_d.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert::num {
namespace {

TEST(OutwardIntervalD, ContainsAThinMpfiIntervalWhoseEndsAreNotDoubles) {
  PrecisionGuard guard(200);
  for (int k : {3, 7, 10, 12345}) {
    const IntervalMp x = IntervalMp(1) / IntervalMp(k);  // 1/k at 200 bits: ends not doubles
    const IntervalD d = outward_interval_d(x);
    EXPECT_LE(MpReal(d.lower()), MpReal(lower(x))) << k;
    EXPECT_GE(MpReal(d.upper()), MpReal(upper(x))) << k;
    EXPECT_LT(d.lower(), d.upper()) << "rounded to nearest, both ends would be one double: " << k;
    const IntervalMp neg = IntervalMp(0) - x;
    const IntervalD dn = outward_interval_d(neg);
    EXPECT_LE(MpReal(dn.lower()), MpReal(lower(neg))) << k;
    EXPECT_GE(MpReal(dn.upper()), MpReal(upper(neg))) << k;
  }
}

TEST(OutwardIntervalD, IsTheIdentityOnDoubleIntervals) {
  const IntervalD x(0.1, 0.3);
  EXPECT_EQ(outward_interval_d(x).lower(), 0.1);
  EXPECT_EQ(outward_interval_d(x).upper(), 0.3);
}

}  // namespace
}  // namespace softcert::num
