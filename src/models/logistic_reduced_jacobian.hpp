#pragma once
// The Jacobian of the reduced logistic t-time field (models/logistic_reduced.hpp), state
// x = (a, u) ∈ R^{2T}, written from its closed form:
//     s = softmax(a), m = sᵀu, γ = 1/(1 + e^m), γ' = dγ/dm = −γ(1 − γ), w_i = s_i (u_i − m),
//     f_{a_i} = γ w_i,   f_{u_i} = c γ s_i,
//     ∂s_i/∂a_j = s_i(δ_ij − s_j),  ∂m/∂a_j = s_j(u_j − m) = w_j,  ∂m/∂u_j = s_j,
//     ∂w_i/∂a_j = s_i(δ_ij − s_j)(u_i − m) − s_i w_j,   ∂w_i/∂u_j = s_i(δ_ij − s_j),
// so
//     ∂f_{a_i}/∂a_j = γ' w_j w_i + γ ∂w_i/∂a_j,    ∂f_{a_i}/∂u_j = γ' s_j w_i + γ s_i(δ_ij − s_j),
//     ∂f_{u_i}/∂a_j = c(γ' w_j s_i + γ s_i(δ_ij − s_j)),   ∂f_{u_i}/∂u_j = c γ' s_j s_i.
// It is what a map's Lohner step needs (integrate/gradient_descent_lohner.hpp): the iterates'
// map x ↦ x + lr f(x) has Jacobian I + lr Df.
//
// Guarantee (interval K): every entry of Df (2T × 2T, row-major) contains ∂f_i/∂x_j at every
// point of the box x, since each entry is an interval evaluation of the formula above over x
// (s, m, γ enclosed over the whole box; each occurrence of them is a superset of its values).
// Tests: tests/models/logistic_reduced_jacobian_test.cpp (the entries enclose central
// differences of the field at high precision; the map's enclosures hold corner images).
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/stable.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::models {

template <class Model, class K>
void logistic_reduced_jacobian(const Model& model, const std::vector<K>& x, std::vector<K>& Df) {
  const std::size_t T = model.tokens(), n = 2 * T;
  if (x.size() != n) throw std::invalid_argument("logistic_reduced_jacobian: the state has the wrong dimension");
  const K c(model.c());
  // The O(T) quotient form: over the narrow boxes of an iteration it is as tight as the O(T²)
  // pairwise form (both are exact formulas for σ), at a fraction of the exponentials.
  const std::vector<K> s = num::softmax_quotient(std::vector<K>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(T)));
  K m(0);
  for (std::size_t i = 0; i < T; ++i) m += s[i] * x[T + i];
  const K gamma = K(1) / (K(1) + num::exp(m));
  // 1 − γ = e^m/(1 + e^m) = 1/(1 + e^{−m}): enclosed directly, not as 1 − γ (no cancellation).
  const K one_minus_gamma = K(1) / (K(1) + num::exp(K(-m)));
  const K dgamma = -(gamma * one_minus_gamma);
  // The n² entries in the fast arithmetic (one rounding-mode switch for the loop instead of two
  // per operation; the same enclosures, taylor/fast_arith.hpp).
  using FA = taylor::FastArith<K>;
  using F = typename FA::type;
  std::vector<F> sf(T), uf(T);
  for (std::size_t i = 0; i < T; ++i) sf[i] = FA::to(s[i]), uf[i] = FA::to(x[T + i]);
  const F mf = FA::to(m), cf = FA::to(c), gf = FA::to(gamma), dgf = FA::to(dgamma);
  std::vector<F> w(T), D(n * n);
  {
    [[maybe_unused]] const typename FA::Guard guard;
    for (std::size_t i = 0; i < T; ++i) w[i] = sf[i] * (uf[i] - mf);
    for (std::size_t i = 0; i < T; ++i)
      for (std::size_t j = 0; j < T; ++j) {
        const F ds = i == j ? F(sf[i] * (F(1) - sf[j])) : F(-(sf[i] * sf[j]));  // ∂s_i/∂a_j
        const F dw_da = ds * (uf[i] - mf) - sf[i] * w[j];
        D[i * n + j] = dgf * w[j] * w[i] + gf * dw_da;
        D[i * n + T + j] = dgf * sf[j] * w[i] + gf * ds;
        D[(T + i) * n + j] = cf * (dgf * w[j] * sf[i] + gf * ds);
        D[(T + i) * n + T + j] = cf * dgf * sf[j] * sf[i];
      }
  }
  Df.resize(n * n);
  for (std::size_t e = 0; e < n * n; ++e) Df[e] = FA::from(D[e]);
}

}  // namespace softcert::models
