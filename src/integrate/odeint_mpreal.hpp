#pragma once
// Makes Boost.Odeint (1.74) usable with softcert's multiprecision kinds. Include this before
// (or instead of nothing else than) any odeint header that instantiates a controlled stepper on
// MpReal.
//
// Why: odeint's detail::extract_value_type<S> recurses into S::value_type. A multiprecision
// number<B,E> has a value_type of its own, so the recursion never reaches a plain scalar and
// controlled steppers fail to compile (docs/fast_tier.md). A partial specialisation on number<B,E> is
// ambiguous with odeint's enable_if partial specialisations (GCC 12), so we give explicit
// (full) specialisations for the kinds we use: a number is its own value type.
#include <cmath>

#include <boost/numeric/odeint/algebra/detail/extract_value_type.hpp>

#include "numerics/kinds.hpp"

namespace boost::numeric::odeint::detail {

template <>
struct extract_value_type<softcert::MpReal, void> {
  using type = softcert::MpReal;
};

template <>
struct extract_value_type<softcert::IntervalMp, void> {
  using type = softcert::IntervalMp;
};

}  // namespace boost::numeric::odeint::detail

// Odeint's Bulirsch–Stoer calls pow unqualified from inside boost::numeric::odeint. Once
// Boost.Interval is included (numerics/kinds.hpp), ordinary lookup stops at
// boost::numeric::pow (intervals) and never reaches ::pow for double; this using-declaration
// makes std::pow visible first (MpReal still finds its pow by argument-dependent lookup).
namespace boost::numeric::odeint {
using std::pow;
}  // namespace boost::numeric::odeint
