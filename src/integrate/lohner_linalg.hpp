#pragma once
// Small dense linear algebra for Lohner's method: interval matrix products, a floating-point
// QR factorisation (any orthogonal-ish Q will do: its inverse is enclosed rigorously), and
// the rigorous enclosure of Q⁻¹.
// Matrices are row-major std::vector of n×n entries.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::integrate::lohner {

// ----- Midpoint–radius interval matrix products (Rump, "Fast and parallel interval arithmetic",
// BIT 39(3), 1999), for IntervalD; implemented in lohner_linalg.cpp.
//
// Guarantee of midrad_mat_mul(A, B, C, n): C (n×n, row-major) encloses every product Ã·B̃ of
// point matrices Ã ∈ A, B̃ ∈ B — the same guarantee as mat_mul. Argument (docs/method.md §2,
// "Matrix products"): each interval is put in the form ⟨m, r⟩ ⊇ [lo, hi] (m any double in
// [lo, hi], r ≥ max(hi − m, m − lo) rounded up); for Ã = Am + ΔA, |ΔA| ≤ Ar, and likewise B̃,
//     Ã·B̃ − Am·Bm = Am·ΔB + ΔA·B̃,   |Am·ΔB + ΔA·B̃| ≤ |Am|·Br + Ar·(|Bm| + Br) =: R.
// With the FPU rounding upward, a floating-point evaluation of a sum of products of exact
// inputs in ANY order (blocked, vectorised, with or without FMA) is ≥ the exact sum: every
// operation's result is ≥ its exact result and the operations are monotone in their computed
// operands (induction over the evaluation tree; no subtraction of a computed value occurs).
// So up(Am·Bm) ≥ Am·Bm, −up((−Am)·Bm) ≤ Am·Bm (−Am exact), and up(R) ≥ R (all terms ≥ 0), and
//     C = [−up(up((−Am)·Bm) + up(R)), up(up(Am·Bm) + up(R))] ∋ every entry of Ã·B̃.
// The three or four floating-point products are Eigen's blocked GEMM (one thread: Eigen is
// compiled without OpenMP here: OpenMP's pool threads keep the rounding mode they were created
// in, not the caller's mode at the product).
// Width: for a thin B (the Lohner set's B) R = Ar·|B| is the exact radius of the inf–sup
// product, so the result equals it up to rounding (a few ulps); otherwise R may exceed the
// inf–sup radius by at most a factor 1.5 (Rump), which needs both factors wide — here one is
// always thin or nearly (Q⁻¹ = Qᵀ + [−δ, δ] with δ ~ 1e-15).
// Any non-finite end point falls back to the inf–sup product (fast_mat_mul).
void midrad_mat_mul(const std::vector<IntervalD>& A, const std::vector<IntervalD>& B, std::vector<IntervalD>& C,
                    std::size_t n);
// Guarantee of midrad_mat_mul_near(M, delta, B, C, n): C encloses every product Ã·B̃ with
// |Ã − M| ≤ delta entrywise (M a point matrix, doubles) and B̃ ∈ B — the product by an enclosure
// of Q⁻¹ of the form Qᵀ + [−δ, δ] (inverse_of_orthogonal). The argument of midrad_mat_mul with
// Am = M, Ar ≡ delta, where Ar·(|Bm| + Br) = delta·(column sums of |Bm| + Br) in every row: O(n²)
// instead of a fourth GEMM. Same width as midrad_mat_mul on the same enclosure.
void midrad_mat_mul_near(const std::vector<double>& M, double delta, const std::vector<IntervalD>& B,
                         std::vector<IntervalD>& C, std::size_t n);
// Guarantee: returns η ≥ ‖I − QᵀQ‖∞ = max_i Σ_j |(I − QᵀQ)_ij| for the point matrix Q (n × n
// doubles, row-major); +∞ on a non-finite entry. QᵀQ is exactly symmetric, so only its lower
// triangle is bounded (two upward GEMMs of half the work, num::gemm_up_lower).
double orthogonality_defect(const std::vector<double>& Q, std::size_t n);

namespace detail {
// C = A·B for row-major double matrices (rows×inner, inner×cols) with the FPU rounding upward
// for the duration of the call: every entry of C is ≥ the exact entry (argument above).
void gemm_up(const double* A, const double* B, double* C, std::size_t rows, std::size_t inner, std::size_t cols);
// Q of a Householder QR factorisation of the n×n row-major M (Eigen's blocked HouseholderQR),
// written over M. No guarantee (orthogonal_from: any invertible Q will do).
void householder_q(std::vector<double>& M, std::size_t n);
}  // namespace detail

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

// C = A·B for the Lohner step: midpoint–radius (midrad_mat_mul) for IntervalD when `midrad`,
// else the inf–sup product in the fast arithmetic (fast_mat_mul; the only one for other kinds).
// Same guarantee either way.
template <class S>
void product(const std::vector<S>& A, const std::vector<S>& B, std::vector<S>& C, std::size_t n, bool midrad) {
  if constexpr (std::is_same_v<S, IntervalD>) {
    if (midrad) return midrad_mat_mul(A, B, C, n);
  }
  fast_mat_mul(A, B, C, n);
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
// `blocked` (double bounds only): the factorisation by Eigen's blocked Householder QR
// (detail::householder_q) instead of the loops below — the same Q up to the signs of its
// columns and rounding; Q needs no guarantee either way.
template <class S>
std::vector<S> orthogonal_from(const std::vector<S>& A, const std::vector<S>& r, std::size_t n, bool blocked = false) {
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
  if constexpr (std::is_same_v<B, double>) {
    if (blocked) {
      detail::householder_q(R, n);
      std::vector<S> out(n * n);
      for (std::size_t i = 0; i < n * n; ++i) out[i] = num::hull_of_bounds<S>(R[i], R[i]);
      return out;
    }
  }
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

// Q⁻¹ for a point matrix Q near orthogonal. Guarantee: every entry of the exact Q⁻¹ lies within
// `delta` of the corresponding entry of Qt = Qᵀ (thin intervals). With E = I − QᵀQ and
// η ≥ ‖E‖∞ < 1: Q⁻¹ = (I − E)⁻¹Qᵀ = Qᵀ + E(I − E)⁻¹Qᵀ, and every entry of the last term is at most
// η/(1 − η)·‖Qᵀ‖∞ in magnitude.
template <class S>
struct NearInverse {
  std::vector<S> Qt;
  num::BoundOf<S> delta;
  // Qᵀ + [−δ, δ]: an interval matrix containing Q⁻¹.
  std::vector<S> enclosure() const {
    std::vector<S> out = Qt;
    const S pm = num::hull_of_bounds<S>(-delta, delta);
    if constexpr (std::is_same_v<S, IntervalD>) {
      using FA = taylor::FastArith<S>;
      [[maybe_unused]] const typename FA::Guard guard;
      const auto pmf = FA::to(pm);
      for (auto& e : out) e = FA::from(FA::to(e) + pmf);
    } else {
      for (auto& e : out) e += pm;
    }
    return out;
  }
};

// Guarantee: as NearInverse. Throws if η ≥ 1/2 (Q far from orthogonal: never happens for a
// Householder product). η by orthogonality_defect (QᵀQ's lower triangle only) for a thin IntervalD
// Q when `midrad`, else from QᵀQ by `product`.
template <class S>
NearInverse<S> near_inverse_of_orthogonal(const std::vector<S>& Q, std::size_t n, bool midrad = false) {
  using B = num::BoundOf<S>;
  std::vector<S> Qt(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) Qt[i * n + j] = Q[j * n + i];
  B eta_b(0), qnorm_b(0);  // plain numbers: maxima of upper bounds
  if constexpr (std::is_same_v<S, IntervalD>) {
    bool eta_done = midrad;  // η by orthogonality_defect when Q is a point matrix
    std::vector<double> Qm(eta_done ? n * n : 0);
    for (std::size_t i = 0; eta_done && i < n * n; ++i) {
      eta_done = Q[i].lower() == Q[i].upper();
      Qm[i] = Q[i].lower();
    }
    if (eta_done) eta_b = orthogonality_defect(Qm, n);
    // In the fast arithmetic (the same bounds as IntervalD's operators without a rounding
    // switch per operation, which would be a sizeable part of a step).
    using FA = taylor::FastArith<S>;
    using F = typename FA::type;
    std::vector<S> QtQ;
    if (!eta_done) product(Qt, Q, QtQ, n, midrad);
    [[maybe_unused]] const typename FA::Guard guard;
    for (std::size_t i = 0; i < n; ++i) {
      F row(0), qrow(0);
      for (std::size_t j = 0; j < n; ++j) {
        const double mq = std::max(-Qt[i * n + j].lower(), Qt[i * n + j].upper());
        qrow += F(mq, mq);
        if (eta_done) continue;
        const F e = F(i == j ? 1.0 : 0.0) - FA::to(QtQ[i * n + j]);
        const double me = std::max(-e.lower(), e.upper());
        row += F(me, me);
      }
      if (!eta_done && row.upper() > eta_b) eta_b = row.upper();
      if (qrow.upper() > qnorm_b) qnorm_b = qrow.upper();
    }
  } else {
    std::vector<S> QtQ;
    product(Qt, Q, QtQ, n, midrad);
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
  }
  const S eta = num::hull_of_bounds<S>(eta_b, eta_b), qnorm = num::hull_of_bounds<S>(qnorm_b, qnorm_b);
  if (!num::certainly_lt(eta, S(0.5))) throw std::runtime_error("Lohner: Q is not close to orthogonal");
  const S delta = eta / (S(1) - eta) * qnorm;
  return NearInverse<S>{std::move(Qt), num::upper(delta)};
}

// Guarantee: returns an interval matrix containing Q⁻¹ for the point matrix Q (thin intervals):
// NearInverse's enclosure Qᵀ + [−δ, δ].
template <class S>
std::vector<S> inverse_of_orthogonal(const std::vector<S>& Q, std::size_t n, bool midrad = false) {
  return near_inverse_of_orthogonal(Q, n, midrad).enclosure();
}

// C = Q⁻¹·A: C encloses every product Ĩ·Ã with Ĩ within δ of Qᵀ (so the exact Q⁻¹ among them)
// and Ã ∈ A. For IntervalD with `midrad` and a thin Qᵀ, midrad_mat_mul_near (three GEMMs and an
// O(n²) term instead of four GEMMs); otherwise `product` with the enclosure.
template <class S>
void product(const NearInverse<S>& Qinv, const std::vector<S>& A, std::vector<S>& C, std::size_t n, bool midrad) {
  if constexpr (std::is_same_v<S, IntervalD>) {
    if (midrad) {
      bool thin = true;
      std::vector<double> M(n * n);
      for (std::size_t i = 0; thin && i < n * n; ++i) {
        thin = Qinv.Qt[i].lower() == Qinv.Qt[i].upper();
        M[i] = Qinv.Qt[i].lower();
      }
      if (thin) return midrad_mat_mul_near(M, Qinv.delta, A, C, n);
    }
  }
  product(Qinv.enclosure(), A, C, n, midrad);
}

}  // namespace softcert::integrate::lohner
