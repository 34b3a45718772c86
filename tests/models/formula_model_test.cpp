// Models from formulas (instances/formula.hpp in models/value_softmax.hpp): a formula loss or
// normalization gives the field −∇L (central differences at 256 bits); the built-in logistic
// and square losses and the square normalization written as formulas give the same interval
// field and the same validated enclosures, bit for bit; instances with formulas are validated.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>

#include "integrate/rigorous_full.hpp"
#include "models/value_softmax.hpp"
#include "numerics/precision.hpp"

namespace softcert {
namespace {

nlohmann::json small_json() {
  return nlohmann::json::parse(R"({"model":"value_softmax","T":3,"d":2,
    "V":[["0.3","-0.2","0.45"],["0.1","0.25","-0.35"]],"a":["0.5","1.25","-0.375"],
    "beta":["0.6","-0.8"],"provenance":"test"})");
}

instances::Instance with(nlohmann::json j, const std::string& loss, const std::string& norm) {
  if (loss.find_first_of("()+-*/^") != std::string::npos || loss == "z") {
    j["loss"] = "formula";
    j["loss_formula"] = loss;
  } else {
    j["loss"] = loss;
  }
  if (norm.find_first_of("()+-*/^") != std::string::npos || norm == "x") {
    j["normalization"] = "formula";
    j["normalization_formula"] = norm;
  } else {
    j["normalization"] = norm;
  }
  return instances::parse_instance(j);
}

nlohmann::json headline_json() {
  std::ifstream in(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/headline.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j.erase("authors_run");
  return j;
}

TEST(FormulaModel, RhsIsMinusGradientOfTheFormulaLoss) {
  num::PrecisionGuard g(256);
  const MpReal h("1e-30");
  const char* losses[] = {"log(1 + exp(-z))", "exp(-z)", "(beta - target)^2 / 2", "log(1 + (beta - target)^2)", "z^4 - z"};
  const char* norms[] = {"softmax", "exp(x)", "1 + x^2", "log1p(exp(x))", "sqrt(1 + exp(2*x))"};
  for (const char* loss : losses)
    for (const char* norm : norms) {
      const models::ValueSoftmax<MpReal> m(with(small_json(), loss, norm));
      const auto x = m.initial_state();
      std::vector<MpReal> f;
      m.rhs(x, f);
      for (std::size_t k = 0; k < x.size(); ++k) {
        auto xp = x, xm = x;
        xp[k] += h;
        xm[k] -= h;
        const MpReal grad = (m.loss_value(xp) - m.loss_value(xm)) / (2 * h);
        EXPECT_LT(abs(f[k] + grad), MpReal("1e-40")) << loss << " / " << norm << " component " << k;
      }
    }
}

// Lower and upper ends of every component, as text, for a bitwise comparison.
template <class V>
std::vector<std::pair<double, double>> ends(const V& v) {
  std::vector<std::pair<double, double>> out;
  for (const auto& x : v) out.emplace_back(num::lower(x), num::upper(x));
  return out;
}

TEST(FormulaModel, BuiltInLossesAsFormulasGiveTheSameIntervalField) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  const struct {
    const char* builtin;
    const char* formula;
    const char* norm_builtin;
    const char* norm_formula;
  } pairs[] = {{"logistic", "log(1 + exp(-z))", "softmax", "softmax"},
               {"square", "(beta - target)^2 / 2", "softmax", "softmax"},
               {"square", "(beta - target)^2 / 2", "square", "x^2"},
               {"logistic", "log1p(exp(-z))", "square", "x^2"}};
  for (const auto& p : pairs) {
    const models::ValueSoftmax<IntervalD> mb(with(small_json(), p.builtin, p.norm_builtin));
    const models::ValueSoftmax<IntervalD> mf(with(small_json(), p.formula, p.norm_formula));
    for (int trial = 0; trial < 20; ++trial) {
      auto x = mb.initial_state();
      for (auto& c : x) {
        const double lo = num::lower(c) + 0.01 * u(rng);
        c = IntervalD(lo, lo + 1e-6 * (1 + u(rng)));
      }
      std::vector<IntervalD> fb, ff;
      mb.rhs(x, fb);
      mf.rhs(x, ff);
      EXPECT_EQ(ends(fb), ends(ff)) << p.builtin << " / " << p.norm_builtin;
    }
  }
}

TEST(FormulaModel, BuiltInLossesAsFormulasGiveTheSameValidatedEnclosures) {
  // The headline (logistic) and the headline with the square loss, full state in t-time to t = 10.
  for (const auto& [builtin, formula] : {std::pair<const char*, const char*>{"logistic", "log(1 + exp(-z))"},
                                         {"square", "(beta - target)^2 / 2"}}) {
    const auto run = [&](const char* loss) {
      const models::ValueSoftmax<IntervalD> m(with(headline_json(), loss, "softmax"), false);
      return integrate::enclose_model_state<IntervalD>(m, IntervalD(10), integrate::ValidatedOptions{});
    };
    const auto b = run(builtin), f = run(formula);
    EXPECT_GT(b.steps, 0u);
    EXPECT_EQ(b.steps, f.steps) << builtin;
    EXPECT_EQ(ends(b.x), ends(f.x)) << builtin;
  }
}

TEST(FormulaModel, InstancesWithFormulasAreValidated) {
  const auto refusal = [](nlohmann::json j) {
    try {
      instances::parse_instance(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto j = small_json();
  j["loss"] = "formula";
  j["normalization"] = "softmax";
  EXPECT_EQ(refusal(j).rfind("loss_formula: required when loss is \"formula\"", 0), 0u) << refusal(j);
  j["loss_formula"] = 3;
  EXPECT_EQ(refusal(j).rfind("loss_formula: expected a string", 0), 0u) << refusal(j);
  j["loss_formula"] = "z * beta";
  EXPECT_EQ(refusal(j).rfind("loss_formula: uses z together with beta", 0), 0u) << refusal(j);
  j["loss_formula"] = "target^2";
  EXPECT_EQ(refusal(j).rfind("loss_formula: uses neither z nor beta", 0), 0u) << refusal(j);
  j["loss_formula"] = "exp(-z";
  EXPECT_EQ(refusal(j).rfind("loss_formula: expected ')'", 0), 0u) << refusal(j);
  j["loss_formula"] = "exp(-z)";
  EXPECT_EQ(refusal(j), "");
  j["normalization_formula"] = "x";
  EXPECT_EQ(refusal(j).rfind("normalization_formula: only for normalization \"formula\"", 0), 0u) << refusal(j);
  j["normalization"] = "formula";
  j["normalization_formula"] = "2";
  EXPECT_EQ(refusal(j).rfind("normalization_formula: does not use x", 0), 0u) << refusal(j);
  j["normalization_formula"] = "log(x)";  // a[2](0) = −0.375
  EXPECT_EQ(refusal(j).rfind("a: normalization_formula is not defined at a[2](0) = -0.375", 0), 0u) << refusal(j);
  j["normalization_formula"] = "x";
  j["a"] = {"0.5", "-0.25", "-0.25"};  // Σ f(a_j(0)) = 0
  EXPECT_EQ(refusal(j).rfind("a: normalization_formula: sum_j f(a_j(0)) is not certainly nonzero", 0), 0u) << refusal(j);
  // An overflowing formula's interval sum has infinite ends: said, not converted (was a crash in
  // the decimal writer).
  j["normalization_formula"] = "x * 1e300 * 1e300 - x * 1e300 * 1e300";
  EXPECT_NE(refusal(j).find("is not certainly nonzero (it lies in [-inf, inf])"), std::string::npos) << refusal(j);
  j["normalization"] = "softmax";
  j.erase("normalization_formula");
  j["loss"] = "logistic";
  EXPECT_EQ(refusal(j).rfind("loss_formula: only for loss \"formula\"", 0), 0u) << refusal(j);
  // The JSON form keeps the formulas.
  j["loss"] = "formula";
  const auto inst = instances::parse_instance(j);
  EXPECT_EQ(instances::parse_instance(instances::to_json(inst)).loss_formula, "exp(-z)");
}

}  // namespace
}  // namespace softcert
