#pragma once
// Certified exponents from certified brackets: the slopes s for which one power law c·T^s
// (some c > 0) passes through every bracket [L_i, U_i] at T_i. That set is an interval:
//   s ≥ (log L_j − log U_i) / (log T_j − log T_i)  and  s ≤ (log U_j − log L_i) / (log T_j − log T_i)
// for every pair T_i < T_j. Each quotient is enclosed in interval arithmetic and the interval
// is widened outward (lo rounded down, hi rounded up), so the returned interval contains every
// consistent slope; `empty` is reported only when even the widened interval is empty (then no
// power law fits the brackets, certainly). A bracket with L_i ≤ 0 or U_i = ∞ constrains one side
// only.
#include <cmath>
#include <vector>

namespace softcert::certify {

struct SlopeInterval {
  double lo = -INFINITY, hi = INFINITY;
  bool empty = false;
};

// ts strictly increasing, ≥ 1; lower.size() == upper.size() == ts.size().
SlopeInterval consistent_power_slopes(const std::vector<double>& ts, const std::vector<double>& lower, const std::vector<double>& upper);

}  // namespace softcert::certify
