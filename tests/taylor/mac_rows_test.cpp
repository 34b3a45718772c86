// The SSE2 kernel of the derivative pass (taylor/mac.hpp, mac2_rows_sse) must give exactly the
// doubles of the generic loop (mac2_rows over the branch-free FastIntervalD product), for every
// sign pattern of the two scalars and of the row entries, thin and wide, and must report
// non-finite cases so that Tape::eval_d falls back. Both are also checked to enclose the exact
// result (MPFR, 256 bits: exact for these sums of two products of doubles).
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <vector>

#include "instances/generator.hpp"
#include "taylor/fast_arith.hpp"
#include "taylor/mac.hpp"

#if defined(__SSE2__)
namespace {

using softcert::taylor::FastArith;
using softcert::taylor::FastIntervalD;

FastIntervalD random_interval(softcert::instances::NormalSource& g, int pattern) {
  double a = g.normal(), b = g.normal();
  if (a > b) std::swap(a, b);
  switch (pattern % 5) {
    case 0: return FastIntervalD(std::fabs(a), std::fabs(a) + std::fabs(b));   // ≥ 0
    case 1: return FastIntervalD(-std::fabs(a) - std::fabs(b), -std::fabs(a));  // ≤ 0
    case 2: return FastIntervalD(-std::fabs(a), std::fabs(b));                 // contains 0
    case 3: return FastIntervalD(a, a);                                        // thin
    default: return FastIntervalD(pattern % 2 ? 0.0 : -std::fabs(a), pattern % 2 ? std::fabs(b) : 0.0);  // a zero end point
  }
}

TEST(MacRows, SseKernelEqualsTheGenericLoopForEverySignPattern) {
  softcert::instances::NormalSource g(101);
  const std::size_t n = 37;
  int cases = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const FastIntervalD y = random_interval(g, trial), v = random_interval(g, trial / 5);
    std::vector<FastIntervalD> x(n), u(n), d0(n);
    for (std::size_t j = 0; j < n; ++j) {
      x[j] = random_interval(g, static_cast<int>(j + trial));
      u[j] = random_interval(g, static_cast<int>(3 * j + trial));
      d0[j] = random_interval(g, static_cast<int>(j * 7));
    }
    std::vector<FastIntervalD> generic = d0, sse = d0;
    {
      [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
      softcert::taylor::mac2_rows(generic.data(), x.data(), y, u.data(), v, n);
      ASSERT_TRUE(softcert::taylor::mac2_rows_sse(sse.data(), x.data(), y, u.data(), v, n));
      ASSERT_TRUE(softcert::taylor::all_finite(sse.data(), n));
    }
    for (std::size_t j = 0; j < n; ++j) {
      ASSERT_EQ(sse[j].lower(), generic[j].lower()) << trial << " " << j;
      ASSERT_EQ(sse[j].upper(), generic[j].upper()) << trial << " " << j;
      // Enclosure of the exact end-point combinations (vertices suffice: bilinear).
      mpfr_t e, t;
      mpfr_inits2(256, e, t, static_cast<mpfr_ptr>(nullptr));
      for (int vx = 0; vx < 2; ++vx)
        for (int vy = 0; vy < 2; ++vy)
          for (int vu = 0; vu < 2; ++vu)
            for (int vv = 0; vv < 2; ++vv)
              for (int vd = 0; vd < 2; ++vd) {
                mpfr_set_d(e, vd ? d0[j].upper() : d0[j].lower(), MPFR_RNDN);
                mpfr_set_d(t, vx ? x[j].upper() : x[j].lower(), MPFR_RNDN);
                mpfr_mul_d(t, t, vy ? y.upper() : y.lower(), MPFR_RNDN);
                mpfr_add(e, e, t, MPFR_RNDN);
                mpfr_set_d(t, vu ? u[j].upper() : u[j].lower(), MPFR_RNDN);
                mpfr_mul_d(t, t, vv ? v.upper() : v.lower(), MPFR_RNDN);
                mpfr_add(e, e, t, MPFR_RNDN);
                EXPECT_GE(mpfr_cmp_d(e, sse[j].lower()), 0);
                EXPECT_LE(mpfr_cmp_d(e, sse[j].upper()), 0);
              }
      mpfr_clears(e, t, static_cast<mpfr_ptr>(nullptr));
    }
    ++cases;
  }
  EXPECT_EQ(cases, 400);
}

TEST(MacRows, AddSubScaleAndDivideRowsEqualTheOperators) {
  softcert::instances::NormalSource g(7);
  const std::size_t n = 29;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<FastIntervalD> x(n), y(n), add(n), sub(n), scale(n), div(n);
    for (std::size_t j = 0; j < n; ++j) {
      x[j] = random_interval(g, static_cast<int>(j + trial));
      y[j] = random_interval(g, static_cast<int>(2 * j + 3 * trial));
    }
    const FastIntervalD s = random_interval(g, trial);
    const double c = static_cast<double>(trial % 23 + 1);
    [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
    softcert::taylor::add_rows_sse(add.data(), x.data(), y.data(), n);
    softcert::taylor::sub_rows_sse(sub.data(), x.data(), y.data(), n);
    ASSERT_TRUE(softcert::taylor::scale_rows_sse(scale.data(), x.data(), s, n));
    softcert::taylor::div_rows_pos_sse(div.data(), x.data(), c, n);
    for (std::size_t j = 0; j < n; ++j) {
      const FastIntervalD ra = x[j] + y[j], rs = x[j] - y[j], rm = x[j] * s, rd = x[j] / FastIntervalD(c, c);
      ASSERT_EQ(add[j].lower(), ra.lower());
      ASSERT_EQ(add[j].upper(), ra.upper());
      ASSERT_EQ(sub[j].lower(), rs.lower());
      ASSERT_EQ(sub[j].upper(), rs.upper());
      ASSERT_EQ(scale[j].lower(), rm.lower()) << trial;
      ASSERT_EQ(scale[j].upper(), rm.upper()) << trial;
      ASSERT_EQ(div[j].lower(), rd.lower());
      ASSERT_EQ(div[j].upper(), rd.upper());
      // And the operators are outward: the lower bound is below the round-to-nearest sum.
      ASSERT_LE(add[j].lower(), add[j].upper());
    }
  }
  // Rounding is outward: 0.1 + 0.2 and 1/3 are not doubles.
  [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
  FastIntervalD a(0.1, 0.1), b(0.2, 0.2), r;
  softcert::taylor::add_rows_sse(&r, &a, &b, 1);
  EXPECT_LT(r.lower(), r.upper());
  FastIntervalD one(1.0, 1.0), third;
  softcert::taylor::div_rows_pos_sse(&third, &one, 3.0, 1);
  EXPECT_LT(third.lower(), third.upper());
}

TEST(MacRows, NonFiniteOperandsAreReported) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<FastIntervalD> dr(3, FastIntervalD(0.0, 0.0));
  const std::vector<FastIntervalD> x = {FastIntervalD(1.0, 2.0), FastIntervalD(-inf, 1.0), FastIntervalD(0.0, 0.0)};
  const std::vector<FastIntervalD> u = {FastIntervalD(1.0, 1.0), FastIntervalD(2.0, 3.0), FastIntervalD(-1.0, inf)};
  [[maybe_unused]] const FastArith<softcert::IntervalD>::Guard guard;
  // A non-finite scalar: refused, dr untouched.
  EXPECT_FALSE(softcert::taylor::mac2_rows_sse(dr.data(), x.data(), FastIntervalD(0.0, inf), u.data(), FastIntervalD(1.0, 1.0), 3));
  EXPECT_TRUE(softcert::taylor::all_finite(dr.data(), 3));
  // Infinite row entries (times 0 and times a nonzero scalar) never yield a finite, wrong row.
  for (const auto& y : {FastIntervalD(0.0, 0.0), FastIntervalD(0.0, 2.0), FastIntervalD(-1.0, 0.0), FastIntervalD(-1.0, 2.0)}) {
    std::vector<FastIntervalD> d(3, FastIntervalD(0.0, 0.0));
    ASSERT_TRUE(softcert::taylor::mac2_rows_sse(d.data(), x.data(), y, u.data(), y, 3));
    EXPECT_FALSE(softcert::taylor::all_finite(d.data() + 1, 2)) << y.lower() << " " << y.upper();
  }
}

}  // namespace
#endif
