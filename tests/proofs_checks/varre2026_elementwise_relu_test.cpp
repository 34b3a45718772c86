// varre2026.elementwise_relu.no_polarization: the closed-form limit of α/Σα against an independent
// RK4 integration of the τ-time flow of (V, a), and both verdicts on hand-made instances.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/registry.hpp"

namespace softcert {
namespace {

using engine::Verdict;

// d = 1, β* = (beta): u(0) = beta·V(0), c = beta².
nlohmann::json relu_instance(const std::vector<std::string>& v_row, const std::vector<std::string>& a,
                             const std::string& beta) {
  return {{"model", "value_softmax"}, {"loss", "logistic"}, {"normalization", "relu"},
          {"T", v_row.size()},        {"d", 1},             {"V", nlohmann::json::array({nlohmann::json(v_row)})},
          {"a", a},                   {"beta", {beta}},     {"provenance", "hand-made for tests"}};
}

engine::CheckResult run_relu(const nlohmann::json& inst) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.elementwise_relu.no_polarization");
  EXPECT_NE(c, nullptr);
  return c->run(inst, {});
}

// α/Σα at τ = tau by RK4 on dV/dτ = β* αᵀ, da/dτ = (Vᵀβ*) ⊙ 1[a > 0] (d = 1), α = max(a, 0).
std::vector<double> rk4_direction(std::vector<double> v, std::vector<double> a, double beta, double tau) {
  const std::size_t n = a.size();
  auto field = [&](const std::vector<double>& x) {  // x = (v, a)
    std::vector<double> f(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const double ai = x[n + i], alpha = ai > 0 ? ai : 0;
      f[i] = beta * alpha;                           // dV/dτ
      f[n + i] = ai > 0 ? x[i] * beta : 0.0;         // da/dτ = u_i
    }
    return f;
  };
  std::vector<double> x(v);
  x.insert(x.end(), a.begin(), a.end());
  const double h = 1e-4;
  for (double t = 0; t < tau - 1e-12; t += h) {
    auto k1 = field(x);
    std::vector<double> y(2 * n);
    for (std::size_t i = 0; i < 2 * n; ++i) y[i] = x[i] + h / 2 * k1[i];
    auto k2 = field(y);
    for (std::size_t i = 0; i < 2 * n; ++i) y[i] = x[i] + h / 2 * k2[i];
    auto k3 = field(y);
    for (std::size_t i = 0; i < 2 * n; ++i) y[i] = x[i] + h * k3[i];
    auto k4 = field(y);
    for (std::size_t i = 0; i < 2 * n; ++i) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += std::max(x[n + i], 0.0);
  std::vector<double> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = std::max(x[n + i], 0.0) / sum;
  return p;
}

TEST(Varre2026ElementwiseRelu, LimitMatchesAnIndependentIntegrationAndIsNotOneHot) {
  // β* = 2 (c = 4, k = 2), u(0) = (0.6, −0.2, 0.4): p∞ ∝ 2a + u = (2.6, 0.8, 2.0) / 5.4
  const auto r = run_relu(relu_instance({"0.3", "-0.1", "0.2"}, {"1", "0.5", "0.8"}, "2"));
  ASSERT_EQ(r.verdict, Verdict::proved) << r.reason;
  EXPECT_EQ(r.details["survivors"].size(), 3u);
  const auto p = rk4_direction({0.3, -0.1, 0.2}, {1, 0.5, 0.8}, 2.0, 6.0);  // error ~ e^{−2kτ} = e^{−24}
  const double expected[] = {2.6 / 5.4, 0.8 / 5.4, 2.0 / 5.4};
  for (int i = 0; i < 3; ++i) {
    const auto& enc = r.details["limit"][std::to_string(i)];
    EXPECT_LE(std::stod(enc[0].get<std::string>()), expected[i]);
    EXPECT_GE(std::stod(enc[1].get<std::string>()), expected[i]);
    EXPECT_NEAR(p[i], expected[i], 1e-6) << i;
  }
  // margin = 1 − max p∞ = 2.8/5.4
  EXPECT_LE(std::stod(r.margin.lower_text()), 2.8 / 5.4 + 1e-15);
  EXPECT_GE(std::stod(r.margin.upper_text()), 2.8 / 5.4 - 1e-15);
  EXPECT_GT(std::stod(r.margin.lower_text()), 0.5);
}

TEST(Varre2026ElementwiseRelu, OneSurvivorIsACertifiedOneHotLimit) {
  // u(0) = (0.5, −2), c = 1: token 1 has a + u = −1 < 0, its score reaches 0 and stays there
  const auto r = run_relu(relu_instance({"0.5", "-2"}, {"1", "1"}, "1"));
  ASSERT_EQ(r.verdict, Verdict::violated) << r.reason;
  EXPECT_EQ(r.details["survivors"], nlohmann::json::array({0}));
  const auto p = rk4_direction({0.5, -2}, {1, 1}, 1.0, 6.0);
  EXPECT_NEAR(p[0], 1.0, 1e-9);
  // a score that starts at 0 never moves (relu'(0) = 0), one that decays reaches it: no survivor
  // at all, no limit direction
  EXPECT_EQ(run_relu(relu_instance({"-2", "0.1"}, {"0.1", "0"}, "1")).verdict, Verdict::inconclusive);
  // with no a_i(0) > 0 the weights alpha/sum(alpha) are 0/0 from the start: refused at validation
  EXPECT_THROW(run_relu(relu_instance({"0.5", "0.1"}, {"0", "-1"}, "1")), std::invalid_argument);
  // the normalised-relu and softmax models are not this check's
  auto softmax = relu_instance({"0.5", "0.1"}, {"1", "1"}, "1");
  softmax["normalization"] = "softmax";
  EXPECT_THROW(run_relu(softmax), std::invalid_argument);
}

TEST(Varre2026ElementwiseRelu, GeneratedInstancesAreTheAuthorsStart) {
  const engine::Check* c = engine::CheckRegistry::global().find("varre2026.elementwise_relu.no_polarization");
  ASSERT_NE(c, nullptr);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto inst = c->generate(seed, {});
    EXPECT_EQ(inst["normalization"], "relu");
    for (const auto& x : inst["a"]) EXPECT_NEAR(std::stod(x.get<std::string>()), 1.0, 0.6);
    EXPECT_NE(run_relu(inst).verdict, Verdict::violated);
  }
}

}  // namespace
}  // namespace softcert
