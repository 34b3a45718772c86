// sukenik2026.cost_scaling.soft_attention: its brackets against brute force (d = 1), against the
// hard-margin sandwich (orthonormal closed forms), weak duality against a verified feasible
// point, the bigram-backcopy targets (closed form, feasibility), the exponent intervals, and the
// check through the registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "certify/closed_form_patterns.hpp"
#include "certify/power_law_slopes.hpp"
#include "certify/soft_pattern_cost.hpp"
#include "engine/registry.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {
namespace {

SoftProblem scalar_problem(const std::vector<double>& xs, Pattern p, double eps) {
  SoftProblem sp;
  sp.T = xs.size() - 1;
  sp.x = IMatrix(xs.size(), 1);
  for (std::size_t i = 0; i < xs.size(); ++i) sp.x(i, 0) = IntervalD(xs[i]);
  sp.pattern = p;
  sp.epsilon = IntervalD(eps);
  return sp;
}

// d = 1: W = w is a scalar and every norm is |w|; the feasible set is a union of rays
// (each constraint is convex in w), found by bisection on each sign.
double brute_force_scalar(const std::vector<double>& xs, Pattern p, double eps) {
  const double odds = eps / (1 - eps);
  auto feasible = [&](double w) {
    for (std::size_t t = 1; t < xs.size(); ++t) {
      const std::size_t a = p == Pattern::sink ? 0 : t;
      double s = 0;
      for (std::size_t k = 0; k <= t; ++k)
        if (k != a) s += std::exp(-w * xs[t] * (xs[a] - xs[k]));
      if (s > odds) return false;
    }
    return true;
  };
  double best = INFINITY;
  for (double sign : {1.0, -1.0}) {
    double hi = 1;
    while (!feasible(sign * hi) && hi < 1e8) hi *= 2;
    if (!feasible(sign * hi)) continue;
    double lo = 0;
    for (int i = 0; i < 200; ++i) {
      const double m = 0.5 * (lo + hi);
      (feasible(sign * m) ? hi : lo) = m;
    }
    best = std::min(best, hi);
  }
  return best;
}

TEST(SoftPatternCost, ScalarBracketContainsBruteForce) {
  // d = 1: the sink needs x_0 above every other token, the diagonal an increasing sequence.
  const std::vector<double> sink_xs{1.0, 0.5, 0.8, 0.3, 0.9}, diag_xs{0.2, 0.5, 0.6, 0.9, 1.3};
  for (Pattern p : {Pattern::sink, Pattern::diagonal})
    for (double eps : {0.1, 0.01}) {
      const std::vector<double>& xs = p == Pattern::sink ? sink_xs : diag_xs;
      const double truth = brute_force_scalar(xs, p, eps);
      ASSERT_TRUE(std::isfinite(truth));
      for (CostNorm n : {CostNorm::nuclear, CostNorm::frobenius}) {
        const auto b = certify_soft_cost(scalar_problem(xs, p, eps), n);
        ASSERT_TRUE(b.upper_ok) << b.note;
        EXPECT_LE(b.lower, truth * (1 + 1e-9)) << to_string(p) << " " << eps;
        EXPECT_GE(b.upper, truth * (1 - 1e-9)) << to_string(p) << " " << eps;
        EXPECT_LT((b.upper - b.lower) / b.upper, 1e-6) << "the bracket should be tight in d = 1";
      }
    }
}

TEST(SoftPatternCost, OrthonormalBracketInsideHardMarginSandwich) {
  // theta * M <= cost <= log(T (1-eps)/eps) * M, M the unit-margin cost (closed forms: nuclear
  // Theorem A of sukenik2026_cost_scaling.md; Frobenius sqrt(sum_t t/(t+1)) for both patterns).
  const double eps = 0.1, theta = std::log((1 - eps) / eps);
  for (std::size_t T : {2u, 4u, 7u}) {
    SoftProblem sp;
    sp.T = T;
    sp.x = IMatrix(T + 1, T + 1);
    for (std::size_t s = 0; s <= T; ++s) sp.x(s, s) = IntervalD(1.0);
    sp.epsilon = IntervalD(eps);
    double frob_sq = 0;
    for (std::size_t t = 1; t <= T; ++t) frob_sq += static_cast<double>(t) / static_cast<double>(t + 1);
    for (Pattern p : {Pattern::sink, Pattern::diagonal}) {
      sp.pattern = p;
      const IntervalD m = p == Pattern::sink ? sink_cost_closed_form(T) : diagonal_cost_closed_form(T);
      for (CostNorm n : {CostNorm::nuclear, CostNorm::frobenius}) {
        const double m_lo = n == CostNorm::nuclear ? num::lower(m) : std::sqrt(frob_sq);
        const double m_hi = n == CostNorm::nuclear ? num::upper(m) : std::sqrt(frob_sq);
        const auto b = certify_soft_cost(sp, n);
        ASSERT_TRUE(b.upper_ok) << b.note;
        EXPECT_GT(b.lower, 0.0) << T;
        EXPECT_LE(b.lower, b.upper) << T;
        EXPECT_GE(b.upper, theta * m_lo * (1 - 1e-9)) << T << " " << to_string(p) << " " << to_string(n);
        EXPECT_LE(b.lower, std::log(T * (1 - eps) / eps) * m_hi * (1 + 1e-9)) << T << " " << to_string(p) << " " << to_string(n);
        if (n == CostNorm::frobenius) {
          EXPECT_LT((b.upper - b.lower) / b.upper, 1e-4) << T << " " << to_string(p);
        }
      }
    }
  }
}

TEST(SoftPatternCost, AnyMultipliersStayBelowAVerifiedFeasiblePoint) {
  // Weak duality: a lower bound from arbitrary multipliers cannot exceed the norm of a W that
  // soft_feasible verified; a wrong sign in the entropy term or the dual norm would break it.
  SoftProblem sp = scalar_problem({1.0, 0.5, 0.8, 0.3}, Pattern::sink, 0.1);
  sp.x = IMatrix(4, 2);
  const double pts[4][2] = {{1, 0}, {0.6, 0.8}, {0.8, -0.6}, {0.28, 0.96}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) sp.x(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) = IntervalD(pts[i][j]);
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(2, 2);
  w(0, 0) = 80.0;  // scores 80 x_t1 (1 - x_s1): every query's mass on the sink >= 0.9
  const auto up = soft_upper_frobenius(sp, w);
  ASSERT_TRUE(up.has_value());
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<std::vector<double>> u;
    for (std::size_t t = 1; t <= sp.T; ++t) {
      std::vector<double> row;
      for (std::size_t k = 0; k < t; ++k) row.push_back(std::fabs(std::sin(1.7 * trial + 3.1 * t + k)) * (trial % 5 + 1));
      u.push_back(row);
    }
    for (CostNorm n : {CostNorm::frobenius, CostNorm::nuclear}) {
      const auto lo = soft_lower(sp, u, n);
      ASSERT_TRUE(lo.has_value());
      EXPECT_LE(*lo, *up) << trial;
    }
  }
}

TEST(SoftPatternCost, InfeasiblePointsAreRejected) {
  const SoftProblem sp = scalar_problem({1.0, 0.5, 0.8}, Pattern::sink, 0.1);
  IMatrix zero(1, 1);
  EXPECT_FALSE(soft_feasible(sp, zero)) << "uniform attention puts mass 1/2 on the sink";
  IMatrix wrong(1, 1);
  wrong(0, 0) = IntervalD(-50.0);
  EXPECT_FALSE(soft_feasible(sp, wrong));
  IMatrix right(1, 1);
  right(0, 0) = IntervalD(50.0);
  EXPECT_TRUE(soft_feasible(sp, right));
}

TEST(SoftPatternCost, BackcopyTriggersAttendToTheirPreviousToken) {
  // Every k-th query t >= 2 is a trigger (a_t = t - 1); the others attend as the pattern says.
  for (std::size_t t = 1; t <= 12; ++t) {
    const bool trigger = t % 3 == 0;
    EXPECT_EQ(soft_target(Pattern::sink, t, 3), trigger ? t - 1 : 0) << t;
    EXPECT_EQ(soft_target(Pattern::diagonal, t, 3), trigger ? t - 1 : t) << t;
    EXPECT_EQ(soft_target(Pattern::sink, t), 0u);
    EXPECT_EQ(soft_target(Pattern::diagonal, t), t);
    const auto others = soft_others(Pattern::sink, t, 3);
    EXPECT_EQ(others.size(), t);
    EXPECT_EQ(std::count(others.begin(), others.end(), soft_target(Pattern::sink, t, 3)), 0) << t;
  }
  EXPECT_EQ(soft_target(Pattern::sink, 1, 1), 0u) << "query 1 has no previous token";
}

// Orthonormal embeddings x_s = e_s, d = T + 1: W(t, s) is query t's score of key s, so each query
// is its own problem, symmetric in its t keys other than a_t: min over α + β = L_t of α² + t β²,
// L_t = log(t (1 − ε)/ε), i.e. L_t² t/(t + 1) — whichever key a_t is.
SoftProblem orthonormal(std::size_t T, double eps) {
  SoftProblem sp;
  sp.T = T;
  sp.x = IMatrix(T + 1, T + 1);
  for (std::size_t s = 0; s <= T; ++s) sp.x(s, s) = IntervalD(1.0);
  sp.epsilon = IntervalD(eps);
  return sp;
}

TEST(SoftPatternCost, OrthonormalBackcopyFrobeniusCostIsTheClosedForm) {
  const double eps = 0.1;
  const std::size_t T = 6;
  double sq = 0;
  for (std::size_t t = 1; t <= T; ++t) {
    const double L = std::log(static_cast<double>(t) * (1 - eps) / eps), tt = static_cast<double>(t);
    sq += L * L * tt / (tt + 1);
  }
  for (std::size_t k : {2u, 3u})
    for (Pattern p : {Pattern::sink, Pattern::diagonal}) {
      SoftProblem sp = orthonormal(T, eps);
      sp.pattern = p;
      sp.trigger_period = k;
      const auto b = certify_soft_cost(sp, CostNorm::frobenius);
      ASSERT_TRUE(b.upper_ok) << b.note;
      EXPECT_LE(b.lower, std::sqrt(sq) * (1 + 1e-9)) << k << " " << to_string(p);
      EXPECT_GE(b.upper, std::sqrt(sq) * (1 - 1e-9)) << k << " " << to_string(p);
      EXPECT_LT((b.upper - b.lower) / b.upper, 1e-5) << k << " " << to_string(p);
    }
}

TEST(SoftPatternCost, BackcopyFeasibilityFollowsTheTriggers) {
  // W = c Σ_t e_t e_{a_t}ᵀ puts query t's mass on a_t: feasible for its own targets only.
  const std::size_t T = 4;
  auto attend = [&](Pattern p, std::size_t period) {
    IMatrix w(T + 1, T + 1);
    for (std::size_t t = 1; t <= T; ++t) w(t, soft_target(p, t, period)) = IntervalD(50.0);
    return w;
  };
  SoftProblem backcopy = orthonormal(T, 0.1), plain = orthonormal(T, 0.1);
  backcopy.trigger_period = 2;
  EXPECT_TRUE(soft_feasible(backcopy, attend(Pattern::sink, 2)));
  EXPECT_FALSE(soft_feasible(backcopy, attend(Pattern::sink, 0))) << "queries 2 and 4 must copy, not rest on the sink";
  EXPECT_FALSE(soft_feasible(plain, attend(Pattern::sink, 2)));
  EXPECT_TRUE(soft_feasible(plain, attend(Pattern::sink, 0)));
}

TEST(PowerLawSlopes, ExactPowerLawIsInsideAndBentDataIsEmpty) {
  const std::vector<double> ts{4, 8, 16, 32};
  std::vector<double> lo, hi;
  for (double t : ts) {
    lo.push_back(0.999 * 3 * std::pow(t, 1.5));
    hi.push_back(1.001 * 3 * std::pow(t, 1.5));
  }
  const auto s = consistent_power_slopes(ts, lo, hi);
  ASSERT_FALSE(s.empty);
  EXPECT_LT(s.lo, 1.5);
  EXPECT_GT(s.hi, 1.5);
  EXPECT_LT(s.hi - s.lo, 0.01);
  // A kink (slope 1 then 2) fits no single power law with 0.1 % brackets.
  for (std::size_t i = 0; i < 4; ++i) {
    const double t = ts[i], v = t <= 8 ? t : 8 * (t / 8) * (t / 8);
    lo[i] = 0.999 * v;
    hi[i] = 1.001 * v;
  }
  EXPECT_TRUE(consistent_power_slopes(ts, lo, hi).empty);
}

}  // namespace
}  // namespace softcert::certify

namespace softcert::engine {
namespace {

TEST(SoftAttentionCheck, SmallGeneratedInstanceCarriesExponentIntervals) {
  const Check* c = CheckRegistry::global().find("sukenik2026.cost_scaling.soft_attention");
  ASSERT_NE(c, nullptr);
  GenerateOptions g;
  g.params = {{"d", 4}, {"T", {2, 4, 8}}};
  const auto in = c->generate(7, g);
  EXPECT_EQ(in, c->generate(7, g));
  EXPECT_NE(in, c->generate(8, g));
  const auto r = c->run(in, {});
  EXPECT_NE(r.verdict, Verdict::error) << r.reason;
  ASSERT_TRUE(r.details.contains("exponent_sink"));
  ASSERT_TRUE(r.details.contains("exponent_diagonal"));
  for (const auto& row : r.details["rows"])
    for (const char* k : {"sink_nuclear", "diagonal_nuclear", "sink_frobenius", "diagonal_frobenius"})
      EXPECT_LE(std::stod(row[k][0].get<std::string>()), std::stod(row[k][1].get<std::string>())) << row.dump();
  CheckOptions o;
  o.params = {{"statement", "no_such_statement"}};
  EXPECT_THROW(c->run(in, o), std::invalid_argument);
  auto bad = in;
  bad["epsilon"] = "0.5";
  EXPECT_THROW(c->run(bad, {}), std::invalid_argument);
  o.params = {{"trigger_every", 2}};
  EXPECT_THROW(c->run(in, o), std::invalid_argument) << "trigger_every without the backcopy task";
  o.params = {{"task", "copy"}};
  EXPECT_THROW(c->run(in, o), std::invalid_argument);
}

TEST(SoftAttentionCheck, BackcopyTaskIsCostedAndRecorded) {
  const Check* c = CheckRegistry::global().find("sukenik2026.cost_scaling.soft_attention");
  ASSERT_NE(c, nullptr);
  GenerateOptions g;
  g.params = {{"d", 8}, {"T", {4, 8}}};
  const auto in = c->generate(3, g);
  CheckOptions o;
  o.params = {{"task", "backcopy"}, {"trigger_every", 2}};
  const auto r = c->run(in, o);
  ASSERT_NE(r.verdict, Verdict::error) << r.reason;
  EXPECT_EQ(r.details["task"], "backcopy");
  EXPECT_EQ(r.details["trigger_every"], 2);
  const auto plain = c->run(in, {});
  EXPECT_FALSE(plain.details.contains("task"));
  // Other targets, other costs: the triggers change every bracket at T = 8.
  EXPECT_NE(r.details["rows"][1]["sink_frobenius"], plain.details["rows"][1]["sink_frobenius"]);
}

// The value–output cost (docs/theorems/sukenik2026_soft_attention.md, the lemma): the sink's
// brackets unchanged, the diagonal's shifted by rank r (nuclear) and √r (Frobenius), outward; r is
// the exact rank of the kept tokens x_1..x_T — T for orthonormal embeddings, and for a generated
// instance whose tokens are made dependent, the dependence shows.
TEST(SoftAttentionCheck, ValueOutputCostIsTheKeptTokensRank) {
  const Check* c = CheckRegistry::global().find("sukenik2026.cost_scaling.soft_attention");
  ASSERT_NE(c, nullptr);
  const nlohmann::json ortho = {{"check", "sukenik2026.cost_scaling.soft_attention"}, {"embedding", "orthonormal"},
                                {"epsilon", "0.1"}, {"d", "8"}, {"T", {2, 3, 5}}};
  CheckOptions with;
  with.params = {{"value_output", "included"}};
  const auto plain = c->run(ortho, {}), vo = c->run(ortho, with);
  ASSERT_NE(vo.verdict, Verdict::error) << vo.reason;
  EXPECT_EQ(vo.details["value_output"], "included");
  EXPECT_FALSE(plain.details.contains("value_output"));
  const auto end = [](const nlohmann::json& row, const std::string& key, int k) { return std::stod(row[key][k].get<std::string>()); };
  for (std::size_t i = 0; i < 3; ++i) {
    const auto &p = plain.details["rows"][i], &v = vo.details["rows"][i];
    const double r = v["T"].get<double>();
    EXPECT_EQ(v["kept_rank"], v["T"]);
    EXPECT_EQ(v["sink_frobenius"], p["sink_frobenius"]);
    EXPECT_EQ(v["sink_nuclear"], p["sink_nuclear"]);
    // shifted by the exact cost at both ends (the records print 9 digits, rounded outward)
    for (int k : {0, 1}) {
      EXPECT_NEAR(end(v, "diagonal_nuclear", k), end(p, "diagonal_nuclear", k) + r, 1e-7 * (1 + r));
      EXPECT_NEAR(end(v, "diagonal_frobenius", k), end(p, "diagonal_frobenius", k) + std::sqrt(r), 1e-7 * (1 + r));
    }
  }
  GenerateOptions g;
  g.params = {{"d", 4}, {"T", {2, 4, 8}}};
  auto in = c->generate(5, g);
  in["X"][2] = in["X"][1];  // x_2 = x_1: the kept tokens lose one dimension at every T ≥ 2
  const auto dep = c->run(in, with);
  ASSERT_NE(dep.verdict, Verdict::error) << dep.reason;
  EXPECT_EQ(dep.details["rows"][0]["kept_rank"], 1);
  EXPECT_EQ(dep.details["rows"][1]["kept_rank"], 3);
  EXPECT_EQ(dep.details["rows"][2]["kept_rank"], 4);
  CheckOptions bad;
  bad.params = {{"value_output", "included"}, {"task", "backcopy"}};
  EXPECT_THROW(c->run(in, bad), std::invalid_argument);
  bad.params = {{"value_output", "yes"}};
  EXPECT_THROW(c->run(in, bad), std::invalid_argument);
}

}  // namespace
}  // namespace softcert::engine
