#pragma once
// The arithmetic the Taylor tape's inner loops run in.
//
// For IntervalD the foundation's kind saves, sets and restores the FPU rounding mode around
// every operation, which would take most of the integrator's time (docs/performance.md, "What
// limits each figure" §4).
// Inside the tape's coefficient loops we instead set the mode to upward ONCE (RAII Guard) and
// use Boost's "opposite" trick: a lower bound is −((−x) ∘ y) rounded up. Every operand goes
// through num::detail::opaque so that the compiler cannot fold the negations away (folding
// −((−x) − y) into x + y is exact only in round-to-nearest), and so does every rounded result:
// the opaque barrier (a volatile asm the value passes through) pins the operation before the
// Guard's destructor restores the mode. Without it the optimiser may schedule a scope's last
// operation after the restoring fesetround, in round-to-nearest (Boost's own rounded_arith_std
// has force_rounding for this).
//
// Guarantee: while a Guard is alive, FastIntervalD arithmetic encloses the exact results
// exactly as IntervalD does. Outside a Guard FastIntervalD arithmetic is NOT sound; the tape
// only computes with it inside Tape::solve, which holds a Guard.
// For every other kind the fast type is the kind itself and the Guard does nothing.
//
// The product of two FastIntervalD is branch-free (operator* below) instead of Boost's
// nine-case sign analysis, whose mispredicted sign branches would be a large part of the
// headline run (docs/performance.md, "What limits each figure" §4).
#include <algorithm>
#include <cmath>

#include <boost/numeric/interval.hpp>

#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::taylor {

namespace detail {
using num::detail::opaque;
struct OpaqueOppArith : boost::numeric::interval_lib::rounded_arith_opp<double> {
  double add_down(double x, double y) { return -opaque(opaque(-x) - opaque(y)); }
  double add_up(double x, double y) { return opaque(opaque(x) + opaque(y)); }
  double sub_down(double x, double y) { return -opaque(opaque(y) - opaque(x)); }
  double sub_up(double x, double y) { return opaque(opaque(x) - opaque(y)); }
  double mul_down(double x, double y) { return -opaque(opaque(x) * opaque(-y)); }
  double mul_up(double x, double y) { return opaque(opaque(x) * opaque(y)); }
  double div_down(double x, double y) { return -opaque(opaque(x) / opaque(-y)); }
  double div_up(double x, double y) { return opaque(opaque(x) / opaque(y)); }
};
}  // namespace detail

using FastIntervalD = boost::numeric::interval<
    double, boost::numeric::interval_lib::policies<boost::numeric::interval_lib::save_state_nothing<detail::OpaqueOppArith>,
                                                   boost::numeric::interval_lib::checking_strict<double>>>;

}  // namespace softcert::taylor

namespace boost::numeric {

// Branch-free product of two FastIntervalD, for use inside a FastArith Guard (rounding upward).
// Guarantee: encloses {x·y : x ∈ X, y ∈ Y}. With finite end points [a, b]·[c, d], the exact
// image is [min P, max P] over the four end-point products P. Each product rounded upward is
// ≥ its exact value, so their maximum is ≥ max P; each −((−a)·c) (the negated operand is
// exact, the product is rounded upward) is ≤ a·c, so the minimum of those is ≤ min P.
// Operands go through opaque() so the compiler cannot rewrite −((−a)·c) as a·c, and both ends do
// so that the products are computed while the Guard's mode holds. Non-finite end
// points (0·∞ would give NaN) fall back to Boost's product, which treats them correctly.
// A non-template function: overload resolution prefers it to Boost's operator* template, and
// argument-dependent lookup finds it here, in the namespace of boost::numeric::interval.
[[gnu::always_inline]] inline softcert::taylor::FastIntervalD operator*(const softcert::taylor::FastIntervalD& x,
                                                 const softcert::taylor::FastIntervalD& y) {
  using softcert::num::detail::opaque;
  using I = softcert::taylor::FastIntervalD;
  const double a = x.lower(), b = x.upper(), c = y.lower(), d = y.upper();
  if (!(std::isfinite(a) && std::isfinite(b) && std::isfinite(c) && std::isfinite(d)))
    return boost::numeric::operator*<double, typename I::traits_type>(x, y);
  const double oc = opaque(c), od = opaque(d), oa = opaque(a), ob = opaque(b);
  const double na = opaque(-a), nb = opaque(-b);
  const double hi = opaque(std::max(std::max(oa * oc, oa * od), std::max(ob * oc, ob * od)));
  const double lo = -opaque(std::max(std::max(na * oc, na * od), std::max(nb * oc, nb * od)));
  return I(lo, hi);
}

}  // namespace boost::numeric

namespace softcert::taylor {

template <class S>
struct FastArith {
  using type = S;
  struct Guard {};
  static const S& to(const S& x) { return x; }
  static const S& from(const S& x) { return x; }
};

template <>
struct FastArith<IntervalD> {
  using type = FastIntervalD;
  // Sets the FPU to round upward for its lifetime, restores the previous mode after.
  using Guard = boost::numeric::interval_lib::save_state<detail::OpaqueOppArith>;
  static FastIntervalD to(const IntervalD& x) { return FastIntervalD(x.lower(), x.upper()); }
  static IntervalD from(const FastIntervalD& x) { return IntervalD(x.lower(), x.upper()); }
};

}  // namespace softcert::taylor
