#pragma once
// Multiply-accumulate for the Taylor recurrences: acc += x·y and acc += j·x·y.
// Generic kinds use their operators. IntervalMp gets in-place MPFI calls on one thread-local
// temporary, because each `acc += x * y` on mpfi_float (expression templates off) would
// allocate and free a temporary: measured as the dominant cost at 256 bits. MpReal (the fast
// tier's Taylor stepper) gets in-place MPFR calls for the same reason.
// Guarantee: same as the operators (MPFI operations enclose their exact results).
#include <mpfi.h>
#include <mpfr.h>

#include "numerics/kinds.hpp"

namespace softcert::taylor {

// always_inline: for FastIntervalD these are the innermost operations of the tape (profiled:
// 15% of the headline run was the call overhead of an out-of-line mac).
template <class A>
[[gnu::always_inline]] inline void mac(A& acc, const A& x, const A& y) {
  acc += x * y;
}
template <class A>
[[gnu::always_inline]] inline void mac_scaled(A& acc, unsigned long j, const A& x, const A& y) {
  acc += A(static_cast<int>(j)) * x * y;
}

namespace detail {
// A thread-local MPFI temporary at the precision of `like`.
inline mpfi_ptr mpfi_scratch(mpfi_srcptr like) {
  struct Holder {
    mpfi_t v;
    Holder() { mpfi_init2(v, 53); }
    ~Holder() { mpfi_clear(v); }
  };
  thread_local Holder h;
  const mpfr_prec_t p = mpfi_get_prec(like);
  if (mpfi_get_prec(h.v) != p) mpfi_set_prec(h.v, p);
  return h.v;
}
// A thread-local MPFR temporary at the precision of `like`.
inline mpfr_ptr mpfr_scratch(mpfr_srcptr like) {
  struct Holder {
    mpfr_t v;
    Holder() { mpfr_init2(v, 53); }
    ~Holder() { mpfr_clear(v); }
  };
  thread_local Holder h;
  const mpfr_prec_t p = mpfr_get_prec(like);
  if (mpfr_get_prec(h.v) != p) mpfr_set_prec(h.v, p);
  return h.v;
}
}  // namespace detail

inline void mac(IntervalMp& acc, const IntervalMp& x, const IntervalMp& y) {
  mpfi_ptr t = detail::mpfi_scratch(acc.backend().data());
  mpfi_mul(t, x.backend().data(), y.backend().data());
  mpfi_add(acc.backend().data(), acc.backend().data(), t);
}
inline void mac_scaled(IntervalMp& acc, unsigned long j, const IntervalMp& x, const IntervalMp& y) {
  mpfi_ptr t = detail::mpfi_scratch(acc.backend().data());
  mpfi_mul(t, x.backend().data(), y.backend().data());
  mpfi_mul_ui(t, t, j);
  mpfi_add(acc.backend().data(), acc.backend().data(), t);
}

// mpfr_mul + mpfr_add into one scratch rather than mpfr_fma: profiled, mpfr_fma (exact
// product, then a general addition) was 42% of a 128-bit Taylor run.
inline void mac(MpReal& acc, const MpReal& x, const MpReal& y) {
  mpfr_ptr t = detail::mpfr_scratch(acc.backend().data());
  mpfr_mul(t, x.backend().data(), y.backend().data(), MPFR_RNDN);
  mpfr_add(acc.backend().data(), acc.backend().data(), t, MPFR_RNDN);
}
inline void mac_scaled(MpReal& acc, unsigned long j, const MpReal& x, const MpReal& y) {
  mpfr_ptr t = detail::mpfr_scratch(acc.backend().data());
  mpfr_mul(t, x.backend().data(), y.backend().data(), MPFR_RNDN);
  mpfr_mul_ui(t, t, j, MPFR_RNDN);
  mpfr_add(acc.backend().data(), acc.backend().data(), t, MPFR_RNDN);
}

}  // namespace softcert::taylor
