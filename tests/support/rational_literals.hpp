#pragma once
// q(p, r) = p/r as an exact Rational: hand-made instances of the exact certificates.
#include "numerics/kinds.hpp"

namespace softcert::testing {

inline Rational q(long p, long r = 1) { return Rational(p, r); }

}  // namespace softcert::testing
