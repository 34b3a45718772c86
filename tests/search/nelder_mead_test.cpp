// Nelder–Mead: finds the minimum of a smooth function, stops at the target, respects the
// evaluation cap, treats +inf as "worse" and is deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "search/nelder_mead.hpp"

namespace {

using softcert::search::nelder_mead;
using softcert::search::NelderMeadOptions;

double quadratic(const std::vector<double>& x) {  // minimum 0 at (1, -2, 0.5)
  return std::pow(x[0] - 1, 2) + 2 * std::pow(x[1] + 2, 2) + 3 * std::pow(x[2] - 0.5, 2);
}

TEST(NelderMead, FindsTheMinimumOfAQuadratic) {
  NelderMeadOptions o;
  o.max_evaluations = 2000;
  const auto r = nelder_mead(quadratic, {0, 0, 0}, o);
  EXPECT_LT(r.f, 1e-10);
  EXPECT_NEAR(r.x[0], 1, 1e-4);
  EXPECT_NEAR(r.x[1], -2, 1e-4);
  EXPECT_NEAR(r.x[2], 0.5, 1e-4);
  EXPECT_LE(r.evaluations, 2000u);
}

TEST(NelderMead, StopsBelowTheTargetAndAtTheCap) {
  NelderMeadOptions o;
  o.max_evaluations = 2000;
  o.stop_below = 0;
  const auto r = nelder_mead([](const std::vector<double>& x) { return 1 - x[0] - x[1]; }, {0, 0}, o);
  EXPECT_LT(r.f, 0);
  EXPECT_LT(r.evaluations, 20u);  // unbounded below: the first negative value ends the run
  NelderMeadOptions capped;
  capped.max_evaluations = 7;
  EXPECT_EQ(nelder_mead(quadratic, {5, 5, 5}, capped).evaluations, 7u);
  NelderMeadOptions stopped;
  stopped.should_stop = [] { return true; };
  EXPECT_EQ(nelder_mead(quadratic, {5, 5, 5}, stopped).evaluations, 0u);
}

TEST(NelderMead, InfinityIsAWall) {
  // Minimum of (x − 2)² subject to x ≤ 1 (+inf beyond): the constrained minimum is at 1.
  NelderMeadOptions o;
  o.max_evaluations = 500;
  const auto r = nelder_mead(
      [](const std::vector<double>& x) { return x[0] > 1 ? std::numeric_limits<double>::infinity() : std::pow(x[0] - 2, 2); },
      {-3}, o);
  EXPECT_LE(r.x[0], 1);
  EXPECT_NEAR(r.x[0], 1, 1e-3);
}

TEST(NelderMead, Deterministic) {
  NelderMeadOptions o;
  o.max_evaluations = 150;
  const auto a = nelder_mead(quadratic, {3, 1, -1}, o), b = nelder_mead(quadratic, {3, 1, -1}, o);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.f, b.f);
  EXPECT_EQ(a.evaluations, b.evaluations);
}

}  // namespace
