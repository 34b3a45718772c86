#pragma once
// One enclosure of the rigorous tier's results (EnclosedValue, integrate/rigorous_integrate.hpp)
// from an interval: its binary ends as they are, and its width.
//
// Guarantee: the ends are exactly those of x (so the enclosure contains every point of x), and
// width ≥ upper(x) − lower(x) (one ulp above the width converted to double, so that a width
// rounded down in the conversion is still covered).
#include <cmath>
#include <limits>

#include "integrate/rigorous_integrate.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
EnclosedValue enclosed_value(const S& x) {
  const double w = num::to_double(num::hull_of_bounds<S>(num::width(x), num::width(x)));
  return EnclosedValue{num::Enclosure(x), std::nextafter(w, std::numeric_limits<double>::infinity())};
}

}  // namespace softcert::integrate
