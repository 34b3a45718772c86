// The two-token basin rule and its separatrix (proofs_checks/varre2026_t2_basin.cpp) on
// hand-made starts around the separatrix E = cosh δ − Δ²/(2c) = 1, where a wrong constant in E
// (a factor of c, or of 2) would put both starts on the same side and flip one verdict.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert {
namespace {

using engine::Verdict;

// d = 1, β* = (b): u(0) = b·V row, c = b².
nlohmann::json two_tokens(const std::string& v0, const std::string& v1, const std::string& a0, const std::string& b = "1") {
  return {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"}, {"T", 2}, {"d", 1},
          {"V", nlohmann::json::array({nlohmann::json::array({v0, v1})})},
          {"a", nlohmann::json::array({a0, "0"})},
          {"beta", nlohmann::json::array({b})},
          {"provenance", "hand-made for tests"}};
}

engine::CheckResult run_basin(const std::string& check, const nlohmann::json& inst, double horizon = 1e5,
                              std::set<std::string> dropped = {}) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.horizon = horizon;
  o.dropped = std::move(dropped);
  return engine::run_check(*c, inst, o);
}

// Δ = 0.5, c = 1: the separatrix is at δ* = −acosh(1.125) = −0.49493…; token 0 has the larger u,
// token 1 the larger a(0) for δ < 0.
TEST(Varre2026TwoTokenBasin, TheSignOfEMinusOneNamesTheWinnerOnBothSides) {
  ASSERT_NEAR(std::acosh(1.125), 0.4949, 1e-4);
  const auto below = run_basin("varre2026.one_hot.t2_basin", two_tokens("0.5", "0", "-0.485"));
  ASSERT_EQ(below.verdict, Verdict::proved) << below.reason;
  EXPECT_EQ(below.details["winner"], 0);  // E < 1: the larger u(0)
  EXPECT_LT(std::stod(below.details["E_minus_1"][1].get<std::string>()), 0.0);
  const auto above = run_basin("varre2026.one_hot.t2_basin", two_tokens("0.5", "0", "-0.505"));
  ASSERT_EQ(above.verdict, Verdict::proved) << above.reason;
  EXPECT_EQ(above.details["winner"], 1);  // E > 1: the larger a(0)
  EXPECT_GT(std::stod(above.details["E_minus_1"][0].get<std::string>()), 0.0);
  // c enters E: β* = (2) and V row (0.25, 0) give Δ = 0.5, c = 4, δ* = −acosh(1.03125) = −0.2500…;
  // without c (c = 1) δ = −0.26 would lie inside the separatrix and token 0 would be named
  const auto scaled = run_basin("varre2026.one_hot.t2_basin", two_tokens("0.25", "0", "-0.26", "2"));
  ASSERT_EQ(scaled.verdict, Verdict::proved) << scaled.reason;
  EXPECT_EQ(scaled.details["winner"], 1);
}

TEST(Varre2026TwoTokenBasin, TheSwappedRuleIsRefutedWithACertifiedWinner) {
  for (const char* a0 : {"-0.485", "-0.505"}) {
    const auto r = run_basin("varre2026.one_hot.t2_basin.swapped", two_tokens("0.5", "0", a0));
    ASSERT_EQ(r.verdict, Verdict::violated) << a0 << ": " << r.reason;
    EXPECT_LT(std::stod(r.margin.upper_text()), 0.0);
    EXPECT_NE(r.details["winner"], r.details["claimed_winner"]);
  }
}

TEST(Varre2026TwoTokenBasin, TheSeparatrixIsBracketedByTwoCertifiedWinners) {
  const auto r = run_basin("varre2026.one_hot.t2_separatrix", two_tokens("0.5", "0", "3"));
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_EQ(r.margin.lower_text(), r.margin.upper_text());
  EXPECT_DOUBLE_EQ(std::stod(r.margin.upper_text()), -0.5);
  EXPECT_EQ(r.details["winners"][0], 0);  // E < 1 (inner): the larger u(0)
  EXPECT_EQ(r.details["winners"][1], 1);  // E > 1 (outer): the larger a(0)
  // the two starts straddle δ* = −0.49493 closely
  const double in = std::stod(r.details["a1_inner"].get<std::string>()), out = std::stod(r.details["a1_outer"].get<std::string>());
  EXPECT_LT(out, -std::acosh(1.125));
  EXPECT_GT(in, -std::acosh(1.125));
  EXPECT_LT(in - out, 0.01);
}

TEST(Varre2026TwoTokenBasin, RefusesWhatItIsNotAbout) {
  // u tied: outside distinct-u0, named; with it dropped, still undecided (the rule names its
  // winner by the sign of u_1 − u_2), never a verdict
  const auto tied = two_tokens("0.5", "0.5", "1");
  for (const char* name : {"varre2026.one_hot.t2_basin", "varre2026.one_hot.t2_basin.swapped", "varre2026.one_hot.t2_separatrix"}) {
    const auto r = run_basin(name, tied);
    EXPECT_EQ(r.verdict, Verdict::inconclusive) << name;
    EXPECT_EQ(r.reason, "hypothesis distinct-u0 fails on this instance: u_0(0) = u_1(0) (u(0) = V(0)^T beta*, exactly)");
    EXPECT_EQ(run_basin(name, tied, 1e5, {"distinct-u0"}).verdict, Verdict::inconclusive) << name;
  }
  nlohmann::json three = two_tokens("0.5", "0", "1");
  three["T"] = 3;
  three["V"] = nlohmann::json::array({nlohmann::json::array({"0.5", "0", "0.1"})});
  three["a"] = nlohmann::json::array({"1", "0", "0"});
  EXPECT_THROW(run_basin("varre2026.one_hot.t2_basin", three), std::invalid_argument);
}

TEST(Varre2026TwoTokenBasin, GeneratedStartsAreOrderedAgainstEachOtherOnBothSides) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.one_hot.t2_basin");
  ASSERT_NE(c, nullptr);
  int above = 0, below = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto inst = c->generate(seed, {});
    EXPECT_EQ(inst, c->generate(seed, {}));
    const auto r = run_basin("varre2026.one_hot.t2_basin", inst);
    ASSERT_EQ(r.verdict, Verdict::proved) << seed << ": " << r.reason;
    (std::stod(r.details["E_minus_1"][0].get<std::string>()) > 0 ? above : below)++;
  }
  EXPECT_EQ(above, 2);
  EXPECT_EQ(below, 2);
}

}  // namespace
}  // namespace softcert
