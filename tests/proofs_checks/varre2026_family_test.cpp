// The normalization and rank-one square checks on instances whose answer is known
// in advance, in both directions.
#include <gtest/gtest.h>

#include "engine/verdict_policy.hpp"
#include "engine/registry.hpp"

namespace softcert {
namespace {

using engine::Verdict;

nlohmann::json instance(const std::string& loss, const std::string& norm, const std::vector<std::string>& v_row,
                        const std::vector<std::string>& a) {
  // d = 1, β* = (1): u(0) = V(0)ᵀβ* = v_row, c = 1
  return {{"model", "value_softmax"}, {"loss", loss}, {"normalization", norm}, {"T", v_row.size()}, {"d", 1},
          {"V", nlohmann::json::array({nlohmann::json(v_row)})}, {"a", a}, {"beta", {"1"}}, {"provenance", "test"}};
}

engine::CheckResult run_in_tier(const std::string& check, const nlohmann::json& inst, double horizon,
                        engine::Tier tier = engine::Tier::rigorous) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.tier = tier;
  o.horizon = horizon;
  return engine::run_check(*c, inst, o);
}

const char* const kPolarizes = "varre2026.normalization.polarizes";

TEST(Varre2026Normalization, SoftmaxUnderLogisticLossPolarizes) {
  // u-gap 4: the leader's attention → 1 (one_hot.eventual proves the limit; here the horizon)
  const auto inst = instance("logistic", "softmax", {"2", "-2"}, {"1", "1"});
  const auto r = run_in_tier(kPolarizes, inst, 200);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_GT(std::stod(r.margin.lower_text()), 0.0);
  EXPECT_LE(std::stod(r.margin.upper_text()), 0.1);  // margin = ε − distance ≤ ε
  EXPECT_EQ(run_in_tier(kPolarizes, inst, 200, engine::Tier::fast).verdict, Verdict::confirmed);
}

TEST(Varre2026Normalization, ElementwiseSigmoidWithPositiveValuesDoesNot) {
  // u > 0 everywhere: every a_k grows (da_k/dt = γ σ_k(1−σ_k) u_k > 0), so α → (1, 1): far
  // from both vertices. Certified violation; the fast tier re-certifies before saying so.
  const auto inst = instance("logistic", "sigmoid", {"0.5", "0.3"}, {"1", "1"});
  const auto r = run_in_tier(kPolarizes, inst, 100);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_LT(std::stod(r.margin.upper_text()), -0.5);
  const auto f = run_in_tier(kPolarizes, inst, 100, engine::Tier::fast);
  EXPECT_EQ(f.verdict, Verdict::violated) << f.reason;
  EXPECT_EQ(f.margin.lower_text(), r.margin.lower_text());  // the rigorous margin, not the estimate
}

TEST(Varre2026Normalization, SquareLossFitsBeforeAttentionMoves) {
  // β = Vσ(a) reaches β* = 1 by growing V; the attention stays near uniform (0.5, 0.5)
  const auto r = run_in_tier(kPolarizes, instance("square", "softmax", {"0.2", "0.1"}, {"1", "1"}), 50);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_LT(std::stod(r.margin.upper_text()), -0.3);
}

TEST(Varre2026Normalization, KinkIsCrossedOnlyWithACertificate) {
  // relu: a_1 is driven to 0, where relu has its kink. Under logistic loss its arrival is
  // certified (integrate/kink_crossing.hpp): it stays at 0, α = e_0, proved, the arrival named.
  const auto r = run_in_tier(kPolarizes, instance("logistic", "relu", {"2", "-2"}, {"0.2", "0.2"}), 50);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  ASSERT_TRUE(r.details.contains("kink_arrivals"));
  EXPECT_EQ(r.details["kink_arrivals"][0]["score"], 1);
  EXPECT_EQ(r.details["kink_arrivals"][0]["motion"], "stays");
  // Under square loss (t-time) the second score of this start reaches its kink at t ≈ 0.026
  // (tests/integrate/kink_report_test.cpp) and the crossing is certified too; but as the loss
  // tends to 0 so does the pull of the kink (P_k), whose sign is no longer certain by t ≈ 26.9:
  // the run stops there, inconclusive, never proved — with the certified arrival named.
  const auto sq = run_in_tier(kPolarizes, instance("square", "relu", {"0.5", "-3"}, {"1", "0.05"}), 50);
  EXPECT_EQ(sq.verdict, Verdict::inconclusive) << sq.reason;
  EXPECT_NE(sq.reason.find("kink possible"), std::string::npos) << sq.reason;
  EXPECT_NE(sq.reason.find("a[1] reaches 0 at t"), std::string::npos) << sq.reason;
  EXPECT_NE(sq.reason.find("may leave it"), std::string::npos) << sq.reason;
}

// --- square loss, rank-one start --------------------------------------------------------------

nlohmann::json rank_one(const std::vector<std::string>& w) {
  return instance("square", "softmax", w, std::vector<std::string>(w.size(), "0"));  // d = 1, β* = 1: V = w
}

const char* const kPartial = "varre2026.square_rank_one.partial_polarization";

TEST(Varre2026SquareRankOne, SmallValuesStopNearUniform) {
  // ρ(0) = 1 − mean(w) = 1; dρ/dτ ≤ −1/T gives τ* ≤ T·ρ(0) = 2
  const auto r = run_in_tier(kPartial, rank_one({"0.5", "-0.5"}), 0);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_LE(std::stod(r.details["tau_star"][1].get<std::string>()), 2.0);
  EXPECT_GT(std::stod(r.details["tau_star"][0].get<std::string>()), 0.0);
}

TEST(Varre2026SquareRankOne, LargeValueGapStopsEvenSooner) {
  // dρ/dτ ≤ −‖C(s)u‖²/c: a u-gap of 20 spends ρ(0) = 1 within τ ≈ 0.02, before a moves
  const auto r = run_in_tier(kPartial, rank_one({"10", "-10"}), 0);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_LT(std::stod(r.details["tau_star"][1].get<std::string>()), 0.1);
}

TEST(Varre2026SquareRankOne, AFarStartPolarizesBeforeTheStop) {
  // β(0) = −20β*: ρ(0) = 21 is a long budget, and a u-gap of 2.8 keeps ‖C(s)u‖ ≈ √c‖s‖, the
  // rate that moves a furthest per unit of ρ; σ(a(τ*)) ≈ (0.998, 0.002) — "partial" fails.
  const auto r = run_in_tier(kPartial, rank_one({"-18.6", "-21.4"}), 0);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_LT(std::stod(r.margin.upper_text()), -0.09);
  EXPECT_GT(std::stod(r.details["tau_star"][0].get<std::string>()), 20.0);
}

TEST(Varre2026SquareRankOne, RefusesWhatIsNotARankOneStart) {
  const engine::Check* c = engine::CheckRegistry::global().find(kPartial);
  nlohmann::json two_rows = rank_one({"0.5", "-0.5"});
  two_rows["d"] = 2;
  two_rows["beta"] = {"1", "0"};
  two_rows["V"] = {{"0.5", "-0.5"}, {"0.1", "0"}};  // second row not a multiple of β*_2 = 0
  EXPECT_THROW(c->run(two_rows, {}), std::invalid_argument);
  EXPECT_THROW(c->run(rank_one({"2", "1"}), {}), std::invalid_argument);  // ρ(0) = 1 − 1.5 < 0
}

}  // namespace
}  // namespace softcert
