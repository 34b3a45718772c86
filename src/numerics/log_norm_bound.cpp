#include "numerics/log_norm_bound.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include <Eigen/Dense>

#include "numerics/cholesky_lambda_bound.hpp"
#include "numerics/collatz_wielandt.hpp"
#include "numerics/lanczos_top.hpp"
#include "numerics/round_upward.hpp"
#include "numerics/upward_gemm.hpp"

namespace softcert::num {

namespace {

// Scratch matrices reused from call to call on each thread: fresh n × n buffers of this size come
// from mmap and fault in every page on every call, a cost of the order of the bound itself.
struct Scratch {
  std::vector<double> gersh_diag, gersh_off, mid, rad, L, Lt, nL, up, dn;
  Eigen::MatrixXd shifted, lanczos;
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace

namespace detail {

// An upper bound of ρ(R), R symmetric with nonnegative entries: max_i (R v)_i / v_i for a
// positive v (Collatz–Wielandt), evaluated rounding upward. v is proposed by power iteration
// in any rounding mode; should it degenerate (a row sum overflows to inf, inf/inf gives NaN, or
// R = 0), v = 1 is used instead, which bounds ρ(R) by the largest row sum.
// Guarantee: ρ(R) ≤ result, or result = +inf. +inf whenever any quantity the bound is made of
// ((R v)_i, a quotient) is not finite: an overflow must never shrink the bound (a NaN would make
// it 0 through `!(top > 0)`, or be dropped by std::max(bound, NaN), so that entries of 8e307
// would give μ ≈ 6e-317).
double perron_root_upper_bound(const std::vector<double>& R, std::size_t n) {
  const double inf = std::numeric_limits<double>::infinity();
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto N = static_cast<Eigen::Index>(n);
  for (double x : R)
    if (!(x >= 0 && x < inf)) return inf;  // NaN fails both comparisons
  const Eigen::Map<const RowMajor> r(R.data(), N, N);
  return collatz_wielandt_upper_bound([&r](const Eigen::VectorXd& v, Eigen::VectorXd& w) { w.noalias() = r * v; }, n);
}

// λ_max(m) estimated by Lanczos (numerics/lanczos_top.hpp) on the dense m. Only a proposal.
double lanczos_top_estimate(const std::vector<double>& m, std::size_t n) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const auto N = static_cast<Eigen::Index>(n);
  const Eigen::Map<const RowMajor> M(m.data(), N, N);
  return lanczos_top_estimate_of([&M](const Eigen::MatrixXd& Q, Eigen::Index k, Eigen::VectorXd& w) { w.noalias() = M * Q.col(k); }, n,
                                 scratch().lanczos);
}

// lambda_max_bound_from_factor with L the floating-point Cholesky factor of λI − m (Eigen's LLT),
// which makes the residual tiny; +inf when the factorisation fails (λI − m not numerically
// positive definite).
double cholesky_residual_bound(const std::vector<double>& m, std::size_t n, double lambda) {
  const double inf = std::numeric_limits<double>::infinity();
  const auto N = static_cast<Eigen::Index>(n);
  Eigen::MatrixXd& a = scratch().shifted;
  a.resize(N, N);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = (i == j ? lambda : 0.0) - m[i * n + j];  // any double matrix will do
  const Eigen::LLT<Eigen::MatrixXd> llt(a);
  if (llt.info() != Eigen::Success) return inf;
  const Eigen::MatrixXd Lm = llt.matrixL();
  std::vector<double>& L = scratch().L;
  L.resize(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) L[i * n + j] = Lm(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  return lambda_max_bound_from_factor(m, n, lambda, L);
}

// [M] = ([A] + [A]ᵀ)/2: its midpoint m, radius R and Gershgorin's bound (declared in the header).
double symmetric_part_bounds(const std::vector<IntervalD>& a, std::size_t n, std::vector<double>& mid, std::vector<double>& rad) {
  const double inf = std::numeric_limits<double>::infinity();
  if (n == 0 || a.size() != n * n) return inf;
  // [M] = ([A] + [A]ᵀ)/2 as bounds lo/hi, its midpoint c and radius r ([M_ij] ⊂ c ± r), and
  // Gershgorin's bound, in one upward-rounded scope (a lower bound as −(upper bound of −x)).
  // [M]'s bounds themselves are not stored: Gershgorin's row sums are accumulated as the entries
  // come (storing them as two more n × n matrices and summing row by row would give the same
  // bound up to the order of the rounded-up additions, at more memory traffic).
  Scratch& w = scratch();
  std::vector<double> &diag = w.gersh_diag, &off = w.gersh_off;
  for (auto* v : {&mid, &rad}) v->resize(n * n);
  diag.assign(n, 0.0);  // sup [M]_ii
  off.assign(n, 0.0);   // Σ_{j≠i} mag [M]_ij, summed as the tiles come (rounded upward: any order will do)
  // Each quantity is checked finite where it is made: a NaN or an overflow returns +inf (the
  // comparisons below are written so that a NaN can never be taken for a small number).
  // The pairs (i, j), (j, i) in tiles of kTile × kTile: the transposed reads and writes then stay
  // in the cache. Each entry of m and R is computed on its own, so the order changes none of them.
  constexpr std::size_t kTile = 32;
  return upward([&] {
    for (std::size_t i0 = 0; i0 < n; i0 += kTile)
      for (std::size_t j0 = 0; j0 <= i0; j0 += kTile)
        for (std::size_t i = i0; i < std::min(n, i0 + kTile); ++i)
          for (std::size_t j = j0; j < std::min(i + 1, j0 + kTile); ++j) {
            const IntervalD& x = a[i * n + j];
            const IntervalD& y = a[j * n + i];
            const double h = (x.upper() + y.upper()) * 0.5, nl = (-x.lower() + -y.lower()) * 0.5;
            const double c = 0.5 * h - 0.5 * nl;                       // any double will do (no overflow)
            const double r = std::max(h - c, nl + c);                  // ≥ hi − c and ≥ c − lo
            if (!std::isfinite(h) || !std::isfinite(nl) || !std::isfinite(c) || !std::isfinite(r)) return inf;
            mid[i * n + j] = mid[j * n + i] = c;
            rad[i * n + j] = rad[j * n + i] = r;
            if (j == i) {
              diag[i] = h;
            } else {  // mag [M]_ij = max(sup, −inf) in absolute value, for row i and row j
              const double mag = std::max(std::fabs(h), std::fabs(nl));
              off[i] += mag;
              off[j] += mag;
            }
          }
    double g = -inf;
    for (std::size_t i = 0; i < n; ++i) {
      const double s = diag[i] + off[i];  // every term and partial sum rounded up
      if (!std::isfinite(s)) return inf;
      g = std::max(g, s);
    }
    return g;
  });
}

}  // namespace detail

// λI − m = LLᵀ + Δ with LLᵀ ⪰ 0 (any real L) gives λI − m ⪰ −‖Δ‖₂ I, i.e. λ_max(m) ≤ λ + ‖Δ‖₂.
// LLᵀ is enclosed entrywise by two upward-rounded GEMMs (numerics/upward_gemm.hpp: ≥ LLᵀ and
// ≥ −LLᵀ), Δ in interval arithmetic, and ‖Δ‖₂ ≤ max(‖|Δ|‖₁, ‖|Δ|‖∞) (‖D‖₂² ≤ ‖D‖₁‖D‖∞),
// all rounded upward.
double lambda_max_bound_from_factor(const std::vector<double>& m, std::size_t n, double lambda, const std::vector<double>& L) {
  const double inf = std::numeric_limits<double>::infinity();
  if (n == 0 || m.size() != n * n || L.size() != n * n) return inf;
  Scratch& w = scratch();
  std::vector<double> &Lt = w.Lt, &nL = w.nL, &up = w.up, &dn = w.dn;
  for (auto* v : {&nL, &up, &dn}) v->resize(n * n);
  bool lower_triangular = true;  // a Cholesky factor is; any other L takes the general products
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double v = L[i * n + j];
      if (!std::isfinite(v)) return inf;
      nL[i * n + j] = -v;
      if (j > i && v != 0) lower_triangular = false;
    }
  if (!std::isfinite(lambda)) return inf;
  // LLᵀ is symmetric: its lower triangle bounds the whole of it (half the work); for a lower
  // triangular L the products skip the zero blocks (a third of that again).
  if (lower_triangular) {
    gemm_up_lower_of_triangular(L.data(), L.data(), up.data(), n);   // ≥ LLᵀ
    gemm_up_lower_of_triangular(nL.data(), L.data(), dn.data(), n);  // ≥ −LLᵀ
  } else {
    Lt.resize(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) Lt[j * n + i] = L[i * n + j];
    gemm_up_lower(L.data(), Lt.data(), up.data(), n, n);   // ≥ LLᵀ
    gemm_up_lower(nL.data(), Lt.data(), dn.data(), n, n);  // ≥ −LLᵀ
  }
  // Δ = target − LLᵀ with LLᵀ ∈ [−dn, up] and target = λI − m; |Δ_ij| summed by rows and columns.
  // One upward-rounded scope: hi(Δ) = hi(target) + dn, −lo(Δ) = −lo(target) + up; then the
  // norm bound and λ + it. +inf when any term is not finite (an overflow never shrinks it).
  std::vector<double> row(n, 0.0), col(n, 0.0);
  const double bound = upward([&] {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) {  // (j, i) has the same exact Δ: m and LLᵀ are symmetric
        const double mij = m[i * n + j];
        const double hi_t = i == j ? lambda - mij : -mij;        // ≥ the exact λδ_ij − m_ij
        const double neg_lo_t = i == j ? mij - lambda : mij;     // ≥ −(λδ_ij − m_ij)
        const double hi = hi_t + dn[i * n + j], neg_lo = neg_lo_t + up[i * n + j];
        const double mag = std::max(std::fabs(hi), std::fabs(neg_lo));
        if (!std::isfinite(mag)) return inf;
        row[i] += mag;
        col[j] += mag;
        if (j != i) {
          row[j] += mag;
          col[i] += mag;
        }
      }
    double norm = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(row[i]) || !std::isfinite(col[i])) return inf;
      norm = std::max(norm, std::max(row[i], col[i]));
    }
    return lambda + norm;
  });
  return std::isfinite(bound) ? bound : inf;
}

LogNormBound log_norm_upper_bound(const std::vector<IntervalD>& a, std::size_t n, const PairRunner& both) {
  LogNormBound out;
  const double inf = std::numeric_limits<double>::infinity();
  out.mu = inf;
  if (n == 0 || a.size() != n * n) return out;
  Scratch& w = scratch();
  std::vector<double> &mid = w.mid, &rad = w.rad;
  const double gersh = detail::symmetric_part_bounds(a, n, mid, rad);
  if (!std::isfinite(gersh)) return out;  // +inf
  out.mu = gersh;
  double scale = 0;
  for (double v : mid) scale = std::max(scale, std::fabs(v));
  const double rho = detail::perron_root_upper_bound(rad, n);  // ≥ ρ(R), or +inf
  if (!std::isfinite(rho)) return out;                 // the Gershgorin bound
  auto take = [&](double mid_bound) {  // λ_max(m) ≤ mid_bound, certified (finite or +inf)
    const double mu = upward([&] { return mid_bound + rho; });
    if (std::isfinite(mu) && mu < out.mu) {
      out.mu = mu;
      out.lambda_mid = mid_bound;
      out.rho_radius = rho;
      out.by_cholesky = true;
    }
  };
  // The proposal: Lanczos' largest Ritz value plus its residual (a double estimate of λ_max(m)).
  const double proposal = detail::lanczos_top_estimate(mid, n);
  if (!std::isfinite(proposal)) return out;
  // The certificate: a floating-point Cholesky factorisation of λI − m that runs to completion
  // gives λ_max(m) ≤ λ + its a priori rounding error bound (numerics/cholesky_lambda_bound.hpp).
  // The factorisation needs λ above λ_max(m) by more than its rounding: a few margins, each
  // costing a factorisation when it fails; an excess δ in μ only costs a factor e^{δ·t} in width.
  auto certify_above = [&](double estimate, std::initializer_list<double> margins) {
    for (double f : margins) {
      const double bound =
          lambda_max_bound_by_cholesky(mid, n, estimate + f * (scale + std::numeric_limits<double>::min()) * static_cast<double>(n), both);
      if (std::isfinite(bound)) {
        take(bound);
        return true;
      }
    }
    return false;
  };
  if (certify_above(proposal, {0x1p-30, 0x1p-20, 0x1p-12})) return out;
  // Lanczos may have missed the top of the spectrum (then every shift above it is refused): the
  // largest eigenvalue from a dense double eigensolver, once.
  Eigen::MatrixXd e(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) e(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = mid[i * n + j];
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(e, Eigen::EigenvaluesOnly);
  if (solver.info() == Eigen::Success) certify_above(solver.eigenvalues().maxCoeff(), {0x1p-20, 0x1p-12, 0x1p-6});
  if (!std::isfinite(out.mu)) out.mu = inf;  // (cannot happen: every candidate was checked finite)
  return out;
}

}  // namespace softcert::num
