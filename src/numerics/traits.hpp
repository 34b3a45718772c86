#pragma once
// One interface over every scalar kind: bounds, widths, containment and comparisons.
//
// Point kinds (Real, MpReal, Rational) are degenerate intervals: lower == upper == the value.
// Comparisons come only as certainly_* (true ⇒ the relation holds for every pair of points of
// the operands) and possibly_* (false ⇒ it holds for no pair). Interval code must never use
// raw <, ==, max or abs to steer control flow: Boost.Interval throws and mpfi_float terminates
// on an undecided comparison (docs/arithmetic.md).
#include <mpfi.h>
#include <mpfr.h>

#include <string>
#include <type_traits>

#include "numerics/kinds.hpp"

namespace softcert::num {

template <class S>
struct ScalarTraits;  // specialised below for every kind

template <>
struct ScalarTraits<Real> {
  using Bound = Real;
  static constexpr bool is_interval = false, is_exact = false, is_rigorous = false;
  static const char* name() { return "double"; }
  static Bound lower(const Real& x) { return x; }
  static Bound upper(const Real& x) { return x; }
  static Bound mid(const Real& x) { return x; }
  static Bound width(const Real&) { return 0.0; }
  static bool contains(const Real& x, const Bound& v) { return x == v; }
  static Real hull(const Real& lo, const Real& hi) { return lo + (hi - lo) / 2; }
  static double to_double(const Real& x) { return x; }
};

template <>
struct ScalarTraits<MpReal> {
  using Bound = MpReal;
  static constexpr bool is_interval = false, is_exact = false, is_rigorous = false;
  static const char* name() { return "mpfr"; }
  static Bound lower(const MpReal& x) { return x; }
  static Bound upper(const MpReal& x) { return x; }
  static Bound mid(const MpReal& x) { return x; }
  static Bound width(const MpReal&) { return MpReal(0); }
  static bool contains(const MpReal& x, const Bound& v) { return x == v; }
  static MpReal hull(const MpReal& lo, const MpReal& hi) { return lo + (hi - lo) / 2; }
  static double to_double(const MpReal& x) { return x.convert_to<double>(); }
};

template <>
struct ScalarTraits<Rational> {
  using Bound = Rational;
  static constexpr bool is_interval = false, is_exact = true, is_rigorous = true;
  static const char* name() { return "rational"; }
  static Bound lower(const Rational& x) { return x; }
  static Bound upper(const Rational& x) { return x; }
  static Bound mid(const Rational& x) { return x; }
  static Bound width(const Rational&) { return Rational(0); }
  static bool contains(const Rational& x, const Bound& v) { return x == v; }
  static Rational hull(const Rational& lo, const Rational& hi) { return (lo + hi) / 2; }
  static double to_double(const Rational& x) { return x.convert_to<double>(); }
};

template <>
struct ScalarTraits<IntervalD> {
  using Bound = double;
  static constexpr bool is_interval = true, is_exact = false, is_rigorous = true;
  static const char* name() { return "interval-double"; }
  static Bound lower(const IntervalD& x) { return x.lower(); }
  static Bound upper(const IntervalD& x) { return x.upper(); }
  // A point inside x (not necessarily the exact midpoint).
  static Bound mid(const IntervalD& x) { return boost::numeric::median(x); }
  // An upper bound on upper − lower (rounded up).
  static Bound width(const IntervalD& x) { return boost::numeric::width(x); }
  static bool contains(const IntervalD& x, const Bound& v) { return x.lower() <= v && v <= x.upper(); }
  static IntervalD hull(const Bound& lo, const Bound& hi) { return IntervalD(lo, hi); }
  static double to_double(const IntervalD& x) { return mid(x); }
};

namespace detail {
// Copies an MPFR number into an MpReal of the same precision, rounding in `rnd` (exact when
// precisions agree, which they do: the copy takes the source's precision).
inline MpReal copy_mpfr(mpfr_srcptr src, mpfr_rnd_t rnd) {
  MpReal r;
  mpfr_set_prec(r.backend().data(), mpfr_get_prec(src));
  mpfr_set(r.backend().data(), src, rnd);
  return r;
}
}  // namespace detail

template <>
struct ScalarTraits<IntervalMp> {
  using Bound = MpReal;
  static constexpr bool is_interval = true, is_exact = false, is_rigorous = true;
  static const char* name() { return "interval-mpfr"; }
  static Bound lower(const IntervalMp& x) { return detail::copy_mpfr(&x.backend().data()->left, MPFR_RNDD); }
  static Bound upper(const IntervalMp& x) { return detail::copy_mpfr(&x.backend().data()->right, MPFR_RNDU); }
  // A point inside x.
  static Bound mid(const IntervalMp& x) {
    MpReal r;
    mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
    mpfi_mid(r.backend().data(), x.backend().data());
    return r;
  }
  // An upper bound on upper − lower.
  static Bound width(const IntervalMp& x) {
    MpReal r;
    mpfr_set_prec(r.backend().data(), mpfi_get_prec(x.backend().data()));
    mpfi_diam_abs(r.backend().data(), x.backend().data());
    return r;
  }
  static bool contains(const IntervalMp& x, const Bound& v) {
    return mpfi_is_inside_fr(v.backend().data(), x.backend().data()) != 0;
  }
  // The interval [lo, hi] (outward-rounded if the precision of the result is smaller).
  static IntervalMp hull(const Bound& lo, const Bound& hi) {
    IntervalMp r;
    mpfi_interv_fr(r.backend().data(), lo.backend().data(), hi.backend().data());
    return r;
  }
  static double to_double(const IntervalMp& x) { return mid(x).convert_to<double>(); }
};

template <class S>
using BoundOf = typename ScalarTraits<S>::Bound;
template <class S>
inline constexpr bool is_interval_v = ScalarTraits<S>::is_interval;
template <class S>
inline constexpr bool is_rigorous_v = ScalarTraits<S>::is_rigorous;

// ----- free functions -------------------------------------------------------------------
template <class S> BoundOf<S> lower(const S& x) { return ScalarTraits<S>::lower(x); }
template <class S> BoundOf<S> upper(const S& x) { return ScalarTraits<S>::upper(x); }
template <class S> BoundOf<S> mid(const S& x) { return ScalarTraits<S>::mid(x); }
template <class S> BoundOf<S> width(const S& x) { return ScalarTraits<S>::width(x); }
template <class S> bool contains(const S& x, const BoundOf<S>& v) { return ScalarTraits<S>::contains(x, v); }
template <class S> double to_double(const S& x) { return ScalarTraits<S>::to_double(x); }
template <class S> S hull_of_bounds(const BoundOf<S>& lo, const BoundOf<S>& hi) { return ScalarTraits<S>::hull(lo, hi); }
// A point of x, as a scalar of the same kind (thin interval for interval kinds).
template <class S> S mid_scalar(const S& x) { const auto m = mid(x); return hull_of_bounds<S>(m, m); }

// Relations between every point of a and every point of b.
template <class S> bool certainly_lt(const S& a, const S& b) { return upper(a) < lower(b); }
template <class S> bool certainly_le(const S& a, const S& b) { return upper(a) <= lower(b); }
template <class S> bool certainly_gt(const S& a, const S& b) { return lower(a) > upper(b); }
// Relations between some point of a and some point of b.
template <class S> bool possibly_lt(const S& a, const S& b) { return lower(a) < upper(b); }
template <class S> bool possibly_le(const S& a, const S& b) { return lower(a) <= upper(b); }
template <class S> bool possibly_gt(const S& a, const S& b) { return upper(a) > lower(b); }
template <class S> bool possibly_ge(const S& a, const S& b) { return upper(a) >= lower(b); }

template <class S> bool certainly_positive(const S& x) { return lower(x) > 0; }
template <class S> bool certainly_negative(const S& x) { return upper(x) < 0; }
template <class S> bool certainly_nonnegative(const S& x) { return lower(x) >= 0; }
template <class S> bool certainly_nonpositive(const S& x) { return upper(x) <= 0; }
template <class S> bool possibly_zero(const S& x) { return lower(x) <= 0 && upper(x) >= 0; }

// True when every point of a lies in b.
template <class S> bool subset(const S& a, const S& b) { return lower(b) <= lower(a) && upper(a) <= upper(b); }
// True when every point of a lies in the interior of b (the strict inclusion a Picard
// validation needs).
template <class S> bool interior_subset(const S& a, const S& b) { return lower(b) < lower(a) && upper(a) < upper(b); }

// The smallest enclosure of both (interval kinds); for point kinds only defined when equal.
template <class S>
S hull(const S& a, const S& b) {
  static_assert(is_interval_v<S>, "hull needs an interval kind");
  const auto lo = lower(a) < lower(b) ? lower(a) : lower(b);
  const auto hi = upper(a) > upper(b) ? upper(a) : upper(b);
  return hull_of_bounds<S>(lo, hi);
}

// The largest magnitude of any point: max(|lower|, |upper|), as a Bound (exact).
template <class S>
BoundOf<S> magnitude(const S& x) {
  auto lo = lower(x), hi = upper(x);
  if (lo < 0) lo = -lo;
  if (hi < 0) hi = -hi;
  return lo > hi ? lo : hi;
}

// Enclosures of max, min and |·| (interval kinds): bound-wise, so exact — every max(x, y) with
// x ∈ a, y ∈ b lies in max_of(a, b); likewise min_of, and |x| ∈ abs_of(a) for every x ∈ a.
// No comparison of intervals steers control flow here: only their (exact) bounds are compared.
template <class S>
S max_of(const S& a, const S& b) {
  static_assert(is_interval_v<S>, "max_of needs an interval kind");
  return hull_of_bounds<S>(lower(a) < lower(b) ? lower(b) : lower(a), upper(a) < upper(b) ? upper(b) : upper(a));
}
template <class S>
S min_of(const S& a, const S& b) {
  static_assert(is_interval_v<S>, "min_of needs an interval kind");
  return hull_of_bounds<S>(lower(a) < lower(b) ? lower(a) : lower(b), upper(a) < upper(b) ? upper(a) : upper(b));
}
template <class S>
S abs_of(const S& a) {
  static_assert(is_interval_v<S>, "abs_of needs an interval kind");
  if (lower(a) >= 0) return a;
  if (upper(a) <= 0) return hull_of_bounds<S>(-upper(a), -lower(a));
  return hull_of_bounds<S>(BoundOf<S>(0), magnitude(a));
}

}  // namespace softcert::num
