// Gradient-descent iterates enclosed under Lohner's wrapping control or by plain interval iteration
// (proofs_checks/varre2026_gd_iterates.cpp, integrate/gradient_descent_lohner.hpp,
// gradient_descent.hpp): the first iterate against its closed form, the winner against the flow's
// on the authors' headline instance, and at 53 bits the plain iteration's honest inconclusive
// where the wrapping control proves the same iterates.
#include <gtest/gtest.h>

#include <cmath>

#include "support/input_file.hpp"
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert {
namespace {

using engine::Verdict;

engine::CheckResult run_gd(const nlohmann::json& inst, const std::string& iterations, unsigned bits = 0,
                           const std::string& wrapping = "lohner") {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.gd.order_preservation");
  EXPECT_NE(c, nullptr);
  engine::CheckOptions o;
  o.params = {{"iterations", std::stod(iterations)}, {"wrapping", wrapping}};
  o.precision_bits = bits;
  return engine::run_check(*c, inst, o);
}

nlohmann::json headline() {
  return nlohmann::json::parse(
      support::read_input_file(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/headline.json"));
}

TEST(Varre2026GradientDescent, TheFirstIterateHasItsClosedForm) {
  // T = 2, d = 1, β* = 1, u(0) = (0.3, 0.1), a(0) = 0: σ = (½, ½), z = 0.2, g = sigmoid(−0.2);
  // a_0 − a_1 after one step = lr·g·(½·0.1 + ½·0.1) = 0.01·g, u_0 − u_1 stays 0.2.
  const nlohmann::json inst = {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                               {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0.3", "0.1"})})},
                               {"a", nlohmann::json::array({"0", "0"})}, {"beta", nlohmann::json::array({"1"})},
                               {"provenance", "hand-made for tests"}};
  const double expected = 0.01 / (1 + std::exp(0.2));
  for (const char* wrapping : {"lohner", "none"}) {  // 53 and 384 bits by default
    const auto r = run_gd(inst, "1", 0, wrapping);
    ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
    EXPECT_LE(std::stod(r.margin.lower_text()), expected * (1 + 1e-15)) << wrapping;
    EXPECT_GE(std::stod(r.margin.upper_text()), expected * (1 - 1e-15)) << wrapping;
    EXPECT_LT(std::stod(r.margin.upper_text()) - std::stod(r.margin.lower_text()),
              std::string(wrapping) == "none" ? 1e-30 : 1e-14 * expected)  // tens of ulps at 53 bits
        << wrapping;
  }
}

TEST(Varre2026GradientDescent, TheIteratesKeepTheFlowsWinnerOnTheHeadline) {
  const auto r = run_gd(headline(), "3000");
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["winner"], 6);  // argmax u(0), the flow's certified winner (varre2026.attention_sink)
  EXPECT_EQ(r.details["iterations"], 3000);
  EXPECT_GT(std::stod(r.margin.lower_text()), 0.0);
}

TEST(Varre2026GradientDescent, TheNearMissGapsShrinkWhereTheFlowsDo) {
  // the flow's a-gap of tokens (1, 0) shrinks from t = 172.97 on (varre2026.repulsion.all_pairs);
  // the iterates' from iterate 1735 to 1736 (t = k·lr = 173.6)
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.gd.gaps_never_shrink");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->strict_margin());
  engine::CheckOptions o;
  o.params = {{"iterations", 3000}};
  auto r = engine::run_check(*c, headline(), o);
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_EQ(r.details["smallest_increment_at"], 1736);
  EXPECT_NE(r.reason.find("pair (1, 0)"), std::string::npos) << r.reason;
  EXPECT_LT(std::stod(r.margin.upper_text()), 0.0);
  // before t ≈ 173 every gap still grows: the same statement holds on the first 1700 iterates
  o.params = {{"iterations", 1700}};
  r = engine::run_check(*c, headline(), o);
  EXPECT_EQ(r.verdict, Verdict::proved) << r.reason;
}

TEST(Varre2026GradientDescent, At53BitsPlainIterationGrowsTooWideWhereTheWrappingControlProves) {
  const auto plain = run_gd(headline(), "6000", 53, "none");
  EXPECT_EQ(plain.verdict, Verdict::inconclusive);
  EXPECT_NE(plain.reason.find("wider than"), std::string::npos) << plain.reason;
  const auto lohner = run_gd(headline(), "6000", 53, "lohner");
  EXPECT_EQ(lohner.verdict, Verdict::proved) << lohner.reason;
  EXPECT_THROW(run_gd(headline(), "10", 0, "qr"), std::invalid_argument);
}

TEST(Varre2026GradientDescent, NamesTheHypothesisAStartFailsAndRefusesBadParams) {
  nlohmann::json inst = headline();
  inst["a"][0] = "1";
  const auto r = run_gd(inst, "10");
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.details["failed_hypothesis"], "uniform-a0") << r.reason;
  EXPECT_THROW(run_gd(headline(), "0"), std::invalid_argument);
  EXPECT_THROW(run_gd(headline(), "1.5"), std::invalid_argument);
}

}  // namespace
}  // namespace softcert
