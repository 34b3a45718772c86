// Midpoint–radius interval matrix products (lohner_linalg.hpp; argument there and in
// docs/method.md §2). Compiled once here so that Eigen's GEMM is instantiated in one TU.
#define EIGEN_DONT_PARALLELIZE  // one thread: a worker would not inherit the rounding mode
#include "integrate/lohner_linalg.hpp"

#include "numerics/round_upward.hpp"
#include "numerics/upward_gemm.hpp"

#include <cfenv>
#include <cmath>

#include <Eigen/Core>
#include <Eigen/Householder>
#include <Eigen/QR>

namespace softcert::integrate::lohner {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// ⟨m, r⟩ ⊇ [lo, hi] for every entry (rounding upward must be in effect). False on a
// non-finite end point.
bool to_midrad(const std::vector<IntervalD>& X, std::vector<double>& m, std::vector<double>& r, bool& thin) {
  using num::detail::opaque;
  const std::size_t N = X.size();
  m.resize(N);
  r.resize(N);
  thin = true;
  for (std::size_t i = 0; i < N; ++i) {
    const double lo = X[i].lower(), hi = X[i].upper();
    if (!std::isfinite(lo) || !std::isfinite(hi)) return false;
    const double mi = opaque(opaque(0.5) * opaque(lo)) + opaque(opaque(0.5) * opaque(hi));  // any double will do
    const double r1 = opaque(hi) - opaque(mi), r2 = opaque(mi) - opaque(lo);  // rounded up: ≥ the exact differences
    m[i] = mi;
    r[i] = std::max(std::max(r1, r2), 0.0);
    if (r[i] != 0) thin = false;
  }
  return true;
}

}  // namespace

namespace detail {

void gemm_up(const double* A, const double* B, double* C, std::size_t rows, std::size_t inner, std::size_t cols) {
  num::gemm_up(A, B, C, rows, inner, cols);  // numerics/upward_gemm.hpp states why it is an upper bound
}

void householder_q(std::vector<double>& M, std::size_t n) {
  const auto N = static_cast<Eigen::Index>(n);
  Eigen::Map<RowMajor> m(M.data(), N, N);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(m);
  m = qr.householderQ() * Eigen::MatrixXd::Identity(N, N);  // (the loops' Q: no guarantee needed)
}

}  // namespace detail

void midrad_mat_mul(const std::vector<IntervalD>& A, const std::vector<IntervalD>& B, std::vector<IntervalD>& C,
                    std::size_t n) {
  using num::detail::opaque;
  const std::size_t N = n * n;
  std::vector<double> Am, Ar, Bm, Br;
  bool a_thin = false, b_thin = false, finite = false;
  // numerics/round_upward.hpp: every operation inside num::upward is rounded up
  finite = num::upward([&] { return to_midrad(A, Am, Ar, a_thin) && to_midrad(B, Bm, Br, b_thin); });
  if (!finite) {
    fast_mat_mul(A, B, C, n);
    return;
  }
  std::vector<double> nAm(N), absAm(N), Bsum(N), Cu(N), nCd(N), R(N, 0.0), tmp(N);
  num::upward([&] {
    for (std::size_t i = 0; i < N; ++i) {
      nAm[i] = -Am[i];
      absAm[i] = std::fabs(Am[i]);
      Bsum[i] = opaque(std::fabs(Bm[i])) + opaque(Br[i]);  // rounded up
    }
  });
  detail::gemm_up(Am.data(), Bm.data(), Cu.data(), n, n, n);   // ≥ Am·Bm
  detail::gemm_up(nAm.data(), Bm.data(), nCd.data(), n, n, n);  // ≥ −Am·Bm
  if (!a_thin) detail::gemm_up(Ar.data(), Bsum.data(), R.data(), n, n, n);  // ≥ Ar·(|Bm| + Br)
  if (!b_thin) {
    detail::gemm_up(absAm.data(), Br.data(), tmp.data(), n, n, n);  // ≥ |Am|·Br
    num::upward([&] {
      for (std::size_t i = 0; i < N; ++i) R[i] = opaque(R[i]) + opaque(tmp[i]);
    });
  }
  C.resize(N);
  num::upward([&] {
    for (std::size_t i = 0; i < N; ++i) {
      const double hi = opaque(Cu[i]) + opaque(R[i]);
      const double nlo = opaque(nCd[i]) + opaque(R[i]);
      C[i] = IntervalD(-nlo, hi);
    }
  });
}

}  // namespace softcert::integrate::lohner
