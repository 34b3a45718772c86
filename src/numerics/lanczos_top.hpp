#pragma once
// λ_max of a symmetric operator estimated by Lanczos with full reorthogonalisation, for any
// product v ↦ A v: a dense matrix (numerics/log_norm_bound.cpp) or a product of thin factors
// (numerics/product_log_norm.cpp). Only a proposal: no guarantee.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <Eigen/Dense>

namespace softcert::num::detail {

// The largest Ritz value θ after min(n, 60) steps (or fewer, once the residual is below
// 1e-15·|θ|) plus its residual bound β_k|s_k|; +inf or NaN on failure. apply(Q, k, w) must set
// w = A·Q.col(k). The Lanczos vectors are the columns of Q (n × 60, reused from call to call), so
// the reorthogonalisation (classical Gram–Schmidt, twice) is two matrix–vector products per pass.
template <class Apply>
double lanczos_top_estimate_of(Apply&& apply, std::size_t n, Eigen::MatrixXd& Q) {
  const auto N = static_cast<Eigen::Index>(n);
  const auto k_max = static_cast<Eigen::Index>(std::min<std::size_t>(n, 60));
  Q.resize(N, k_max);
  Eigen::VectorXd w(N), h(k_max);
  std::vector<double> alpha, beta;
  for (Eigen::Index i = 0; i < N; ++i) Q(i, 0) = 1.0 / std::sqrt(static_cast<double>(n)) * (1.0 + 1e-3 * static_cast<double>(i % 7));
  Q.col(0) /= Q.col(0).norm();
  double theta = -std::numeric_limits<double>::infinity(), resid = 0;
  for (Eigen::Index k = 0; k < k_max; ++k) {
    apply(static_cast<const Eigen::MatrixXd&>(Q), k, w);
    alpha.push_back(w.dot(Q.col(k)));
    const auto basis = Q.leftCols(k + 1);
    for (int pass = 0; pass < 2; ++pass) {  // full reorthogonalisation, twice
      h.head(k + 1).noalias() = basis.transpose() * w;
      w.noalias() -= basis * h.head(k + 1);
    }
    const double b = w.norm();
    const bool last = k + 1 == k_max || !(b > 1e-300);
    if (k % 8 != 7 && !last) {  // the Ritz values every 8 steps (a k × k eigenproblem each)
      beta.push_back(b);
      Q.col(k + 1) = w / b;
      continue;
    }
    // Ritz values of the tridiagonal T_k
    const auto K = static_cast<Eigen::Index>(alpha.size());
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(K, K);
    for (Eigen::Index i = 0; i < K; ++i) {
      T(i, i) = alpha[static_cast<std::size_t>(i)];
      if (i + 1 < K) T(i, i + 1) = T(i + 1, i) = beta[static_cast<std::size_t>(i)];
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(T);
    if (es.info() != Eigen::Success) return std::numeric_limits<double>::quiet_NaN();
    theta = es.eigenvalues()(K - 1);
    resid = b * std::fabs(es.eigenvectors()(K - 1, K - 1));
    if (last || resid <= 1e-15 * (std::fabs(theta) + 1e-300)) break;
    beta.push_back(b);
    Q.col(k + 1) = w / b;
  }
  return theta + resid;
}

}  // namespace softcert::num::detail
