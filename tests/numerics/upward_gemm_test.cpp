// The upward-rounded GEMMs (numerics/upward_gemm.hpp) against exact sums: every entry of
// gemm_up(A, B) and of gemm_up_lower's lower triangle must be ≥ the exact Σ_k A_ik B_kj
// (computed with MPFR at 2200 bits, where sums of products of doubles are exact), and
// −gemm_up(−A, B) ≤ it. The data are chosen so that a round-to-nearest evaluation falls below
// the exact sum in some entries (asserted), so dropping the rounding mode — or letting the
// compiler evaluate the kernel outside it — fails these tests (checked by mutation).
#include <gtest/gtest.h>

#include <mpfr.h>

#include <array>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "numerics/upward_gemm.hpp"

namespace softcert {
namespace {

// sign(exact Σ_k A_ik B_kj − x); A is rows × inner, B inner × cols (row-major). At 2200 bits
// every product of two doubles (≤ 106 significant bits, exponents within ±2200) and their sum
// is exact.
int gemm_compare_exact(const std::vector<double>& A, const std::vector<double>& B, std::size_t inner,
                           std::size_t cols, std::size_t i, std::size_t j, double x) {
  mpfr_t acc, t;
  mpfr_inits2(2200, acc, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_zero(acc, 1);
  for (std::size_t k = 0; k < inner; ++k) {
    mpfr_set_d(t, A[i * inner + k], MPFR_RNDN);
    mpfr_mul_d(t, t, B[k * cols + j], MPFR_RNDN);
    mpfr_add(acc, acc, t, MPFR_RNDN);
  }
  const int c = mpfr_cmp_d(acc, x);
  mpfr_clears(acc, t, static_cast<mpfr_ptr>(nullptr));
  return c;
}

// Mixed signs, full 53-bit significands and exponents in ±2^10, so products and sums round.
std::vector<double> gemm_test_matrix(std::mt19937_64& gen, std::size_t entries) {
  std::vector<double> M(entries);
  for (double& v : M) {
    const double significand = static_cast<double>(gen() >> 11) * 0x1p-53 + 0.5;  // [0.5, 1), 53 bits
    const int e = static_cast<int>(gen() % 21) - 10;
    v = std::ldexp((gen() & 1) ? -significand : significand, e);
  }
  return M;
}

// Σ_k A_ik B_kj in the default rounding mode, k in order (the reference for "nearest errs").
double gemm_nearest_sum(const std::vector<double>& A, const std::vector<double>& B, std::size_t inner, std::size_t cols,
                   std::size_t i, std::size_t j) {
  double s = 0;
  for (std::size_t k = 0; k < inner; ++k) s += A[i * inner + k] * B[k * cols + j];
  return s;
}

TEST(UpwardGemm, EveryEntryIsAnUpperBoundOfTheExactSum) {
  std::mt19937_64 gen(28);
  int nearest_below = 0;
  for (const auto& [rows, inner, cols] : {std::array<std::size_t, 3>{5, 5, 5}, {3, 7, 4}, {1, 9, 1}, {17, 33, 6}}) {
    const auto A = gemm_test_matrix(gen, rows * inner), B = gemm_test_matrix(gen, inner * cols);
    std::vector<double> up(rows * cols), nA(A.size()), down(rows * cols);
    for (std::size_t k = 0; k < A.size(); ++k) nA[k] = -A[k];
    num::gemm_up(A.data(), B.data(), up.data(), rows, inner, cols);
    num::gemm_up(nA.data(), B.data(), down.data(), rows, inner, cols);  // −down ≤ A·B
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) {
        ASSERT_LE(gemm_compare_exact(A, B, inner, cols, i, j, up[i * cols + j]), 0)
            << rows << "x" << inner << "x" << cols << " entry " << i << "," << j;
        ASSERT_GE(gemm_compare_exact(A, B, inner, cols, i, j, -down[i * cols + j]), 0)
            << rows << "x" << inner << "x" << cols << " entry " << i << "," << j;
        nearest_below += gemm_compare_exact(A, B, inner, cols, i, j, gemm_nearest_sum(A, B, inner, cols, i, j)) > 0;
      }
  }
  EXPECT_GT(nearest_below, 0) << "the data do not tell the rounding direction apart";
}

TEST(UpwardGemm, LowerTriangleIsAnUpperBoundAndTheRestIsLeftAlone) {
  std::mt19937_64 gen(2028);
  int nearest_below = 0;
  for (const auto& [n, inner] : {std::array<std::size_t, 2>{5, 5}, {6, 3}, {23, 40}}) {
    const auto A = gemm_test_matrix(gen, n * inner), B = gemm_test_matrix(gen, inner * n);
    const double untouched = 12345.0;
    std::vector<double> C(n * n, untouched);
    num::gemm_up_lower(A.data(), B.data(), C.data(), n, inner);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(C[i * n + j], untouched) << "strictly upper entry " << i << "," << j << " was written";
          continue;
        }
        ASSERT_LE(gemm_compare_exact(A, B, inner, n, i, j, C[i * n + j]), 0) << n << " entry " << i << "," << j;
        nearest_below += gemm_compare_exact(A, B, inner, n, i, j, gemm_nearest_sum(A, B, inner, n, i, j)) > 0;
      }
  }
  EXPECT_GT(nearest_below, 0) << "the data do not tell the rounding direction apart";
}

// gemm_up_lower_of_triangular (the certificate's LLᵀ, numerics/log_norm_bound.cpp): for lower
// triangular A and B every lower entry is ≥ the exact (A·Bᵀ)_ij and, with −A, ≤ it; sizes that
// end inside and past the 64-column blocks (a block's rows above its first column are skipped:
// a wrong start would drop terms and fail the lower or the upper side).
TEST(UpwardGemm, TriangularFactorsLowerTriangleEnclosesTheExactProduct) {
  std::mt19937_64 gen(2029);
  int nearest_below = 0;
  for (std::size_t n : {1, 5, 64, 70, 150}) {
    auto A = gemm_test_matrix(gen, n * n), B = gemm_test_matrix(gen, n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) A[i * n + j] = B[i * n + j] = 0;
    std::vector<double> Bt(n * n), nA(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        Bt[j * n + i] = B[i * n + j];
        nA[i * n + j] = -A[i * n + j];
      }
    const double untouched = 12345.0;
    std::vector<double> up(n * n, untouched), down(n * n, untouched);
    num::gemm_up_lower_of_triangular(A.data(), B.data(), up.data(), n);
    num::gemm_up_lower_of_triangular(nA.data(), B.data(), down.data(), n);  // −down ≤ A·Bᵀ
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(up[i * n + j], untouched) << "strictly upper entry " << i << "," << j << " was written";
          continue;
        }
        ASSERT_LE(gemm_compare_exact(A, Bt, n, n, i, j, up[i * n + j]), 0) << n << " entry " << i << "," << j;
        ASSERT_GE(gemm_compare_exact(A, Bt, n, n, i, j, -down[i * n + j]), 0) << n << " entry " << i << "," << j;
        nearest_below += gemm_compare_exact(A, Bt, n, n, i, j, gemm_nearest_sum(A, Bt, n, n, i, j)) > 0;
      }
  }
  EXPECT_GT(nearest_below, 0) << "the data do not tell the rounding direction apart";
  // A factor with a nonzero above its diagonal is refused (the skipped terms would not be zero).
  std::vector<double> A{1, 2, 0, 1}, B{1, 0, 3, 1}, C(4);
  EXPECT_THROW(num::gemm_up_lower_of_triangular(A.data(), B.data(), C.data(), 2), std::invalid_argument);
}

TEST(UpwardGemm, LeavesTheRoundingModeAsItFoundIt) {
  const std::vector<double> A{0.1, 0.2, 0.3, 0.4}, B{0.5, 0.6, 0.7, 0.8};
  std::vector<double> C(4);
  for (int mode : {FE_TONEAREST, FE_DOWNWARD, FE_TOWARDZERO}) {
    std::fesetround(mode);
    num::gemm_up(A.data(), B.data(), C.data(), 2, 2, 2);
    num::gemm_up_lower(A.data(), B.data(), C.data(), 2, 2);
    const std::vector<double> T{0.1, 0, 0.3, 0.4};
    num::gemm_up_lower_of_triangular(T.data(), T.data(), C.data(), 2);
    EXPECT_EQ(std::fegetround(), mode);
  }
  std::fesetround(FE_TONEAREST);
}

}  // namespace
}  // namespace softcert
