#pragma once
// Small dense linear algebra for Lohner's method: interval matrix products, a floating-point
// QR factorisation (any orthogonal-ish Q will do: its inverse is enclosed rigorously), and
// the rigorous enclosure of Q⁻¹.
// Matrices are row-major std::vector of n×n entries.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::integrate::lohner {

// C = A·B (interval arithmetic: C encloses every product of point matrices in A, B).
template <class S>
void mat_mul(const std::vector<S>& A, const std::vector<S>& B, std::vector<S>& C, std::size_t n) {
  C.assign(n * n, S(0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      const S& aik = A[i * n + k];
      for (std::size_t j = 0; j < n; ++j) C[i * n + j] += aik * B[k * n + j];
    }
}

// The same products in the fast arithmetic of taylor/fast_arith.hpp (one rounding-mode switch
// per call instead of per operation for IntervalD). Same guarantee.
template <class S>
std::vector<typename taylor::FastArith<S>::type> to_fast(const std::vector<S>& x) {
  std::vector<typename taylor::FastArith<S>::type> y;
  y.reserve(x.size());
  for (const auto& v : x) y.push_back(taylor::FastArith<S>::to(v));
  return y;
}
template <class S, class A>
std::vector<S> from_fast(const std::vector<A>& x) {
  std::vector<S> y;
  y.reserve(x.size());
  for (const auto& v : x) y.push_back(taylor::FastArith<S>::from(v));
  return y;
}
template <class S>
void fast_mat_mul(const std::vector<S>& A, const std::vector<S>& B, std::vector<S>& C, std::size_t n) {
  using F = typename taylor::FastArith<S>::type;
  const auto a = to_fast(A), b = to_fast(B);
  std::vector<F> c;
  {
    [[maybe_unused]] const typename taylor::FastArith<S>::Guard guard;
    mat_mul(a, b, c, n);
  }
  C = from_fast<S>(c);
}
template <class S>
std::vector<S> mat_vec(const std::vector<S>& A, const std::vector<S>& x, std::size_t n);
template <class S>
std::vector<S> fast_mat_vec(const std::vector<S>& A, const std::vector<S>& x, std::size_t n) {
  using F = typename taylor::FastArith<S>::type;
  const auto a = to_fast(A), b = to_fast(x);
  std::vector<F> y;
  {
    [[maybe_unused]] const typename taylor::FastArith<S>::Guard guard;
    y = mat_vec(a, b, n);
  }
  return from_fast<S>(y);
}

// y = A·x (encloses every product of points of A and x).
template <class S>
std::vector<S> mat_vec(const std::vector<S>& A, const std::vector<S>& x, std::size_t n) {
  std::vector<S> y(n, S(0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) y[i] += A[i * n + j] * x[j];
  return y;
}

// An orthogonal matrix Q (thin intervals, floating-point values, no guarantee) from the
// Householder QR factorisation of M = mid(A)·P, where the permutation P orders the columns
// of A by decreasing ‖A_j‖·width(r_j) (Lohner's choice: the longest edges of the
// parallelepiped A·r are kept best).
template <class S>
std::vector<S> orthogonal_from(const std::vector<S>& A, const std::vector<S>& r, std::size_t n) {
  using B = num::BoundOf<S>;
  std::vector<B> M(n * n);
  for (std::size_t i = 0; i < n * n; ++i) M[i] = num::mid(A[i]);
  std::vector<B> score(n);
  for (std::size_t j = 0; j < n; ++j) {
    B s(0);
    for (std::size_t i = 0; i < n; ++i) s += M[i * n + j] * M[i * n + j];
    const B w = num::width(r[j]);
    score[j] = num::sqrt(s) * (w > 0 ? w : B(0)) + num::sqrt(s) * B(1e-300);
  }
  std::vector<std::size_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](std::size_t x, std::size_t y) { return score[x] > score[y]; });
  std::vector<B> R(n * n);  // R = M·P
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) R[i * n + j] = M[i * n + perm[j]];
  // Householder: accumulate Q = H_0 H_1 … H_{n−1}.
  std::vector<B> Q(n * n, B(0));
  for (std::size_t i = 0; i < n; ++i) Q[i * n + i] = B(1);
  std::vector<B> v(n);
  for (std::size_t k = 0; k + 1 < n; ++k) {
    B norm2(0);
    for (std::size_t i = k; i < n; ++i) norm2 += R[i * n + k] * R[i * n + k];
    B norm = num::sqrt(norm2);
    if (norm == 0) continue;
    if (R[k * n + k] < 0) norm = -norm;
    for (std::size_t i = 0; i < n; ++i) v[i] = i < k ? B(0) : R[i * n + k];
    v[k] += norm;
    B vv(0);
    for (std::size_t i = k; i < n; ++i) vv += v[i] * v[i];
    if (vv == 0) continue;
    // R ← (I − 2vvᵀ/vᵀv) R ; Q ← Q (I − 2vvᵀ/vᵀv)
    for (std::size_t j = k; j < n; ++j) {
      B dot(0);
      for (std::size_t i = k; i < n; ++i) dot += v[i] * R[i * n + j];
      const B f = B(2) * dot / vv;
      for (std::size_t i = k; i < n; ++i) R[i * n + j] -= f * v[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      B dot(0);
      for (std::size_t j = k; j < n; ++j) dot += Q[i * n + j] * v[j];
      const B f = B(2) * dot / vv;
      for (std::size_t j = k; j < n; ++j) Q[i * n + j] -= f * v[j];
    }
  }
  std::vector<S> out(n * n);
  for (std::size_t i = 0; i < n * n; ++i) out[i] = num::hull_of_bounds<S>(Q[i], Q[i]);
  return out;
}

// Guarantee: returns an interval matrix containing Q⁻¹ for the point matrix Q (thin
// intervals). With E = I − QᵀQ (enclosed) and η ≥ ‖E‖∞ < 1: Q⁻¹ = (I − E)⁻¹Qᵀ = Qᵀ + E(I − E)⁻¹Qᵀ
// and every entry of the last term is at most η/(1 − η)·‖Qᵀ‖∞ in magnitude. Throws if η ≥ 1/2
// (Q far from orthogonal: never happens for a Householder product).
template <class S>
std::vector<S> inverse_of_orthogonal(const std::vector<S>& Q, std::size_t n) {
  std::vector<S> Qt(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) Qt[i * n + j] = Q[j * n + i];
  std::vector<S> QtQ;
  fast_mat_mul(Qt, Q, QtQ, n);
  using B = num::BoundOf<S>;
  B eta_b(0), qnorm_b(0);  // plain numbers: maxima of upper bounds
  for (std::size_t i = 0; i < n; ++i) {
    S row(0), qrow(0);
    for (std::size_t j = 0; j < n; ++j) {
      const S e = (i == j ? S(1) : S(0)) - QtQ[i * n + j];
      const B me = num::magnitude(e), mq = num::magnitude(Qt[i * n + j]);
      row += num::hull_of_bounds<S>(me, me);
      qrow += num::hull_of_bounds<S>(mq, mq);
    }
    if (num::upper(row) > eta_b) eta_b = num::upper(row);
    if (num::upper(qrow) > qnorm_b) qnorm_b = num::upper(qrow);
  }
  const S eta = num::hull_of_bounds<S>(eta_b, eta_b), qnorm = num::hull_of_bounds<S>(qnorm_b, qnorm_b);
  if (!num::certainly_lt(eta, S(0.5))) throw std::runtime_error("Lohner: Q is not close to orthogonal");
  const S delta = eta / (S(1) - eta) * qnorm;
  const auto dmax = num::upper(delta);
  const S pm = num::hull_of_bounds<S>(-dmax, dmax);
  for (auto& e : Qt) e += pm;
  return Qt;
}

}  // namespace softcert::integrate::lohner
