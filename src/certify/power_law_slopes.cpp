#include "certify/power_law_slopes.hpp"

#include <cmath>
#include <stdexcept>

#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {

SlopeInterval consistent_power_slopes(const std::vector<double>& ts, const std::vector<double>& lower, const std::vector<double>& upper) {
  if (ts.size() != lower.size() || ts.size() != upper.size()) throw std::invalid_argument("power-law slopes: sizes differ");
  for (std::size_t i = 0; i < ts.size(); ++i)
    if (!(ts[i] >= 1) || (i > 0 && !(ts[i] > ts[i - 1]))) throw std::invalid_argument("power-law slopes: T must increase strictly from >= 1");
  SlopeInterval out;
  for (std::size_t i = 0; i < ts.size(); ++i)
    for (std::size_t j = i + 1; j < ts.size(); ++j) {
      const IntervalD span = num::log(IntervalD(ts[j])) - num::log(IntervalD(ts[i]));
      if (lower[j] > 0 && std::isfinite(upper[i]))  // c T_j^s ≥ L_j and c T_i^s ≤ U_i
        out.lo = std::max(out.lo, num::lower((num::log(IntervalD(lower[j])) - num::log(IntervalD(upper[i]))) / span));
      if (lower[i] > 0 && std::isfinite(upper[j]))  // c T_j^s ≤ U_j and c T_i^s ≥ L_i
        out.hi = std::min(out.hi, num::upper((num::log(IntervalD(upper[j])) - num::log(IntervalD(lower[i]))) / span));
    }
  out.empty = out.lo > out.hi;
  return out;
}

}  // namespace softcert::certify
