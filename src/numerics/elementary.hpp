#pragma once
// Elementary functions over every scalar kind, called as num::exp(x), num::log1p(x), ...
//
// Dispatch goes through the class template ElementaryOps<S>, so that other kinds (the Taylor
// series of taylor/) add their own specialisation and every model template works on them
// unchanged.
//
// Guarantees:
//  - IntervalD: the result contains f(x) for every x in the argument (the end points of monotone
//    pieces rounded outward as MPFR at 53 bits rounds them; see elementary_interval_double.cpp).
//  - IntervalMp: MPFI, same guarantee, at the current precision.
//  - Real, MpReal: the usual floating-point result (no guarantee).
//  - Rational: only the exact operations (sqr, pow_int); transcendental calls do not compile.
// Functions of an interval partly outside the domain (log of [−1, 2]) enclose the image of the
// part inside the domain; wholly outside (log of [−2, −1]) throws std::domain_error.
#include <cmath>
#include <stdexcept>

#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::num {

template <class S>
struct ElementaryOps;

template <>
struct ElementaryOps<Real> {
  static Real exp(Real x) { return std::exp(x); }
  static Real log(Real x) { return std::log(x); }
  static Real log1p(Real x) { return std::log1p(x); }
  static Real expm1(Real x) { return std::expm1(x); }
  static Real sqrt(Real x) { return std::sqrt(x); }
  static Real sqr(Real x) { return x * x; }
  static Real abs(Real x) { return std::fabs(x); }
};

template <>
struct ElementaryOps<MpReal> {
  static MpReal exp(const MpReal& x) { return boost::multiprecision::exp(x); }
  static MpReal log(const MpReal& x) { return boost::multiprecision::log(x); }
  static MpReal log1p(const MpReal& x) { return boost::multiprecision::log1p(x); }
  static MpReal expm1(const MpReal& x) { return boost::multiprecision::expm1(x); }
  static MpReal sqrt(const MpReal& x) { return boost::multiprecision::sqrt(x); }
  static MpReal sqr(const MpReal& x) { return x * x; }
  static MpReal abs(const MpReal& x) { return boost::multiprecision::abs(x); }
};

template <>
struct ElementaryOps<Rational> {
  static Rational sqr(const Rational& x) { return x * x; }
  static Rational abs(const Rational& x) { return boost::multiprecision::abs(x); }
};

// Implemented in elementary_interval_double.cpp: directed roundings of the end points.
IntervalD interval_exp(const IntervalD& x);
IntervalD interval_log(const IntervalD& x);
IntervalD interval_log1p(const IntervalD& x);
IntervalD interval_expm1(const IntervalD& x);
IntervalD interval_sqrt(const IntervalD& x);

template <>
struct ElementaryOps<IntervalD> {
  static IntervalD exp(const IntervalD& x) { return interval_exp(x); }
  static IntervalD log(const IntervalD& x) { return interval_log(x); }
  static IntervalD log1p(const IntervalD& x) { return interval_log1p(x); }
  static IntervalD expm1(const IntervalD& x) { return interval_expm1(x); }
  static IntervalD sqrt(const IntervalD& x) { return interval_sqrt(x); }
  // Boost.Interval's square is exact-image with directed rounding ([−1,2]² = [0,4]).
  static IntervalD sqr(const IntervalD& x) { return boost::numeric::square(x); }
  static IntervalD abs(const IntervalD& x) { return boost::numeric::abs(x); }
};

// MPFI: every function returns an enclosure of the image (MPFI's documented contract).
namespace detail {
template <int (*F)(mpfi_ptr, mpfi_srcptr)>
IntervalMp apply_mpfi(const IntervalMp& x) {
  IntervalMp r;
  F(r.backend().data(), x.backend().data());
  if (mpfi_nan_p(r.backend().data())) throw std::domain_error("interval argument outside the function's domain");
  return r;
}
}  // namespace detail

template <>
struct ElementaryOps<IntervalMp> {
  static IntervalMp exp(const IntervalMp& x) { return detail::apply_mpfi<mpfi_exp>(x); }
  static IntervalMp log(const IntervalMp& x) { return detail::apply_mpfi<mpfi_log>(x); }
  static IntervalMp log1p(const IntervalMp& x) { return detail::apply_mpfi<mpfi_log1p>(x); }
  static IntervalMp expm1(const IntervalMp& x) { return detail::apply_mpfi<mpfi_expm1>(x); }
  static IntervalMp sqrt(const IntervalMp& x) { return detail::apply_mpfi<mpfi_sqrt>(x); }
  static IntervalMp sqr(const IntervalMp& x) { return detail::apply_mpfi<mpfi_sqr>(x); }
  static IntervalMp abs(const IntervalMp& x) { return detail::apply_mpfi<mpfi_abs>(x); }
};

// ----- the calls models make --------------------------------------------------------------
// Always call these qualified (num::exp): an unqualified exp(x) on an IntervalD would find
// boost::numeric::exp by argument-dependent lookup, whose rounding is not sound.
template <class S> S exp(const S& x) { return ElementaryOps<S>::exp(x); }
template <class S> S log(const S& x) { return ElementaryOps<S>::log(x); }
template <class S> S log1p(const S& x) { return ElementaryOps<S>::log1p(x); }
template <class S> S expm1(const S& x) { return ElementaryOps<S>::expm1(x); }
template <class S> S sqrt(const S& x) { return ElementaryOps<S>::sqrt(x); }
template <class S> S sqr(const S& x) { return ElementaryOps<S>::sqr(x); }
template <class S> S abs(const S& x) { return ElementaryOps<S>::abs(x); }

// x^n for an integer n ≥ 0 by squaring; for interval kinds each even power goes through sqr,
// so the result is nonnegative and tight for even n (x·x over [−1,2] would give [−2,4]).
// Encloses x^n for every x in the argument.
template <class S>
S pow_int(const S& x, unsigned n) {
  if (n == 0) return S(1);
  if (n == 1) return x;
  const S half = pow_int(x, n / 2);
  const S sq = num::sqr(half);
  return (n % 2 == 0) ? sq : S(sq * x);
}

// Reciprocal 1/x (interval kinds throw if x contains 0, as division does).
template <class S> S recip(const S& x) { return S(1) / x; }

}  // namespace softcert::num
