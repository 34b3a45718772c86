#pragma once
// The decimal form of an enclosure, as the rigorous tier reports it (DecimalEnclosure,
// integrate/rigorous_integrate.hpp).
//
// Guarantee: lower ≤ every point of x ≤ upper (the decimals are rounded outward by
// num::lower_decimal / upper_decimal), and width ≥ upper(x) − lower(x) (one ulp above the
// width converted to double, so that a width rounded down in the conversion is still covered).
#include <cmath>
#include <limits>

#include "integrate/rigorous_integrate.hpp"
#include "numerics/decimal.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
DecimalEnclosure decimal_enclosure(const S& x) {
  const double w = num::to_double(num::hull_of_bounds<S>(num::width(x), num::width(x)));
  return DecimalEnclosure{num::lower_decimal(x), num::upper_decimal(x), std::nextafter(w, std::numeric_limits<double>::infinity())};
}

}  // namespace softcert::integrate
