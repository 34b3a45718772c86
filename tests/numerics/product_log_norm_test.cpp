// The certified bound of the logarithmic 2-norm over products X Yᵀ of interval factors
// (numerics/product_log_norm.hpp): its Gram blocks against exact sums (MPFR: each fails rounded to
// nearest), the Woodbury certificate refusing an enclosure one of whose members is above λ (it
// fails with the enclosure's radius dropped), closed forms, point factors against a double eigensolver
// (the Woodbury certificate must be used and tight: the fallback, λ_max(PᵀP), is not), members of
// wide factors above the midpoint's λ_max (the radius term must not be dropped), indefinite and
// rank-deficient products, agreement with the dense bound of the entrywise product, non-finite
// input, and the same bits on two threads.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"
#include "numerics/product_log_norm.hpp"

namespace softcert {
namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<IntervalD> points_of(const RowMajor& m) {
  std::vector<IntervalD> out;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out.emplace_back(m(i, j));
  return out;
}

std::vector<IntervalD> boxes_of(const RowMajor& m, const RowMajor& r) {
  std::vector<IntervalD> out;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out.emplace_back(m(i, j) - r(i, j), m(i, j) + r(i, j));
  return out;
}

// λ_max((XYᵀ + YXᵀ)/2) by a double eigensolver (a reference good to ~1e-15 of the scale).
double lambda_max_sym_product(const RowMajor& X, const RowMajor& Y) {
  const Eigen::MatrixXd A = X * Y.transpose();
  const Eigen::MatrixXd S = 0.5 * (A + A.transpose());
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
}

RowMajor random_matrix(std::mt19937& gen, Eigen::Index n, Eigen::Index k, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  RowMajor m(n, k);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < k; ++j) m(i, j) = u(gen);
  return m;
}

TEST(ProductLogNorm, ClosedForms) {
  // X = Y = diag(2, 1) in the first two rows of a 5 × 2: sym(XYᵀ) = diag(4, 1, 0, 0, 0) (here
  // Gershgorin's bound of PᵀP = diag(4, 1) is exact, and below the certificate's margin).
  RowMajor X = RowMajor::Zero(5, 2);
  X(0, 0) = 2;
  X(1, 1) = 1;
  const auto r = num::log_norm_upper_bound_of_product(points_of(X), points_of(X), 5, 2);
  EXPECT_GE(r.mu, 4.0);
  EXPECT_LT(r.mu, 4.0 + 1e-6);
  // X = e₀ + e₁, Y = e₀ − e₁: sym(XYᵀ) = e₀e₀ᵀ − e₁e₁ᵀ, λ_max = 1, while ‖(X + Y)/2‖² = 1 and
  // ‖X‖‖Y‖ = 2.
  RowMajor x = RowMajor::Zero(4, 1), y = RowMajor::Zero(4, 1);
  x(0, 0) = x(1, 0) = 1;
  y(0, 0) = 1;
  y(1, 0) = -1;
  const auto s = num::log_norm_upper_bound_of_product(points_of(x), points_of(y), 4, 1);
  EXPECT_GE(s.mu, 1.0);
  EXPECT_LT(s.mu, 1.0 + 1e-6);
  // Y = −X: sym(XYᵀ) = −XXᵀ ⪯ 0 with a null space (n > k): λ_max = 0.
  std::mt19937 gen(11);
  const RowMajor Z = random_matrix(gen, 9, 3, 1.0);
  const RowMajor nZ = -Z;
  const auto t = num::log_norm_upper_bound_of_product(points_of(Z), points_of(nZ), 9, 3);
  EXPECT_GE(t.mu, 0.0);
  EXPECT_LT(t.mu, 1e-6);
}

// Point factors: the bound is the eigensolver's λ_max up to the certificate's margin, with the
// Woodbury certificate (Gershgorin's bound of PᵀP, the fallback, is far above for these).
TEST(ProductLogNorm, PointFactorsMatchTheEigensolver) {
  std::mt19937 gen(2026120610);
  int above_fallback = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const Eigen::Index n = 6 + trial % 13, k = 1 + trial % 5;
    const RowMajor X = random_matrix(gen, n, k, 2.0), Y = random_matrix(gen, n, k, 2.0);
    const double ref = lambda_max_sym_product(X, Y);
    const auto b = num::log_norm_upper_bound_of_product(points_of(X), points_of(Y), static_cast<std::size_t>(n), static_cast<std::size_t>(k));
    EXPECT_TRUE(b.by_cholesky) << trial;
    EXPECT_GE(b.mu, ref) << trial;
    EXPECT_LE(b.mu, ref + 1e-7 * (1 + std::fabs(ref))) << trial;
    EXPECT_EQ(b.rho_radius, 0.0) << trial;  // point factors: no radius
    const RowMajor P = 0.5 * (X + Y);
    if (lambda_max_sym_product(P, P) > ref + 1e-3) ++above_fallback;
  }
  EXPECT_GE(above_fallback, 30);  // the test has teeth: the fallback would have failed these
}

// Wide factors: every sampled member (corners and interior points) is below the bound, and some
// members are well above λ_max of the midpoints' product, so that dropping ρ(N) would fail.
TEST(ProductLogNorm, EveryMemberOfWideFactorsIsCovered) {
  std::mt19937 gen(2026120611);
  std::uniform_int_distribution<int> coin(0, 1);
  std::uniform_real_distribution<double> unit(-1, 1);
  int radius_needed = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const Eigen::Index n = 5 + trial % 7, k = 1 + trial % 4;
    const RowMajor Xm = random_matrix(gen, n, k, 1.5), Ym = random_matrix(gen, n, k, 1.5);
    RowMajor Xr = random_matrix(gen, n, k, 0.3).cwiseAbs(), Yr = random_matrix(gen, n, k, 0.3).cwiseAbs();
    const auto b = num::log_norm_upper_bound_of_product(boxes_of(Xm, Xr), boxes_of(Ym, Yr), static_cast<std::size_t>(n),
                                                        static_cast<std::size_t>(k));
    ASSERT_TRUE(std::isfinite(b.mu)) << trial;
    const double mid = lambda_max_sym_product(Xm, Ym);
    double worst = -std::numeric_limits<double>::infinity();
    for (int s = 0; s < 400; ++s) {
      RowMajor X = Xm, Y = Ym;
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = 0; j < k; ++j) {
          const bool corner = s % 2 == 0;
          X(i, j) += Xr(i, j) * (corner ? (coin(gen) ? 1 : -1) : unit(gen));
          Y(i, j) += Yr(i, j) * (corner ? (coin(gen) ? 1 : -1) : unit(gen));
        }
      worst = std::max(worst, lambda_max_sym_product(X, Y));
    }
    EXPECT_GE(b.mu, worst) << trial;
    if (worst > mid + 0.05) ++radius_needed;
  }
  EXPECT_GE(radius_needed, 10);
}

// One point factor x ≥ 0 and one wide factor y ∈ 2x ± x/10 (k = 1), or the roles swapped: the
// member y = 2x + x/10 attains the bound λ_max(S₀) + ρ(N) exactly (λ_max(sym(xyᵀ)) =
// (xᵀy + ‖x‖‖y‖)/2 with y ∥ x), so every term of N is needed and none is loose.
TEST(ProductLogNorm, AnAlignedMemberAttainsTheBound) {
  std::mt19937 gen(2026120617);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  for (int trial = 0; trial < 8; ++trial) {
    const Eigen::Index n = 4 + trial;
    RowMajor x(n, 1), yc(n, 1), r(n, 1), zero = RowMajor::Zero(n, 1);
    for (Eigen::Index i = 0; i < n; ++i) {
      x(i, 0) = u(gen);
      yc(i, 0) = 2 * x(i, 0);
      r(i, 0) = x(i, 0) / 8;  // exact
    }
    const RowMajor y = yc + r;
    const double attained = lambda_max_sym_product(x, y);
    for (bool swap : {false, true}) {
      const std::vector<IntervalD> point = boxes_of(x, zero), wide = boxes_of(yc, r);
      const auto b = swap ? num::log_norm_upper_bound_of_product(wide, point, static_cast<std::size_t>(n), 1)
                          : num::log_norm_upper_bound_of_product(point, wide, static_cast<std::size_t>(n), 1);
      EXPECT_GE(b.mu, attained * (1 - 1e-14)) << trial << " " << swap;
      EXPECT_LE(b.mu, attained * (1 + 1e-4)) << trial << " " << swap;  // ρ(N)'s v has a floor of 10⁻³
    }
  }
}

// The entrywise product [X][Y]ᵀ in interval arithmetic holds every XYᵀ, so its dense bound is a
// peer: the bound from the factors is not far above it.
TEST(ProductLogNorm, AgreesWithTheDenseBoundOfTheProduct) {
  std::mt19937 gen(2026120612);
  for (int trial = 0; trial < 8; ++trial) {
    const std::size_t n = 12 + static_cast<std::size_t>(trial), k = 2 + static_cast<std::size_t>(trial % 3);
    const RowMajor Xm = random_matrix(gen, static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(k), 1.0);
    const RowMajor Ym = random_matrix(gen, static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(k), 1.0);
    const RowMajor r = RowMajor::Constant(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(k), 1e-4);
    const std::vector<IntervalD> x = boxes_of(Xm, r), y = boxes_of(Ym, r);
    std::vector<IntervalD> df(n * n, IntervalD(0.0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t p = 0; p < k; ++p) df[i * n + j] = df[i * n + j] + x[i * k + p] * y[j * k + p];
    const auto dense = num::log_norm_upper_bound(df, n);
    const auto prod = num::log_norm_upper_bound_of_product(x, y, n, k);
    EXPECT_LE(prod.mu, dense.mu + 0.1 * (dense.mu - dense.lambda_mid) + 1e-9) << trial;
    EXPECT_GE(prod.mu, lambda_max_sym_product(Xm, Ym)) << trial;
  }
}

// Repeated columns and zero factors: Gram matrices that are singular.
TEST(ProductLogNorm, RankDeficientFactors) {
  std::mt19937 gen(2026120613);
  RowMajor X = random_matrix(gen, 10, 4, 1.0), Y = random_matrix(gen, 10, 4, 1.0);
  X.col(2) = X.col(0);
  X.col(3) = 2 * X.col(1);
  Y.col(3) = Y.col(1);
  const double ref = lambda_max_sym_product(X, Y);
  const auto b = num::log_norm_upper_bound_of_product(points_of(X), points_of(Y), 10, 4);
  EXPECT_GE(b.mu, ref);
  EXPECT_LE(b.mu, ref + 1e-6 * (1 + std::fabs(ref)));
  const RowMajor O = RowMajor::Zero(7, 3);
  const auto z = num::log_norm_upper_bound_of_product(points_of(O), points_of(O), 7, 3);
  EXPECT_GE(z.mu, 0.0);
  EXPECT_LT(z.mu, 1e-12);
}

TEST(ProductLogNorm, NonFiniteOrMismatchedInputGivesInfinity) {
  const double inf = std::numeric_limits<double>::infinity();
  std::mt19937 gen(5);
  const RowMajor X = random_matrix(gen, 6, 2, 1.0);
  std::vector<IntervalD> x = points_of(X), y = points_of(X);
  EXPECT_EQ(num::log_norm_upper_bound_of_product(x, y, 6, 3).mu, inf);  // size mismatch
  EXPECT_EQ(num::log_norm_upper_bound_of_product(x, y, 0, 2).mu, inf);
  std::vector<IntervalD> bad = x;
  bad[3] = IntervalD(0.0, inf);
  EXPECT_EQ(num::log_norm_upper_bound_of_product(bad, y, 6, 2).mu, inf);
  // entries of 1e300: the Gram products overflow, and the bound must not come out finite
  std::vector<IntervalD> huge = x;
  for (auto& e : huge) e = IntervalD(1e300, 1e300);
  const auto h = num::log_norm_upper_bound_of_product(huge, huge, 6, 2);
  EXPECT_EQ(h.mu, inf);
}

TEST(ProductLogNorm, TwoThreadsGiveOneThreadsBits) {
  std::mt19937 gen(2026120614);
  const RowMajor Xm = random_matrix(gen, 300, 21, 1.0), Ym = random_matrix(gen, 300, 21, 1.0);
  const RowMajor r = random_matrix(gen, 300, 21, 1e-6).cwiseAbs();
  const std::vector<IntervalD> x = boxes_of(Xm, r), y = boxes_of(Ym, r);
  const auto one = num::log_norm_upper_bound_of_product(x, y, 300, 21);
  const auto two = num::log_norm_upper_bound_of_product(x, y, 300, 21, [](const std::function<void()>& a, const std::function<void()>& b) {
    std::thread t(b);
    a();
    t.join();
  });
  EXPECT_EQ(std::memcmp(&one.mu, &two.mu, sizeof(double)), 0);
  EXPECT_TRUE(one.by_cholesky);
}

// Every bound of A = PᵀP, B = PᵀQ, C = QᵀQ (P = (L + R)/2, Q = (L − R)/2) against the exact sums of
// products of the doubles, at 2200 bits (exact here); returns how many entries lie strictly inside.
std::size_t expect_gram_blocks_enclose(const std::vector<double>& L, const std::vector<double>& R, std::size_t n, std::size_t k) {
  num::detail::GramBounds A, B, C;
  EXPECT_TRUE(num::detail::gram_blocks(L.data(), R.data(), n, k, {}, A, B, C));
  mpfr_t acc, u, v, t;
  mpfr_inits2(2200, acc, u, v, t, static_cast<mpfr_ptr>(nullptr));
  // column i of P (s = +1) or Q (s = −1): (L ± R)/2, exact at 2200 bits
  auto column = [&](mpfr_t out, std::size_t row, std::size_t col, int s) {
    mpfr_set_d(out, L[row * k + col], MPFR_RNDN);
    if (s > 0)
      mpfr_add_d(out, out, R[row * k + col], MPFR_RNDN);
    else
      mpfr_sub_d(out, out, R[row * k + col], MPFR_RNDN);
    mpfr_div_2ui(out, out, 1, MPFR_RNDN);
  };
  std::size_t strict = 0;
  for (int which = 0; which < 3; ++which) {
    const num::detail::GramBounds& m = which == 0 ? A : which == 1 ? B : C;
    const int sl = which == 2 ? -1 : 1, sr = which == 0 ? 1 : -1;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j) {
        mpfr_set_zero(acc, 1);
        for (std::size_t r = 0; r < n; ++r) {
          column(u, r, i, sl);
          column(v, r, j, sr);
          mpfr_mul(t, u, v, MPFR_RNDN);
          mpfr_add(acc, acc, t, MPFR_RNDN);
        }
        EXPECT_GE(mpfr_cmp_d(acc, -m.nlo[i * k + j]), 0) << which << " " << i << " " << j;
        EXPECT_LE(mpfr_cmp_d(acc, m.hi[i * k + j]), 0) << which << " " << i << " " << j;
        if (mpfr_cmp_d(acc, m.hi[i * k + j]) < 0 && mpfr_cmp_d(acc, -m.nlo[i * k + j]) > 0) ++strict;
      }
  }
  mpfr_clears(acc, u, v, t, static_cast<mpfr_ptr>(nullptr));
  return strict;
}

// Random doubles (inexact Gram sums), and factors whose Gram blocks K_LL, K_LR, K_RR are exact
// (L = small integers × 2⁴⁰, R small integers) while A, B, C's sums of them are not (2⁸⁰ against
// 1): the upward products leave no slack there, so the combination must round upward itself
// (rounded to nearest, some bounds fall short).
TEST(ProductLogNorm, GramBlocksEncloseTheExactProducts) {
  std::mt19937 gen(2026120615);
  const std::size_t n = 37, k = 4;
  std::vector<double> L(n * k), R(n * k);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < n * k; ++i) {
    L[i] = u(gen);
    R[i] = u(gen);
  }
  EXPECT_GE(expect_gram_blocks_enclose(L, R, n, k), 40u);  // inexact: strict bounds, not equal by luck
  std::uniform_int_distribution<int> small(-7, 7);
  for (std::size_t i = 0; i < n * k; ++i) {
    L[i] = std::ldexp(small(gen), 40);
    R[i] = 2 * small(gen) + 1;  // odd: K_RR's diagonal is odd
  }
  EXPECT_GE(expect_gram_blocks_enclose(L, R, n, k), 12u);
}

// Exact Gram blocks of random P, Q and λ* = λ_max(PPᵀ − QQᵀ): an enclosure of width ~10⁻¹³ is
// certified just above λ* and refused just below; an enclosure whose midpoint is shifted so that
// F_mid is positive definite at λ < λ*, while its member (the true blocks) is not, is refused —
// the certificate needs the enclosure's radius ρ(R_F).
TEST(ProductLogNorm, WoodburyRefusesAnEnclosureWithAMemberAboveLambda) {
  std::mt19937 gen(2026120616);
  for (int trial = 0; trial < 10; ++trial) {
    const Eigen::Index n = 20, k = 3;
    const RowMajor P = random_matrix(gen, n, k, 1.0), Q = random_matrix(gen, n, k, 1.0);
    const Eigen::MatrixXd S = P * P.transpose() - Q * Q.transpose();
    const double top = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    const Eigen::MatrixXd A = P.transpose() * P, B = P.transpose() * Q, C = Q.transpose() * Q;
    // enclosures [m − lo_pad·1, m + hi_pad·1], and A's diagonal shifted down by `shift`
    auto bounds = [&](const Eigen::MatrixXd& m, double pad, double shift) {
      num::detail::GramBounds b;
      for (Eigen::Index i = 0; i < k; ++i)
        for (Eigen::Index j = 0; j < k; ++j) {
          const double d = i == j ? shift : 0.0;
          b.hi.push_back(m(i, j) + pad * (1 + std::fabs(m(i, j))));
          b.nlo.push_back(-(m(i, j) - 2 * d) + pad * (1 + std::fabs(m(i, j))));
        }
      return b;
    };
    const double tight = 1e-13;
    EXPECT_TRUE(num::detail::woodbury_certifies(bounds(A, tight, 0), bounds(B, tight, 0), bounds(C, tight, 0), k, top + 1e-6)) << trial;
    EXPECT_FALSE(num::detail::woodbury_certifies(bounds(A, tight, 0), bounds(B, tight, 0), bounds(C, tight, 0), k, top - 1e-6)) << trial;
    // A's diagonal in [A_ii − 2, A_ii]: its midpoint A − I makes F_mid ≈ F + I, positive definite
    // at λ = λ* − 0.01, where F itself has a negative eigenvalue.
    EXPECT_FALSE(num::detail::woodbury_certifies(bounds(A, tight, 1.0), bounds(B, tight, 0), bounds(C, tight, 0), k, top - 0.01)) << trial;
  }
}

// k = 1 (A = ‖P‖², B = PᵀQ, C = ‖Q‖²; λ* solves λ − A + B²/(λ + C) = 0): enclosures of B or of C
// whose midpoints make F_mid > 0 at λ = λ* − 0.01 while the true blocks, members of them, give
// λ_max(S₀) = λ* > λ. The certificate must refuse (it fails with the radii of the products by W
// dropped); and a λ ≤ 0 is never certified, though F can be > 0 there (P = 2, Q = 1: λ* = 3, and
// at λ = −0.1, F = −4.1 + 4/0.9 > 0).
TEST(ProductLogNorm, WoodburyRefusesShiftedProductsAndNonPositiveLambda) {
  std::mt19937 gen(2026120618);
  auto one = [](double hi, double lo) {
    num::detail::GramBounds b;
    b.hi = {hi};
    b.nlo = {-lo};
    return b;
  };
  for (int trial = 0; trial < 10; ++trial) {
    const RowMajor P = random_matrix(gen, 5, 1, 1.0), Q = random_matrix(gen, 5, 1, 1.0);
    const double A = P.squaredNorm(), B = (P.transpose() * Q)(0, 0), C = Q.squaredNorm();
    const Eigen::MatrixXd S = P * P.transpose() - Q * Q.transpose();
    const double top = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(S, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    const double pad = 1e-13, lambda = top - 0.01, d = 0.5 * std::fabs(B) + 0.5;
    EXPECT_TRUE(num::detail::woodbury_certifies(one(A + pad, A - pad), one(B + pad, B - pad), one(C + pad, C - pad), 1, top + 1e-6));
    // B's enclosure reaches 2d further from 0 than B: its midpoint's |B| is larger by d
    const num::detail::GramBounds wideB = B >= 0 ? one(B + 2 * d, B - pad) : one(B + pad, B - 2 * d);
    EXPECT_FALSE(num::detail::woodbury_certifies(one(A + pad, A - pad), wideB, one(C + pad, C - pad), 1, lambda)) << trial;
    // C's enclosure reaches 2d below C: its midpoint's G = λ + C is smaller by d
    EXPECT_FALSE(num::detail::woodbury_certifies(one(A + pad, A - pad), one(B + pad, B - pad), one(C + pad, C - 2 * d), 1, lambda)) << trial;
  }
  for (double lambda : {-0.1, 0.0})
    EXPECT_FALSE(num::detail::woodbury_certifies(one(4, 4), one(2, 2), one(1, 1), 1, lambda)) << lambda;
}

}  // namespace
}  // namespace softcert
