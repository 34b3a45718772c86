// KinkPossible (integrate/kink_report.hpp): the full-state rigorous tier on |x| and relu
// normalizations stops before a score can reach its kink, and says until when that is certain.
// Checked against an independent 300-bit fast-tier reference (taylor stepper, tolerance 1e-60):
// at the reported kink-free time every score still has its initial sign and, in t-time, lies in
// the reported enclosure; a little later the nearest score has crossed 0 — so the report is
// neither past the kink (unsound) nor an arbitrary early stop (a wrongly attributed failure).
// A stop time reported later than the last validated step's end fails the first checks (a
// mutation moving it 1e-6 later failed both reference tests); a report on a model without a
// kink fails the last test. Under logistic loss (τ-time) the same instance crosses the kink
// with a certificate (integrate/kink_crossing.hpp); its stop reports in τ-time are tested in
// tests/integrate/kink_crossing_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/fast_run.hpp"
#include "integrate/kink_report.hpp"
#include "integrate/rigorous_model.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"

namespace softcert {
namespace {

// T = 2, d = 1: the second column of V is far on the wrong side of β* = 1, so the small second
// score is pushed down through 0 long before the loss has converged (the fast tier at 300 bits:
// a_2 crosses 0 at t ≈ 0.0261166 under square loss, t ≈ 0.0379 under logistic loss).
instances::Instance two_token_instance(const std::string& loss, const std::string& normalization) {
  nlohmann::json j = {{"model", "value_softmax"}, {"loss", loss}, {"normalization", normalization},
                      {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0.5", "-3"})})}, {"a", {"1", "0.05"}}, {"beta", {"1"}},
                      {"provenance", "test: a kink reached early"}};
  return instances::parse_instance(j);
}

// The 300-bit reference state (V, a) at t (a decimal).
std::vector<MpReal> reference_at(const instances::Instance& inst, const std::string& t) {
  num::PrecisionGuard g(300);
  return integrate::run_to_time<MpReal>(models::ValueSoftmax<MpReal>(inst), MpReal(t), integrate::Stepper::taylor,
                                        MpReal("1e-60"))
      .x;
}

integrate::KinkInfo kink_of(const instances::Instance& inst, const std::string& t_end) {
  try {
    (void)integrate::rigorous_integrate_model(inst, t_end);
  } catch (const integrate::KinkPossible& e) {
    EXPECT_EQ(std::string(e.what()).rfind("kink possible at t ∈ [", 0), 0u) << e.what();
    return e.info();
  }
  ADD_FAILURE() << "no KinkPossible";
  return {};
}

TEST(KinkReport, SquareLossReluStopsJustBeforeTheKinkWithAnEnclosureOfTheNearestScore) {
  const auto inst = two_token_instance("square", "relu");
  const integrate::KinkInfo k = kink_of(inst, "10");
  EXPECT_EQ(k.normalization, "relu");
  EXPECT_GT(k.steps, 0u);
  ASSERT_TRUE(k.has_nearest);
  EXPECT_EQ(k.nearest_score, 1u);
  EXPECT_TRUE(k.zero_from_start.empty());
  // t-time: the stop is an exact step end; its decimal ends are within an ulp.
  const double lo = std::stod(k.stopped_at.lower_text()), hi = std::stod(k.stopped_at.upper_text());
  EXPECT_LE(lo, hi);
  EXPECT_LT(hi - lo, 1e-15);
  const auto ref = reference_at(inst, k.stopped_at.lower_text());
  const MpReal a1 = ref[inst.d * inst.T + 1];
  EXPECT_GT(a1, 0) << "the reference has crossed the kink before the certified kink-free time";
  EXPECT_GT(ref[inst.d * inst.T + 0], 0);
  // The enclosure is of a_2 at the exact step end; the decimal lower end differs from it by
  // < 1e-17 in t, so by < 1e-16 in a_2 (|da_2/dt| < 10 here).
  EXPECT_GE(a1, MpReal(k.nearest_score_value.lower_text()) - MpReal("1e-16"));
  EXPECT_LE(a1, MpReal(k.nearest_score_value.upper_text()) + MpReal("1e-16"));
  // Just after the stop the reference's a_2 is negative: the stop is at the kink.
  const auto later = reference_at(inst, num::to_decimal(MpReal(k.stopped_at.upper_text()) + MpReal("1e-9")));
  EXPECT_LT(later[inst.d * inst.T + 1], 0);
  const nlohmann::json j = integrate::to_json(k);
  EXPECT_EQ(j["kink_free_until"], k.stopped_at.lower_text());
  EXPECT_EQ(j["nearest_score"], 1);
}

TEST(KinkReport, AScoreStartingOnTheKinkIsNamedAndLeftOutOfTheStatement) {
  nlohmann::json j = {{"model", "value_softmax"}, {"loss", "square"}, {"normalization", "relu"},
                      {"T", 3}, {"d", 1}, {"V", {{"0.5", "-0.25", "0.1"}}}, {"a", {"0.5", "1.25", "0"}},
                      {"beta", {"1"}}, {"provenance", "test: a score on the kink"}};
  const integrate::KinkInfo k = kink_of(instances::parse_instance(j), "1");
  EXPECT_EQ(k.zero_from_start, std::vector<std::size_t>{2});
  EXPECT_NE(k.nearest_score, 2u);
}

TEST(KinkReport, ModelsWithoutAKinkStillFailAsPlainRigorousFailures) {
  nlohmann::json j = {{"model", "value_softmax"}, {"loss", "square"}, {"normalization", "sum"},
                      {"T", 3}, {"d", 1}, {"V", {{"0.5", "-0.25", "0.1"}}}, {"a", {"0", "0", "0"}},
                      {"beta", {"1"}}, {"provenance", "test: singular sum normalization"}};
  // parse_instance refuses the singular start (its a is 0/0); built past it, the integrator's
  // failure is a plain one, not a kink
  EXPECT_THROW(instances::parse_instance(j), std::invalid_argument);
  j["a"] = {"1", "1", "1"};
  auto inst = instances::parse_instance(j);
  inst.a = {"0", "0", "0"};
  try {
    (void)integrate::rigorous_integrate_model(inst, "1");
    ADD_FAILURE() << "no failure";
  } catch (const integrate::KinkPossible& e) {
    ADD_FAILURE() << "a kink reported for the sum normalization: " << e.what();
  } catch (const support::RigorousFailure&) {
  }
}

}  // namespace
}  // namespace softcert
