// Strict parsing of instance files: every defect is refused with a message that starts with
// the field's name; the headline instance loads with the values numpy drew.
#include <gtest/gtest.h>

#include <cmath>

#include "instances/instance.hpp"
#include "support/json_fields.hpp"
#include "models/model_test_support.hpp"
#include "numerics/decimal.hpp"

namespace softcert {
namespace {

nlohmann::json good() {
  return nlohmann::json::parse(R"({"model":"value_softmax","loss":"logistic","normalization":"softmax",
    "T":2,"d":3,"V":[["0.1","-0.2"],["0.3","0.05"],["1e-3","-4E2"]],"a":["0","0"],
    "beta":["0.6","0.8","0"],"provenance":"test"})");
}

// The message of the invalid_argument parse_instance throws ("" if none).
std::string refusal(const nlohmann::json& j) {
  try {
    (void)instances::parse_instance(j);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(InstanceParse, AnUnknownKeyIsRefusedWithTheNearestKnownOne) {
  auto j = good();
  j["normalisation"] = "softmax";  // a typo beside the real key: silently ignored once
  EXPECT_EQ(refusal(j), "normalisation: unknown key (did you mean \"normalization\"?); a note of your own goes under \"extra\"");
  j.erase("normalisation");
  j["zzz_notes"] = 1;
  EXPECT_TRUE(starts_with(refusal(j), "zzz_notes: unknown key;")) << refusal(j);
  j.erase("zzz_notes");
  j["extra"] = {{"notes", "mine"}, {"anything", {1, 2, 3}}};
  EXPECT_EQ(refusal(j), "");
}

TEST(InstanceParse, AcceptsAWellFormedInstanceAndRoundTrips) {
  const auto inst = instances::parse_instance(good());
  EXPECT_EQ(inst.T, 2u);
  EXPECT_EQ(inst.d, 3u);
  EXPECT_EQ(inst.V[2][1], "-4E2");
  const auto again = instances::parse_instance(instances::to_json(inst));
  EXPECT_EQ(again.V, inst.V);
  EXPECT_EQ(again.beta, inst.beta);
  EXPECT_EQ(again.provenance, inst.provenance);
}

TEST(InstanceParse, RefusesEveryDefectNamingTheField) {
  struct Case {
    const char* what;
    std::function<void(nlohmann::json&)> edit;
    const char* field;
  };
  const std::vector<Case> cases = {
      {"missing beta", [](auto& j) { j.erase("beta"); }, "beta:"},
      {"missing V", [](auto& j) { j.erase("V"); }, "V:"},
      {"missing provenance", [](auto& j) { j.erase("provenance"); }, "provenance:"},
      {"missing loss", [](auto& j) { j.erase("loss"); }, "loss:"},
      {"V has too few rows", [](auto& j) { j["V"].erase(2); }, "V:"},
      {"V row too short", [](auto& j) { j["V"][1].erase(1); }, "V[1]:"},
      {"a wrong length", [](auto& j) { j["a"].push_back("0"); }, "a:"},
      {"beta wrong length", [](auto& j) { j["beta"].erase(0); }, "beta:"},
      {"NaN", [](auto& j) { j["V"][0][1] = "nan"; }, "V[0][1]:"},
      {"NaN spelled NaN", [](auto& j) { j["a"][1] = "NaN"; }, "a[1]:"},
      {"Inf", [](auto& j) { j["beta"][2] = "inf"; }, "beta[2]:"},
      {"-Infinity", [](auto& j) { j["V"][2][0] = "-Infinity"; }, "V[2][0]:"},
      {"overflowing double", [](auto& j) { j["V"][2][0] = "1e400"; }, "V[2][0]:"},
      {"not a number", [](auto& j) { j["V"][1][0] = "abc"; }, "V[1][0]:"},
      {"empty string", [](auto& j) { j["a"][0] = ""; }, "a[0]:"},
      {"JSON number instead of string", [](auto& j) { j["a"][0] = 0.5; }, "a[0]:"},
      {"T = 0", [](auto& j) { j["T"] = 0; }, "T:"},
      {"T negative", [](auto& j) { j["T"] = -3; }, "T:"},
      {"T not an integer", [](auto& j) { j["T"] = "two"; }, "T:"},
      {"d = 0", [](auto& j) { j["d"] = 0; }, "d:"},
      {"unknown loss", [](auto& j) { j["loss"] = "hinge"; }, "loss:"},
      {"unknown normalization", [](auto& j) { j["normalization"] = "sparsemax"; }, "normalization:"},
      {"unknown model", [](auto& j) { j["model"] = "mlp"; }, "model:"},
      {"zero beta", [](auto& j) { j["beta"] = {"0", "0.000", "-0e5"}; }, "beta:"},
      {"dataset loss without X", [](auto& j) { j["loss"] = "regression"; }, "X:"},
      {"cross entropy negative p", [](auto& j) { j["loss"] = "cross_entropy"; j["p"] = {"0.5", "-0.5", "1"}; }, "p[1]:"},
      {"cross entropy zero p", [](auto& j) { j["loss"] = "cross_entropy"; j["p"] = {"0", "0.0", "-0"}; }, "p:"},
  };
  for (const auto& c : cases) {
    auto j = good();
    c.edit(j);
    const std::string msg = refusal(j);
    EXPECT_TRUE(starts_with(msg, c.field)) << c.what << ": got \"" << msg << "\", expected it to start with " << c.field;
  }
}

// A normalization alpha = f(a)/sum_j f(a_j) whose denominator is 0 at the start is 0/0: refused
// at validation, naming the field and the sum, for every loss; a start with a nonzero
// denominator is accepted (softmax and sigmoid never vanish).
TEST(InstanceParse, RefusesASingularStartNamingTheNormalizationsDenominator) {
  struct Case {
    const char* normalization;
    std::vector<std::string> a;
    const char* sum;  // "" when the start is regular
  };
  const std::vector<Case> cases = {
      {"square", {"0", "0"}, "sum_j a_j(0)^2 = 0"},   {"square", {"0", "-0.5"}, ""},
      {"abs", {"0.000", "-0e3"}, "sum_j |a_j(0)| = 0"}, {"abs", {"0", "1e-300"}, ""},
      {"relu", {"0", "-1"}, "sum_j max(a_j(0), 0) = 0"}, {"relu", {"-2", "1e-9"}, ""},
      {"sum", {"0.25", "-0.25"}, "sum_j a_j(0) = 0"},  {"sum", {"0", "0"}, "sum_j a_j(0) = 0"},
      {"sum", {"0.25", "-0.24"}, ""},                  {"softmax", {"0", "0"}, ""},
      {"sigmoid", {"0", "0"}, ""},
  };
  for (const char* loss : {"logistic", "square"})
    for (const auto& c : cases) {
      auto j = good();
      j["loss"] = loss;
      j["normalization"] = c.normalization;
      j["a"] = c.a;
      const std::string msg = refusal(j);
      if (std::string(c.sum).empty()) {
        EXPECT_EQ(msg, "") << c.normalization << " " << c.a[0] << ", " << c.a[1];
        continue;
      }
      EXPECT_TRUE(starts_with(msg, std::string("a: normalization \"") + c.normalization + "\" divides by " + c.sum)) << msg;
      EXPECT_NE(msg.find("0/0 at the start"), std::string::npos) << msg;
    }
}

TEST(InstanceParse, DatasetAndCrossEntropyFields) {
  auto j = good();
  j["loss"] = "logistic_dataset";
  j["X"] = {{"1", "0", "2"}, {"0.5", "-1", "0"}};
  j["y"] = {"1", "-1"};
  const auto inst = instances::parse_instance(j);
  EXPECT_EQ(inst.n(), 2u);
  j["y"] = {"1"};
  EXPECT_TRUE(starts_with(refusal(j), "y:"));
  j["y"] = {"1", "-1"};
  j["X"][1] = {"0.5", "-1"};
  EXPECT_TRUE(starts_with(refusal(j), "X[1]:"));
}

TEST(InstanceParse, HeadlineInstanceHasNumpysDraws) {
  const auto inst = testing::headline();
  EXPECT_EQ(inst.T, 8u);
  EXPECT_EQ(inst.d, 8u);
  EXPECT_EQ(inst.loss, instances::Loss::logistic);
  // numpy 1.24 after np.random.seed(123): randn(8,8)[0,0] = -1.0856306033005612, times 0.1 —
  // written as the exact decimal expansion of that double, so the file's real IS the double.
  EXPECT_EQ(inst.V[0][0], "-0.10856306033005612421415975177296786569058895111083984375");
  EXPECT_EQ(num::parse_decimal<Rational>(inst.V[0][0]), Rational(0.1 * -1.0856306033005612));
  for (const auto& row : inst.V)
    for (const auto& v : row) EXPECT_EQ(num::parse_decimal<Rational>(v), Rational(num::parse_decimal<double>(v))) << v;
  for (const auto& a : inst.a) EXPECT_EQ(num::parse_decimal<double>(a), 0.0);
  double c = 0;
  for (const auto& b : inst.beta) c += std::pow(num::parse_decimal<double>(b), 2);
  EXPECT_NEAR(c, 1.0, 1e-15);  // β* normalised
  EXPECT_NE(inst.provenance.find("seed(123)"), std::string::npos);
}

TEST(InstanceParse, UnreadableFileIsRefused) {
  try {
    (void)instances::load_instance("/nonexistent/instance.json");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(starts_with(e.what(), "instance:"));
  }
}

TEST(InstanceParse, ANumberParamGivenAsTextIsTheWholeTextAndFinite) {
  // std::stod alone read "5abc" as 5 and took "nan", "inf" and " 5"
  EXPECT_EQ(support::param_double({{"g", "2.5e-3"}}, "g", 1), 2.5e-3);
  EXPECT_EQ(support::param_double({{"g", 0.25}}, "g", 1), 0.25);
  EXPECT_EQ(support::param_double(nlohmann::json::object(), "g", 7), 7);
  for (const char* text : {"5abc", "nan", "inf", "-inf", " 5", "", "1e400", "5 "}) {
    try {
      (void)support::param_double({{"g", text}}, "g", 1);
      ADD_FAILURE() << "accepted \"" << text << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("parameter \"g\" must be a finite number"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace softcert
