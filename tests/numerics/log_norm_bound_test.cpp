// The certified bound of the logarithmic 2-norm over an interval matrix
// (numerics/log_norm_bound.hpp): closed forms, members that exceed the midpoint's λ_max (the
// radius term must not be dropped), non-symmetric matrices (only the symmetric part counts),
// random members, and the factor certificate for any factor (its residual must not be dropped).
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"

namespace softcert {
namespace {

std::vector<IntervalD> point_entries(const std::vector<double>& v) {
  std::vector<IntervalD> out;
  for (double x : v) out.emplace_back(x);
  return out;
}

// λ_max((A + Aᵀ)/2) of a double matrix, by a double eigensolver (a reference good to ~1e-15).
double lambda_max_sym(const std::vector<double>& a, std::size_t n) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = 0.5 * (a[i * n + j] + a[j * n + i]);
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(m, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
}

TEST(LogNormBound, ClosedForms) {
  // Diagonal: the largest entry (Gershgorin is exact here and the smaller bound).
  const auto r = num::log_norm_upper_bound(point_entries({3, 0, 0, 0, -1, 0, 0, 0, 0.5}), 3);
  EXPECT_GE(r.mu, 3.0);
  EXPECT_LT(r.mu, 3.0 + 1e-4);
  // [[2, 1], [1, −2]]: λ_max = √5 ≈ 2.236, where Gershgorin gives 3: the certified one is used.
  const auto c = num::log_norm_upper_bound(point_entries({2, 1, 1, -2}), 2);
  EXPECT_TRUE(c.by_cholesky);
  EXPECT_GE(c.mu, std::sqrt(5.0));
  EXPECT_LT(c.mu, std::sqrt(5.0) + 1e-4);
}

TEST(LogNormBound, OnlyTheSymmetricPartCounts) {
  // A rotation generator: its symmetric part is 0, so distances do not grow.
  const auto rot = num::log_norm_upper_bound(point_entries({0, 1, -1, 0}), 2);
  EXPECT_GE(rot.mu, 0.0);
  EXPECT_LT(rot.mu, 1e-9);
  // [[0, 2], [0, 0]]: symmetric part [[0, 1], [1, 0]], λ_max = 1 (the matrix's own eigenvalues are 0).
  const auto shear = num::log_norm_upper_bound(point_entries({0, 2, 0, 0}), 2);
  EXPECT_GE(shear.mu, 1.0);
  EXPECT_LT(shear.mu, 1.0 + 1e-5);
}

TEST(LogNormBound, AMemberAboveTheMidpointIsCovered) {
  // mid = 0, but the member [[0, e], [e, 0]] has λ_max = e: the bound must reach it.
  const double e = 1e-3;
  const std::vector<IntervalD> a = {IntervalD(0.0), IntervalD(-e, e), IntervalD(-e, e), IntervalD(0.0)};
  const auto r = num::log_norm_upper_bound(a, 2);
  EXPECT_GE(r.mu, e);
  EXPECT_LT(r.mu, 2 * e);
  // Every entry in [−1, 1] (n = 5): the all-ones member has λ_max = 5.
  const std::size_t n = 5;
  const auto w = num::log_norm_upper_bound(std::vector<IntervalD>(n * n, IntervalD(-1.0, 1.0)), n);
  EXPECT_GE(w.mu, 5.0);
  EXPECT_LT(w.mu, 5.0 * (1 + 1e-6));
}

TEST(LogNormBound, RandomMembersOfARandomIntervalMatrixStayBelow) {
  std::mt19937 gen(7);
  std::normal_distribution<double> z;
  for (std::size_t n : {3u, 17u, 60u}) {
    std::vector<IntervalD> a(n * n);
    std::vector<double> mid(n * n), rad(n * n);
    for (std::size_t k = 0; k < n * n; ++k) {
      mid[k] = z(gen);
      rad[k] = 1e-3 * std::fabs(z(gen));
      a[k] = IntervalD(mid[k] - rad[k], mid[k] + rad[k]);
    }
    const auto r = num::log_norm_upper_bound(a, n);
    EXPECT_TRUE(r.by_cholesky) << n;
    std::uniform_real_distribution<double> u(-1, 1);
    double worst = -1e300;
    for (int s = 0; s < 40; ++s) {
      std::vector<double> member(n * n);
      for (std::size_t k = 0; k < n * n; ++k) member[k] = mid[k] + (s == 0 ? 0 : u(gen)) * rad[k] * 0.999;
      worst = std::max(worst, lambda_max_sym(member, n));
    }
    EXPECT_GE(r.mu, worst) << n;
    // not vacuous: within the radius term (ρ(R) ≤ n·max rad) and the proposal's slack of mid's λ_max
    EXPECT_LT(r.mu, lambda_max_sym(mid, n) + static_cast<double>(n) * 4e-3 + 1e-3) << n;
  }
}

// λ_max(m) ≤ λ + ‖λI − m − LLᵀ‖ holds for ANY L: with L = 0, a random L and the Cholesky factor
// (tight), against the eigenvalues; without the residual term the first two would fall below.
TEST(LogNormBound, FactorBoundHoldsForAnyFactor) {
  std::mt19937 gen(11);
  std::normal_distribution<double> z;
  const std::size_t n = 12;
  std::vector<double> m(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) m[i * n + j] = m[j * n + i] = z(gen);
  const double top = lambda_max_sym(m, n);
  std::vector<double> zero(n * n, 0.0), random(n * n);
  for (double& v : random) v = z(gen);
  EXPECT_GE(num::lambda_max_bound_from_factor(m, n, 0.0, zero), top);
  EXPECT_GE(num::lambda_max_bound_from_factor(m, n, top - 1.0, random), top);
  // the Cholesky factor of (top + 1e-6)I − m: within rounding of top + 1e-6
  Eigen::MatrixXd a(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = (i == j ? top + 1e-6 : 0.0) - m[i * n + j];
  const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(a).matrixL();
  std::vector<double> chol(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) chol[i * n + j] = L(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  const double tight = num::lambda_max_bound_from_factor(m, n, top + 1e-6, chol);
  EXPECT_GE(tight, top);
  EXPECT_LT(tight, top + 1e-6 + 1e-12);
}

// Entries so large that sums overflow: every entry in [−8e307, 8e307], n = 3. The all-8e307
// member has λ_max = 2.4e308 > DBL_MAX, so the only true bound in doubles is +inf; a power
// iteration's NaN taken for 0 would give ρ(R) = 0 and μ = 6.2e-317. The same with the
// radius alone huge (midpoint 0) and with the midpoint alone huge (thin entries), and a case
// where every sum still fits (the bound must then be finite and true).
TEST(LogNormBound, HugeEntriesGiveInfinityNotASmallBound) {
  const double big = 8e307, inf = std::numeric_limits<double>::infinity();
  const std::size_t n = 3;
  const auto wide = num::log_norm_upper_bound(std::vector<IntervalD>(n * n, IntervalD(-big, big)), n);
  EXPECT_EQ(wide.mu, inf);
  const auto thin = num::log_norm_upper_bound(std::vector<IntervalD>(n * n, IntervalD(big)), n);
  EXPECT_EQ(thin.mu, inf);
  // one huge radius per row, the rest tiny: ρ(R) ≈ 8e307·(1 + …) still fits, and so must μ ≥ it
  std::vector<IntervalD> a(n * n, IntervalD(-1.0, 1.0));
  a[0] = IntervalD(-big, big);
  const auto one = num::log_norm_upper_bound(a, n);
  EXPECT_FALSE(std::isnan(one.mu));
  EXPECT_GE(one.mu, big);  // the member with a_00 = 8e307 has λ_max ≥ 8e307
  // 1e308 entries, n = 2: λ_max of the all-1e308 member is 2e308 > DBL_MAX
  const auto two = num::log_norm_upper_bound(std::vector<IntervalD>(4, IntervalD(-1e308, 1e308)), 2);
  EXPECT_EQ(two.mu, inf);
}

// ρ(R) through the whole bound when R's row sums overflow but its midpoint is 0: μ must not
// come out as λ_max(0) = 0 plus a dropped radius term.
TEST(LogNormBound, OverflowingRadiusIsNeverDropped) {
  const std::size_t n = 4;
  const double r = 6e307;  // row sums 2.4e308 overflow
  std::vector<IntervalD> a(n * n);
  for (std::size_t k = 0; k < n * n; ++k) a[k] = IntervalD(-r, r);
  const auto b = num::log_norm_upper_bound(a, n);
  EXPECT_EQ(b.mu, std::numeric_limits<double>::infinity());
  EXPECT_FALSE(b.by_cholesky);
}

}  // namespace
}  // namespace softcert
