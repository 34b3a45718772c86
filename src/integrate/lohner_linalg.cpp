// Midpoint–radius interval matrix products (lohner_linalg.hpp; argument there and in
// docs/method.md §2). Compiled once here so that Eigen's GEMM is instantiated in one TU.
#define EIGEN_DONT_PARALLELIZE  // one thread: a pool thread keeps its own rounding mode, not the caller's
#include "integrate/lohner_linalg.hpp"

#include "support/cpu_cap.hpp"
#include "numerics/round_upward.hpp"
#include "numerics/upward_gemm.hpp"

#include <cfenv>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

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

// The independent GEMMs of one product, two at a time (support/cpu_cap.hpp, run_both) when the
// product is large enough to pay for a thread. No role in any result: each GEMM computes the same
// bits on any thread (it sets the rounding mode itself, num::upward), and the jobs are fixed by
// the sizes alone, never by the threads available.
void run_both_if_large(const std::function<void()>& a, const std::function<void()>& b, std::size_t n) {
  constexpr std::size_t kThreadFrom = 192;  // n³ ≈ 7·10⁶ flop a GEMM: ~1 ms, » a thread's start
  if (n < kThreadFrom) {
    a();
    b();
    return;
  }
  support::run_both(a, b);
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
  // ≥ Am·Bm and ≥ −Am·Bm; ≥ Ar·(|Bm| + Br) and ≥ |Am|·Br each in two halves of rows (fixed by
  // n: the same bits on one thread or two), so that the two jobs are of equal size.
  const std::size_t half = n / 2;
  auto radius_rows = [&](std::size_t r0, std::size_t r1) {
    if (!a_thin) detail::gemm_up(Ar.data() + r0 * n, Bsum.data(), R.data() + r0 * n, r1 - r0, n, n);
    if (!b_thin) detail::gemm_up(absAm.data() + r0 * n, Br.data(), tmp.data() + r0 * n, r1 - r0, n, n);
  };
  run_both_if_large(
      [&] {
        detail::gemm_up(Am.data(), Bm.data(), Cu.data(), n, n, n);
        radius_rows(0, half);
      },
      [&] {
        detail::gemm_up(nAm.data(), Bm.data(), nCd.data(), n, n, n);
        radius_rows(half, n);
      },
      n);
  if (!b_thin) {
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

void midrad_mat_mul_near(const std::vector<double>& M, double delta, const std::vector<IntervalD>& B,
                         std::vector<IntervalD>& C, std::size_t n) {
  using num::detail::opaque;
  const std::size_t N = n * n;
  if (M.size() != N || !(delta >= 0) || !std::isfinite(delta))
    throw std::invalid_argument("midrad_mat_mul_near: M must be n × n and delta finite and ≥ 0");
  std::vector<double> Bm, Br;
  bool b_thin = false;
  const bool finite = num::upward([&] { return to_midrad(B, Bm, Br, b_thin); });
  bool m_finite = true;
  for (const double v : M) m_finite = m_finite && std::isfinite(v);
  if (!finite || !m_finite) {  // the inf–sup product of the same enclosure
    std::vector<IntervalD> A(N);
    num::upward([&] {
      for (std::size_t i = 0; i < N; ++i) A[i] = IntervalD(-(opaque(delta) - opaque(M[i])), opaque(M[i]) + opaque(delta));
    });
    fast_mat_mul(A, B, C, n);
    return;
  }
  std::vector<double> nM(N), absM(N), Cu(N), nCd(N), R(N, 0.0), col(n, 0.0);
  num::upward([&] {
    for (std::size_t i = 0; i < N; ++i) {
      nM[i] = -M[i];
      absM[i] = std::fabs(M[i]);
    }
    // Ar·(|Bm| + Br) with Ar ≡ delta is delta·(column sums of |Bm| + Br) in every row (rounded up)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) col[j] = opaque(col[j]) + (opaque(std::fabs(Bm[k * n + j])) + opaque(Br[k * n + j]));
    for (std::size_t j = 0; j < n; ++j) col[j] = opaque(delta) * opaque(col[j]);
  });
  // ≥ M·Bm, ≥ −M·Bm and ≥ |M|·Br, the last in two halves of rows (fixed by n: the same bits on
  // one thread or two)
  const std::size_t half = n / 2;
  run_both_if_large(
      [&] {
        detail::gemm_up(M.data(), Bm.data(), Cu.data(), n, n, n);
        if (!b_thin) detail::gemm_up(absM.data(), Br.data(), R.data(), half, n, n);
      },
      [&] {
        detail::gemm_up(nM.data(), Bm.data(), nCd.data(), n, n, n);
        if (!b_thin) detail::gemm_up(absM.data() + half * n, Br.data(), R.data() + half * n, n - half, n, n);
      },
      n);
  C.resize(N);
  num::upward([&] {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t e = i * n + j;
        const double rad = opaque(R[e]) + opaque(col[j]);
        C[e] = IntervalD(-(opaque(nCd[e]) + opaque(rad)), opaque(Cu[e]) + opaque(rad));
      }
  });
}

double orthogonality_defect(const std::vector<double>& Q, std::size_t n) {
  using num::detail::opaque;
  const std::size_t N = n * n;
  if (Q.size() != N) throw std::invalid_argument("orthogonality_defect: Q must be n × n");
  for (const double v : Q)
    if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
  std::vector<double> Qt(N), nQt(N), up(N, 0.0), dn(N, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      Qt[i * n + j] = Q[j * n + i];
      nQt[i * n + j] = -Q[j * n + i];
    }
  // Lower triangles of up(QᵀQ) ≥ QᵀQ and up(−QᵀQ) ≥ −QᵀQ; QᵀQ is exactly symmetric, so entry
  // (i, j) with j > i is bounded by the bounds of (j, i).
  run_both_if_large([&] { num::gemm_up_lower(Qt.data(), Q.data(), up.data(), n, n); },
           [&] { num::gemm_up_lower(nQt.data(), Q.data(), dn.data(), n, n); }, n);
  return num::upward([&] {
    double eta = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double row = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t e = i >= j ? i * n + j : j * n + i;
        const double d = i == j ? 1.0 : 0.0;
        // QᵀQ_ij ∈ [−dn, up], so (I − QᵀQ)_ij ∈ [d − up, d + dn]: its magnitude is at most the
        // larger of up − d and d + dn (each rounded up)
        const double mag = std::max(opaque(up[e]) - opaque(d), opaque(d) + opaque(dn[e]));
        row = opaque(row) + opaque(std::max(mag, 0.0));
      }
      eta = std::max(eta, row);
    }
    return eta;
  });
}

}  // namespace softcert::integrate::lohner
