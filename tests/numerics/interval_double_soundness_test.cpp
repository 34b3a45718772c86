// Soundness of IntervalD: for 10^5 random run-time intervals per operation (thin, a few ulps,
// wide; tiny, huge, negative, straddling zero, at domain edges), the result contains the exact
// image of the two end points and of a random interior point, computed with MPFR at 4 × 53 bits.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "numerics/elementary.hpp"
#include "numerics/stable.hpp"
#include "support/mpfr_reference.hpp"
#include "support/random_inputs.hpp"

// The helpers have the same names as in the soundness test of the other interval kind (the two
// files are compiled in one unity batch): a namespace of their own keeps them apart.
namespace softcert::interval_d_soundness {
namespace {

using testing::InputGenerator;
using testing::Ref;
constexpr mpfr_prec_t kRefPrec = 4 * 53;
constexpr int kSamples = 100000;

using MpfrUnary = std::function<void(mpfr_ptr, mpfr_srcptr)>;

struct UnaryCase {
  std::string name;
  std::function<IntervalD(const IntervalD&)> f;
  MpfrUnary ref;
  double lo, hi;  // domain sampled
};

double interior(InputGenerator& g, double a, double b) {
  double p = a + g.unit() * (b - a);
  if (!(p >= a)) p = a;
  if (p > b) p = b;
  return p;
}

void check_unary(const UnaryCase& c, std::uint64_t seed) {
  InputGenerator g(seed);
  Ref x(kRefPrec), y(kRefPrec);
  int failures = 0;
  for (int i = 0; i < kSamples && failures < 5; ++i) {
    const auto [a, b] = g.interval(c.lo, c.hi);
    const IntervalD r = c.f(IntervalD(a, b));
    for (double p : {a, b, interior(g, a, b)}) {
      mpfr_set_d(x.get(), p, MPFR_RNDN);
      c.ref(y.get(), x.get());
      if (!testing::inside(r.lower(), y.get(), r.upper())) {
        ++failures;
        ADD_FAILURE() << c.name << "([" << a << ", " << b << "]) = [" << r.lower() << ", " << r.upper()
                      << "] misses f(" << p << ") = " << y.str();
      }
    }
  }
}

MpfrUnary wrap(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) {
  return [f](mpfr_ptr y, mpfr_srcptr x) { f(y, x, MPFR_RNDN); };
}

TEST(IntervalDoubleSoundness, ElementaryFunctionsEncloseHighPrecisionValues) {
  const double min_pos = std::numeric_limits<double>::denorm_min();
  std::vector<UnaryCase> cases = {
      {"exp", [](const IntervalD& v) { return num::exp(v); }, wrap(mpfr_exp), -745.0, 709.0},
      {"expm1", [](const IntervalD& v) { return num::expm1(v); }, wrap(mpfr_expm1), -745.0, 709.0},
      {"log", [](const IntervalD& v) { return num::log(v); }, wrap(mpfr_log), min_pos, 1e300},
      {"log1p", [](const IntervalD& v) { return num::log1p(v); }, wrap(mpfr_log1p), std::nextafter(-1.0, 0.0), 1e300},
      {"sqrt", [](const IntervalD& v) { return num::sqrt(v); }, wrap(mpfr_sqrt), 0.0, 1e300},
      {"sqr", [](const IntervalD& v) { return num::sqr(v); }, wrap(mpfr_sqr), -1e150, 1e150},
      {"abs", [](const IntervalD& v) { return num::abs(v); }, wrap(mpfr_abs), -1e300, 1e300},
      {"recip", [](const IntervalD& v) { return num::recip(v); },
       [](mpfr_ptr y, mpfr_srcptr x) { mpfr_ui_div(y, 1, x, MPFR_RNDN); }, 1e-300, 1e300},
      {"neg_recip", [](const IntervalD& v) { return num::recip(v); },
       [](mpfr_ptr y, mpfr_srcptr x) { mpfr_ui_div(y, 1, x, MPFR_RNDN); }, -1e300, -1e-300},
      {"sigmoid", [](const IntervalD& v) { return num::sigmoid(v); },
       [](mpfr_ptr y, mpfr_srcptr x) {  // 1/(1+e^{-x})
         mpfr_neg(y, x, MPFR_RNDN);
         mpfr_exp(y, y, MPFR_RNDN);
         mpfr_add_ui(y, y, 1, MPFR_RNDN);
         mpfr_ui_div(y, 1, y, MPFR_RNDN);
       },
       -1e4, 1e4},
      {"softplus", [](const IntervalD& v) { return num::softplus(v); },
       [](mpfr_ptr y, mpfr_srcptr x) {  // log(1+e^x)
         mpfr_exp(y, x, MPFR_RNDN);
         mpfr_log1p(y, y, MPFR_RNDN);
       },
       -700.0, 700.0},
  };
  for (unsigned n = 2; n <= 7; ++n)
    cases.push_back({"pow_int_" + std::to_string(n), [n](const IntervalD& v) { return num::pow_int(v, n); },
                     [n](mpfr_ptr y, mpfr_srcptr x) { mpfr_pow_ui(y, x, n, MPFR_RNDN); }, -1e40, 1e40});
  std::uint64_t seed = 1;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    check_unary(c, seed++);
  }
}

TEST(IntervalDoubleSoundness, ArithmeticEnclosesExactResults) {
  using Op = std::function<IntervalD(const IntervalD&, const IntervalD&)>;
  using RefOp = std::function<void(mpfr_ptr, mpfr_srcptr, mpfr_srcptr)>;
  struct Case { std::string name; Op op; RefOp ref; };
  const std::vector<Case> cases = {
      {"add", [](auto& a, auto& b) { return a + b; }, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y) { mpfr_add(r, x, y, MPFR_RNDN); }},
      {"sub", [](auto& a, auto& b) { return a - b; }, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y) { mpfr_sub(r, x, y, MPFR_RNDN); }},
      {"mul", [](auto& a, auto& b) { return a * b; }, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y) { mpfr_mul(r, x, y, MPFR_RNDN); }},
      {"div", [](auto& a, auto& b) { return a / b; }, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y) { mpfr_div(r, x, y, MPFR_RNDN); }},
  };
  InputGenerator g(99);
  // Sums of doubles of very different magnitude are exact only at ~2100 bits.
  Ref x(kRefPrec), y(kRefPrec), r(2200);
  for (const auto& c : cases) {
    int failures = 0, checked = 0;
    while (checked < kSamples && failures < 5) {
      const auto [a0, a1] = g.interval(-1e300, 1e300);
      const auto [b0, b1] = g.interval(-1e300, 1e300);
      if (c.name == "div" && b0 <= 0 && b1 >= 0) continue;  // division by an interval holding 0
      ++checked;
      const IntervalD res = c.op(IntervalD(a0, a1), IntervalD(b0, b1));
      for (double p : {a0, a1, interior(g, a0, a1)})
        for (double q : {b0, b1, interior(g, b0, b1)}) {
          mpfr_set_d(x.get(), p, MPFR_RNDN);
          mpfr_set_d(y.get(), q, MPFR_RNDN);
          c.ref(r.get(), x.get(), y.get());
          if (!testing::inside(res.lower(), r.get(), res.upper())) {
            ++failures;
            ADD_FAILURE() << c.name << " misses " << p << " op " << q << " = " << r.str() << ": [" << res.lower()
                          << ", " << res.upper() << "]";
          }
        }
    }
  }
}

TEST(IntervalDoubleSoundness, CompileTimeConstantsAreRoundedOutward) {
  // 0.1 * 3, 1/3, 0.1 + 0.2 are not doubles: outward-rounded results must have two ends,
  // even when the compiler sees constant operands (it once folded them to nearest).
  const IntervalD p = IntervalD(0.1) * IntervalD(3.0);
  EXPECT_LT(p.lower(), p.upper());
  const IntervalD q = IntervalD(1.0) / IntervalD(3.0);
  EXPECT_LT(q.lower(), q.upper());
  const IntervalD s = IntervalD(0.1) + IntervalD(0.2);
  EXPECT_LT(s.lower(), s.upper());
  const IntervalD d = IntervalD(1e-20) - IntervalD(1.0);
  EXPECT_LT(d.lower(), d.upper());
  const IntervalD e = num::exp(IntervalD(1.0));
  EXPECT_LT(e.lower(), e.upper());  // e is irrational
}

TEST(IntervalDoubleSoundness, FunctionsThrowWhollyOutsideTheirDomain) {
  EXPECT_THROW(num::log(IntervalD(-2.0, -1.0)), std::domain_error);
  EXPECT_THROW(num::log1p(IntervalD(-3.0, -1.0)), std::domain_error);
  EXPECT_THROW(num::sqrt(IntervalD(-2.0, -1.0)), std::domain_error);
  // Partly inside: the image of the part inside the domain.
  const IntervalD l = num::log(IntervalD(-1.0, 1.0));
  EXPECT_EQ(l.upper(), 0.0);
  EXPECT_TRUE(std::isinf(l.lower()));
}

TEST(IntervalDoubleSoundness, SoftmaxAndLogSumExpEncloseReference) {
  InputGenerator g(7);
  // log(Σ e^{p_j}) with a p_j as small as 1e-300 needs ~1000 bits before log undoes the sum.
  Ref t(2200), s(2200), e(2200);
  for (int rep = 0; rep < 5000; ++rep) {
    const std::size_t n = 1 + g.word() % 8;
    std::vector<IntervalD> a(n);
    std::vector<double> p(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto [lo, hi] = g.interval(-50.0, 50.0);
      a[i] = IntervalD(lo, hi);
      p[i] = interior(g, lo, hi);
    }
    const auto sm = num::softmax(a);
    const IntervalD lse = num::logsumexp(a);
    // reference: Σ e^{p_j}
    mpfr_set_ui(s.get(), 0, MPFR_RNDN);
    for (double v : p) {
      mpfr_set_d(t.get(), v, MPFR_RNDN);
      mpfr_exp(t.get(), t.get(), MPFR_RNDN);
      mpfr_add(s.get(), s.get(), t.get(), MPFR_RNDN);
    }
    mpfr_log(e.get(), s.get(), MPFR_RNDN);
    ASSERT_TRUE(testing::inside_compound(lse.lower(), e.get(), lse.upper())) << "logsumexp " << e.str() << " enclosure [" << lse.lower() << ", " << lse.upper() << "] n=" << n << " a0=[" << a[0].lower() << "," << a[0].upper() << "] p0=" << p[0];
    for (std::size_t i = 0; i < n; ++i) {
      mpfr_set_d(t.get(), p[i], MPFR_RNDN);
      mpfr_exp(t.get(), t.get(), MPFR_RNDN);
      mpfr_div(t.get(), t.get(), s.get(), MPFR_RNDN);
      ASSERT_TRUE(testing::inside_compound(sm[i].lower(), t.get(), sm[i].upper())) << "softmax[" << i << "] " << t.str();
    }
  }
}

}  // namespace
}  // namespace softcert::interval_d_soundness
