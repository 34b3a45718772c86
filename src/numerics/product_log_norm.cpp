#include "numerics/product_log_norm.hpp"

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

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr double kInf = std::numeric_limits<double>::infinity();

// A midpoint c (any double) and a radius r ≥ max(hi − c, c − lo) of [lo, hi], given hi and
// nlo = −lo. Called only inside an upward-rounded scope. false when a quantity is not finite.
inline bool mid_rad(double hi, double nlo, double& c, double& r) {
  c = 0.5 * hi - 0.5 * nlo;
  r = std::max(hi - c, nlo + c);
  return std::isfinite(hi) && std::isfinite(nlo) && std::isfinite(c) && std::isfinite(r);
}

// An interval matrix (row-major, rows × cols) held as upper bounds of its entries (hi) and of
// their negations (nlo): entry (i, j) ⊂ [−nlo_ij, hi_ij]. Sums of such bounds rounded upward are
// again bounds, with no switch between rounding modes.
struct Bounds {
  std::size_t rows = 0, cols = 0;
  std::vector<double> hi, nlo;
  Bounds(std::size_t r, std::size_t c) : rows(r), cols(c), hi(r * c), nlo(r * c) {}
};

Bounds transposed(const Bounds& a) {
  Bounds t(a.cols, a.rows);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) {
      t.hi[j * a.rows + i] = a.hi[i * a.cols + j];
      t.nlo[j * a.rows + i] = a.nlo[i * a.cols + j];
    }
  return t;
}

// [A]·b for a point matrix b (a.cols × m, row-major) in midpoint–radius form: for A ∈ [A],
// A b = c b + Δ b with |Δ b| ≤ r |b|, and c b lies between −gemm_up(−c, b) and gemm_up(c, b).
// false when a midpoint or radius is not finite (the products' finiteness is checked by the caller).
bool times_point(const Bounds& a, const std::vector<double>& b, std::size_t m, Bounds& out) {
  const std::size_t r = a.rows, in = a.cols;
  std::vector<double> c(r * in), nc(r * in), rad(r * in), babs(in * m), up(r * m), dn(r * m), rr(r * m);
  const bool ok = upward([&] {
    for (std::size_t i = 0; i < r * in; ++i) {
      if (!mid_rad(a.hi[i], a.nlo[i], c[i], rad[i])) return false;
      nc[i] = -c[i];
    }
    return true;
  });
  if (!ok) return false;
  for (std::size_t i = 0; i < in * m; ++i) babs[i] = std::fabs(b[i]);
  gemm_up(c.data(), b.data(), up.data(), r, in, m);     // ≥ c b
  gemm_up(nc.data(), b.data(), dn.data(), r, in, m);    // ≥ −c b
  gemm_up(rad.data(), babs.data(), rr.data(), r, in, m);  // ≥ r |b|
  out = Bounds(r, m);
  upward([&] {
    for (std::size_t i = 0; i < r * m; ++i) {
      out.hi[i] = up[i] + rr[i];
      out.nlo[i] = dn[i] + rr[i];
    }
  });
  return true;
}

}  // namespace

namespace detail {

// The Gram matrix K of Z = [L R] (2k × 2k, its lower triangle) rounded up and, from −Zᵀ, down;
// then A = (K_LL + K_LR + K_RL + K_RR)/4, B = (K_LL − K_LR + K_RL − K_RR)/4 and
// C = (K_LL − K_LR − K_RL + K_RR)/4 as upper bounds of each entry and of its negation.
bool gram_blocks(const double* L, const double* R, std::size_t n, std::size_t k, const PairRunner& both, GramBounds& A,
                 GramBounds& B, GramBounds& C) {
  if (n == 0 || k == 0) return false;
  const std::size_t k2 = 2 * k;
  std::vector<double> Z(n * k2), Zt(k2 * n), nZt(k2 * n), Kup(k2 * k2), Kdn(k2 * k2);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < k2; ++j) {
      const double z = j < k ? L[i * k + j] : R[i * k + j - k];
      Z[i * k2 + j] = z;
      Zt[j * n + i] = z;
      nZt[j * n + i] = -z;
    }
  run_pair(
      both, [&] { gemm_up_lower(Zt.data(), Z.data(), Kup.data(), k2, n); },
      [&] { gemm_up_lower(nZt.data(), Z.data(), Kdn.data(), k2, n); });
  // K_ab(i, j) for the blocks a, b ∈ {L = 0, R = 1}, read from the lower triangle
  auto kat = [&](const std::vector<double>& m, std::size_t a, std::size_t b, std::size_t i, std::size_t j) {
    const std::size_t r = a * k + i, c = b * k + j;
    return r >= c ? m[r * k2 + c] : m[c * k2 + r];
  };
  for (GramBounds* m : {&A, &B, &C}) {
    m->hi.resize(k * k);
    m->nlo.resize(k * k);
  }
  return upward([&] {
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        const std::size_t e = i * k + j;
        const double uxx = kat(Kup, 0, 0, i, j), uxy = kat(Kup, 0, 1, i, j), uyx = kat(Kup, 1, 0, i, j), uyy = kat(Kup, 1, 1, i, j);
        const double dxx = kat(Kdn, 0, 0, i, j), dxy = kat(Kdn, 0, 1, i, j), dyx = kat(Kdn, 1, 0, i, j), dyy = kat(Kdn, 1, 1, i, j);
        A.hi[e] = (uxx + uxy + uyx + uyy) * 0.25;
        A.nlo[e] = (dxx + dxy + dyx + dyy) * 0.25;
        B.hi[e] = (uxx + dxy + uyx + dyy) * 0.25;
        B.nlo[e] = (dxx + uxy + dyx + uyy) * 0.25;
        C.hi[e] = (uxx + dxy + dyx + uyy) * 0.25;
        C.nlo[e] = (dxx + uxy + uyx + dyy) * 0.25;
        for (double b : {A.hi[e], A.nlo[e], B.hi[e], B.nlo[e], C.hi[e], C.nlo[e]})
          if (!std::isfinite(b)) return false;
      }
    return true;
  });
}

// The Woodbury certificate (top of the header) at one λ > 0: F ⪰ 0 for every F in its enclosure.
bool woodbury_certifies(const GramBounds& A, const GramBounds& Bg, const GramBounds& C, std::size_t k, double lambda) {
  if (!(lambda > 0) || !std::isfinite(lambda) || k == 0) return false;
  for (const GramBounds* m : {&A, &Bg, &C})
    if (m->hi.size() != k * k || m->nlo.size() != k * k) return false;
  const auto K = static_cast<Eigen::Index>(k);
  Bounds B(k, k), G(k, k);
  B.hi = Bg.hi;
  B.nlo = Bg.nlo;
  // [G] = λI + [C] and the midpoints of [G] and [B] (any doubles)
  G.hi = C.hi;
  G.nlo = C.nlo;
  Eigen::MatrixXd Gm(K, K), Bm(K, K);
  const bool ok = upward([&] {
    for (std::size_t i = 0; i < k; ++i) {
      G.hi[i * k + i] = C.hi[i * k + i] + lambda;
      G.nlo[i * k + i] = C.nlo[i * k + i] + -lambda;
    }
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        double c, r;
        if (!mid_rad(G.hi[i * k + j], G.nlo[i * k + j], c, r)) return false;
        Gm(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = c;
        if (!mid_rad(B.hi[i * k + j], B.nlo[i * k + j], c, r)) return false;
        Bm(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = c;
      }
    return true;
  });
  if (!ok) return false;
  // W ≈ B G⁻¹ (any doubles serve): Wᵀ solves G_mid Wᵀ = B_midᵀ
  const Eigen::LLT<Eigen::MatrixXd> llt(Gm);
  if (llt.info() != Eigen::Success) return false;
  const Eigen::MatrixXd Wt_m = llt.solve(Bm.transpose());
  if (!Wt_m.allFinite()) return false;
  std::vector<double> Wt(k * k);  // Wᵀ, row-major
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) Wt[i * k + j] = Wt_m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  // [B Wᵀ], [G Wᵀ] and W G Wᵀ = ((G Wᵀ)ᵀ Wᵀ)ᵀ
  Bounds BW(k, k), GW(k, k), WGW(k, k);
  if (!times_point(B, Wt, k, BW) || !times_point(G, Wt, k, GW) || !times_point(transposed(GW), Wt, k, WGW)) return false;
  WGW = transposed(WGW);
  // F = λI − A + BWᵀ + (BWᵀ)ᵀ − WGWᵀ; its symmetric part's midpoint and radius (F itself is
  // symmetric, so ([F] + [F]ᵀ)/2 contains it)
  std::vector<double> neg_mid(k * k), rad(k * k);
  Eigen::MatrixXd fm(K, K);
  const bool finite = upward([&] {
    auto hi = [&](std::size_t i, std::size_t j) {
      return (i == j ? lambda : 0.0) + A.nlo[i * k + j] + BW.hi[i * k + j] + BW.hi[j * k + i] + WGW.nlo[i * k + j];
    };
    auto nlo = [&](std::size_t i, std::size_t j) {
      return (i == j ? -lambda : 0.0) + A.hi[i * k + j] + BW.nlo[i * k + j] + BW.nlo[j * k + i] + WGW.hi[i * k + j];
    };
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j <= i; ++j) {
        double c, r;
        if (!mid_rad((hi(i, j) + hi(j, i)) * 0.5, (nlo(i, j) + nlo(j, i)) * 0.5, c, r)) return false;
        neg_mid[i * k + j] = neg_mid[j * k + i] = -c;
        rad[i * k + j] = rad[j * k + i] = r;
        fm(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = fm(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)) = c;
      }
    return true;
  });
  if (!finite) return false;
  const double rho = detail::perron_root_upper_bound(rad, k);  // ≥ ρ(R_F), or +inf
  if (!std::isfinite(rho)) return false;
  // λ_min(F_mid) ≥ s > 0 by the factorisation of F_mid − sI = s'I − (−F_mid), s' = −s
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(fm, Eigen::EigenvaluesOnly);
  if (es.info() != Eigen::Success) return false;
  const double s = 0.5 * es.eigenvalues().minCoeff();
  if (!(s > 0) || !std::isfinite(s)) return false;
  const double top = lambda_max_bound_by_cholesky(neg_mid, k, -s);  // ≥ λ_max(−F_mid), or +inf
  if (!std::isfinite(top)) return false;
  return upward([&] { return top + rho; }) <= 0;  // λ_max(−F) ≤ 0 for every F in [F]
}

}  // namespace detail

LogNormBound log_norm_upper_bound_of_product(const std::vector<IntervalD>& x, const std::vector<IntervalD>& y, std::size_t n,
                                             std::size_t k, const PairRunner& both) {
  LogNormBound out;
  out.mu = kInf;
  if (n == 0 || k == 0 || x.size() != n * k || y.size() != n * k) return out;
  const auto N = static_cast<Eigen::Index>(n), Kk = static_cast<Eigen::Index>(k);
  // X̂, rX, Ŷ, rY; |X̂| (exact) and |Ŷ| + rY (rounded up)
  RowMajor Xm(N, Kk), Xr(N, Kk), Ym(N, Kk), Yr(N, Kk), Xa(N, Kk), Ya(N, Kk);
  const bool ok = upward([&] {
    for (std::size_t i = 0; i < n * k; ++i) {
      const auto r = static_cast<Eigen::Index>(i / k), c = static_cast<Eigen::Index>(i % k);
      if (!mid_rad(x[i].upper(), -x[i].lower(), Xm(r, c), Xr(r, c)) || !mid_rad(y[i].upper(), -y[i].lower(), Ym(r, c), Yr(r, c)))
        return false;
      Xa(r, c) = std::fabs(Xm(r, c));
      Ya(r, c) = std::fabs(Ym(r, c)) + Yr(r, c);
      if (!std::isfinite(Ya(r, c))) return false;
    }
    return true;
  });
  if (!ok) return out;

  // ρ(N) by Collatz–Wielandt (numerics/collatz_wielandt.hpp), N v = (Xr (Yaᵀv) + Xa (Yrᵀv) +
  // Ya (Xrᵀv) + Yr (Xaᵀv))/2: every factor ≥ 0
  const double rho = detail::collatz_wielandt_upper_bound(
      [&](const Eigen::VectorXd& v, Eigen::VectorXd& w) {
        const Eigen::VectorXd a = Ya.transpose() * v, b = Yr.transpose() * v, c = Xr.transpose() * v, d = Xa.transpose() * v;
        w.noalias() = Xr * a;
        w.noalias() += Xa * b;
        w.noalias() += Ya * c;
        w.noalias() += Yr * d;
        w *= 0.5;
      },
      n);
  if (!std::isfinite(rho)) return out;

  // A = PᵀP, B = PᵀQ, C = QᵀQ for P = (X̂ + Ŷ)/2, Q = (X̂ − Ŷ)/2
  detail::GramBounds A, B, C;
  if (!detail::gram_blocks(Xm.data(), Ym.data(), n, k, both, A, B, C)) return out;  // row-major n × k
  double scale = 0;
  for (const detail::GramBounds* m : {&A, &B, &C})
    for (std::size_t e = 0; e < k * k; ++e) scale = std::max({scale, std::fabs(m->hi[e]), std::fabs(m->nlo[e])});

  auto take = [&](double lambda_bound, bool certified) {
    const double mu = upward([&] { return lambda_bound + rho; });
    if (std::isfinite(mu) && mu < out.mu) {
      out.mu = mu;
      out.lambda_mid = lambda_bound;
      out.rho_radius = rho;
      out.by_cholesky = certified;
    }
  };
  // Gershgorin's bound of [A] ≥ λ_max(A) = λ_max(PPᵀ) ≥ λ_max(S₀): needs no certificate
  const double gersh = upward([&] {
    double g = -kInf;
    for (std::size_t i = 0; i < k; ++i) {
      double s = A.hi[i * k + i];
      for (std::size_t j = 0; j < k; ++j)
        if (j != i) s += std::max(std::fabs(A.hi[i * k + j]), std::fabs(A.nlo[i * k + j]));
      if (!std::isfinite(s)) return kInf;
      g = std::max(g, s);
    }
    return g;
  });
  if (std::isfinite(gersh)) take(gersh, false);

  // λ proposed by Lanczos on S₀ v = (X̂(Ŷᵀv) + Ŷ(X̂ᵀv))/2, then certified above it by a few margins
  Eigen::MatrixXd basis;
  const double proposal = detail::lanczos_top_estimate_of(
      [&](const Eigen::MatrixXd& Qm, Eigen::Index col, Eigen::VectorXd& w) {
        const Eigen::VectorXd a = Ym.transpose() * Qm.col(col), b = Xm.transpose() * Qm.col(col);
        w.noalias() = Xm * a;
        w.noalias() += Ym * b;
        w *= 0.5;
      },
      n, basis);
  if (!std::isfinite(proposal)) return out;
  const double base = std::max(proposal, 0.0);
  for (double f : {0x1p-40, 0x1p-30, 0x1p-20, 0x1p-12}) {
    const double lambda = base + f * (scale + std::numeric_limits<double>::min()) * static_cast<double>(k);
    if (detail::woodbury_certifies(A, B, C, k, lambda)) {
      take(lambda, true);
      break;
    }
  }
  return out;
}

}  // namespace softcert::num
