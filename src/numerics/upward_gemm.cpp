// The upward-rounded GEMM (upward_gemm.hpp), compiled once so that Eigen's GEMM is instantiated
// in one TU.
#define EIGEN_DONT_PARALLELIZE  // one thread: a worker would not inherit the rounding mode
#include "numerics/upward_gemm.hpp"

#include "numerics/round_upward.hpp"

#include <Eigen/Core>

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

}  // namespace softcert::num
