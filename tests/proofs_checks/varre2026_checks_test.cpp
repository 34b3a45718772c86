// The value-softmax checks on instances whose answer is known in advance, in both directions.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/verdict_policy.hpp"
#include "engine/registry.hpp"

namespace softcert {
namespace {

using engine::Verdict;

nlohmann::json logistic_instance(const std::vector<std::string>& v_row, const std::vector<std::string>& a) {
  // d = 1, β* = (1): u(0) = V(0)ᵀβ* = v_row exactly, c = 1
  return {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
          {"T", v_row.size()},        {"d", 1},             {"V", nlohmann::json::array({nlohmann::json(v_row)})},
          {"a", a},                   {"beta", {"1"}},      {"provenance", "hand-made for tests"}};
}

engine::CheckResult run(const std::string& check, const nlohmann::json& inst, double horizon,
                        nlohmann::json params = nlohmann::json::object(), std::set<std::string> dropped = {}) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.horizon = horizon;
  o.params = std::move(params);
  o.dropped = std::move(dropped);
  return engine::run_check(*c, inst, o);
}

const nlohmann::json kNoParams = nlohmann::json::object();

TEST(Varre2026OrderPreservation, HoldsFromUniformAttention) {
  const auto r = run("varre2026.order_preservation", logistic_instance({"0.5", "0.3", "-0.2"}, {"0", "0", "0"}), 5);
  EXPECT_EQ(r.verdict, Verdict::proved) << r.reason;
  // margin = smallest certified u-gap, at most the initial smallest gap 0.2 (gaps only grow)
  EXPECT_GT(std::stod(r.margin.lower_text()), 0.0);
  EXPECT_LE(std::stod(r.margin.lower_text()), 0.2);
}

TEST(Varre2026OrderPreservation, ViolatedWhenAttentionStartsAgainstTheValues) {
  // u_0 > u_1 but a_0 − a_1 = −2: "a follows the order of u" fails from the start (and
  // Δu' = c(s_0 − s_1)γ < 0 flips the u-order soon after) — outside the hypothesis uniform-a0,
  // so Thm 3.2 says nothing there: inconclusive, the hypothesis named, until it is dropped.
  const auto against = logistic_instance({"0.01", "0"}, {"0", "2"});
  const auto outside = run("varre2026.order_preservation", against, 5);
  EXPECT_EQ(outside.verdict, Verdict::inconclusive);
  EXPECT_EQ(outside.reason, "hypothesis uniform-a0 fails on this instance: a_0(0) = 0 but a_1(0) = 2");
  EXPECT_EQ(outside.details["failed_hypothesis"], "uniform-a0");
  const auto r = run("varre2026.order_preservation", against, 5, kNoParams, {"uniform-a0"});
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_LT(std::stod(r.margin.upper_text()), 0.0);
  EXPECT_EQ(r.details["violation"]["quantity"], "a_i - a_j");
  EXPECT_EQ(r.details["violation"]["step"], 0);
  // With equal attention the same values keep their order: the violation is the start's fault.
  EXPECT_EQ(run("varre2026.order_preservation", logistic_instance({"0.01", "0"}, {"0", "0"}), 5).verdict,
            Verdict::proved);
}

TEST(Varre2026RepulsionLeader, HoldsFromUniformAttention) {
  const auto r = run("varre2026.repulsion.leader", logistic_instance({"0.5", "0.3", "-0.2"}, {"0", "0", "0"}), 5);
  EXPECT_EQ(r.verdict, Verdict::proved) << r.reason << " " << r.details.dump();
  EXPECT_EQ(r.details["leader"], 0);
}

TEST(Varre2026RepulsionLeader, ViolatedWhenTheLeaderStartsBehind) {
  // the u-leader 0 starts with a_0 − a_1 = −2: its u-gap shrinks (Δu' < 0) at t = 0 (a(0) not
  // uniform: only with uniform-a0 dropped)
  const auto behind = logistic_instance({"0.01", "0"}, {"0", "2"});
  EXPECT_EQ(run("varre2026.repulsion.leader", behind, 1).verdict, Verdict::inconclusive);
  const auto r = run("varre2026.repulsion.leader", behind, 1, kNoParams, {"uniform-a0"});
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_LT(std::stod(r.margin.upper_text()), 0.0);
}

TEST(Varre2026OneHotEventual, UniformStartWinsByTheLargestValue) {
  const auto r = run("varre2026.one_hot.eventual", logistic_instance({"0.1", "0.4", "-0.3"}, {"0", "0", "0"}), 100);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 1);
  EXPECT_EQ(r.details["winner_vs_u0"], "unique argmax");
}

TEST(Varre2026OneHotEventual, CompetitionIsWonByTheAttentionLeaderWhenItsHeadStartIsLarge) {
  // a_0 − a_1 = 5 against u_1 − u_0 = 0.01: u_0 overtakes u_1 (Δu' = c(s_0 − s_1) > 0), and
  // index 0 wins although it is not the argmax of u(0).
  const auto r = run("varre2026.one_hot.eventual", logistic_instance({"0", "0.01"}, {"5", "0"}), 100, kNoParams, {"uniform-a0"});
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 0);
  EXPECT_EQ(r.details["winner_vs_u0"], "not the argmax");
}

TEST(Varre2026OneHotFinite, ViolatedAtAShortHorizonAndProvedAtALongOne) {
  const auto inst = logistic_instance({"1", "0", "-1"}, {"0", "0", "0"});
  const auto early = run("varre2026.one_hot.finite", inst, 1, {{"eps", 0.01}});
  EXPECT_EQ(early.verdict, Verdict::violated) << early.reason;  // σ is still near uniform at t = 1
  EXPECT_LT(std::stod(early.margin.upper_text()), 0.0);
  const auto late = run("varre2026.one_hot.finite", inst, 1e6, {{"eps", 0.5}});
  EXPECT_EQ(late.verdict, Verdict::proved) << late.reason;
  EXPECT_GT(std::stod(late.margin.lower_text()), 0.0);
}

TEST(Varre2026Checks, BadInstancesAreRejectedWithTheFieldNamed) {
  auto inst = logistic_instance({"0.5", "0.3"}, {"0", "0"});
  inst["loss"] = "square";
  EXPECT_THROW(run("varre2026.order_preservation", inst, 1), std::invalid_argument);
  auto bad = logistic_instance({"0.5", "0.3"}, {"0"});
  try {
    run("varre2026.one_hot.eventual", bad, 1);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a"), std::string::npos) << e.what();
  }
}

TEST(Varre2026Checks, GeneratorsAreDeterministicAndHonourHypotheses) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.order_preservation");
  engine::GenerateOptions keep;
  keep.params = {{"T", 4}};
  EXPECT_EQ(c->generate(7, keep), c->generate(7, keep));
  EXPECT_NE(c->generate(7, keep), c->generate(8, keep));
  for (const auto& a : c->generate(7, keep)["a"]) EXPECT_EQ(std::stod(a.get<std::string>()), 0.0);
  engine::GenerateOptions drop = keep;
  drop.dropped = {"uniform-a0", "distinct-u0"};
  const auto inst = c->generate(7, drop);
  bool nonzero = false;
  for (const auto& a : inst["a"]) nonzero |= std::stod(a.get<std::string>()) != 0.0;
  EXPECT_TRUE(nonzero);
  for (const auto& row : inst["V"]) EXPECT_EQ(row.front(), row.back());  // u_0 = u_{T-1}
}

// The fast tier of the pair checks: confirmed where the rigorous tier proves, and a violation
// only through the rigorous certificate (same margin as the rigorous run).
TEST(Varre2026PairChecksFastTier, ConfirmsWhatTheRigorousTierProves) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.repulsion.leader");
  engine::CheckOptions o;
  o.tier = engine::Tier::fast;
  o.horizon = 5;
  const auto r = c->run(logistic_instance({"0.5", "0.3", "-0.2"}, {"0", "0", "0"}), o);
  EXPECT_EQ(r.verdict, Verdict::confirmed) << r.reason;
  EXPECT_TRUE(r.details["margin_is_estimate"].get<bool>());
}

TEST(Varre2026PairChecksFastTier, ViolationsAreCertifiedRigorously) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.order_preservation");
  engine::CheckOptions o;
  o.horizon = 5;
  const auto inst = logistic_instance({"0.01", "0"}, {"0", "2"});
  const auto rig = c->run(inst, o);
  o.tier = engine::Tier::fast;
  const auto fast = c->run(inst, o);
  ASSERT_EQ(fast.verdict, Verdict::violated) << fast.reason;
  EXPECT_EQ(fast.margin.upper_text(), rig.margin.upper_text());
  EXPECT_EQ(fast.details["violation"], rig.details["violation"]);
}

}  // namespace
}  // namespace softcert
