// One-step oversmoothing: the cosine formula against exact and interval simulation; the sign
// condition in both directions.
#include <gtest/gtest.h>

#include "certify/interval_bridge.hpp"
#include "certify/oversmoothing.hpp"
#include "numerics/precision.hpp"

namespace softcert::certify {
namespace {

OversmoothingParams params(long T, Rational rho, Rational lambda, Rational alpha) {
  OversmoothingParams p;
  p.T = T;
  p.rho = rho;
  p.lambda = lambda;
  p.alpha = alpha;
  return p;
}

TEST(Oversmoothing, FormulaMatchesExactAndIntervalSimulation) {
  for (const auto& p : {params(2, Rational(1, 3), Rational(1), Rational(1)), params(5, Rational(-1, 10), Rational(3, 2), Rational(2, 5)),
                        params(7, Rational(9, 10), Rational(-7, 2), Rational(1, 2))}) {
    const auto f = cosine_formula(p, p.alpha);
    const auto s = simulate_exact(p);
    ASSERT_TRUE(f && s);
    for (const auto& c2 : s->cos_sq) EXPECT_EQ(c2, (*f) * (*f));
    const auto iv = simulate_interval(p, 200);
    ASSERT_TRUE(iv.has_value());
    num::PrecisionGuard g(200);
    for (const auto& c : *iv) {
      EXPECT_TRUE(num::possibly_le(c, enclose(*f)) && num::possibly_ge(c, enclose(*f)));
      EXPECT_LT(num::to_double(num::width(c)), 1e-50);
    }
  }
}

TEST(Oversmoothing, SparseAttentionKeepsCosine) {
  const auto p = params(4, Rational(1, 5), Rational(2), Rational(1));
  EXPECT_EQ(*cosine_formula(p, Rational(0)), Rational(1, 5));
}

TEST(Oversmoothing, SignConditionDecidesBothWays) {
  // λ > 0: dense smooths more.
  auto p = params(4, Rational(1, 5), Rational(1, 2), Rational(1));
  EXPECT_GT(smoothing_sign_value(p), 0);
  EXPECT_GT(*cosine_formula(p, p.alpha), p.rho);
  // λ = −1/2, α = 1: λ(2 + λ(2 − α)) = −1/2 · 3/2 < 0: dense de-smooths.
  p = params(4, Rational(1, 5), Rational(-1, 2), Rational(1));
  EXPECT_LT(smoothing_sign_value(p), 0);
  EXPECT_LT(*cosine_formula(p, p.alpha), p.rho);
  // λ = −3, α = 1: −3(2 − 3) = 3 > 0: smooths again (past the window).
  p = params(4, Rational(1, 5), Rational(-3), Rational(1));
  EXPECT_GT(smoothing_sign_value(p), 0);
  EXPECT_GT(*cosine_formula(p, p.alpha), p.rho);
}

}  // namespace
}  // namespace softcert::certify
