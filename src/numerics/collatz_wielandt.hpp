#pragma once
// An upper bound of the spectral radius ρ(N) of a nonnegative matrix N given as a product
// v ↦ N v: max_i (N v)_i / v_i for a positive v (Collatz–Wielandt: ρ(N) = ρ(D⁻¹ N D) ≤ the largest
// row sum of D⁻¹ N D, D = diag(v)), for a dense matrix (numerics/log_norm_bound.cpp) or one given
// by thin factors (numerics/product_log_norm.cpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include <Eigen/Dense>

#include "numerics/round_upward.hpp"

namespace softcert::num::detail {

// apply(v, w) must set w = N v, with N ≥ 0 entrywise, so that in upward rounding every sum and
// product it forms of nonnegative terms is ≥ its exact value. v is proposed by 25 power
// iterations (any rounding), with a floor of 10⁻³ that keeps it positive; should they degenerate
// (a row sum overflows, N v = 0), v = 1, which bounds ρ(N) by the largest row sum.
// Guarantee: ρ(N) ≤ result, or result = +inf whenever a quotient is not finite (an overflow
// never shrinks the bound: a NaN is never taken for 0).
template <class Apply>
double collatz_wielandt_upper_bound(Apply&& apply, std::size_t n) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto N = static_cast<Eigen::Index>(n);
  Eigen::VectorXd v = Eigen::VectorXd::Ones(N), w(N);
  for (int it = 0; it < 25; ++it) {
    apply(v, w);
    if (!w.allFinite()) {
      v.setOnes();
      break;
    }
    const double top = w.maxCoeff();
    if (!(top > 0)) {  // N v = 0 for a positive v: N = 0 (then v = 1 gives the bound 0, exactly ρ(N))
      v.setOnes();
      break;
    }
    // a floor keeps v positive (a zero v_i would void the quotient)
    v = (w / top).array() + 1e-3;
  }
  if (!v.allFinite() || !(v.minCoeff() > 0)) v.setOnes();  // (cannot happen; the quotient needs it)
  // max_i (N v)_i / v_i with every operation rounded upward: all terms are nonnegative, so each
  // rounded-up sum and quotient is ≥ its exact value.
  return upward([&] {
    apply(v, w);
    double bound = 0;
    for (Eigen::Index i = 0; i < N; ++i) {
      const double q = w(i) / v(i);
      if (!std::isfinite(q)) return inf;
      bound = std::max(bound, q);
    }
    return bound;
  });
}

}  // namespace softcert::num::detail
