// The certified bound of the logarithmic 2-norm over products X Yᵀ of interval factors
// (numerics/product_log_norm.hpp): closed forms, point factors against a double eigensolver
// (the Woodbury certificate must be used and tight: the fallback, λ_max(PᵀP), is not), members of
// wide factors above the midpoint's λ_max (the radius term must not be dropped), indefinite and
// rank-deficient products, agreement with the dense bound of the entrywise product, non-finite
// input, and the same bits on two threads.
#include <gtest/gtest.h>

#include <Eigen/Dense>

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

}  // namespace
}  // namespace softcert
