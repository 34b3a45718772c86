#pragma once
// A certified upper bound of λ_max(m) for a symmetric double matrix m from ONE floating-point
// Cholesky factorisation of λI − m and an a priori bound of its rounding errors (no product
// LLᵀ is formed): the certificate of the ball step's μ (numerics/log_norm_bound.hpp,
// docs/method.md §2b "The a priori Cholesky certificate").
//
// Argument (after Rump, "Verification of positive definiteness", BIT 46 (2006), and Higham,
// "Accuracy and Stability of Numerical Algorithms", Thm 10.3; derived for the operation order
// below in docs/method.md §2b). H is the double matrix factored: H_ij = −m_ij (i ≠ j, exact) and
// H_ii = −fl↑(m_ii − λ) ≤ λ − m_ii, so λI − m = H + D with D diagonal and ≥ 0. If the
// factorisation runs to completion it yields a real lower triangular L with
//     LLᵀ = H + ΔH,  |ΔH| ≤ γ_{n+3}|L||Lᵀ| + (an underflow term),  γ_k = kε/(1 − kε), ε = 2⁻⁵²,
// in ANY rounding mode (ε bounds the relative error of every double operation, sqrt included, in
// each of the four modes; a fused multiply-add rounds once), whatever tree of additions each
// H_ij − Σ L_ik L_jk is summed in (row by row, or blocked with GEMM updates: detail::shifted_cholesky). Then ‖ΔH‖₂ ≤ γ_{n+3}‖L‖_F² + (n + 1)η‖L‖_F² + 5n²η (η = 2⁻¹⁰⁷⁴, the absolute error of a
// product or quotient that underflows), and LLᵀ ⪰ 0 gives
//     λI − m ⪰ H ⪰ −‖ΔH‖₂ I,   i.e.   λ_max(m) ≤ λ + ‖ΔH‖₂,
// evaluated with every operation rounded upward (‖L‖_F² summed from the computed L).
#include <cstddef>
#include <functional>
#include <vector>

#include "numerics/pair_runner.hpp"

namespace softcert::num {

// Guarantee: λ_max(m) ≤ result, where m is the symmetric n × n matrix whose lower triangle
// (diagonal included) is that of the row-major doubles `m` (the strictly upper triangle is not
// read). +inf when the factorisation of λI − m breaks down (a pivot that is not > 0: λ is not
// numerically above λ_max(m)), when any quantity is not finite (λ, an entry, a pivot, ‖L‖_F²,
// the sum), or for n = 0 or a size mismatch. Never NaN. The guarantee holds in whatever rounding
// mode it is called (the factorisation runs in that mode; its bits depend on it); the same
// arguments in the same mode give the same bits on every thread, with `both` or without.
double lambda_max_bound_by_cholesky(const std::vector<double>& m, std::size_t n, double lambda,
                                    const PairRunner& both = {});

// The three parts of lambda_max_bound_by_cholesky, exposed for the tests (each must keep its
// rounding direction; tests/numerics/cholesky_lambda_bound_test.cpp):
namespace detail {
// H's diagonal entry −fl↑(m_ii − λ): ≤ λ − m_ii (exactly), or −inf / NaN.
double shifted_diagonal(double m_ii, double lambda);
// The column blocks of the factorisation: `outer` columns per trailing update (GEMMs), solved in
// panels of `inner` columns. {n, n} is the unblocked row-by-row form.
struct CholeskyBlocking {
  std::size_t outer, inner;
};
// The blocking lambda_max_bound_by_cholesky takes for n (a function of n alone, so that the
// bits do not depend on the machine's threads).
CholeskyBlocking cholesky_blocking(std::size_t n);
// The floating-point Cholesky factorisation of H (H_ij = −m_ij, H_ii = −fl↑(m_ii − λ)) in the
// operation order of docs/method.md §2b, into the lower triangle of L (row-major n × n, the
// strictly upper triangle is neither read nor written). false when a pivot is not > 0 (or NaN).
// The rows below a panel and the row blocks of a trailing update are split in two fixed halves,
// the second through `both`: the same bits with `both` or without. A blocking of {0, 0} is
// cholesky_blocking(n).
bool shifted_cholesky(const double* m, std::size_t n, double lambda, double* L, const PairRunner& both = {},
                      CholeskyBlocking blocking = {0, 0});
// ≥ Σ_{j ≤ i} L_ij² (rounded upward; every term is ≥ 0), or +inf / NaN for non-finite entries.
double frobenius_sq_upper(const double* L, std::size_t n);
// ≥ (γ_{n+3} + (n + 1)η)·frobenius_sq + 5n²η (every operation rounded upward): the bound of
// ‖ΔH‖₂ for a completed factor with ‖L‖_F² ≤ frobenius_sq. +inf when that is not finite or
// frobenius_sq is not a finite number ≥ 0.
double cholesky_error_term(std::size_t n, double frobenius_sq);
}  // namespace detail

}  // namespace softcert::num
