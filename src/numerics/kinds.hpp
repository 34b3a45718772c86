#pragma once
// The scalar kinds softcert computes with. Every model and integrator is a template over
// one of these; numerics/traits.hpp says what each guarantees.
#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/mpfi.hpp>
#include <boost/multiprecision/mpfr.hpp>
#include <boost/numeric/interval.hpp>

namespace softcert {

namespace num::detail {
// Hides a double from the optimiser: the value must be computed at run time, after the
// rounding mode was set. Without it GCC folds `const IntervalD r = IntervalD(0.1) * 3.0;`
// in round-to-nearest even under -frounding-math (seen: a thin, wrong product). Measured by
// IntervalDoubleSoundness.CompileTimeConstantsAreRoundedOutward.
inline double opaque(double x) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __asm__ volatile("" : "+x"(x));
  return x;
#else
  volatile double v = x;
  return v;
#endif
}

// rounded_arith_std with every operand made opaque, so that no rounded operation can be
// evaluated at compile time in the wrong rounding mode. No sqrt here: IntervalD's square root
// comes from MPFR (num::sqrt, elementary.cpp), never from Boost.Interval.
struct OpaqueRoundedArith : boost::numeric::interval_lib::rounded_arith_std<double> {
  using Base = boost::numeric::interval_lib::rounded_arith_std<double>;
  double add_down(double x, double y) { return Base::add_down(opaque(x), opaque(y)); }
  double add_up(double x, double y) { return Base::add_up(opaque(x), opaque(y)); }
  double sub_down(double x, double y) { return Base::sub_down(opaque(x), opaque(y)); }
  double sub_up(double x, double y) { return Base::sub_up(opaque(x), opaque(y)); }
  double mul_down(double x, double y) { return Base::mul_down(opaque(x), opaque(y)); }
  double mul_up(double x, double y) { return Base::mul_up(opaque(x), opaque(y)); }
  double div_down(double x, double y) { return Base::div_down(opaque(x), opaque(y)); }
  double div_up(double x, double y) { return Base::div_up(opaque(x), opaque(y)); }
};
}  // namespace num::detail

// Plain IEEE double: fast, no guarantee beyond round-to-nearest per operation.
using Real = double;

// MPFR float at a run-time precision (see numerics/precision.hpp). Expression templates are
// off so that every expression has the type MpReal, which keeps templates and overloads simple.
using MpReal = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<0>,
                                             boost::multiprecision::et_off>;

// Interval over double. Arithmetic: Boost.Interval with hardware directed rounding
// (rounded_arith_std, saved and restored around each operation), operands made opaque to the
// optimiser (above), and everything compiled with -frounding-math so that the compiler does
// not reorder rounded operations across mode changes.
// Elementary functions do NOT come from Boost.Interval's transcendental policies (they are
// unsound, see docs/arithmetic.md) but from MPFR with directed rounding (elementary.cpp).
// checking_strict: creating an empty interval or one from NaN throws instead of propagating.
using IntervalD = boost::numeric::interval<
    double, boost::numeric::interval_lib::policies<
                boost::numeric::interval_lib::save_state<num::detail::OpaqueRoundedArith>,
                boost::numeric::interval_lib::checking_strict<double>>>;

// Interval over MPFR at a run-time precision: MPFI through Boost.Multiprecision. Every MPFI
// operation returns an interval containing the exact image of its input intervals.
using IntervalMp = boost::multiprecision::number<boost::multiprecision::mpfi_float_backend<0>,
                                                 boost::multiprecision::et_off>;

// Exact rationals (GMP mpq). No rounding at all; no transcendental functions.
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

}  // namespace softcert
