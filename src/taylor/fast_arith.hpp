#pragma once
// The arithmetic the Taylor tape's inner loops run in.
//
// For IntervalD the foundation's kind saves, sets and restores the FPU rounding mode around
// every operation (measured: 65% of the integrator's time went to fesetround/fegetround).
// Inside the tape's coefficient loops we instead set the mode to upward ONCE (RAII Guard) and
// use Boost's "opposite" trick: a lower bound is −((−x) ∘ y) rounded up. Every operand goes
// through num::detail::opaque so that the compiler cannot fold the negations away (folding
// −((−x) − y) into x + y is exact only in round-to-nearest).
//
// Guarantee: while a Guard is alive, FastIntervalD arithmetic encloses the exact results
// exactly as IntervalD does. Outside a Guard FastIntervalD arithmetic is NOT sound; the tape
// only computes with it inside Tape::solve, which holds a Guard.
// For every other kind the fast type is the kind itself and the Guard does nothing.
#include <boost/numeric/interval.hpp>

#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::taylor {

namespace detail {
using num::detail::opaque;
struct OpaqueOppArith : boost::numeric::interval_lib::rounded_arith_opp<double> {
  double add_down(double x, double y) { return -opaque(opaque(-x) - opaque(y)); }
  double add_up(double x, double y) { return opaque(x) + opaque(y); }
  double sub_down(double x, double y) { return -opaque(opaque(y) - opaque(x)); }
  double sub_up(double x, double y) { return opaque(x) - opaque(y); }
  double mul_down(double x, double y) { return -opaque(opaque(x) * opaque(-y)); }
  double mul_up(double x, double y) { return opaque(x) * opaque(y); }
  double div_down(double x, double y) { return -opaque(opaque(x) / opaque(-y)); }
  double div_up(double x, double y) { return opaque(x) / opaque(y); }
};
}  // namespace detail

using FastIntervalD = boost::numeric::interval<
    double, boost::numeric::interval_lib::policies<boost::numeric::interval_lib::save_state_nothing<detail::OpaqueOppArith>,
                                                   boost::numeric::interval_lib::checking_strict<double>>>;

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
