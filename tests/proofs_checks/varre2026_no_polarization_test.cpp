// The negative claims as statements that hold (proofs_checks/varre2026_no_polarization.cpp):
// the spread of f(x) = x and of the sigmoid, the open gates of the sigmoid, and the near misses
// where the same statements fail (softmax competition, a sigmoid gate closing on its own value).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/input_file.hpp"
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert {
namespace {

using engine::Verdict;

// d = 1, β* = (1): u(0) = the V row.
nlohmann::json gate_instance(const std::string& norm, const std::vector<std::string>& v, const std::vector<std::string>& a) {
  return {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", norm}, {"T", v.size()}, {"d", 1},
          {"V", nlohmann::json::array({nlohmann::json(v)})}, {"a", a}, {"beta", {"1"}}, {"provenance", "hand-made for tests"}};
}

engine::CheckResult run_spread(const std::string& check, const nlohmann::json& inst, double horizon = 1e4) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  engine::CheckOptions o;
  o.horizon = horizon;
  return engine::run_check(*c, inst, o);
}

double mid(const nlohmann::json& pair) { return (std::stod(pair[0].get<std::string>()) + std::stod(pair[1].get<std::string>())) / 2; }

TEST(Varre2026NoPolarization, TheShareIsTheLargestMagnitudeOverTheTotal) {
  // f(x) = x: α leaves the simplex; the share must equal max|α|/Σ|α| of the enclosed α(H)
  const auto r = run_spread("varre2026.normalization.spread", gate_instance("sum", {"0.1", "-0.05", "0.02"}, {"1", "1.1", "0.9"}));
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  double top = 0, sum = 0;
  for (const auto& x : r.details["alpha"]) top = std::max(top, std::abs(mid(x))), sum += std::abs(mid(x));
  const double lo = std::stod(r.details["share"][0].get<std::string>()), hi = std::stod(r.details["share"][1].get<std::string>());
  EXPECT_LE(lo, top / sum + 1e-7);
  EXPECT_GE(hi, top / sum - 1e-7);
  EXPECT_LT(hi - lo, 1e-6);
  // and the margin is (1 − ε) − share (the share is printed to 8 digits)
  EXPECT_NEAR(std::stod(r.margin.lower_text()), 0.9 - hi, 1e-7);
}

TEST(Varre2026NoPolarization, SoftmaxConcentratesWhereSigmoidSpreads) {
  const std::vector<std::string> v = {"0.3", "0.2", "-0.1"}, a = {"1", "1", "1"};
  EXPECT_EQ(run_spread("varre2026.normalization.spread", gate_instance("sigmoid", v, a)).verdict, Verdict::proved);
  const auto soft = run_spread("varre2026.normalization.spread", gate_instance("softmax", v, a));
  ASSERT_EQ(soft.verdict, Verdict::violated) << soft.reason;
  EXPECT_LT(std::stod(soft.margin.upper_text()), 0.0);
}

TEST(Varre2026NoPolarization, GatesWithPositiveValuesStayOpenOnlyWithoutCompetition) {
  // two positive values: under the sigmoid both gates open further; under softmax token 1 loses
  const std::vector<std::string> v = {"0.3", "0.2", "-0.1"}, a = {"1", "1", "1"};
  const auto sig = run_spread("varre2026.normalization.open_gates", gate_instance("sigmoid", v, a));
  ASSERT_EQ(sig.verdict, Verdict::proved) << sig.reason;
  EXPECT_EQ(sig.details["positive_values"], nlohmann::json({0, 1}));
  const auto soft = run_spread("varre2026.normalization.open_gates", gate_instance("softmax", v, a));
  ASSERT_EQ(soft.verdict, Verdict::violated) << soft.reason;
  EXPECT_EQ(soft.details["worst_token"], 1);
  // no positive value: the statement is about nothing, so the instance is refused
  EXPECT_THROW(run_spread("varre2026.normalization.open_gates", gate_instance("sigmoid", {"-0.3", "-0.2"}, {"1", "1"})),
               std::invalid_argument);
}

TEST(Varre2026NoPolarization, AStronglyNegativeValueClosesItsOwnSigmoidGate) {
  const std::string file = std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/varre2026-sigmoid-one-gate-closes.json";
  const nlohmann::json inst = nlohmann::json::parse(support::read_input_file(file, 1 << 20));
  const auto spread = run_spread("varre2026.normalization.spread", inst);
  ASSERT_EQ(spread.verdict, Verdict::violated) << spread.reason;
  EXPECT_LT(mid(spread.details["alpha"][1]), 0.1);
  // the narrower reading still holds there: the positive token's gate opened
  EXPECT_EQ(run_spread("varre2026.normalization.open_gates", inst).verdict, Verdict::proved);
}

TEST(Varre2026NoPolarization, TheGeneratorMakesExactlyKValuesPositive) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.normalization.open_gates");
  ASSERT_NE(c, nullptr);
  for (int k = 1; k <= 4; ++k) {
    engine::GenerateOptions g;
    g.params = {{"T", 4}, {"normalization", "sigmoid"}, {"positive", k}};
    const auto inst = c->generate(7, g);
    EXPECT_EQ(inst, c->generate(7, g));
    const auto r = run_spread("varre2026.normalization.open_gates", inst, 10);
    ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
    EXPECT_EQ(r.details["positive_values"].size(), static_cast<std::size_t>(k));
  }
}

}  // namespace
}  // namespace softcert
