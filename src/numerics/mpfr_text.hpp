#pragma once
// The one writer of MPFR numbers as decimal text (numerics/decimal.cpp), for the decimal edges
// of numerics/decimal.hpp and numerics/enclosure.hpp.
#include <mpfr.h>

#include <string>

namespace softcert::num {

// "d.ddddde±x" from an MPFR number with `digits` significant digits rounded in `rnd` (digits == 0:
// MPFR's choice, enough to round-trip at the number's precision); "0", "inf", "-inf", "nan".
std::string format_mpfr(mpfr_srcptr x, int digits, mpfr_rnd_t rnd);

}  // namespace softcert::num
