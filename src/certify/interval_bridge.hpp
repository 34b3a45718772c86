#pragma once
// Exact rationals into MPFI intervals, and interval bounds out as decimal strings.
#include <mpfi.h>

#include <string>

#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {

// Guarantee: the result contains x (MPFI rounds the endpoints outward), at the current
// thread precision (num::PrecisionGuard).
inline IntervalMp enclose(const Rational& x) {
  IntervalMp r;
  mpfi_set_q(r.backend().data(), x.backend().data());
  return r;
}

// Guarantee: contains the double d exactly (thin when the precision is ≥ 53 bits).
inline IntervalMp enclose(double d) {
  IntervalMp r;
  mpfi_set_d(r.backend().data(), d);
  return r;
}

// Outward decimal bounds (the pair encloses x).
inline std::string lo_str(const IntervalMp& x, int digits = 17) { return num::lower_decimal(x, digits); }
inline std::string hi_str(const IntervalMp& x, int digits = 17) { return num::upper_decimal(x, digits); }

// Interval min of two intervals: encloses min(a, b) for every a ∈ A, b ∈ B.
inline IntervalMp interval_min(const IntervalMp& a, const IntervalMp& b) {
  const auto lo = num::lower(a) < num::lower(b) ? num::lower(a) : num::lower(b);
  const auto hi = num::upper(a) < num::upper(b) ? num::upper(a) : num::upper(b);
  return num::hull_of_bounds<IntervalMp>(lo, hi);
}

// Interval max of two intervals: encloses max(a, b) for every a ∈ A, b ∈ B.
inline IntervalMp interval_max(const IntervalMp& a, const IntervalMp& b) {
  const auto lo = num::lower(a) < num::lower(b) ? num::lower(b) : num::lower(a);
  const auto hi = num::upper(a) < num::upper(b) ? num::upper(b) : num::upper(a);
  return num::hull_of_bounds<IntervalMp>(lo, hi);
}

}  // namespace softcert::certify
