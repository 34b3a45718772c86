// Elementary functions on intervals over double: exp and log from the bounds of
// elementary_double_bounds.hpp (double arithmetic rounding upward, constants from MPFR), the
// others from MPFR with directed rounding.
//
// Why MPFR and not Boost.Interval's transcendental policies: rounded_transc_exact does not
// round outward at all (exp([1,1]) misses e) and rounded_transc_std relies on libm plus the
// FPU rounding mode, which libm does not promise to honour. MPFR returns the correctly rounded
// value in the requested direction, so for a monotone f on [lo, hi] the interval
// [RNDD f(lo), RNDU f(hi)] contains f([lo, hi]). A double is exact in a 53-bit MPFR number,
// and a 53-bit MPFR result (within the double exponent range, checked) converts exactly back.
#include <mpfr.h>

#include <limits>
#include <stdexcept>

#include "numerics/elementary.hpp"
#include "numerics/elementary_double_bounds.hpp"

namespace softcert::num {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// f evaluated at a double with MPFR rounding `rnd`, returned as a double rounded the same way.
// mpfr_get_d in the same direction keeps the bound valid even if the 53-bit result is
// subnormal or overflows in double.
// Two 53-bit MPFR numbers per thread, kept: initialising and clearing them on every call would
// be a large part of the cost of an interval exp.
struct Scratch53 {
  mpfr_t in, out;
  Scratch53() {
    mpfr_init2(in, 53);
    mpfr_init2(out, 53);
  }
  ~Scratch53() {
    mpfr_clear(in);
    mpfr_clear(out);
  }
};

template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
double directed(double x, mpfr_rnd_t rnd) {
  thread_local Scratch53 s;
  mpfr_set_d(s.in, x, MPFR_RNDN);  // exact: a double fits in 53 bits
  F(s.out, s.in, rnd);
  return mpfr_get_d(s.out, rnd);
}

template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
IntervalD increasing(double lo, double hi) {
  return IntervalD(directed<F>(lo, MPFR_RNDD), directed<F>(hi, MPFR_RNDU));
}

}  // namespace

IntervalD interval_exp(const IntervalD& x) {
  if (elementary_from_mpfr()) return increasing<mpfr_exp>(x.lower(), x.upper());
  const DoubleBounds r = exp_bounds(x.lower(), x.upper());
  // exp is positive; a lower bound of 0 from underflow is still a valid bound.
  return IntervalD(r.lo, r.hi);
}

IntervalD interval_expm1(const IntervalD& x) { return increasing<mpfr_expm1>(x.lower(), x.upper()); }

IntervalD interval_log(const IntervalD& x) {
  if (x.upper() <= 0) throw std::domain_error("log of an interval with no positive point");
  if (elementary_from_mpfr()) {
    const double lo = x.lower() <= 0 ? -kInf : directed<mpfr_log>(x.lower(), MPFR_RNDD);
    return IntervalD(lo, directed<mpfr_log>(x.upper(), MPFR_RNDU));
  }
  if (x.lower() <= 0) return IntervalD(-kInf, log_bounds(x.upper()).hi);
  const DoubleBounds r = log_bounds(x.lower(), x.upper());
  return IntervalD(r.lo, r.hi);
}

IntervalD interval_log1p(const IntervalD& x) {
  if (x.upper() <= -1) throw std::domain_error("log1p of an interval with no point above -1");
  const double lo = x.lower() <= -1 ? -kInf : directed<mpfr_log1p>(x.lower(), MPFR_RNDD);
  return IntervalD(lo, directed<mpfr_log1p>(x.upper(), MPFR_RNDU));
}

IntervalD interval_sqrt(const IntervalD& x) {
  if (x.upper() < 0) throw std::domain_error("sqrt of an interval with no nonnegative point");
  const double lo = x.lower() <= 0 ? 0.0 : directed<mpfr_sqrt>(x.lower(), MPFR_RNDD);
  return IntervalD(lo, directed<mpfr_sqrt>(x.upper(), MPFR_RNDU));
}

}  // namespace softcert::num
