#pragma once
// C = A·B (row-major doubles) with every operation rounded upward.
//
// Guarantee: each entry of C is ≥ the exact Σ_k A_ik B_kj. Every product is of exact operands and
// rounded up, and rounding up is monotone, so each partial sum computed is ≥ the exact partial
// sum whatever the order of summation (Eigen's GEMM chooses it) — also with fused multiply-adds,
// which round once. For a lower bound negate one factor: −gemm_up(−A, B) ≤ A·B. One thread (a
// pool thread, as Eigen's OpenMP ones, keeps the rounding mode it was created in, not the
// caller's at the product).
#include <cstddef>

namespace softcert::num {

void gemm_up(const double* A, const double* B, double* C, std::size_t rows, std::size_t inner, std::size_t cols);

// The same for the lower triangle (diagonal included) of the n × n product A·B only (half the
// work); C's strictly upper triangle is left as it was. Same guarantee for every entry written.
void gemm_up_lower(const double* A, const double* B, double* C, std::size_t n, std::size_t inner);

// The lower triangle (diagonal included) of A·Bᵀ for n × n LOWER TRIANGULAR A and B (row-major;
// their strictly upper triangles must hold zeros), every operation rounded upward: entry (i, j),
// j ≤ i, is Σ_{k ≤ j} A_ik B_jk, so a block of columns k0 ≤ k < k1 of A and B only adds to the
// rows and columns ≥ k0 — about a third of gemm_up_lower's work (for a Cholesky factor L,
// A = ±L, B = L). C's strictly upper triangle is left as it was.
// Guarantee: each entry written is ≥ the exact Σ_k A_ik B_jk over all k (the terms left out are
// products with an exact zero factor). Throws std::invalid_argument when a strictly upper entry
// of A or B is not zero (the skipped terms would then not be zero).
void gemm_up_lower_of_triangular(const double* A, const double* B, double* C, std::size_t n);

}  // namespace softcert::num
