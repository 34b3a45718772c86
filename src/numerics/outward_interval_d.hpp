#pragma once
// An interval of any of softcert's kinds as an IntervalD that contains it: each end rounded
// outward to a double (an MPFI interval's left end down, its right end up).
#include <type_traits>

#include <mpfr.h>

#include "numerics/kinds.hpp"

namespace softcert::num {

template <class S>
IntervalD outward_interval_d(const S& x) {
  if constexpr (std::is_same_v<S, IntervalD>) {
    return x;
  } else {
    const auto* v = x.backend().data();
    return IntervalD(mpfr_get_d(&v->left, MPFR_RNDD), mpfr_get_d(&v->right, MPFR_RNDU));
  }
}

}  // namespace softcert::num
