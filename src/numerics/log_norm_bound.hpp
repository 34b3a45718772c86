#pragma once
// A certified upper bound of the logarithmic 2-norm μ₂(A) = λ_max((A + Aᵀ)/2) over every matrix A
// of an interval matrix [A]: the rate at which the Euclidean distance between two solutions of
// ẋ = f(x) can grow while the segment between them stays where Df lies in [A] (the ball step of
// integrate/validated_taylor.hpp; docs/method.md §2b).
//
// Argument. Let [M] be the interval matrix with entries ([A]_ij + [A]_ji)/2, which contains the
// symmetric part of every A in [A]; m its midpoint matrix (doubles, symmetric by construction)
// and R ≥ 0 a radius matrix with [M] ⊂ m ± R entrywise. For A in [A], sym(A) = m + Δ with
// |Δ| ≤ R entrywise, so by Weyl's inequality λ_max(sym A) ≤ λ_max(m) + ‖Δ‖₂, and
// ‖Δ‖₂ ≤ ‖ |Δ| ‖₂ ≤ ‖R‖₂ = ρ(R) (R symmetric and nonnegative: Perron–Frobenius). Two
// certificates, each evaluated with upward rounding:
//  - λ_max(m) ≤ λ + ‖ΔH‖₂: a floating-point Cholesky factorisation of λI − m (rounded down on
//    the diagonal) that runs to completion yields L with LLᵀ = H + ΔH, λI − m ⪰ H, and an a
//    priori bound ‖ΔH‖₂ ≤ γ_{n+3}‖L‖_F² + (underflow terms) for its operation order
//    (numerics/cholesky_lambda_bound.hpp; docs/method.md §2b). No product LLᵀ is formed: the
//    residual certificate λI − m − LLᵀ, two upward-rounded GEMMs (lambda_max_bound_from_factor
//    below, for any L), costs three factorisations' time;
//  - ρ(R) ≤ max_i (R v)_i / v_i for any vector v > 0 (Collatz–Wielandt; every term is
//    nonnegative).
// Lanczos (or, if no factor is found above its estimate, a dense double eigensolver) proposes λ
// and a few power iterations propose v; only the certificates carry the bound. If no factor is
// found, the Gershgorin bound max_i (sup [M]_ii + Σ_{j≠i} mag [M]_ij), rounded upward, is
// returned instead: it needs no certificate (every eigenvalue of a symmetric matrix lies in a
// Gershgorin disc). The smaller of the two bounds is returned.
#include <cstddef>
#include <vector>

#include "numerics/cholesky_lambda_bound.hpp"  // PairRunner
#include "numerics/kinds.hpp"

namespace softcert::num {

struct LogNormBound {
  double mu = 0;          // the bound: λ_max(sym A) ≤ mu for every A in [A]
  double lambda_mid = 0;  // the certified bound of λ_max(m) (when by_cholesky)
  double rho_radius = 0;  // the certified bound of ρ(R) (when by_cholesky)
  bool by_cholesky = false;  // the factor certificate of λ_max(m) was used; false: mu is the Gershgorin bound
};

// For ANY real L, λI − m = LLᵀ + Δ' with LLᵀ ⪰ 0 gives λ_max(m) ≤ λ + ‖Δ'‖₂; LLᵀ is enclosed
// entrywise by upward-rounded GEMMs (numerics/upward_gemm.hpp) and ‖Δ'‖₂ bounded by
// max(‖|Δ'|‖₁, ‖|Δ'|‖∞). Not used by log_norm_upper_bound (the a priori certificate is
// cheaper and as tight for μ).
// Guarantee: λ_max(m) ≤ result for the symmetric matrix m (n × n doubles, row-major; only its
// lower triangle is read) and ANY real n × n matrix L (row-major; tight when LLᵀ ≈ λI − m).
// +inf for non-finite input or when a sum overflows.
double lambda_max_bound_from_factor(const std::vector<double>& m, std::size_t n, double lambda, const std::vector<double>& L);

// Guarantee: for every real n × n matrix A whose entries lie in a's (row-major, intervals over
// double), λ_max((A + Aᵀ)/2) ≤ result.mu. result.mu = +inf unless every quantity the bound is
// made of is finite (entries, [M]'s midpoint and radius, Gershgorin's sums, ρ(R)'s bound): an
// overflow or a NaN never shrinks it (tests/numerics/log_norm_bound_test.cpp, HugeEntries…).
// Never NaN. Never throws for finite input. `both` may run the factorisation's halves on two
// threads (numerics/cholesky_lambda_bound.hpp): the same bits with it or without.
LogNormBound log_norm_upper_bound(const std::vector<IntervalD>& a, std::size_t n, const PairRunner& both = {});

// The parts of log_norm_upper_bound, exposed for bench/log_norm_phases.cpp and the tests.
namespace detail {
// [M] = ([A] + [A]ᵀ)/2 for the n × n intervals a: writes its midpoint m (any doubles,
// symmetric) and a radius R (symmetric) into mid and rad (resized to n × n) with
// [M]_ij ⊂ [m_ij − R_ij, m_ij + R_ij] exactly, and returns Gershgorin's bound
// ≥ max_i (sup [M]_ii + Σ_{j≠i} mag [M]_ij), or +inf when any of these is not finite (mid and
// rad are then incomplete). Every operation rounded upward.
double symmetric_part_bounds(const std::vector<IntervalD>& a, std::size_t n, std::vector<double>& mid, std::vector<double>& rad);
// Guarantee: ρ(R) ≤ result (R symmetric, n × n, entries ≥ 0), or +inf.
double perron_root_upper_bound(const std::vector<double>& R, std::size_t n);
// λ_max(m) estimated by Lanczos (a proposal only: no guarantee; +inf or NaN on failure).
double lanczos_top_estimate(const std::vector<double>& m, std::size_t n);
// lambda_max_bound_from_factor with L Eigen's floating-point Cholesky factor of λI − m (the
// certificate before 2026-12-03): λ_max(m) ≤ result, or +inf when the factorisation fails.
double cholesky_residual_bound(const std::vector<double>& m, std::size_t n, double lambda);
}  // namespace detail

}  // namespace softcert::num
