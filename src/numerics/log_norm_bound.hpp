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
//  - λ_max(m) ≤ λ + ‖Δ'‖₂: for ANY real matrix L, λI − m = LLᵀ + Δ' with LLᵀ ⪰ 0, so
//    λI − m ⪰ −‖Δ'‖₂ I. L is a floating-point Cholesky factor of λI − m (then Δ' is tiny); LLᵀ
//    is enclosed entrywise by upward-rounded GEMMs (numerics/upward_gemm.hpp) and ‖Δ'‖₂ bounded
//    by max(‖|Δ'|‖₁, ‖|Δ'|‖∞);
//  - ρ(R) ≤ max_i (R v)_i / v_i for any vector v > 0 (Collatz–Wielandt; every term is
//    nonnegative).
// Lanczos (or, if no factor is found above its estimate, a dense double eigensolver) proposes λ
// and a few power iterations propose v; only the certificates carry the bound. If no factor is
// found, the Gershgorin bound max_i (sup [M]_ii + Σ_{j≠i} mag [M]_ij), rounded upward, is
// returned instead: it needs no certificate (every eigenvalue of a symmetric matrix lies in a
// Gershgorin disc). The smaller of the two bounds is returned.
#include <cstddef>
#include <vector>

#include "numerics/kinds.hpp"

namespace softcert::num {

struct LogNormBound {
  double mu = 0;          // the bound: λ_max(sym A) ≤ mu for every A in [A]
  double lambda_mid = 0;  // the certified bound of λ_max(m) (when by_cholesky)
  double rho_radius = 0;  // the certified bound of ρ(R) (when by_cholesky)
  bool by_cholesky = false;  // the factor certificate of λ_max(m) was used; false: mu is the Gershgorin bound
};

// Guarantee: λ_max(m) ≤ result for the symmetric matrix m (n × n doubles, row-major; only its
// lower triangle is read) and ANY real n × n matrix L (row-major; tight when LLᵀ ≈ λI − m).
// +inf for non-finite input or when a sum overflows.
double lambda_max_bound_from_factor(const std::vector<double>& m, std::size_t n, double lambda, const std::vector<double>& L);

// Guarantee: for every real n × n matrix A whose entries lie in a's (row-major, intervals over
// double), λ_max((A + Aᵀ)/2) ≤ result.mu. result.mu = +inf unless every quantity the bound is
// made of is finite (entries, [M]'s midpoint and radius, Gershgorin's sums, ρ(R)'s bound): an
// overflow or a NaN never shrinks it (tests/numerics/log_norm_bound_test.cpp, HugeEntries…).
// Never NaN. Never throws for finite input.
LogNormBound log_norm_upper_bound(const std::vector<IntervalD>& a, std::size_t n);

}  // namespace softcert::num
