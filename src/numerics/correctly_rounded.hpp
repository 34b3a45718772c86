#pragma once
// Elementary functions of a double, correctly rounded to the nearest double by MPFR at 53
// bits: the same double on every platform, unlike the system libm (whose versions may differ
// in the last bit). For instance generators, whose every digit must be fixed by the seed.
#include <mpfr.h>

namespace softcert::num {

namespace detail {
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
double correctly_rounded(double x) {
  mpfr_t r;
  mpfr_init2(r, 53);
  mpfr_set_d(r, x, MPFR_RNDN);  // exact: x is a double
  F(r, r, MPFR_RNDN);
  const double y = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  return y;
}
}  // namespace detail

inline double correctly_rounded_log(double x) { return detail::correctly_rounded<mpfr_log>(x); }
inline double correctly_rounded_cos(double x) { return detail::correctly_rounded<mpfr_cos>(x); }
inline double correctly_rounded_exp(double x) { return detail::correctly_rounded<mpfr_exp>(x); }

}  // namespace softcert::num
