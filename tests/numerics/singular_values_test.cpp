// num::singular_values (numerics/singular_values.hpp): floating-point singular values, largest
// first — the proposal of certify/operator_norm.cpp and the regression check's label guard.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "numerics/singular_values.hpp"

namespace softcert {
namespace {

TEST(SingularValues, DiagonalMatrixGivesItsAbsoluteEntriesLargestFirst) {
  const std::vector<double> s = num::singular_values({3, 0, 0, 0, -4, 0}, 2, 3);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NEAR(s[0], 4.0, 1e-14);
  EXPECT_NEAR(s[1], 3.0, 1e-14);
}

TEST(SingularValues, RankOneAndRotatedMatricesHaveTheirClosedForms) {
  // u vᵀ with ‖u‖ = 5, ‖v‖ = √2: singular values 5√2 and 0.
  const std::vector<double> r = num::singular_values({3, 3, 4, 4}, 2, 2);
  EXPECT_NEAR(r[0], 5 * std::sqrt(2.0), 1e-13);
  EXPECT_NEAR(r[1], 0.0, 1e-13);
  // Q diag(2, 1/2) with Q a rotation by 0.3: singular values 2 and 1/2 (condition number 4).
  const double c = std::cos(0.3), s = std::sin(0.3);
  const std::vector<double> q = num::singular_values({2 * c, -0.5 * s, 2 * s, 0.5 * c}, 2, 2);
  EXPECT_NEAR(q[0], 2.0, 1e-14);
  EXPECT_NEAR(q[1], 0.5, 1e-14);
  EXPECT_NEAR(q[0] / q[1], 4.0, 1e-13);
}

TEST(SingularValues, EmptyAndMisshapenInputs) {
  EXPECT_TRUE(num::singular_values({}, 0, 3).empty());
  EXPECT_THROW((void)num::singular_values({1, 2, 3}, 2, 2), std::invalid_argument);
}

}  // namespace
}  // namespace softcert
