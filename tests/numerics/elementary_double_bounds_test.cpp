// The exp and log bounds at a double (numerics/elementary_double_bounds.hpp) against MPFR:
// 10^7 arguments each, random and adversarial (the reduction's edges, exact powers of two, ±0,
// subnormals, overflow and underflow, every finite bit pattern), and the kernels at low degrees,
// where the remainder term is larger than the rounding and a dropped one misses.
//
// The reference is exact, not close: y = f(x) rounded down at 53 bits with MPFR's ternary value.
// A double d satisfies d ≤ f(x) iff d ≤ y (a double above y is at least y's successor at 53 bits,
// which exceeds f(x)); and d ≥ f(x) iff d ≥ y when y is exact, d > y otherwise. The directed
// roundings follow from y the same way (Reference::check).
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/elementary_double_bounds.hpp"
#include "numerics/round_upward.hpp"
#include "support/random_inputs.hpp"

namespace softcert::elementary_double_bounds_test {
namespace {

using num::DoubleBounds;
using testing::InputGenerator;
using MpfrF = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kMin = std::numeric_limits<double>::min();
constexpr double kTiny = std::numeric_limits<double>::denorm_min();

// f(x) rounded down at 53 bits, and whether that was exact.
class Reference {
 public:
  Reference() {
    mpfr_init2(x_, 53);
    mpfr_init2(y_, 53);
  }
  ~Reference() {
    mpfr_clear(x_);
    mpfr_clear(y_);
  }
  // Whether lo ≤ f(x) ≤ hi exactly, or (directed) whether [lo, hi] = [RD f(x), RU f(x)].
  bool check(MpfrF f, double x, DoubleBounds b, bool directed = false) {
    mpfr_set_d(x_, x, MPFR_RNDN);  // exact
    const int t = f(y_, x_, MPFR_RNDD);
    if (mpfr_nan_p(y_) || std::isnan(b.lo) || std::isnan(b.hi)) return false;
    if (!directed) return mpfr_cmp_d(y_, b.lo) >= 0 && (t == 0 ? mpfr_cmp_d(y_, b.hi) <= 0 : mpfr_cmp_d(y_, b.hi) < 0);
    const double down = mpfr_get_d(y_, MPFR_RNDD), up = mpfr_get_d(y_, MPFR_RNDU);
    // f(x) lies strictly between y and its 53-bit successor when t ≠ 0: if y is a double, RU f(x)
    // is the next double; if not (subnormal or beyond DBL_MAX), it is y rounded up.
    const double ru = t == 0 ? up : down == up ? std::nextafter(down, kInf) : up;
    return b.lo == down && b.hi == ru;
  }

 private:
  mpfr_t x_, y_;
};

double from_bits(std::uint64_t w) {
  double d;
  std::memcpy(&d, &w, sizeof d);
  return d;
}

double step_ulps(double x, int ulps) {
  for (int i = 0; i < std::abs(ulps); ++i) x = std::nextafter(x, ulps > 0 ? kInf : -kInf);
  return x;
}

// Doubles apart from lo to hi (both finite, same sign or zero).
double ulps_apart(double lo, double hi) {
  if (lo == hi) return 0;
  std::int64_t a, b;
  std::memcpy(&a, &lo, sizeof a);
  std::memcpy(&b, &hi, sizeof b);
  if (lo < 0 && hi <= 0) return static_cast<double>(a - b);
  if (lo >= 0) return static_cast<double>(b - a);
  return kInf;
}

std::vector<double> special_exp_arguments() {
  std::vector<double> v = {0.0, -0.0, kInf, -kInf, kMax, -kMax, kMin, -kMin, kTiny, -kTiny, 1.0, -1.0};
  for (double edge : {707.0, -707.0, 709.782712893384, -745.1332191019412, -744.44007192138122, 1e-300, 0.5 * M_LN2}) {
    for (int u = -4; u <= 4; ++u) v.push_back(step_ulps(edge, u));
  }
  return v;
}

// An adversarial or random argument of exp; kind cycles with i.
double exp_argument(InputGenerator& g, std::uint64_t i) {
  constexpr double kLn2 = 0.69314718055994530942;
  switch (i % 7) {
    case 0: return g.uniform(-750, 750);
    case 1: {  // ±2^u, u ∈ [−1074, 10]: tiny to moderate, subnormals included
      const double m = 1 + g.unit();
      return (g.coin() ? 1 : -1) * std::ldexp(m, -1074 + static_cast<int>(g.word() % 1085));
    }
    case 2: {  // (j + 1/2) ln 2/32 ± a few ulps: the reduction's |r| at its largest
      const double j = static_cast<double>(static_cast<int>(g.word() % 70001) - 35000);
      return step_ulps((j + 0.5) * kLn2 / 32, static_cast<int>(g.word() % 9) - 4);
    }
    case 3: {  // j ln 2/32 ± a few ulps: r near 0, where j ln 2/32 cancels x
      const double j = static_cast<double>(static_cast<int>(g.word() % 70001) - 35000);
      return step_ulps(j * kLn2 / 32, static_cast<int>(g.word() % 9) - 4);
    }
    case 4: return (g.coin() ? 1 : -1) * std::ldexp(1.0, -1074 + static_cast<int>(g.word() % 1085));
    case 5: {  // any finite bit pattern
      double d;
      do d = from_bits(g.word());
      while (!std::isfinite(d));
      return d;
    }
    default: return g.uniform(-1, 1) * std::ldexp(1.0, -static_cast<int>(g.word() % 60));
  }
}

std::vector<double> special_log_arguments() {
  std::vector<double> v = {kInf, kMax, kMin, kTiny, 1.0, 2.0, 0.5};
  for (double edge : {1.0, kMin, kMax, 0.70710678118654752, 1.4142135623730951, 2.0, 0.5}) {
    for (int u = -4; u <= 4; ++u) {
      const double x = step_ulps(edge, u);
      if (x > 0) v.push_back(x);
    }
  }
  return v;
}

double log_argument(InputGenerator& g, std::uint64_t i) {
  switch (i % 6) {
    case 0: {  // any positive finite bit pattern: every exponent, subnormals included
      double d;
      do d = from_bits(g.word() >> 1);
      while (!(std::isfinite(d) && d > 0));
      return d;
    }
    case 1: return step_ulps(1.0, static_cast<int>(g.word() % 2001) - 1000);  // log near 0
    case 2: return 1.0 + (g.coin() ? 1 : -1) * std::ldexp(g.unit(), -static_cast<int>(g.word() % 53));
    case 3: {  // m at the 1/√2 switch, times 2^e
      const double m = step_ulps(0.70710678118654752, static_cast<int>(g.word() % 17) - 8);
      return std::ldexp(m, static_cast<int>(g.word() % 2044) - 1021);
    }
    case 4: return std::ldexp(1.0, -1074 + static_cast<int>(g.word() % 2098));
    default: return g.uniform(0, 10) + kTiny;
  }
}

struct Sweep {
  std::uint64_t misses = 0;
  double widest_ulps = 0;  // over the kernels' domain
  std::string first_miss;
};

// Each argument's bounds against f(x): contained, or (directed = true) equal to its two directed
// roundings bit for bit.
template <class Arg, class Bounds>
Sweep sweep(MpfrF f, std::uint64_t count, std::uint64_t seed, const std::vector<double>& specials, Arg arg,
            Bounds bounds, bool (*in_kernel)(double), bool directed) {
  Reference ref;
  InputGenerator g(seed);
  Sweep s;
  for (std::uint64_t i = 0; i < count + specials.size(); ++i) {
    const double x = i < specials.size() ? specials[i] : arg(g, i);
    const DoubleBounds b = bounds(x);
    if (!ref.check(f, x, b, directed)) {
      if (s.misses++ == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "x = %a: [%a, %a]", x, b.lo, b.hi);
        s.first_miss = buf;
      }
    } else if (in_kernel(x)) {
      s.widest_ulps = std::max(s.widest_ulps, ulps_apart(b.lo, b.hi));
    }
  }
  return s;
}

bool exp_kernel_domain(double x) { return std::fabs(x) <= 707; }
bool log_kernel_domain(double x) { return x >= kMin && x <= kMax; }

TEST(ElementaryDoubleBounds, ExpIsItsDirectedRoundingsAtTenMillionArguments) {
  const Sweep s = sweep(mpfr_exp, 10'000'000, 20261206, special_exp_arguments(), exp_argument,
                        [](double x) { return num::exp_bounds(x); }, exp_kernel_domain, true);
  EXPECT_EQ(s.misses, 0u) << s.first_miss;
}

TEST(ElementaryDoubleBounds, LogIsItsDirectedRoundingsAtTenMillionArguments) {
  const Sweep s = sweep(mpfr_log, 10'000'000, 6122026, special_log_arguments(), log_argument,
                        [](double x) { return num::log_bounds(x); }, log_kernel_domain, true);
  EXPECT_EQ(s.misses, 0u) << s.first_miss;
}

// The kernels at the default degree, without MPFR behind them: they contain f(x), and they are
// what decides (adjacent bounds) for nearly every argument, so MPFR is the exception. A remainder
// bound far too large would be sound and slow, and shows here.
TEST(ElementaryDoubleBounds, DefaultKernelsContainTheValueAndDecideMostArguments) {
  auto decided = [](auto kernel, auto arg, bool (*domain)(double), MpfrF f, std::uint64_t seed) {
    Reference ref;
    InputGenerator g(seed);
    int in_domain = 0, adjacent = 0, misses = 0;
    for (std::uint64_t i = 0; i < 400'000; ++i) {
      const double x = arg(g, i);
      if (!domain(x)) continue;
      bool ok = false;
      const DoubleBounds b = num::upward([&] { return kernel(x, ok); });
      ++in_domain;
      if (!ok || !ref.check(f, x, b)) ++misses;
      if (b.lo == b.hi || b.hi == std::nextafter(b.lo, kInf)) ++adjacent;
    }
    EXPECT_EQ(misses, 0);
    return static_cast<double>(adjacent) / in_domain;
  };
  const double e = decided([](double x, bool& ok) { return num::detail::exp_kernel<num::detail::kExpDegree>(x, ok); },
                           exp_argument, exp_kernel_domain, mpfr_exp, 11);
  const double l = decided([](double x, bool& ok) { return num::detail::log_kernel<num::detail::kLogTerms>(x, ok); },
                           log_argument, log_kernel_domain, mpfr_log, 12);
  EXPECT_GT(e, 0.75);
  EXPECT_GT(l, 0.75);
}

// At low degrees the truncation error is far above the rounding (degree 3 at |r| = 0.011: 6·10⁻¹⁰),
// so these fail if the remainder term is dropped, too small, or added with the wrong sign.
template <int N>
Sweep low_degree_exp(std::uint64_t seed) {
  auto kernel = [](double x) {
    bool ok = false;
    const DoubleBounds b = num::upward([&] { return num::detail::exp_kernel<N>(x, ok); });
    return ok ? b : DoubleBounds{std::nan(""), std::nan("")};  // a reduction out of range counts as a miss
  };
  return sweep(mpfr_exp, 200'000, seed, {}, [](InputGenerator& g, std::uint64_t i) {
    const double x = exp_argument(g, i);
    return std::fabs(x) <= 707 ? x : std::fmod(x, 707.0);
  }, kernel, exp_kernel_domain, false);
}

template <int N>
Sweep low_degree_log(std::uint64_t seed) {
  auto kernel = [](double x) {
    bool ok = false;
    const DoubleBounds b = num::upward([&] { return num::detail::log_kernel<N>(x, ok); });
    return ok ? b : DoubleBounds{std::nan(""), std::nan("")};
  };
  return sweep(mpfr_log, 200'000, seed, {}, [](InputGenerator& g, std::uint64_t i) {
    const double x = log_argument(g, i);
    return x >= kMin ? x : 1 + x;
  }, kernel, log_kernel_domain, false);
}

TEST(ElementaryDoubleBounds, LowDegreeKernelsContainTheValue) {
  for (const Sweep& s : {low_degree_exp<2>(1), low_degree_exp<3>(2), low_degree_exp<5>(3), low_degree_exp<8>(4)})
    EXPECT_EQ(s.misses, 0u) << s.first_miss;
  for (const Sweep& s : {low_degree_log<2>(5), low_degree_log<3>(6), low_degree_log<5>(7)})
    EXPECT_EQ(s.misses, 0u) << s.first_miss;
  // And the remainder is what keeps them sound: degree 3 is ~10⁻⁹ wide at |r| = 0.011.
  const Sweep wide = low_degree_exp<3>(8);
  EXPECT_GT(wide.widest_ulps, 1e5);
}

// The kernels' interval operations, each end against the exact result: a lower end rounded
// the wrong way is absorbed by the kernels' last rounding most of the time, so the sweeps above
// would not see it; here every operation is checked on its own.
TEST(ElementaryDoubleBounds, UpwardOperationsEncloseTheExactResults) {
  InputGenerator g(4242);
  mpfr_t u, v, w;
  mpfr_inits2(2200, u, v, w, static_cast<mpfr_ptr>(nullptr));  // sums and products of doubles exact
  auto draw = [&](bool positive) {
    double a = g.value(positive ? 1e-300 : -1e300, 1e300), b = a;
    if (g.coin()) b = g.value(positive ? 1e-300 : -1e300, 1e300);
    if (g.coin()) a = std::ldexp(1 + g.unit(), static_cast<int>(g.word() % 40) - 20) * (positive || g.coin() ? 1 : -1);
    if (b < a) std::swap(a, b);
    return DoubleBounds{a, b};
  };
  using Op = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
  int failures = 0;
  auto check = [&](const char* name, DoubleBounds a, DoubleBounds b, DoubleBounds r, Op op) {
    for (double x : {a.lo, a.hi})
      for (double y : {b.lo, b.hi}) {
        mpfr_set_d(u, x, MPFR_RNDN);
        mpfr_set_d(v, y, MPFR_RNDN);
        // Exact for +, −, ×. A quotient of doubles that is not a double is ≥ 2^−107 (relative)
        // from every double, so at 2200 bits its comparisons with doubles are the exact ones.
        op(w, u, v, MPFR_RNDN);
        const bool ok = mpfr_cmp_d(w, r.lo) >= 0 && mpfr_cmp_d(w, r.hi) <= 0;
        if (!ok && failures++ < 5)
          ADD_FAILURE() << name << ": [" << a.lo << ", " << a.hi << "] and [" << b.lo << ", " << b.hi << "] give ["
                        << r.lo << ", " << r.hi << "], missing " << x << ", " << y;
      }
  };
  for (int i = 0; i < 300000; ++i) {
    const DoubleBounds a = draw(false), b = draw(false), p = draw(true);
    const auto [sum, dif, prod, quot] = num::upward([&] {
      struct R { DoubleBounds s, d, p, q; };
      return R{num::detail::up_add(a, b), num::detail::up_sub(a, b), num::detail::up_mul(a, b),
               num::detail::up_div_positive(a, p)};
    });
    check("add", a, b, sum, mpfr_add);
    check("sub", a, b, dif, mpfr_sub);
    check("mul", a, b, prod, mpfr_mul);
    check("div", a, p, quot, mpfr_div);
  }
  mpfr_clears(u, v, w, static_cast<mpfr_ptr>(nullptr));
}

// exp's reduction against x − j ln 2/32 exactly, with ln 2 rounded both ways at 400 bits: where x
// is the double nearest j ln 2/32 the result is ~10⁻¹⁴, and the constants' last part δ (~10⁻²⁸ j)
// is far above its ulp.
TEST(ElementaryDoubleBounds, ExpsReductionEnclosesTheExactValue) {
  InputGenerator g(99);
  mpfr_t ll, lh, t, lo, hi;
  mpfr_inits2(400, ll, lh, static_cast<mpfr_ptr>(nullptr));
  mpfr_inits2(1200, t, lo, hi, static_cast<mpfr_ptr>(nullptr));  // the products and sums below exact
  mpfr_const_log2(ll, MPFR_RNDD);
  mpfr_const_log2(lh, MPFR_RNDU);
  int failures = 0;
  for (int i = 0; i < 200000 && failures < 5; ++i) {
    const double j = static_cast<double>(static_cast<int>(g.word() % 70001) - 35000);
    const double x = i % 2 ? step_ulps(j * 0.69314718055994530942 / 32, static_cast<int>(g.word() % 5) - 2)
                           : j * 0.69314718055994530942 / 32 + g.uniform(-0.011, 0.011);
    const num::detail::Reduced red = num::upward([&] { return num::detail::exp_reduction(x, j); });
    // x − j ln 2/32 lies between its values at ln 2's two roundings, and must lie in head + tail
    // (the ends added exactly).
    mpfr_mul_d(t, ll, -j / 32, MPFR_RNDN);
    mpfr_add_d(lo, t, x, MPFR_RNDN);
    mpfr_mul_d(t, lh, -j / 32, MPFR_RNDN);
    mpfr_add_d(hi, t, x, MPFR_RNDN);
    if (mpfr_cmp(lo, hi) > 0) mpfr_swap(lo, hi);
    mpfr_sub_d(lo, lo, red.tail.lo, MPFR_RNDN);
    mpfr_sub_d(hi, hi, red.tail.hi, MPFR_RNDN);
    if (!(mpfr_cmp_d(lo, red.head.lo) >= 0 && mpfr_cmp_d(hi, red.head.hi) <= 0)) {
      ++failures;
      ADD_FAILURE() << "x = " << x << ", j = " << j << ": [" << red.head.lo << ", " << red.head.hi << "] + ["
                    << red.tail.lo << ", " << red.tail.hi << "]";
    }
  }
  mpfr_clears(ll, lh, t, lo, hi, static_cast<mpfr_ptr>(nullptr));
}

TEST(ElementaryDoubleBounds, TheCallersRoundingModeChangesNoBit) {
  InputGenerator g(77);
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const double x = exp_argument(g, i);
    const double y = std::fabs(log_argument(g, i));
    const DoubleBounds e0 = num::exp_bounds(x), l0 = num::log_bounds(y);
    for (int mode : {FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO}) {
      std::fesetround(mode);
      const DoubleBounds e = num::exp_bounds(x), l = num::log_bounds(y);
      std::fesetround(FE_TONEAREST);
      ASSERT_EQ(std::memcmp(&e, &e0, sizeof e), 0) << "exp(" << x << ") in mode " << mode;
      ASSERT_EQ(std::memcmp(&l, &l0, sizeof l), 0) << "log(" << y << ") in mode " << mode;
    }
  }
}

TEST(ElementaryDoubleBounds, ConstantsEncloseTheirValues) {
  const auto& c = num::detail::elementary_constants();
  mpfr_t l, s, t;
  mpfr_inits2(400, l, s, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_const_log2(l, MPFR_RNDN);
  // C1 has at most 32 significant bits, so k·C1 is exact for |k| < 2^21.
  int e = 0;
  const double m = std::frexp(c.ln2_c1, &e);
  EXPECT_EQ(std::ldexp(m, 32), std::trunc(std::ldexp(m, 32)));
  // C1 + C2 + δ_lo ≤ ln 2 ≤ C1 + C2 + δ_hi, exactly at 400 bits (the sums are exact there).
  mpfr_set_d(s, c.ln2_c1, MPFR_RNDN);
  mpfr_add_d(s, s, c.ln2_c2.lo, MPFR_RNDN);
  EXPECT_EQ(c.ln2_c2.lo, c.ln2_c2.hi);
  mpfr_add_d(t, s, c.ln2_rest.lo, MPFR_RNDN);
  EXPECT_LT(mpfr_cmp(t, l), 0);
  mpfr_add_d(t, s, c.ln2_rest.hi, MPFR_RNDN);
  EXPECT_GT(mpfr_cmp(t, l), 0);
  EXPECT_LT(c.ln2_rest.hi - c.ln2_rest.lo, 1e-30);
  for (int j = 0; j <= 40; ++j) {
    mpfr_fac_ui(t, static_cast<unsigned long>(j), MPFR_RNDN);
    mpfr_ui_div(t, 1, t, MPFR_RNDN);
    EXPECT_GE(mpfr_cmp_d(t, c.inv_factorial[j].lo), 0) << j;
    EXPECT_LE(mpfr_cmp_d(t, c.inv_factorial[j].hi), 0) << j;
  }
  for (int j = 0; j < 40; ++j) {
    mpfr_set_ui(t, static_cast<unsigned long>(2 * j + 1), MPFR_RNDN);
    mpfr_ui_div(t, 1, t, MPFR_RNDN);
    EXPECT_GE(mpfr_cmp_d(t, c.inv_odd[j].lo), 0) << j;
    EXPECT_LE(mpfr_cmp_d(t, c.inv_odd[j].hi), 0) << j;
  }
  mpfr_set_str(t, "0.011", 10, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  EXPECT_LT(mpfr_cmp_d(t, c.exp_r_max_hi), 0);
  // 2^(i/32) ∈ head + rest (the ends added exactly).
  for (int i = 0; i < 32; ++i) {
    mpfr_set_si_2exp(t, i, -5, MPFR_RNDN);
    mpfr_exp2(t, t, MPFR_RNDN);
    mpfr_sub_d(t, t, c.exp2_head[i], MPFR_RNDN);
    EXPECT_GE(mpfr_cmp_d(t, c.exp2_rest[i].lo), 0) << i;
    EXPECT_LE(mpfr_cmp_d(t, c.exp2_rest[i].hi), 0) << i;
    EXPECT_LT(c.exp2_rest[i].hi - c.exp2_rest[i].lo, 1e-30) << i;
  }
  mpfr_clears(l, s, t, static_cast<mpfr_ptr>(nullptr));
}

TEST(ElementaryDoubleBounds, IntervalDsExpAndLogAreTheBoundsAndMpfrIsThePeer) {
  const IntervalD x(-3.25, 7.5), y(0.125, 1e10);
  const IntervalD e = num::exp(x), l = num::log(y);
  EXPECT_EQ(e.lower(), num::exp_bounds(-3.25).lo);
  EXPECT_EQ(e.upper(), num::exp_bounds(7.5).hi);
  EXPECT_EQ(l.lower(), num::log_bounds(0.125).lo);
  EXPECT_EQ(l.upper(), num::log_bounds(1e10).hi);
  num::set_elementary_from_mpfr(true);
  const IntervalD em = num::exp(x), lm = num::log(y);
  num::set_elementary_from_mpfr(false);
  // MPFR's directed pair is the tightest double enclosure: the bounds hold it.
  EXPECT_LE(e.lower(), em.lower());
  EXPECT_GE(e.upper(), em.upper());
  EXPECT_LE(l.lower(), lm.lower());
  EXPECT_GE(l.upper(), lm.upper());
  // log of an interval reaching 0 or below keeps its documented −∞ lower end.
  EXPECT_EQ(num::log(IntervalD(-1.0, 2.0)).lower(), -kInf);
  EXPECT_THROW(num::log_bounds(0.0), std::domain_error);
  EXPECT_THROW(num::log_bounds(-1.0), std::domain_error);
  EXPECT_THROW(num::exp_bounds(std::nan("")), std::domain_error);
}

}  // namespace
}  // namespace softcert::elementary_double_bounds_test
