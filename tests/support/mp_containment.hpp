#pragma once
// Whether an interval of any kind contains a high-precision reference value (MpReal), compared
// exactly: both end points converted to MpReal, which holds a double or an MPFI end point
// without rounding at the reference's precision or above.
#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::testing {

template <class S>
bool contains(const S& box, const MpReal& v) {
  return MpReal(num::lower(box)) <= v && v <= MpReal(num::upper(box));
}

}  // namespace softcert::testing
