// `softcert integrate`: output on the headline instance, and exit 2 with the field named and
// nothing written for bad input.
#include <algorithm>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/scratch_files.hpp"

namespace softcert {
namespace {

using testing::kHeadline;
using testing::run_softcert;

std::string temp(const std::string& name) { return ::testing::TempDir() + "softcert_cli_integrate_" + name; }

bool exists(const std::string& path) { return std::ifstream(path).good(); }

// Writes the headline instance with one edit.
std::string edited_headline(const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(std::ifstream(kHeadline));
  edit(j);
  const std::string path = temp(name + ".json");
  std::ofstream(path) << j.dump();
  return path;
}

TEST(CliIntegrate, FastTierWritesTheDesignFormat) {
  const std::string out = temp("out.json");
  std::remove(out.c_str());
  const auto r = run_softcert("integrate " + kHeadline + " --t 10 --json " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("digits of agreement"), std::string::npos);
  const auto j = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(j["tier"], "fast");
  EXPECT_EQ(j["t"], "10");
  EXPECT_EQ(j["precision_bits"], 53);
  ASSERT_EQ(j["a"].size(), 8u);
  ASSERT_EQ(j["u"].size(), 8u);
  ASSERT_EQ(j["softmax"].size(), 8u);
  ASSERT_EQ(j["V"].size(), 8u);
  EXPECT_TRUE(j["loss"].is_string());
  EXPECT_GE(j["digits_of_agreement"].get<double>(), 10.0);
  EXPECT_GT(j["steps"].get<int>(), 0);
  double sum = 0;
  for (const auto& s : j["softmax"]) sum += std::stod(s.get<std::string>());
  EXPECT_NEAR(sum, 1.0, 1e-14);
}

TEST(CliIntegrate, ReducedFormAtHigherPrecisionAgreesToManyDigits) {
  const auto r = run_softcert("integrate " + kHeadline + " --t 2 --form reduced --precision 96 --stepper rkf78");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("precision 96 bits"), std::string::npos);
  EXPECT_NE(r.out.find("rkf78"), std::string::npos);
}

TEST(CliIntegrate, BadInstancesExitTwoNamingTheFieldAndWriteNothing) {
  struct Case {
    std::string name;
    std::function<void(nlohmann::json&)> edit;
    std::string field;
  };
  const std::vector<Case> cases = {
      {"missing_beta", [](auto& j) { j.erase("beta"); }, "beta"},
      {"short_row", [](auto& j) { j["V"][3].erase(0); }, "V[3]"},
      {"nan", [](auto& j) { j["V"][1][2] = "nan"; }, "V[1][2]"},
      {"inf", [](auto& j) { j["a"][0] = "inf"; }, "a[0]"},
      {"word", [](auto& j) { j["beta"][4] = "zero"; }, "beta[4]"},
      {"t_zero", [](auto& j) { j["T"] = 0; }, "T"},
      {"loss", [](auto& j) { j["loss"] = "hinge"; }, "loss"},
  };
  for (const auto& c : cases) {
    const std::string in = edited_headline(c.name, c.edit);
    const std::string out = temp(c.name + "_out.json");
    std::remove(out.c_str());
    const auto r = run_softcert("integrate " + in + " --t 1 --json " + out);
    EXPECT_EQ(r.status, 2) << c.name;
    EXPECT_NE(r.err.find(c.field + ":"), std::string::npos) << c.name << ": " << r.err;
    EXPECT_FALSE(exists(out)) << c.name;
  }
}

// Formulas (docs/formulas.md): a bad formula is exit 2 naming its field and column; a flow that
// leaves the formula's domain ends the run with exit 3 saying so, in both tiers, writing nothing.
TEST(CliIntegrate, FormulaRefusalsAndAFlowLeavingItsDomain) {
  const std::string bad = edited_headline(std::string("bad_formula"), [](nlohmann::json& j) {
    j["loss"] = "formula";
    j["loss_formula"] = "log(1 + exp(-z)";
  });
  const auto r = run_softcert("integrate " + bad + " --t 1");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("loss_formula: expected ')' closing \"log(\" at column 16"), std::string::npos) << r.err;
  // sqrt(x) normalization with a score at 0.01 that the flow drives to 0 (square loss).
  const std::string path = temp("domain.json");
  std::ofstream(path) << R"json({"model":"value_softmax","loss":"square","normalization":"formula",
    "normalization_formula":"sqrt(x)","T":3,"d":2,"V":[["1","-2","0.5"],["0.3","0.2","-1"]],
    "a":["0.01","1","2"],"beta":["-3","2"],"provenance":"test"})json";
  const std::string out = temp("domain_out.json");
  for (const std::string tier : {"fast", "rigorous"}) {
    std::remove(out.c_str());
    const auto d = run_softcert("integrate " + path + " --t 10 --tier " + tier + " --json " + out);
    EXPECT_EQ(d.status, 3) << tier << ": " << d.err;
    EXPECT_FALSE(exists(out)) << tier;
    if (tier == "fast") {
      EXPECT_NE(d.err.find("left the domain of the instance's formula before t = 10: formula: sqrt of a value not certainly > 0"),
                std::string::npos) << d.err;
    }
  }
}

// The JSON carries the run's plan: the form and why each choice was made (run_plan.cpp).
TEST(CliIntegrate, RigorousJsonSaysWhichPlanRan) {
  const std::string out = temp("plan_out.json");
  ASSERT_EQ(run_softcert("integrate " + kHeadline + " --t 1000 --tier rigorous --json " + out).status, 0);
  const auto j = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(j["form"], "reduced");
  EXPECT_EQ(j["time_variable"], "tau");
  EXPECT_EQ(j["plan"], "Form: the reduced logistic form (2T states; it applies). Time: τ (END ≥ 100). Stepper: Lohner.");
  const std::string square = edited_headline(std::string("plan_square"), [](nlohmann::json& k) { k["loss"] = "square"; });
  ASSERT_EQ(run_softcert("integrate " + square + " --t 5 --tier rigorous --json " + out).status, 0);
  const auto f = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(f["form"], "full");
  EXPECT_NE(f["plan"].get<std::string>().find("Time: t (τ-time needs the logistic loss)."), std::string::npos) << f["plan"];
}

TEST(CliIntegrate, BadHorizonPrecisionOrStepperExitTwo) {
  const std::string out = temp("bad_out.json");
  for (const std::string args : {"--t -1", "--t 0", "--t abc", "--t 1 --precision 40", "--t 1 --stepper euler",
                                 "--t 1 --tier exact", "--t 1 --time sideways"}) {
    std::remove(out.c_str());
    const auto r = run_softcert("integrate " + kHeadline + " " + args + " --json " + out);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_FALSE(exists(out)) << args;
  }
  const auto missing = run_softcert("integrate /nonexistent.json --t 1");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("instance:"), std::string::npos);
}

TEST(CliIntegrate, RigorousTierGoesThroughRigorousIntegrate) {
  const std::string out = temp("rig.json");
  std::remove(out.c_str());
  const auto r = run_softcert("integrate " + kHeadline + " --t 0.5 --tier rigorous --json " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(j["tier"], "rigorous");
  ASSERT_EQ(j["a"].size(), 8u);
  EXPECT_EQ(j["a"][0].size(), 2u);  // [lower, upper]
  // The fast tier's value lies inside the rigorous enclosure.
  const std::string fout = temp("fast.json");
  ASSERT_EQ(run_softcert("integrate " + kHeadline + " --t 0.5 --json " + fout).status, 0);
  const auto f = nlohmann::json::parse(std::ifstream(fout));
  for (int k = 0; k < 8; ++k) {
    const double v = std::stod(f["u"][k].get<std::string>());
    EXPECT_LE(std::stod(j["u"][k][0].get<std::string>()), v + 1e-14);
    EXPECT_GE(std::stod(j["u"][k][1].get<std::string>()), v - 1e-14);
  }
}

// Square loss at a long horizon: the run ends with the PL tail (integrate/pl_tail.hpp), the JSON
// says so, the step count stays small, and the fast tier's state lies inside the enclosure.
// --tail off at a short horizon reaches END by validated steps and says the tail was not used.
// The rigorous JSON `rig` encloses the fast tier's a and V (`fast`, T tokens, d rows) up to 1e-12
// (the fast tier's own error at these sizes).
void expect_encloses_fast_state(const nlohmann::json& rig, const nlohmann::json& fast, int T, int d) {
  for (int k = 0; k < T; ++k) {
    const double v = std::stod(fast["a"][k].get<std::string>());
    EXPECT_LE(std::stod(rig["a"][k][0].get<std::string>()), v + 1e-12) << "a" << k;
    EXPECT_GE(std::stod(rig["a"][k][1].get<std::string>()), v - 1e-12) << "a" << k;
    for (int i = 0; i < d; ++i) {
      const double w = std::stod(fast["V"][i][k].get<std::string>());
      EXPECT_LE(std::stod(rig["V"][i][k][0].get<std::string>()), w + 1e-12) << "V" << i << k;
      EXPECT_GE(std::stod(rig["V"][i][k][1].get<std::string>()), w - 1e-12) << "V" << i << k;
    }
  }
}

TEST(CliIntegrate, RigorousSquareLossEndsWithThePlTailAndSaysSo) {
  const auto inst = nlohmann::json::parse(R"({"model": "value_softmax", "loss": "square", "normalization": "softmax",
      "T": 2, "d": 2, "V": [["0.3", "-0.2"], ["0.1", "0.4"]], "a": ["0.5", "-0.25"], "beta": ["1", "-0.5"],
      "provenance": "test: PL tail"})");
  const std::string path = temp("square.json");
  std::ofstream(path) << inst.dump();
  const std::string out = temp("square_rig.json");
  std::remove(out.c_str());
  const auto r = run_softcert("integrate " + path + " --t 10000 --tier rigorous --json " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("PL tail"), std::string::npos);
  const auto j = nlohmann::json::parse(std::ifstream(out));
  ASSERT_TRUE(j.contains("tail"));
  EXPECT_EQ(j["tail"]["lemma"], "polyak_lojasiewicz");
  EXPECT_EQ(j["tail"]["used"], true);
  EXPECT_LT(std::stod(j["tail"]["from_t"][1].get<std::string>()), 10000.0);
  EXPECT_GT(j["tail"]["mu"].get<double>(), 0.0);
  EXPECT_LT(j["steps"].get<int>(), 1000);
  EXPECT_LT(j["widths"]["max"].get<double>(), 1e-9);
  const std::string fout = temp("square_fast.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10000 --json " + fout).status, 0);
  const auto f = nlohmann::json::parse(std::ifstream(fout));
  expect_encloses_fast_state(j, f, 2, 2);
  const std::string off = temp("square_off.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 2 --tier rigorous --tail off --json " + off).status, 0);
  const auto o = nlohmann::json::parse(std::ifstream(off));
  EXPECT_FALSE(o.contains("tail"));
  ASSERT_EQ(run_softcert("integrate " + path + " --t 2 --tier rigorous --json " + off).status, 0);
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(off))["tail"]["used"], false);
  EXPECT_EQ(run_softcert("integrate " + path + " --t 2 --tier rigorous --tail maybe").status, 2);
}

// Regression loss: the tail needs a certified λ ≤ λ_min(2XᵀX) (X of full column rank); the JSON
// reports it, and the enclosure at t = 10⁴ contains the fast tier's state.
// A T = 3, d = 2 regression instance with three data points (X of full column rank), written to
// a scratch file; returns its path.
std::string write_pl_regression_instance(const std::string& name) {
  const auto inst = nlohmann::json::parse(R"({"model": "value_softmax", "loss": "regression", "normalization": "softmax",
      "T": 3, "d": 2, "V": [["0.3", "-0.2", "0.1"], ["-0.4", "0.25", "0.05"]], "a": ["0.2", "0.9", "1.4"],
      "X": [["0.8", "-0.3"], ["0.1", "0.9"], ["-0.5", "0.4"]], "y": ["0.3", "-0.2", "0.45"],
      "provenance": "test: PL tail, regression"})");
  const std::string path = temp(name);
  std::ofstream(path) << inst.dump();
  return path;
}

TEST(CliIntegrate, RigorousRegressionLossEndsWithThePlTailAndReportsLambda) {
  const std::string path = write_pl_regression_instance("regression.json");
  const std::string out = temp("regression_rig.json");
  std::remove(out.c_str());
  const auto r = run_softcert("integrate " + path + " --t 10000 --tier rigorous --json " + out);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("lambda = "), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(std::ifstream(out));
  ASSERT_TRUE(j.contains("tail"));
  EXPECT_EQ(j["tail"]["used"], true);
  // 2XᵀX = [[1.8, −0.7], [−0.7, 2.12]]: eigenvalues 1.96 ± √0.5156, the smaller ≈ 1.241950
  const double lambda = j["tail"]["lambda"].get<double>();
  EXPECT_GT(lambda, 0.5 * 1.24195);
  EXPECT_LT(lambda, 1.24195);
  EXPECT_LT(j["steps"].get<int>(), 200);  // stepping to t = 10⁴ takes thousands
  const std::string fout = temp("regression_fast.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10000 --json " + fout).status, 0);
  const auto f = nlohmann::json::parse(std::ifstream(fout));
  expect_encloses_fast_state(j, f, 3, 2);
}

// --tail-width W: the run ends with the PL tail as soon as its enclosure is at most W wide, i.e.
// after fewer validated steps than the default rule takes, and the wider enclosure still contains
// the fast tier's state. Misuse is exit 2 with nothing written.
TEST(CliIntegrate, RigorousTailWidthEndsEarlierWithAnEnclosureAtMostThatWide) {
  const std::string path = write_pl_regression_instance("regression_width.json");
  const std::string settled = temp("regression_settled.json"), wide = temp("regression_wide.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10000 --tier rigorous --json " + settled).status, 0);
  const auto r = run_softcert("integrate " + path + " --t 10000 --tier rigorous --tail-width 1e-4 --json " + wide);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto js = nlohmann::json::parse(std::ifstream(settled)), jw = nlohmann::json::parse(std::ifstream(wide));
  EXPECT_FALSE(js["tail"].contains("width_target"));
  EXPECT_EQ(jw["tail"]["used"], true);
  EXPECT_EQ(jw["tail"]["width_target"].get<double>(), 1e-4);
  EXPECT_LT(jw["tail"]["steps_to_from"].get<int>(), js["tail"]["steps_to_from"].get<int>());
  // The width target bounds the state's components (a, u here); widths.max also counts the loss.
  double state_width = 0;
  for (const char* f : {"a", "u"})
    for (const auto& w : jw["widths"][f]) state_width = std::max(state_width, w.get<double>());
  EXPECT_LE(state_width, 1e-4);
  EXPECT_GE(jw["widths"]["max"].get<double>(), std::max(state_width, jw["widths"]["loss"].get<double>()));
  EXPECT_GT(jw["widths"]["max"].get<double>(), js["widths"]["max"].get<double>());
  const std::string fout = temp("regression_width_fast.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10000 --json " + fout).status, 0);
  expect_encloses_fast_state(jw, nlohmann::json::parse(std::ifstream(fout)), 3, 2);
  const std::string none = temp("regression_width_none.json");
  std::remove(none.c_str());
  for (const std::string bad : {"--tier rigorous --tail-width -1", "--tier rigorous --tail-width nan",
                                "--tail-width 1e-4", "--tier rigorous --tail off --tail-width 1e-4"}) {
    const auto b = run_softcert("integrate " + path + " --t 10 " + bad + " --json " + none);
    EXPECT_EQ(b.status, 2) << bad;
    EXPECT_NE(b.err.find("--tail-width"), std::string::npos) << bad << ": " << b.err;
  }
  const auto lg = run_softcert("integrate " + kHeadline + " --t 10 --tier rigorous --tail-width 1e-4 --json " + none);
  EXPECT_EQ(lg.status, 2);
  EXPECT_NE(lg.err.find("--tail-width"), std::string::npos) << lg.err;
  EXPECT_FALSE(std::ifstream(none).good());
}

// --set ball (the ball step, docs/method.md §2b): the JSON says which set was carried, the
// enclosure contains the fast tier's state and overlaps the Lohner run's, both narrow. Misuse —
// the fast tier, a logistic (τ-time) instance, an unknown set — is exit 2 naming --set, nothing
// written.
TEST(CliIntegrate, RigorousBallSetEnclosesTheFastStateAndRefusesWhatItCannotDo) {
  const std::string path = write_pl_regression_instance("regression_ball.json");
  const std::string ball = temp("regression_ball_rig.json"), lohner = temp("regression_lohner_rig.json");
  const auto r = run_softcert("integrate " + path + " --t 10 --tier rigorous --tail off --set ball --json " + ball);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("set ball"), std::string::npos) << r.out;
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10 --tier rigorous --tail off --json " + lohner).status, 0);
  const auto jb = nlohmann::json::parse(std::ifstream(ball)), jl = nlohmann::json::parse(std::ifstream(lohner));
  EXPECT_EQ(jb["set"], "ball");
  EXPECT_EQ(jl["set"], "lohner");
  EXPECT_LT(jb["widths"]["max"].get<double>(), 1e-10);
  for (int k = 0; k < 3; ++k) {  // two enclosures of the same exact value intersect
    EXPECT_LE(std::stod(jb["a"][k][0].get<std::string>()), std::stod(jl["a"][k][1].get<std::string>())) << k;
    EXPECT_LE(std::stod(jl["a"][k][0].get<std::string>()), std::stod(jb["a"][k][1].get<std::string>())) << k;
  }
  const std::string fout = temp("regression_ball_fast.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10 --json " + fout).status, 0);
  const auto fast = nlohmann::json::parse(std::ifstream(fout));
  expect_encloses_fast_state(jb, fast, 3, 2);
  // --ball-pieces K: recorded, and the enclosure still contains the fast state
  const std::string pieces = temp("regression_ball_pieces.json");
  ASSERT_EQ(run_softcert("integrate " + path + " --t 10 --tier rigorous --tail off --set ball --ball-pieces 3 --json " + pieces).status, 0);
  const auto jp = nlohmann::json::parse(std::ifstream(pieces));
  EXPECT_EQ(jp["ball_pieces"], 3);
  EXPECT_EQ(jb["ball_pieces"], "per step");  // integrate/ball_pieces.hpp, BallPieceRule
  EXPECT_FALSE(jl.contains("ball_pieces"));
  expect_encloses_fast_state(jp, fast, 3, 2);
  const std::string none = temp("regression_ball_none.json");
  std::remove(none.c_str());
  for (const std::string& bad : {"integrate " + path + " --t 10 --set ball", "integrate " + kHeadline + " --t 10 --tier rigorous --set ball",
                                 "integrate " + path + " --t 10 --tier rigorous --set cube"}) {
    const auto b = run_softcert(bad + " --json " + none);
    EXPECT_EQ(b.status, 2) << bad;
    EXPECT_NE(b.err.find("--set"), std::string::npos) << bad << ": " << b.err;
  }
  for (const std::string& bad : {"integrate " + path + " --t 10 --tier rigorous --set lohner --ball-pieces 2",
                                 "integrate " + path + " --t 10 --tier rigorous --set ball --ball-pieces 0"}) {
    const auto b = run_softcert(bad + " --json " + none);
    EXPECT_EQ(b.status, 2) << bad;
    EXPECT_NE(b.err.find("--ball-pieces"), std::string::npos) << bad << ": " << b.err;
  }
  EXPECT_FALSE(std::ifstream(none).good());
}

// relu reaches its kink early on this instance: exit 3, stderr says until when the kink is
// certainly not reached, and --json holds the same report (integrate/kink_report.hpp).
TEST(CliIntegrate, RigorousReluStoppedAtItsKinkSaysUntilWhenItIsCertainlyNotReached) {
  const auto inst = nlohmann::json::parse(R"({"model": "value_softmax", "loss": "square", "normalization": "relu",
      "T": 2, "d": 1, "V": [["0.5", "-3"]], "a": ["1", "0.05"], "beta": ["1"], "provenance": "test: kink"})");
  const std::string path = temp("kink.json");
  std::ofstream(path) << inst.dump();
  const std::string out = temp("kink_out.json");
  std::remove(out.c_str());
  const auto r = run_softcert("integrate " + path + " --t 10 --tier rigorous --json " + out);
  EXPECT_EQ(r.status, 3);
  EXPECT_NE(r.err.find("kink possible at t ∈ ["), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no attention score reaches the kink of relu"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(std::ifstream(out));
  EXPECT_EQ(j["reached"], false);
  EXPECT_EQ(j["kink"]["normalization"], "relu");
  const double t_free = std::stod(j["kink"]["kink_free_until"].get<std::string>());
  EXPECT_GT(t_free, 0.026);  // the 300-bit fast tier crosses at t ≈ 0.0261166 (kink_report_test.cpp)
  EXPECT_LT(t_free, 0.0262);
  EXPECT_EQ(j["kink"]["nearest_score"], 1);
  EXPECT_FALSE(j.contains("a"));  // no enclosure at END
}

}  // namespace
}  // namespace softcert
