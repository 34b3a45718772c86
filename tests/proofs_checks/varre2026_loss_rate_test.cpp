// Lemma 5's loss rate (proofs_checks/varre2026_loss_rate.cpp): the bound recomputed here from the
// record's certified constants, against the enclosure at H; and the near miss refuted.
#include <gtest/gtest.h>

#include <cmath>

#include "support/registered_check.hpp"

namespace softcert {
namespace {

using engine::Verdict;

TEST(Varre2026LossRate, TheBoundIsLemma5sFormulaOfTheCertifiedConstants) {
  const auto r = testing::run_registered("varre2026.loss.rate", testing::authors_instance_json("headline.json"), 1e5);
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 6);  // the flow's certified winner (varre2026.attention_sink)
  // B(H) = 1/(E0 + c s0² q (H − t0)), E0 = 1/(e^{l0} − 1), q = e^{−l0}: in double from the record
  const double c = std::stod(r.details["c"][0].get<std::string>()), s0 = std::stod(r.details["s0"].get<std::string>());
  const double l0 = std::stod(r.details["loss_upper_at_t0"].get<std::string>()), t0 = std::stod(r.details["t0"].get<std::string>());
  const double B = 1 / (1 / std::expm1(l0) + c * s0 * s0 * std::exp(-l0) * (1e5 - t0));
  EXPECT_NEAR(std::stod(r.details["bound_at_H"].get<std::string>()), B, 1e-8 * B);
  // the enclosure at H lies below the bound, and within a factor 2 of it: the constant is sharp
  const double l_hi = std::stod(r.details["loss_at_H"][1].get<std::string>());
  EXPECT_LT(l_hi, B);
  EXPECT_GT(l_hi, B / 2);
  EXPECT_NEAR(std::stod(r.margin.lower_text()), B - l_hi, 1e-8 * B);
}

TEST(Varre2026LossRate, AStateNotYetInARegionIsInconclusive) {
  // a head start in a(0) against a value lead: at t0 = 0.001 the state is in no R_k
  const nlohmann::json race = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                               {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0", "0.01"})})},
                               {"a", nlohmann::json::array({"5", "0"})}, {"beta", nlohmann::json::array({"1"})},
                               {"provenance", "hand-made for tests"}};
  const auto r = testing::run_registered("varre2026.loss.rate", race, 100, {{"from", 1e-3}});
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_NE(r.reason.find("not certainly in R_0"), std::string::npos) << r.reason;
}

TEST(Varre2026LossRate, TheRateWithHalfItsConstantIsRefuted) {
  const auto r = testing::run_registered("varre2026.loss.rate.half", testing::authors_instance_json("headline.json"), 1e5);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_GT(std::stod(r.details["loss_c_H"][0].get<std::string>()), 0.5);
}

}  // namespace
}  // namespace softcert
