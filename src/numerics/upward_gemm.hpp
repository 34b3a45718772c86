#pragma once
// C = A·B (row-major doubles) with every operation rounded upward.
//
// Guarantee: each entry of C is ≥ the exact Σ_k A_ik B_kj. Every product is of exact operands and
// rounded up, and rounding up is monotone, so each partial sum computed is ≥ the exact partial
// sum whatever the order of summation (Eigen's GEMM chooses it) — also with fused multiply-adds,
// which round once. For a lower bound negate one factor: −gemm_up(−A, B) ≤ A·B. One thread (a
// worker thread would not inherit the rounding mode).
#include <cstddef>

namespace softcert::num {

void gemm_up(const double* A, const double* B, double* C, std::size_t rows, std::size_t inner, std::size_t cols);

// The same for the lower triangle (diagonal included) of the n × n product A·B only (half the
// work); C's strictly upper triangle is left as it was. Same guarantee for every entry written.
void gemm_up_lower(const double* A, const double* B, double* C, std::size_t n, std::size_t inner);

}  // namespace softcert::num
