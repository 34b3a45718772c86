// Soundness of IntervalMp (MPFI at run-time precision p ∈ {53, 64, 113, 256, 512}): for 10^5
// random intervals per operation, the result contains the image of both end points and of an
// interior point, computed with MPFR at 4p bits.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "numerics/elementary.hpp"
#include "numerics/precision.hpp"
#include "numerics/stable.hpp"
#include "support/mpfr_reference.hpp"
#include "support/random_inputs.hpp"

// The helpers have the same names as in the soundness test of the other interval kind (the two
// files are compiled in one unity batch): a namespace of their own keeps them apart.
namespace softcert::interval_mp_soundness {
namespace {

using testing::InputGenerator;
using testing::Ref;
constexpr int kSamples = 100000;
const unsigned kPrecisions[] = {53, 64, 113, 53, 64, 256, 53, 512};

// An interval at the current precision with end points derived from doubles plus extra
// low-order bits, so that the end points use the full precision.
IntervalMp random_interval(InputGenerator& g, double lo, double hi, MpReal& p_lo, MpReal& p_hi) {
  auto [a, b] = g.interval(lo, hi);
  MpReal x = a, y = b;
  if (a != b) {  // perturb inside (a, b) with low-order bits
    x = a + (b - a) * MpReal(g.unit()) * MpReal(1e-3);
    y = b - (b - a) * MpReal(g.unit()) * MpReal(1e-3);
    if (x > y) std::swap(x, y);
  }
  p_lo = x;
  p_hi = y;
  return num::ScalarTraits<IntervalMp>::hull(x, y);
}

struct UnaryCase {
  std::string name;
  std::function<IntervalMp(const IntervalMp&)> f;
  std::function<void(mpfr_ptr, mpfr_srcptr)> ref;
  double lo, hi;
};

void check_unary(const UnaryCase& c, std::uint64_t seed) {
  InputGenerator g(seed);
  int failures = 0;
  for (int i = 0; i < kSamples && failures < 5; ++i) {
    const unsigned prec = kPrecisions[i % 8];
    num::PrecisionGuard guard(prec);
    MpReal a, b;
    const IntervalMp x = random_interval(g, c.lo, c.hi, a, b);
    const IntervalMp r = c.f(x);
    const MpReal rl = num::lower(r), ru = num::upper(r);
    const MpReal inner = a + (b - a) * MpReal(g.unit());
    Ref in(4 * num::precision_bits()), out(4 * num::precision_bits());
    for (const MpReal* p : std::initializer_list<const MpReal*>{&a, &b, &inner}) {
      mpfr_set(in.get(), p->backend().data(), MPFR_RNDN);  // exact: 4p ≥ p
      c.ref(out.get(), in.get());
      if (!testing::inside(rl.backend().data(), out.get(), ru.backend().data())) {
        ++failures;
        ADD_FAILURE() << c.name << " at " << prec << " bits misses f(" << p->str(30) << ") = " << out.str() << ": ["
                      << rl.str(30) << ", " << ru.str(30) << "]";
      }
    }
  }
}

std::function<void(mpfr_ptr, mpfr_srcptr)> wrap(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) {
  return [f](mpfr_ptr y, mpfr_srcptr x) { f(y, x, MPFR_RNDN); };
}

TEST(IntervalMpfrSoundness, ElementaryFunctionsEncloseHighPrecisionValues) {
  std::vector<UnaryCase> cases = {
      {"exp", [](const IntervalMp& v) { return num::exp(v); }, wrap(mpfr_exp), -1e4, 1e4},
      {"expm1", [](const IntervalMp& v) { return num::expm1(v); }, wrap(mpfr_expm1), -1e4, 1e4},
      {"log", [](const IntervalMp& v) { return num::log(v); }, wrap(mpfr_log), 1e-300, 1e300},
      {"log1p", [](const IntervalMp& v) { return num::log1p(v); }, wrap(mpfr_log1p), -1 + 1e-15, 1e300},
      {"sqrt", [](const IntervalMp& v) { return num::sqrt(v); }, wrap(mpfr_sqrt), 0.0, 1e300},
      {"sqr", [](const IntervalMp& v) { return num::sqr(v); }, wrap(mpfr_sqr), -1e150, 1e150},
      {"abs", [](const IntervalMp& v) { return num::abs(v); }, wrap(mpfr_abs), -1e300, 1e300},
      {"pow_int_5", [](const IntervalMp& v) { return num::pow_int(v, 5); },
       [](mpfr_ptr y, mpfr_srcptr x) { mpfr_pow_ui(y, x, 5, MPFR_RNDN); }, -1e40, 1e40},
      {"pow_int_6", [](const IntervalMp& v) { return num::pow_int(v, 6); },
       [](mpfr_ptr y, mpfr_srcptr x) { mpfr_pow_ui(y, x, 6, MPFR_RNDN); }, -1e40, 1e40},
      {"sigmoid", [](const IntervalMp& v) { return num::sigmoid(v); },
       [](mpfr_ptr y, mpfr_srcptr x) {
         mpfr_neg(y, x, MPFR_RNDN);
         mpfr_exp(y, y, MPFR_RNDN);
         mpfr_add_ui(y, y, 1, MPFR_RNDN);
         mpfr_ui_div(y, 1, y, MPFR_RNDN);
       },
       -1e4, 1e4},
      {"softplus", [](const IntervalMp& v) { return num::softplus(v); },
       [](mpfr_ptr y, mpfr_srcptr x) {
         mpfr_exp(y, x, MPFR_RNDN);
         mpfr_log1p(y, y, MPFR_RNDN);
       },
       -1e4, 1e4},
  };
  std::uint64_t seed = 11;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    check_unary(c, seed++);
  }
}

TEST(IntervalMpfrSoundness, ArithmeticEnclosesExactResults) {
  using Op = std::function<IntervalMp(const IntervalMp&, const IntervalMp&)>;
  using RefOp = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
  struct Case { std::string name; Op op; RefOp ref; };
  const std::vector<Case> cases = {
      {"add", [](auto& a, auto& b) { return a + b; }, mpfr_add},
      {"sub", [](auto& a, auto& b) { return a - b; }, mpfr_sub},
      {"mul", [](auto& a, auto& b) { return a * b; }, mpfr_mul},
      {"div", [](auto& a, auto& b) { return a / b; }, mpfr_div},
  };
  InputGenerator g(123);
  for (const auto& c : cases) {
    int failures = 0, checked = 0;
    while (checked < kSamples && failures < 5) {
      const unsigned prec = kPrecisions[checked % 8];
      num::PrecisionGuard guard(prec);
      MpReal a0, a1, b0, b1;
      const IntervalMp A = random_interval(g, -1e300, 1e300, a0, a1);
      const IntervalMp B = random_interval(g, -1e300, 1e300, b0, b1);
      if (c.name == "div" && a0 == a0 && b0 <= 0 && b1 >= 0) continue;
      ++checked;
      const IntervalMp R = c.op(A, B);
      const MpReal rl = num::lower(R), ru = num::upper(R);
      Ref x(prec + 8), y(prec + 8), r(4400);  // sums exact at 4400 bits
      for (const MpReal* p : std::initializer_list<const MpReal*>{&a0, &a1})
        for (const MpReal* q : std::initializer_list<const MpReal*>{&b0, &b1}) {
          mpfr_set(x.get(), p->backend().data(), MPFR_RNDN);
          mpfr_set(y.get(), q->backend().data(), MPFR_RNDN);
          c.ref(r.get(), x.get(), y.get(), MPFR_RNDN);
          if (!testing::inside(rl.backend().data(), r.get(), ru.backend().data())) {
            ++failures;
            ADD_FAILURE() << c.name << " at " << prec << " bits misses " << r.str();
          }
        }
    }
  }
}

TEST(IntervalMpfrSoundness, PrecisionGuardSetsAtLeastTheRequestedBits) {
  for (unsigned bits : {53u, 64u, 100u, 256u, 512u, 4096u}) {
    num::PrecisionGuard g(bits);
    EXPECT_GE(num::precision_bits(), bits);
    EXPECT_LE(num::precision_bits(), bits + 8);
    IntervalMp x(1);
    EXPECT_GE(mpfi_get_prec(x.backend().data()), static_cast<mpfr_prec_t>(bits));
  }
}

}  // namespace
}  // namespace softcert::interval_mp_soundness
