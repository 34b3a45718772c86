// The upward-rounded GEMM (upward_gemm.hpp), compiled once so that Eigen's GEMM is instantiated
// in one TU.
#define EIGEN_DONT_PARALLELIZE  // one thread: a pool thread keeps its own rounding mode, not the caller's
#include "numerics/upward_gemm.hpp"

#include "numerics/round_upward.hpp"

#include <Eigen/Core>

#include <algorithm>
#include <stdexcept>

namespace softcert::num {

namespace {
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

void gemm_up(const double* A, const double* B, double* C, std::size_t rows, std::size_t inner, std::size_t cols) {
  const auto r = static_cast<Eigen::Index>(rows), k = static_cast<Eigen::Index>(inner), c = static_cast<Eigen::Index>(cols);
  Eigen::Map<const RowMajor> a(A, r, k), b(B, k, c);
  Eigen::Map<RowMajor> out(C, r, c);
  upward([&] { out.noalias() = a * b; });  // numerics/round_upward.hpp: every operation rounded up
}

void gemm_up_lower(const double* A, const double* B, double* C, std::size_t n, std::size_t inner) {
  const auto N = static_cast<Eigen::Index>(n), k = static_cast<Eigen::Index>(inner);
  Eigen::Map<const RowMajor> a(A, N, k), b(B, k, N);
  Eigen::Map<RowMajor> out(C, N, N);
  upward([&] { out.triangularView<Eigen::Lower>() = a * b; });
}

void gemm_up_lower_of_triangular(const double* A, const double* B, double* C, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (A[i * n + j] != 0 || B[i * n + j] != 0) throw std::invalid_argument("gemm_up_lower_of_triangular: a factor is not lower triangular");
  const auto N = static_cast<Eigen::Index>(n);
  Eigen::Map<const RowMajor> a(A, N, N), b(B, N, N);
  Eigen::Map<RowMajor> out(C, N, N);
  // Columns k0 ≤ k < k0 + kb of the factors: rows < k0 of both are zero there, so the block's
  // contribution is A[k0:, k0:k0+kb]·B[k0:, k0:k0+kb]ᵀ into C[k0:, k0:]. Accumulated with upward
  // rounding: every partial sum stays ≥ the exact one (monotone rounding; alpha = 1 is exact).
  constexpr Eigen::Index kBlock = 64;
  upward([&] {
    out.triangularView<Eigen::Lower>().setZero();
    for (Eigen::Index k0 = 0; k0 < N; k0 += kBlock) {
      const Eigen::Index kb = std::min(kBlock, N - k0), rest = N - k0;
      out.bottomRightCorner(rest, rest).triangularView<Eigen::Lower>() += a.block(k0, k0, rest, kb) * b.block(k0, k0, rest, kb).transpose();
    }
  });
}

}  // namespace softcert::num
