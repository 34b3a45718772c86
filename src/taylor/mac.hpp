#pragma once
// Multiply-accumulate for the Taylor recurrences: acc += x·y and acc += j·x·y.
// Generic kinds use their operators. IntervalMp gets in-place MPFI calls on one thread-local
// temporary, because each `acc += x * y` on mpfi_float (expression templates off) would
// allocate and free a temporary: measured as the dominant cost at 256 bits.
// Guarantee: same as the operators (MPFI operations enclose their exact results).
#include <mpfi.h>

#include "numerics/kinds.hpp"

namespace softcert::taylor {

template <class A>
inline void mac(A& acc, const A& x, const A& y) {
  acc += x * y;
}
template <class A>
inline void mac_scaled(A& acc, unsigned long j, const A& x, const A& y) {
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

}  // namespace softcert::taylor
