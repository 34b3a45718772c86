#pragma once
// A certified upper bound of the logarithmic 2-norm μ₂(A) = λ_max((A + Aᵀ)/2) over every product
// A = X Yᵀ of real n × k matrices X, Y in interval matrices [X], [Y]: the ball step's μ for a
// Jacobian given as two thin factors (the tied model's Df in τ-time, k = 4D + 1 against
// n = D² + D + 1: models/tied_value_softmax_jacobian_factors.hpp), in O(n k²) operations instead
// of the n³ factorisation of numerics/log_norm_bound.hpp. docs/method.md §2b, "Df as a product".
//
// Argument. Let X̂, Ŷ be midpoints (doubles) and rX, rY radii with [X] ⊂ X̂ ± rX, [Y] ⊂ Ŷ ± rY,
// and S₀ = sym(X̂Ŷᵀ). For X = X̂ + ΔX, Y = Ŷ + ΔY,
//     sym(XYᵀ) − S₀ = sym(ΔX Ŷᵀ + X̂ ΔYᵀ + ΔX ΔYᵀ),  |·| ≤ N := sym(N₁),  N₁ = rX (|Ŷ| + rY)ᵀ + |X̂| rYᵀ,
// entrywise (N symmetric, ≥ 0), so by Weyl λ_max(sym XYᵀ) ≤ λ_max(S₀) + ρ(N), and
// ρ(N) ≤ max_i (N v)_i / v_i for any v > 0 (Collatz–Wielandt; N v costs O(n k), rounded upward).
// λ_max(S₀): with Z = [X̂ Ŷ] and P = (X̂ + Ŷ)/2, Q = (X̂ − Ŷ)/2 (real matrices, never rounded),
// S₀ = PPᵀ − QQᵀ. For λ > 0, C = λI + QQᵀ ≻ 0 and λI − S₀ = C − PPᵀ ⪰ 0 ⟸ I − PᵀC⁻¹P ⪰ 0;
// Woodbury's identity C⁻¹ = (I − Q G⁻¹ Qᵀ)/λ with G = λI + QᵀQ turns that into
// λI − A + B G⁻¹ Bᵀ ⪰ 0 (A = PᵀP, B = PᵀQ, k × k), and since B G⁻¹ Bᵀ ⪰ BWᵀ + WBᵀ − WGWᵀ for
// every k × k W ((B − WG) G⁻¹ (B − WG)ᵀ ⪰ 0), it suffices that
//     F = λI − A + BWᵀ + WBᵀ − WGWᵀ ⪰ 0.
// A, B and QᵀQ are enclosed from the Gram matrix ZᵀZ (two upward-rounded products,
// numerics/upward_gemm.hpp: A = (K_XX + K_XY + K_YX + K_YY)/4 and so on, in interval arithmetic),
// W ≈ B G⁻¹ is any doubles, F is enclosed by midpoint–radius products rounded upward, and F ⪰ 0
// is certified as λ_max(−F_mid) + ρ(R_F) ≤ 0, the first term by the a priori Cholesky
// certificate (numerics/cholesky_lambda_bound.hpp) of −F_mid at a shift s > 0 below its
// estimated least eigenvalue. Lanczos on S₀ (products with X̂ and Ŷ) proposes λ; only the
// certificates carry the bound. If no λ is certified, λ_max(S₀) ≤ λ_max(PPᵀ) = λ_max(A) ≤
// Gershgorin's bound of [A] is used (it needs no certificate).
#include <cstddef>
#include <vector>

#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"  // LogNormBound
#include "numerics/pair_runner.hpp"

namespace softcert::num {

// Guarantee: for all real n × k matrices X, Y whose entries lie in x's and y's (row-major,
// intervals over double), λ_max((XYᵀ + YXᵀ)/2) ≤ result.mu. result.lambda_mid bounds λ_max(S₀),
// result.rho_radius bounds ρ(N), result.by_cholesky says the Woodbury certificate was used
// (false: Gershgorin's bound of [A]). result.mu = +inf for a size mismatch, n = 0 or k = 0, or
// unless every quantity the bound is made of is finite; never NaN. `both` may run the Gram
// products' two roundings on two threads: the same bits with it or without.
LogNormBound log_norm_upper_bound_of_product(const std::vector<IntervalD>& x, const std::vector<IntervalD>& y, std::size_t n,
                                             std::size_t k, const PairRunner& both = {});

// The parts of the certificate, exposed for the tests (tests/numerics/product_log_norm_test.cpp).
namespace detail {
// A k × k interval matrix (row-major) held as upper bounds of its entries (hi) and of their
// negations (nlo): entry (i, j) lies in [−nlo_ij, hi_ij].
struct GramBounds {
  std::vector<double> hi, nlo;
};
// Guarantee: with P = (L + R)/2 and Q = (L − R)/2 for the n × k doubles L and R (row-major,
// n·k each), A ∋ PᵀP, B ∋ PᵀQ and C ∋ QᵀQ entrywise (every sum rounded upward; the two Gram
// products of [L R] through `both`). false when a bound is not finite, or n or k is 0.
bool gram_blocks(const double* L, const double* R, std::size_t n, std::size_t k, const PairRunner& both, GramBounds& A,
                 GramBounds& B, GramBounds& C);
// Guarantee: true only if λ > 0 and λ_max(PPᵀ − QQᵀ) ≤ λ for all real n × k P, Q (any n) with
// PᵀP ∈ A, PᵀQ ∈ B and QᵀQ ∈ C (k × k): the Woodbury certificate at the top of this file.
bool woodbury_certifies(const GramBounds& A, const GramBounds& B, const GramBounds& C, std::size_t k, double lambda);
}  // namespace detail

}  // namespace softcert::num
