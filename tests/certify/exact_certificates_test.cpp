// Exact LP certificates: Farkas alternatives, half-space depth, PSD by LDLᵀ, exact decimals.
#include <gtest/gtest.h>

#include "certify/exact_feasibility.hpp"
#include "certify/halfspace_depth.hpp"
#include "certify/rational_linear.hpp"
#include "numerics/elementary.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "support/rational_literals.hpp"

namespace softcert::certify {
namespace {

using testing::q;

TEST(ExactCertificates, DecimalsParseExactly) {
  // Regression: a leading zero must not switch the digits to octal ("0.17" once read as 3/20).
  EXPECT_EQ(parse_rational("0.17", "x"), q(17, 100));
  EXPECT_EQ(parse_rational("0.18", "x"), q(18, 100));
  EXPECT_EQ(parse_rational("-012.5e-1", "x"), q(-125, 100));
  EXPECT_EQ(parse_rational("-3/09", "x"), q(-1, 3));
  EXPECT_THROW(parse_rational("0x11", "field_name"), std::invalid_argument);
  try {
    parse_rational("abc", "tokens[1][2]");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tokens[1][2]"), std::string::npos);
  }
}

TEST(ExactCertificates, FeasibleSystemGivesVerifiedSolution) {
  // x ≥ 0 with x1 + x2 = 1, x1 − x2 = 1/2 → x = (3/4, 1/4).
  const RMat a{{q(1), q(1)}, {q(1), q(-1)}};
  const RVec b{q(1), q(1, 2)};
  const auto ans = find_nonnegative_solution(a, b);
  ASSERT_TRUE(ans.feasible);
  EXPECT_TRUE(verify_nonnegative_solution(a, b, ans.x));
  EXPECT_EQ(ans.x[0], q(3, 4));
  RVec tampered = ans.x;
  tampered[1] += q(1, 1000);
  EXPECT_FALSE(verify_nonnegative_solution(a, b, tampered));
}

TEST(ExactCertificates, InfeasibleSystemGivesVerifiedFarkasVector) {
  // x ≥ 0 with x1 + x2 = −1 is impossible.
  const RMat a{{q(1), q(1)}};
  const RVec b{q(-1)};
  const auto ans = find_nonnegative_solution(a, b);
  ASSERT_FALSE(ans.feasible);
  EXPECT_TRUE(verify_farkas(a, b, ans.y));
  EXPECT_FALSE(verify_farkas(a, b, RVec{q(-1)}));
}

TEST(ExactCertificates, PsdByExactElimination) {
  EXPECT_TRUE(is_psd_exact({{q(2), q(1)}, {q(1), q(2)}}));
  EXPECT_TRUE(is_psd_exact({{q(1), q(1)}, {q(1), q(1)}}));   // singular PSD
  EXPECT_FALSE(is_psd_exact({{q(1), q(2)}, {q(2), q(1)}}));  // eigenvalue −1
  EXPECT_FALSE(is_psd_exact({{q(0), q(1)}, {q(1), q(5)}}));
}

TEST(HalfspaceDepth, SeparatedSetEnclosesKnownDepth) {
  num::PrecisionGuard g(128);
  // {e1, e2}: ρ = dist(0, segment) = 1/√2.
  const RMat pts{{q(1), q(0)}, {q(0), q(1)}};
  const auto c = find_depth_certificate(pts, true);
  ASSERT_TRUE(c.separated);
  ASSERT_TRUE(verify_separator(pts, c.separator).has_value());
  const IntervalMp rho = depth_enclosure(pts, c);
  EXPECT_TRUE(num::certainly_positive(rho));
  const IntervalMp ref = num::sqrt(IntervalMp(1) / IntervalMp(2));
  EXPECT_TRUE(num::possibly_le(rho, ref) && num::possibly_ge(rho, ref));
  // A tampered separator (one coordinate flipped) proves nothing.
  RVec bad = c.separator;
  bad[0] = -bad[0] - 1;
  EXPECT_FALSE(verify_separator(pts, bad).has_value());
}

TEST(HalfspaceDepth, OriginInsideGivesCombinationAndInteriorRadius) {
  num::PrecisionGuard g(128);
  const RMat pts{{q(1), q(0)}, {q(-1), q(0)}, {q(0), q(1)}, {q(0), q(-1)}};
  const auto c = find_depth_certificate(pts, true);
  ASSERT_FALSE(c.separated);
  EXPECT_TRUE(verify_zero_combination(pts, c.zero_combination));
  ASSERT_TRUE(c.inner_r.has_value());
  EXPECT_TRUE(verify_interior(pts, *c.inner_r, c.interior_combinations));
  // ρ = −1/√2 (the cross-polytope's inradius); the enclosure contains it and is negative.
  const IntervalMp rho = depth_enclosure(pts, c);
  EXPECT_TRUE(num::certainly_negative(rho));
  const IntervalMp ref = -num::sqrt(IntervalMp(1) / IntervalMp(2));
  EXPECT_TRUE(num::possibly_le(rho, ref));
  RVec tampered = c.zero_combination;
  tampered[0] += q(1, 7);
  EXPECT_FALSE(verify_zero_combination(pts, tampered));
  RMat combos = c.interior_combinations;
  combos[0][1] += q(1, 1000);
  EXPECT_FALSE(verify_interior(pts, *c.inner_r, combos));
}

}  // namespace
}  // namespace softcert::certify
