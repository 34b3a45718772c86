// The certified lower bound of the smallest eigenvalue (numerics/eigenvalue_lower_bound.hpp):
// closed forms, a shift exactly at the eigenvalue (a zero pivot must not pass), interval entries,
// and matrices that are not positive definite.
#include <gtest/gtest.h>

#include <vector>

#include "numerics/eigenvalue_lower_bound.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"

namespace softcert {
namespace {

std::vector<IntervalD> thin(const std::vector<double>& v) {
  std::vector<IntervalD> out;
  for (double x : v) out.emplace_back(x);
  return out;
}

TEST(EigenvalueLowerBound, TwoByTwoClosedForm) {
  // [[2, 1], [1, 2]]: eigenvalues 1 and 3.
  const auto g = thin({2, 1, 1, 2});
  EXPECT_TRUE(num::certify_positive_definite_shift(g, 2, 0.999));
  // At the eigenvalue the shifted matrix [[1, 1], [1, 1]] is singular: its second pivot is 0.
  EXPECT_FALSE(num::certify_positive_definite_shift(g, 2, 1.0));
  EXPECT_FALSE(num::certify_positive_definite_shift(g, 2, 1.001));
  const double lambda = num::min_eigenvalue_lower_bound(g, 2);
  EXPECT_GT(lambda, 0.98);
  EXPECT_LT(lambda, 1.0);
}

TEST(EigenvalueLowerBound, DiagonalAndBadlyScaled) {
  const auto g = thin({1e-6, 0, 0, 0, 4, 0, 0, 0, 1e6});
  const double lambda = num::min_eigenvalue_lower_bound(g, 3);
  EXPECT_GT(lambda, 0.98e-6);
  EXPECT_LT(lambda, 1e-6);
  EXPECT_FALSE(num::certify_positive_definite_shift(g, 3, 1e-6));
}

TEST(EigenvalueLowerBound, WideEntriesBoundEveryMember) {
  // [[2, [0.9, 1.1]], [[0.9, 1.1], 2]]: the smallest eigenvalue over the members is 2 − 1.1 = 0.9.
  std::vector<IntervalD> g = thin({2, 0, 0, 2});
  g[1] = g[2] = num::hull_of_bounds<IntervalD>(0.9, 1.1);
  EXPECT_TRUE(num::certify_positive_definite_shift(g, 2, 0.89));
  EXPECT_FALSE(num::certify_positive_definite_shift(g, 2, 0.91));  // the member with 1.1 has 0.9
  // mid has λ_min = 1: the proposals 0.99 and 0.9 are refused (not below 0.9 for every member),
  // 0.5 is certified.
  const double lambda = num::min_eigenvalue_lower_bound(g, 2);
  EXPECT_LT(lambda, 0.9);
  EXPECT_GT(lambda, 0.4);
}

TEST(EigenvalueLowerBound, SingularAndIndefiniteMatricesGetNoBound) {
  EXPECT_EQ(num::min_eigenvalue_lower_bound(thin({1, 1, 1, 1}), 2), 0.0);    // eigenvalues 0, 2
  EXPECT_EQ(num::min_eigenvalue_lower_bound(thin({1, 2, 2, 1}), 2), 0.0);    // eigenvalues −1, 3
  EXPECT_EQ(num::min_eigenvalue_lower_bound(thin({-1, 0, 0, -2}), 2), 0.0);  // negative definite
  EXPECT_EQ(num::min_eigenvalue_lower_bound(std::vector<IntervalD>{}, 0), 0.0);
}

TEST(EigenvalueLowerBound, MpfiEntriesNearTheEigenvalue) {
  // [[2, 1], [1, 2]] at 200 bits, shifted by 1 − 2⁻⁴⁰: still certified; by 1: not.
  num::PrecisionGuard p(200);
  std::vector<IntervalMp> g = {IntervalMp(2), IntervalMp(1), IntervalMp(1), IntervalMp(2)};
  EXPECT_FALSE(num::certify_positive_definite_shift(g, 2, 1.0));
  EXPECT_TRUE(num::certify_positive_definite_shift(g, 2, 1.0 - 0x1p-40));
}

}  // namespace
}  // namespace softcert
