#pragma once
// Coefficient recurrences of Taylor-mode automatic differentiation (Griewank & Walther,
// "Evaluating Derivatives", ch. 13): coefficient k of c = op(a, b) from coefficients 0..k of
// the operands and 0..k−1 of c. Shared by taylor::Series (whole series at once) and
// taylor::Tape (one order at a time over a recorded vector field), so both compute exactly the
// same formulas.
//
// Guarantee (interval kinds S): each function returns an interval containing the exact
// coefficient for every choice of operand coefficients inside the given intervals, because
// it is one fixed expression in +, −, ×, ÷ of S, each of which encloses its exact image.
// Divisions by k are divisions by the exact integer S(k).
#include <cstddef>

#include "taylor/mac.hpp"

namespace softcert::taylor::coef {

// Σ_{j=0}^{k} a_j b_{k−j}
template <class S>
S mul(const S* a, const S* b, std::size_t k) {
  S acc = a[0] * b[k];
  for (std::size_t j = 1; j <= k; ++j) mac(acc, a[j], b[k - j]);
  return acc;
}

// c = a², coefficient k: Σ_j a_j a_{k−j}, using the symmetry (half the products).
template <class S>
S sqr(const S* a, std::size_t k) {
  if (k == 0) return a[0] * a[0];
  S acc = a[0] * a[k];
  for (std::size_t j = 1; 2 * j < k; ++j) mac(acc, a[j], a[k - j]);
  acc += acc;
  if (k % 2 == 0) acc += a[k / 2] * a[k / 2];
  return acc;
}

// c = a / b, k ≥ 1: (a_k − Σ_{j=0}^{k−1} c_j b_{k−j}) / b_0.
template <class S>
S div(const S* a, const S* b, const S* c, std::size_t k) {
  S acc = c[0] * b[k];
  for (std::size_t j = 1; j < k; ++j) mac(acc, c[j], b[k - j]);
  return (a[k] - acc) / b[0];
}

// c = exp(a), k ≥ 1: (1/k) Σ_{j=1}^{k} j a_j c_{k−j}.
template <class S>
S exp(const S* a, const S* c, std::size_t k) {
  S acc = a[1] * c[k - 1];
  for (std::size_t j = 2; j <= k; ++j) mac_scaled(acc, j, a[j], c[k - j]);
  return acc / S(static_cast<int>(k));
}

// c = exp(a) − 1, k ≥ 1: as exp, with e_0 = exp(a_0) given and e_m = c_m for m ≥ 1.
template <class S>
S expm1(const S* a, const S* c, const S& e0, std::size_t k) {
  S acc = S(static_cast<int>(k)) * a[k] * e0;
  for (std::size_t j = 1; j < k; ++j) mac_scaled(acc, j, a[j], c[k - j]);
  return acc / S(static_cast<int>(k));
}

// c = log(b) with b_0 = `b0` and b_m = a_m for m ≥ 1 (log: b = a; log1p: b = 1 + a), k ≥ 1:
// (a_k − (1/k) Σ_{j=1}^{k−1} j c_j a_{k−j}) / b_0.
template <class S>
S log(const S* a, const S* c, const S& b0, std::size_t k) {
  S acc = a[k];
  if (k > 1) {
    S sum = c[1] * a[k - 1];
    for (std::size_t j = 2; j < k; ++j) mac_scaled(sum, j, c[j], a[k - j]);
    acc -= sum / S(static_cast<int>(k));
  }
  return acc / b0;
}

// c = sqrt(a), k ≥ 1: (a_k − Σ_{j=1}^{k−1} c_j c_{k−j}) / (2 c_0).
template <class S>
S sqrt(const S* a, const S* c, std::size_t k) {
  if (k == 1) return a[1] / (S(2) * c[0]);
  S acc = c[1] * c[k - 1];
  for (std::size_t j = 2; j < k; ++j) mac(acc, c[j], c[k - j]);
  return (a[k] - acc) / (S(2) * c[0]);
}

}  // namespace softcert::taylor::coef
