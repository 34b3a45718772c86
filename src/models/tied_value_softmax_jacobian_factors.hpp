#pragma once
// The tied model's Jacobian Df in τ-time (models/tied_value_softmax_jacobian.hpp) as a product of
// two thin factors, Df = L Rᵀ with L, R of n × k, k = 4D + 1 against n = D² + D + 1: what the
// ball step's μ needs (numerics/product_log_norm.hpp) without the n² entries of Df
// (docs/method.md §2b, "Df as a product").
//
// With the quantities of the closed form (c_ij = a_j α_i, P_ij,l = c_ij q_l − g_i J_jl −
// a_j w_i J_il) the U–U block a_m P_ij,l + c_ij g_l (α_m − δ_im) is Σ_p P_ij,p (δ_lp a_m) +
// Σ_p (c_ij δ_ip)(g_l (α_m − δ_pm)): rank ≤ 2D. The U–a block takes D columns (its columns of
// Df against unit vectors) and the D + 1 rows of a and t take D + 1 more (unit vectors against
// their rows). Columns of L and R, p in:
//   [0, D)       L_{(ij),p} = P_ij,p                 R_{(lm),p} = δ_lp a_m
//   [D, 2D)      L_{(ij),D+p} = c_ij δ_ip            R_{(lm),D+p} = g_l (α_m − δ_pm)
//   [2D, 3D)     L_{(ij),2D+m} = ∂f_{U,ij}/∂a_m      R_{a_m,2D+m} = 1
//   [3D, 4D]     L_{a_k,3D+k} = 1, L_{t,4D} = 1      R_{c,3D+k} = ∂f_{a,k}/∂x_c, R_{c,4D} = ∂f_t/∂x_c
// and zero elsewhere (t's column of Df is 0, so R's row for t is 0). α_m − δ_pm is one interval
// (α_p − 1 where m = p), as in the dense form, so no product is split where it would cancel.
//
// Guarantee (interval X): if it returns true, left and right hold n × k intervals (row-major)
// such that for every y in the box x there are real matrices L ∈ left, R ∈ right with
// Df(y) = L Rᵀ, Df the model's exact field's Jacobian: every entry of L and R is a function of y
// evaluated in interval arithmetic over the box (inclusion property) by the same formulas as the
// dense closed form. Returns false in t-time, leaving the outputs unspecified. Tests:
// tests/models/tied_value_softmax_jacobian_test.cpp (the product contains the 256-bit tape
// Jacobian at points of random boxes; fails with a term dropped).
#include <cstddef>
#include <vector>

#include "models/tied_value_softmax_jacobian.hpp"

namespace softcert::models {

// k = 4D + 1: the factors' inner dimension for a model of dimension D.
inline std::size_t tied_jacobian_factor_rank(std::size_t D) { return 4 * D + 1; }

// Guarantee: see the top of this file.
template <class S, class X>
bool tied_value_softmax_jacobian_factors(const TiedValueSoftmax<S>& model, const std::vector<X>& x, std::vector<X>& left,
                                         std::vector<X>& right, std::size_t& k) {
  if (!has_closed_form_jacobian(model)) return false;
  const std::size_t D = model.dim(), DD = D * D, n = model.dimension();
  const detail::TiedJacobianParts<X> parts = detail::tied_jacobian_parts(model, x);
  using FA = taylor::FastArith<X>;
  using A = typename FA::type;
  k = tied_jacobian_factor_rank(D);
  left.assign(n * k, X(0));
  right.assign(n * k, X(0));
  const A zero(0.0), one(1.0);
  const auto &al = parts.al, &a = parts.a, &g = parts.g, &J = parts.J, &w = parts.w, &q = parts.q, &Ut = parts.Ut, &nu = parts.nu;
  const A es = parts.es;
  const std::size_t tr = n - 1;  // t's row
  [[maybe_unused]] const typename FA::Guard guard;
  // L's rows of U: P, c and the U–a block
  for (std::size_t i = 0; i < D; ++i)
    for (std::size_t j = 0; j < D; ++j) {
      X* row = left.data() + (i * D + j) * k;
      const A c = a[j] * al[i], awi = a[j] * w[i];
      for (std::size_t l = 0; l < D; ++l) row[l] = FA::from(c * q[l] - g[i] * J[j * D + l] - awi * J[i * D + l]);
      row[D + i] = FA::from(c);
      for (std::size_t m = 0; m < D; ++m) {
        A e = zero - g[i] * al[j] * Ut[j * D + m] - a[j] * (q[i] * Ut[i * D + m] - al[i] * nu[m]);
        if (m == j) e = e - q[i];
        row[2 * D + m] = FA::from(e);
      }
    }
  // L's rows of a and t: unit vectors
  for (std::size_t kk = 0; kk < D; ++kk) left[(DD + kk) * k + 3 * D + kk] = X(1);
  left[tr * k + 4 * D] = X(1);
  // R's rows of U (the columns of Df for U_lm)
  for (std::size_t l = 0; l < D; ++l)
    for (std::size_t m = 0; m < D; ++m) {
      X* row = right.data() + (l * D + m) * k;
      row[l] = FA::from(a[m]);
      for (std::size_t p = 0; p < D; ++p) row[D + p] = FA::from(g[l] * (m == p ? al[p] - one : al[m]));
      for (std::size_t kk = 0; kk < D; ++kk) {
        A e = a[m] * (al[l] * (nu[kk] - w[l] * Ut[l * D + kk])) - g[l] * (al[m] * Ut[m * D + kk]);
        if (m == kk) e = e - q[l];
        row[3 * D + kk] = FA::from(e);
      }
      row[4 * D] = FA::from(zero - es * (g[l] * al[m] + a[m] * q[l]));
    }
  // R's rows of a (the columns of Df for a_m)
  for (std::size_t m = 0; m < D; ++m) {
    X* row = right.data() + (DD + m) * k;
    row[2 * D + m] = X(1);
    for (std::size_t kk = 0; kk < D; ++kk) {
      A acc = zero;
      for (std::size_t i = 0; i < D; ++i) acc = acc + Ut[i * D + kk] * q[i] * Ut[i * D + m];
      row[3 * D + kk] = FA::from(zero - acc);
    }
    row[4 * D] = FA::from(zero - es * nu[m]);
  }
  return true;
}

}  // namespace softcert::models
