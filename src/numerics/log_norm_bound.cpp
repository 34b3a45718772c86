#include "numerics/log_norm_bound.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>

#include <Eigen/Dense>

#include "taylor/fast_arith.hpp"

namespace softcert::num {

namespace {

// Upward rounding for the scope (the Collatz–Wielandt bound: nonnegative sums and products
// rounded up are upper bounds). Compiled with -frounding-math (CMakeLists.txt).
struct RoundUpward {
  int saved;
  RoundUpward() : saved(std::fegetround()) { std::fesetround(FE_UPWARD); }
  ~RoundUpward() { std::fesetround(saved); }
};

// An upper bound of ρ(R), R symmetric with nonnegative entries: max_i (R v)_i / v_i for a
// positive v proposed by power iteration, evaluated rounding upward (Collatz–Wielandt).
double perron_root_upper_bound(const std::vector<double>& R, std::size_t n) {
  std::vector<double> v(n, 1.0), w(n);
  for (int it = 0; it < 40; ++it) {
    double top = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < n; ++j) s += R[i * n + j] * v[j];
      w[i] = s;
      top = std::max(top, s);
    }
    if (!(top > 0)) return 0;  // R = 0
    // a floor keeps v positive (a zero v_i would void the quotient)
    for (std::size_t i = 0; i < n; ++i) v[i] = w[i] / top + 1e-3;
  }
  const RoundUpward up;
  double bound = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += R[i * n + j] * v[j];
    bound = std::max(bound, s / v[i]);
  }
  return bound;
}

}  // namespace

// The square-root-free interval Cholesky (LDLᵀ) of lambda·I − m: by inclusion isotonicity the
// real algorithm meets the same pivots inside the interval ones, so if every interval pivot is
// certainly positive it completes with positive pivots d_j: lambda·I − m = L D Lᵀ, D > 0.
bool shift_certainly_dominates(const std::vector<double>& m, std::size_t n, double lambda) {
  if (n == 0 || m.size() != n * n) return false;
  using I = taylor::FastIntervalD;
  const taylor::FastArith<IntervalD>::Guard guard;  // FastIntervalD is sound only inside it
  std::vector<I> L(n * n, I(0.0)), W(n * n, I(0.0)), d(n, I(0.0));  // W_jk = L_jk d_k
  for (std::size_t j = 0; j < n; ++j) {
    I pivot = I(lambda) - I(m[j * n + j]);
    for (std::size_t k = 0; k < j; ++k) pivot -= L[j * n + k] * W[j * n + k];
    if (!(pivot.lower() > 0)) return false;
    d[j] = pivot;
    for (std::size_t i = j + 1; i < n; ++i) {
      I acc = I(0.0) - I(m[i * n + j]);
      for (std::size_t k = 0; k < j; ++k) acc -= L[i * n + k] * W[j * n + k];
      L[i * n + j] = acc / pivot;
      W[i * n + j] = L[i * n + j] * pivot;
    }
    // W[j][k] for k < j was set when column k was eliminated (row j of W).
  }
  return n > 0;
}

LogNormBound log_norm_upper_bound(const std::vector<IntervalD>& a, std::size_t n) {
  LogNormBound out;
  const double inf = std::numeric_limits<double>::infinity();
  out.mu = inf;
  if (n == 0 || a.size() != n * n) return out;
  std::vector<IntervalD> M(n * n);
  std::vector<double> mid(n * n), rad(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      const IntervalD s = (a[i * n + j] + a[j * n + i]) / IntervalD(2.0);
      if (!std::isfinite(s.lower()) || !std::isfinite(s.upper())) return out;
      M[i * n + j] = M[j * n + i] = s;
      const double c = boost::numeric::median(s);
      // [M_ij] ⊂ c ± r: both distances rounded upward
      const double r = std::max((IntervalD(s.upper()) - IntervalD(c)).upper(), (IntervalD(c) - IntervalD(s.lower())).upper());
      mid[i * n + j] = mid[j * n + i] = c;
      rad[i * n + j] = rad[j * n + i] = r;
    }
  // Gershgorin, rounded upward: needs no certificate.
  double gersh = -inf;
  {
    const RoundUpward up;
    for (std::size_t i = 0; i < n; ++i) {
      double s = M[i * n + i].upper();
      for (std::size_t j = 0; j < n; ++j)
        if (j != i) s += std::max(std::fabs(M[i * n + j].lower()), std::fabs(M[i * n + j].upper()));
      gersh = std::max(gersh, s);
    }
  }
  out.mu = gersh;
  // The proposal: the largest eigenvalue of mid, from a double symmetric eigensolver.
  Eigen::MatrixXd e(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      e(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = mid[i * n + j];
      scale = std::max(scale, std::fabs(mid[i * n + j]));
    }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(e, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) return out;
  const double proposal = solver.eigenvalues().maxCoeff();
  const double rho = perron_root_upper_bound(rad, n);
  // The interval factorisation of a nearly singular λI − m widens its last pivots far beyond
  // n·u·scale (measured on a random 420 × 420 matrix: 2^−40 and 2^−30 failed, 2^−20 certified);
  // each failed attempt costs a factorisation, and an excess δ in μ only costs a factor e^{δ·t}
  // in width.
  for (double f : {0x1p-20, 0x1p-12, 0x1p-6}) {
    const double lambda = proposal + f * (scale + std::numeric_limits<double>::min()) * static_cast<double>(n);
    if (!shift_certainly_dominates(mid, n, lambda)) continue;
    const double mu = (IntervalD(lambda) + IntervalD(rho)).upper();
    if (mu < out.mu) {
      out.mu = mu;
      out.lambda_mid = lambda;
      out.rho_radius = rho;
      out.by_cholesky = true;
    }
    break;
  }
  return out;
}

}  // namespace softcert::num
