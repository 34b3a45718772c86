#include "numerics/cholesky_lambda_bound.hpp"

#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "numerics/round_upward.hpp"

namespace softcert::num {

namespace {

constexpr double kEps = 0x1p-52;     // bounds |δ| in fl(x ∘ y) = (x ∘ y)(1 + δ) in every rounding mode
constexpr double kEta = 0x1p-1074;   // bounds the absolute error of a product or quotient that underflows

// The factor's buffer, reused from call to call on each thread (a fresh n × n buffer faults in
// its pages on every call). Only storage: every entry read in a call was written in that call.
// Aligned as Eigen's own matrices are: a vectorised dot product peels its first unaligned
// elements, so its summation order (not its error bound) depends on the address modulo the
// packet size; aligned storage makes the bits the same on every thread.
using FactorStorage = std::vector<double, Eigen::aligned_allocator<double>>;
FactorStorage& factor_scratch() {
  thread_local FactorStorage L;
  return L;
}

using ConstVec = Eigen::Map<const Eigen::VectorXd>;

}  // namespace

namespace detail {

// (γ_{n+3} + (n + 1)η)·frobenius_sq + 5n²η with every operation rounded upward; see the header
// and docs/method.md §2b for why this covers ‖ΔH‖₂.
double cholesky_error_term(std::size_t n, double frobenius_sq) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!(frobenius_sq >= 0 && frobenius_sq < inf)) return inf;  // NaN fails both comparisons
  if (n > (std::size_t{1} << 40)) return inf;                   // (k·ε < 1 needs n < 2⁵²; far beyond memory)
  const double term = upward([&] {
    const double nn = static_cast<double>(n);     // exact (n < 2⁵³)
    const double k_eps = (nn + 3) * kEps;         // exact: an integer < 2⁵³ times a power of two
    const double one_minus = -(k_eps - 1.0);      // ≤ 1 − kε (kε − 1 rounded up, negated exactly)
    const double gamma = k_eps / one_minus;       // ≥ γ_{n+3}
    const double coefficient = gamma + (nn + 1) * kEta;
    return coefficient * frobenius_sq + 5.0 * nn * nn * kEta;
  });
  return std::isfinite(term) ? term : inf;
}

// m_ii − λ rounded up is ≥ the exact difference; negation is exact in every mode (so it may
// run outside the scope).
double shifted_diagonal(double m_ii, double lambda) {
  return -upward([&] { return m_ii - lambda; });
}

// The factorisation (row by row, "Cholesky–Banachiewicz"), in whatever rounding mode the caller
// runs (the error bound holds in each):
//   for i = 0 … n − 1:
//     for j = 0 … i − 1:  t = Σ_{k<j} L_ik L_jk (one dot product, any order);  s = fl(H_ij − t);
//                         L_ij = fl(s / L_jj)
//     t = Σ_{k<i} L_ik²;  s = fl(H_ii − t);  stop unless s > 0;  L_ii = fl(√s)
// H_ij enters each s through exactly one rounding (the subtraction after the dot product), a
// product L_ik L_jk through at most j (its own and the additions above it in the dot's tree);
// there is no reciprocal. docs/method.md §2b derives |LLᵀ − H| ≤ γ_{n+3}|L||Lᵀ| + (underflow)
// from exactly these operations.
bool shifted_cholesky(const double* m, std::size_t n, double lambda, double* L) {
  // H's diagonal, rounded down, kept in L's diagonal until the pivot overwrites it.
  for (std::size_t i = 0; i < n; ++i) L[i * n + i] = shifted_diagonal(m[i * n + i], lambda);
  for (std::size_t i = 0; i < n; ++i) {
    double* Li = L + i * n;
    for (std::size_t j = 0; j < i; ++j) {
      const double* Lj = L + j * n;
      const auto J = static_cast<Eigen::Index>(j);
      const double t = ConstVec(Li, J).dot(ConstVec(Lj, J));
      const double s = -m[i * n + j] - t;  // H_ij = −m_ij exactly; one rounding
      Li[j] = s / Lj[j];
    }
    const auto I = static_cast<Eigen::Index>(i);
    const double t = ConstVec(Li, I).dot(ConstVec(Li, I));
    const double s = Li[i] - t;  // Li[i] still holds H_ii
    if (!(s > 0)) return false;  // breakdown, or NaN (a non-finite entry always reaches its row's pivot)
    Li[i] = std::sqrt(s);
  }
  return true;
}

// Every term is ≥ 0, so each rounded-up product and partial sum is ≥ the exact one.
double frobenius_sq_upper(const double* L, std::size_t n) {
  return upward([&] {
    double f = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const ConstVec row(L + i * n, static_cast<Eigen::Index>(i + 1));
      f += row.dot(row);
    }
    return f;
  });
}

}  // namespace detail

double lambda_max_bound_by_cholesky(const std::vector<double>& m, std::size_t n, double lambda) {
  const double inf = std::numeric_limits<double>::infinity();
  if (n == 0 || m.size() != n * n || !std::isfinite(lambda)) return inf;
  FactorStorage& L = factor_scratch();
  L.resize(n * n);
  if (!detail::shifted_cholesky(m.data(), n, lambda, L.data())) return inf;
  const double term = detail::cholesky_error_term(n, detail::frobenius_sq_upper(L.data(), n));  // +inf unless finite
  if (!std::isfinite(term)) return inf;
  const double bound = upward([&] { return lambda + term; });
  return std::isfinite(bound) ? bound : inf;
}

}  // namespace softcert::num
