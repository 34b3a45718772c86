#pragma once
// exp and log at a double as their two directed roundings [RD f(x), RU f(x)], MPFR's answer bit
// for bit, mostly without MPFR: IntervalD's exp and log (numerics/elementary_interval_double.cpp).
//
// A kernel in double arithmetic rounding upward encloses f(x); it trusts no libm function, only
// IEEE 754 +, −, ×, ÷ under FE_UPWARD and MPFR for its constants. Where its bounds are adjacent
// doubles they are the two directed roundings (exp x for x ≠ 0 and log x for x ≠ 1 are never
// doubles), which is nearly always; otherwise, and outside the kernel's domain, MPFR rounds f(x)
// each way.
//
// exp: x = (32k + i) ln 2/32 + r with integers k, 0 ≤ i < 32 and |r| ≤ ln 2/64; exp(r) by its Taylor
// polynomial of degree N plus the Lagrange remainder |r|^(N+1)/(N+1)! · e^|r|; exp(x) = 2^k ·
// 2^(i/32) · exp(r), 2^(i/32) a double plus an enclosed rest, the scaling by 2^k exact.
// log: x = 2^e m with m ∈ [1/√2, √2); log m = 2 atanh s, s = (m − 1)/(m + 1), |s| ≤ 0.172, by
// 2 Σ_{j<N} s^(2j+1)/(2j+1) plus the tail 2|s|^(2N+1)/((2N+1)(1 − s²)); log x = e ln 2 + log m.
// ln 2 is split as C1 + C2 + δ (C1 with 32 bits, so j·C1 is exact for |j| < 2^21), each of
// the three an MPFR-rounded enclosure; every step is an interval operation, so an inexact
// reduction costs width, never soundness.
//
// The kernels (detail::) are templates over the degree so that the tests can run low degrees,
// where a dropped or wrong remainder shows, through the same code as the default degree.
// They must run with the FPU rounding upward (num::upward): an upper bound is the operation
// itself, a lower bound −((−a) ∘ b), every operand through detail::opaque so that the compiler
// can neither fold the negations nor move an operation out of the upward scope.
#include <cmath>
#include <cstdint>

#include "numerics/kinds.hpp"

namespace softcert::num {

struct DoubleBounds {
  double lo, hi;
};

// Guarantee: lo = RD exp(x), hi = RU exp(x) for every double x (so lo ≤ exp(x) ≤ hi; hi = +∞
// where exp(x) > DBL_MAX). |x| ≤ 707 runs the kernel below; elsewhere MPFR. NaN throws
// std::domain_error.
DoubleBounds exp_bounds(double x);
// Guarantee: lo = RD log(x), hi = RU log(x) for every double x > 0. Normal x runs the kernel
// below; subnormal x and +∞ MPFR. x ≤ 0 or NaN throws std::domain_error.
DoubleBounds log_bounds(double x);
// [exp_bounds(lo).lo, exp_bounds(hi).hi] and the same for log, in one upward scope.
DoubleBounds exp_bounds(double lo, double hi);
DoubleBounds log_bounds(double lo, double hi);

// Whether IntervalD's exp and log (elementary_interval_double.cpp) use these bounds (the default)
// or MPFR alone: the same bits, the benches' peer.
void set_elementary_from_mpfr(bool mpfr);
bool elementary_from_mpfr();

namespace detail {

// The constants of the kernels, enclosed by MPFR once per process.
struct ElementaryConstants {
  double ln2_c1;                    // ln 2 rounded to 32 bits
  DoubleBounds ln2_c2, ln2_rest;    // ln 2 − C1 = C2 + δ: C2 exact as a double pair, δ enclosed
  DoubleBounds inv_factorial[41];   // 1/j!
  DoubleBounds inv_odd[40];         // 1/(2j + 1)
  double exp_r_max_hi;              // an upper bound of e^0.011
  double exp2_head[32];             // 2^(i/32) rounded to nearest
  DoubleBounds exp2_rest[32];       // 2^(i/32) − exp2_head[i], enclosed
};
const ElementaryConstants& elementary_constants();

// Interval arithmetic on (lo, hi) under FE_UPWARD.
inline DoubleBounds up_add(DoubleBounds a, DoubleBounds b) {
  return {-opaque(opaque(-a.lo) - opaque(b.lo)), opaque(opaque(a.hi) + opaque(b.hi))};
}
inline DoubleBounds up_sub(DoubleBounds a, DoubleBounds b) {
  return {-opaque(opaque(b.hi) - opaque(a.lo)), opaque(opaque(a.hi) - opaque(b.lo))};
}
// The exact image's ends are among the four end-point products (finite operands).
inline DoubleBounds up_mul(DoubleBounds a, DoubleBounds b) {
  const double al = opaque(a.lo), ah = opaque(a.hi), bl = opaque(b.lo), bh = opaque(b.hi);
  const double nal = opaque(-a.lo), nah = opaque(-a.hi);
  const double hi = opaque(std::fmax(std::fmax(al * bl, al * bh), std::fmax(ah * bl, ah * bh)));
  const double lo = -opaque(std::fmax(std::fmax(nal * bl, nal * bh), std::fmax(nah * bl, nah * bh)));
  return {lo, hi};
}
// a / b for 0 < b.lo.
inline DoubleBounds up_div_positive(DoubleBounds a, DoubleBounds b) {
  const double lo_den = a.lo >= 0 ? b.hi : b.lo, hi_den = a.hi >= 0 ? b.lo : b.hi;
  return {-opaque(opaque(-a.lo) / opaque(lo_den)), opaque(opaque(a.hi) / opaque(hi_den))};
}
inline double up_abs_max(DoubleBounds a) { return std::fmax(std::fabs(a.lo), std::fabs(a.hi)); }
// x^n rounded upward, x ≥ 0.
inline double up_pow(double x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i) p = opaque(opaque(p) * opaque(x));
  return p;
}

// x − j ln 2/32 for an integer |j| ≤ 2^16, as head + tail: head = x − j·C1/32 (exact where x is
// near j ln 2/32, so a point), tail = −j(C2 + δ)/32 (|tail| < 2^−17, its width below 2^−100). The
// division by 32 is exact. Rounding upward.
struct Reduced {
  DoubleBounds head, tail;
};
inline Reduced exp_reduction(double x, double j) {
  const ElementaryConstants& c = elementary_constants();
  const double c1 = c.ln2_c1 / 32;
  const DoubleBounds nj{-j / 32, -j / 32};
  return {up_sub({x, x}, up_mul({j, j}, {c1, c1})), up_add(up_mul(nj, c.ln2_c2), up_mul(nj, c.ln2_rest))};
}

// exp(x) for |x| ≤ 707, Taylor degree N (2 ≤ N < 40). Rounding upward. x = j ln 2/32 + r,
// j = 32k + i (0 ≤ i < 32), |r| ≤ ln 2/64 < 0.011: exp(x) = 2^k · 2^(i/32) · exp(r).
// ok = false where the reduction left |r| > 0.011 (not seen; the caller then asks MPFR).
template <int N>
DoubleBounds exp_kernel(double x, bool& ok) {
  static_assert(N >= 2 && N < 40);
  const ElementaryConstants& c = elementary_constants();
  // Any integer near 32x/ln 2 will do (|r| is checked below); std::round does not read the mode.
  const double j = std::round(opaque(x) * 46.166241308446828);
  const Reduced red = exp_reduction(x, j);
  const DoubleBounds r = up_add(red.head, red.tail);
  const double m = up_abs_max(r);
  ok = m <= 0.011;
  // exp(r) = 1 + t, t = a + (r − a) + r² h(r), h = Σ_{2≤n≤N} r^(n−2)/n!, a = head's upper end.
  DoubleBounds h = c.inv_factorial[N];
  for (int n = N - 1; n >= 2; --n) h = up_add(up_mul(h, r), c.inv_factorial[n]);
  const double a = red.head.hi;
  DoubleBounds t = up_add(up_sub(red.head, {a, a}), red.tail);
  t = up_add(t, up_mul(up_mul(r, r), h));
  // Lagrange: |exp(r) − P_N(r)| ≤ |r|^(N+1)/(N+1)! · e^|r|.
  const double rem = opaque(opaque(up_pow(m, N + 1)) * opaque(c.inv_factorial[N + 1].hi)) * opaque(c.exp_r_max_hi);
  t = up_add(up_add(t, {-rem, rem}), {a, a});
  // 2^(i/32)(1 + t) = T + [T t + T'(1 + t)] with 2^(i/32) = T + T' (T a double, T' enclosed): the
  // bracket is below 0.03 in size, so its roundings are 1/64 ulp of the result, and only the
  // last addition rounds at the result's ulp: nearly always two adjacent doubles.
  const double k = std::floor(j / 32);
  const int i = static_cast<int>(j - 32 * k);
  const double big = c.exp2_head[i];
  const DoubleBounds fine = c.exp2_rest[i];
  const DoubleBounds bracket = up_add(up_mul({big, big}, t), up_mul(fine, up_add({1, 1}, t)));
  const DoubleBounds p = up_add({big, big}, bracket);
  const int e = static_cast<int>(k);  // −1021 ≤ k ≤ 1021, p ∈ [0.98, 2.03]: p·2^k is a normal double, so ldexp is exact
  return {std::ldexp(p.lo, e), std::ldexp(p.hi, e)};
}

// log(x) for a normal positive finite x, N terms of the atanh series (2 ≤ N < 40). Rounding upward.
template <int N>
DoubleBounds log_kernel(double x, bool& ok) {
  static_assert(N >= 2 && N < 40);
  const ElementaryConstants& c = elementary_constants();
  int e = 0;
  double m = std::frexp(x, &e);  // exact: x = m 2^e, m ∈ [0.5, 1)
  if (m < 0.70710678118654752) {
    m *= 2;  // exact
    --e;
  }
  // f = m − 1 is exact (Sterbenz), so log m = log(1 + f) = 2 atanh s, s = f/(2 + f), is
  // f − f s + 2 s³ q(s²), q = Σ_{1≤j<N} s^(2j−2)/(2j+1) (from 2s = f − f s): every term after f is
  // below 0.07 in size, so s's rounding costs 1/16 ulp of the result.
  const DoubleBounds ff = up_sub({m, m}, {1, 1});
  const double f = ff.hi;
  const DoubleBounds s = up_div_positive(ff, up_add({m, m}, {1, 1}));
  const DoubleBounds s2 = up_mul(s, s);
  DoubleBounds q = c.inv_odd[N - 1];
  for (int j = N - 2; j >= 1; --j) q = up_add(up_mul(q, s2), c.inv_odd[j]);
  DoubleBounds rest = up_sub(up_sub(ff, {f, f}), up_mul(ff, s));
  rest = up_add(rest, up_mul({2, 2}, up_mul(up_mul(s, s2), q)));
  // The tail Σ_{j≥N} s^(2j+1)/(2j+1) ≤ |s|^(2N+1) / ((2N+1)(1 − s²)), twice for log m.
  const double a = up_abs_max(s);
  ok = a <= 0.2;
  const double one_minus_a2_lo = -opaque(opaque(opaque(a) * opaque(a)) - 1.0);  // ≤ 1 − a²
  const double tail = opaque(opaque(2.0 * opaque(up_pow(a, 2 * N + 1))) * opaque(c.inv_odd[N].hi)) /
                      opaque(one_minus_a2_lo);
  rest = up_add(rest, {-tail, tail});
  // log x = e C1 + f + (rest + e C2 + e δ); e C1 is exact (|e| < 2^11). The two large terms are
  // added once, rounded (h), and their exact sum is h + ((e C1 − h) + f), the bracket enclosed:
  // only the last addition rounds at the result's ulp.
  const double ee = static_cast<double>(e);
  const double ec1 = opaque(ee * c.ln2_c1);
  const double h = opaque(opaque(ec1) + opaque(f));
  rest = up_add(rest, up_add(up_sub({ec1, ec1}, {h, h}), {f, f}));
  rest = up_add(rest, up_add(up_mul({ee, ee}, c.ln2_c2), up_mul({ee, ee}, c.ln2_rest)));
  return up_add({h, h}, rest);
}

inline constexpr int kExpDegree = 7;   // remainder ≤ 0.011^8/8! e^0.011 ≈ 5e-21 < 2^-67
inline constexpr int kLogTerms = 11;   // tail ≤ 2·0.172^23/23 ≈ 2e-19

}  // namespace detail
}  // namespace softcert::num
