// Lemma 4's rate (proofs_checks/varre2026_one_hot_rate.cpp): the bound recomputed here from the
// record's certified constants, against the enclosure at H; and the near miss refuted.
#include <gtest/gtest.h>

#include <cmath>

#include "support/registered_check.hpp"

namespace softcert {
namespace {

using engine::Verdict;

TEST(Varre2026OneHotRate, TheBoundIsLemma4sFormulaOfTheCertifiedConstants) {
  const auto r = testing::run_registered("varre2026.one_hot.rate", testing::authors_instance_json("headline.json"), 1e5);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 6);  // the flow's certified winner (varre2026.attention_sink)
  // B(H) = Σ 1/(e^{d_j} + s0 (D_j L/c + g_j L²/(2c))), L = log(1 + c(H − t0)/(1 + e^U)),
  // s0 = 1/(1 + Σ e^{−d_j}), g_j = max(0, s0 − e^{−d_j}): in double from the record
  const double c = std::stod(r.details["c"][0].get<std::string>()), U = std::stod(r.details["U"].get<std::string>());
  const double t0 = std::stod(r.details["t0"].get<std::string>());
  const double L = std::log1p(c * (1e5 - t0) / (1 + std::exp(U)));
  double tail = 0;
  for (const auto& g : r.details["gaps_at_t0"]) tail += std::exp(-std::stod(g["d"].get<std::string>()));
  const double s0 = 1 / (1 + tail);
  EXPECT_NEAR(std::stod(r.details["s0"].get<std::string>()), s0, 1e-9);
  double B = 0;
  bool some_quadratic = false;
  for (const auto& g : r.details["gaps_at_t0"]) {
    const double d = std::stod(g["d"].get<std::string>()), D = std::stod(g["D"].get<std::string>());
    const double gj = std::max(0.0, s0 - std::exp(-d));
    EXPECT_NEAR(std::stod(g["g"].get<std::string>()), gj, 1e-9);
    some_quadratic = some_quadratic || gj > 0;
    B += 1 / (std::exp(d) + s0 * (D * L / c + gj * L * L / (2 * c)));
  }
  // by t0 = 1e4 the leader outweighs every other token: the log² term is in force
  EXPECT_TRUE(some_quadratic);
  EXPECT_NEAR(std::stod(r.details["bound_at_H"].get<std::string>()), B, 1e-9 * B);
  EXPECT_EQ(r.details["gaps_at_t0"].size(), 7u);
  // the enclosure at H lies below the bound, and the margin is their difference
  const double v_hi = std::stod(r.details["one_minus_max_at_H"][1].get<std::string>());
  EXPECT_LT(v_hi, B);
  EXPECT_NEAR(std::stod(r.margin.lower_text()), B - v_hi, 1e-8);
}

TEST(Varre2026OneHotRate, AStateNotYetInARegionIsInconclusive) {
  // a head start in a(0) against a value lead: at t0 = 0.001 token 0 leads in a, token 1 in u,
  // so the state is in no R_k and the lemma has nothing to start from
  const nlohmann::json race = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                               {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0", "0.01"})})},
                               {"a", nlohmann::json::array({"5", "0"})}, {"beta", nlohmann::json::array({"1"})},
                               {"provenance", "hand-made for tests"}};
  const auto r = testing::run_registered("varre2026.one_hot.rate", race, 100, {{"from", 1e-3}});
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_NE(r.reason.find("not certainly in R_0"), std::string::npos) << r.reason;
}

TEST(Varre2026OneHotRate, TheSharperRateWithConstantOneIsRefuted) {
  const auto r = testing::run_registered("varre2026.one_hot.rate.log2_unit", testing::authors_instance_json("headline.json"), 1e5);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_GT(std::stod(r.details["one_minus_max_at_H"][0].get<std::string>()), 1 / std::pow(std::log(1e5), 2));
}

}  // namespace
}  // namespace softcert
