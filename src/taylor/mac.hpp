#pragma once
// Multiply-accumulate for the Taylor recurrences: acc += x·y and acc += j·x·y.
// Generic kinds use their operators. IntervalMp gets in-place MPFI calls on one thread-local
// temporary, because each `acc += x * y` on mpfi_float (expression templates off) would
// allocate and free a temporary, which would dominate at 256 bits. MpReal (the fast
// tier's Taylor stepper) gets in-place MPFR calls for the same reason.
// Guarantee: same as the operators (MPFI operations enclose their exact results).
#include <mpfi.h>
#include <mpfr.h>

#include <cmath>
#include <cstddef>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "numerics/kinds.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::taylor {

// always_inline: for FastIntervalD these are the innermost operations of the tape, where an
// out-of-line call's overhead is a visible part of a run (docs/performance.md, "What limits each
// figure" §4).
template <class A>
[[gnu::always_inline]] inline void mac(A& acc, const A& x, const A& y) {
  acc += x * y;
}
template <class A>
[[gnu::always_inline]] inline void mac_scaled(A& acc, unsigned long j, const A& x, const A& y) {
  acc += A(static_cast<int>(j)) * x * y;
}

// The derivative pass's inner loop (taylor::Tape, Op::mul): dr[j] += x[j]·y + u[j]·v for
// j < n, with y, v scalars. Generic kinds: the operators, in that order.
template <class A>
[[gnu::always_inline]] inline void mac2_rows(A* dr, const A* x, const A& y, const A* u, const A& v, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    mac(dr[j], x[j], y);
    mac(dr[j], u[j], v);
  }
}

#if defined(__SSE2__)
namespace detail {
// One FastIntervalD [lo, hi] as the SSE2 pair (−lo, hi): with the FPU rounding upward, a rounded-up
// operation on lane 0 is a rounded-down one on lo (negation is exact), so one vector operation
// rounds both bounds outward.
[[gnu::always_inline]] inline __m128d load_neglo(const FastIntervalD* p) {
  return _mm_xor_pd(_mm_loadu_pd(reinterpret_cast<const double*>(p)), _mm_set_pd(0.0, -0.0));
}
[[gnu::always_inline]] inline void store_neglo(FastIntervalD* p, __m128d v) {
  _mm_storeu_pd(reinterpret_cast<double*>(p), _mm_xor_pd(v, _mm_set_pd(0.0, -0.0)));
}
// Keeps the compiler from rewriting (−a)·c as −(a·c) (exact only in round-to-nearest); the same
// role as num::detail::opaque for scalars.
[[gnu::always_inline]] inline __m128d opaque2(__m128d v) {
  __asm__ volatile("" : "+x"(v));
  return v;
}
// X·[c, d] for X = (−a, b) (i.e. [a, b]) with the sign case K of [c, d] known:
//   K = 0 (c ≥ 0):  (max(−a·c, −a·d), max(b·c, b·d))
//   K = 1 (d ≤ 0):  (max(−b·c, −b·d), max(a·c, a·d))  from Xs = (b, −a) times (−c, −d)
//   K = 2 (c < 0 < d): (max(−a·d, −b·c), max(b·d, a·c))
// i.e. (−lo, hi) of the exact product's image, each bound selected among the end-point products
// that attain it for that sign case (the same products the branch-free scalar product takes
// the max/min of, so the same doubles), each rounded outward.
template <int K>
[[gnu::always_inline]] inline __m128d times(__m128d X, __m128d m1, __m128d m2) {
  if constexpr (K == 0) {
    return _mm_max_pd(_mm_mul_pd(X, m1), _mm_mul_pd(X, m2));
  } else if constexpr (K == 1) {
    const __m128d Xs = opaque2(_mm_shuffle_pd(X, X, 1));
    return _mm_max_pd(_mm_mul_pd(Xs, m1), _mm_mul_pd(Xs, m2));
  } else {
    const __m128d Xs = opaque2(_mm_shuffle_pd(X, X, 1));
    return _mm_max_pd(_mm_mul_pd(X, m1), _mm_mul_pd(Xs, m2));
  }
}
// The two broadcast multipliers of times<K> for [c, d] (K as above).
[[gnu::always_inline]] inline int sign_case(const FastIntervalD& y, __m128d& m1, __m128d& m2) {
  const double c = y.lower(), d = y.upper();
  if (c >= 0) {
    m1 = _mm_set1_pd(c);
    m2 = _mm_set1_pd(d);
    return 0;
  }
  if (d <= 0) {
    m1 = _mm_set1_pd(-c);
    m2 = _mm_set1_pd(-d);
    return 1;
  }
  m1 = _mm_set1_pd(d);
  m2 = _mm_set1_pd(-c);
  return 2;
}
template <int KY, int KV>
inline void mac2_kernel(FastIntervalD* dr, const FastIntervalD* x, __m128d y1, __m128d y2, const FastIntervalD* u,
                        __m128d v1, __m128d v2, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    __m128d acc = load_neglo(dr + j);
    acc = _mm_add_pd(acc, times<KY>(opaque2(load_neglo(x + j)), y1, y2));
    acc = _mm_add_pd(acc, times<KV>(opaque2(load_neglo(u + j)), v1, v2));
    store_neglo(dr + j, acc);
  }
}
}  // namespace detail

// FastIntervalD inside a FastArith Guard (rounding upward), SSE2: dr[j] += x[j]·y + u[j]·v, the
// same doubles as mac2_rows (two bounds per instruction). Guarantee: as mac — each dr[j]
// encloses its previous value plus x[j]·y + u[j]·v for all points of the intervals. Argument:
// with rounding upward, lane 0 of every product and sum is ≥ −(exact lower bound) and lane 1 is
// ≥ the exact upper bound; for each sign case of the scalar the exact bounds of [a, b]·[c, d]
// are the max/min of the end-point products listed at times<K> (x ↦ x·c is monotone for fixed
// c), and rounding upward is monotone, so the max of the rounded products is the rounded
// bound — the value the branch-free scalar product takes too. Sums are formed in the order of
// mac2_rows (dr + x·y, then + u·v), so the results are identical to it.
// Infinite end points are NOT handled (0·∞ gives NaN, which _mm_max_pd may drop): returns false
// without touching dr if y or v is not finite; an infinite entry of x or u always yields a
// non-finite dr[j] (each lane of X meets a nonzero multiplier in some output lane), so the
// caller must check dr with all_finite() afterwards and, if not, recompute with mac2_rows
// (Tape::eval_d does; the test MacRows.* checks both paths against each other).
inline bool mac2_rows_sse(FastIntervalD* dr, const FastIntervalD* x, const FastIntervalD& y, const FastIntervalD* u,
                          const FastIntervalD& v, std::size_t n) {
  if (!(std::isfinite(y.lower()) && std::isfinite(y.upper()) && std::isfinite(v.lower()) && std::isfinite(v.upper())))
    return false;
  __m128d y1, y2, v1, v2;
  const int ky = detail::sign_case(y, y1, y2), kv = detail::sign_case(v, v1, v2);
  y1 = detail::opaque2(y1);
  y2 = detail::opaque2(y2);
  v1 = detail::opaque2(v1);
  v2 = detail::opaque2(v2);
  switch (ky * 3 + kv) {
    case 0: detail::mac2_kernel<0, 0>(dr, x, y1, y2, u, v1, v2, n); break;
    case 1: detail::mac2_kernel<0, 1>(dr, x, y1, y2, u, v1, v2, n); break;
    case 2: detail::mac2_kernel<0, 2>(dr, x, y1, y2, u, v1, v2, n); break;
    case 3: detail::mac2_kernel<1, 0>(dr, x, y1, y2, u, v1, v2, n); break;
    case 4: detail::mac2_kernel<1, 1>(dr, x, y1, y2, u, v1, v2, n); break;
    case 5: detail::mac2_kernel<1, 2>(dr, x, y1, y2, u, v1, v2, n); break;
    case 6: detail::mac2_kernel<2, 0>(dr, x, y1, y2, u, v1, v2, n); break;
    case 7: detail::mac2_kernel<2, 1>(dr, x, y1, y2, u, v1, v2, n); break;
    default: detail::mac2_kernel<2, 2>(dr, x, y1, y2, u, v1, v2, n); break;
  }
  return true;
}
// The other row loops of the derivative pass, in the same (−lo, hi) form (inside a Guard;
// identical doubles to FastIntervalD's operators: boost's add_down(x, y) = −((−x) − y) and
// sub_down(x, y) = −(y − x) are the same IEEE operations as (−x) + (−y) and (−x) + y, and
// division by a positive thin c is monotone, [lo, hi]/c = [lo/c, hi/c]).
// dr[j] = x[j] + y[j]
inline void add_rows_sse(FastIntervalD* dr, const FastIntervalD* x, const FastIntervalD* y, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j)
    detail::store_neglo(dr + j, _mm_add_pd(detail::opaque2(detail::load_neglo(x + j)), detail::opaque2(detail::load_neglo(y + j))));
}
// dr[j] = x[j] − y[j]: (−lo_x + hi_y, hi_x + (−lo_y)).
inline void sub_rows_sse(FastIntervalD* dr, const FastIntervalD* x, const FastIntervalD* y, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    const __m128d Y = detail::opaque2(detail::load_neglo(y + j));
    detail::store_neglo(dr + j, _mm_add_pd(detail::opaque2(detail::load_neglo(x + j)), detail::opaque2(_mm_shuffle_pd(Y, Y, 1))));
  }
}
// dr[j] = x[j]·y. Returns false (dr unspecified) when y is not finite; as for mac2_rows_sse the
// caller checks all_finite(dr) and otherwise recomputes with the scalar operators.
inline bool scale_rows_sse(FastIntervalD* dr, const FastIntervalD* x, const FastIntervalD& y, std::size_t n) {
  if (!(std::isfinite(y.lower()) && std::isfinite(y.upper()))) return false;
  __m128d y1, y2;
  const int ky = detail::sign_case(y, y1, y2);
  y1 = detail::opaque2(y1);
  y2 = detail::opaque2(y2);
  for (std::size_t j = 0; j < n; ++j) {
    const __m128d X = detail::opaque2(detail::load_neglo(x + j));
    detail::store_neglo(dr + j, ky == 0 ? detail::times<0>(X, y1, y2) : ky == 1 ? detail::times<1>(X, y1, y2) : detail::times<2>(X, y1, y2));
  }
  return true;
}
// dr[j] = x[j] / c for a double c > 0 (exact, finite).
inline void div_rows_pos_sse(FastIntervalD* dr, const FastIntervalD* x, double c, std::size_t n) {
  const __m128d C = detail::opaque2(_mm_set1_pd(c));
  for (std::size_t j = 0; j < n; ++j) detail::store_neglo(dr + j, _mm_div_pd(detail::opaque2(detail::load_neglo(x + j)), C));
}
inline bool all_finite(const FastIntervalD* p, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j)
    if (!(std::isfinite(p[j].lower()) && std::isfinite(p[j].upper()))) return false;
  return true;
}
#endif

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

// mpfr_mul + mpfr_add into one scratch rather than mpfr_fma, which forms the exact product and
// then a general addition, a large part of a 128-bit Taylor run (docs/performance.md, "What
// limits each figure" §4).
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
