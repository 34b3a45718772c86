// Locating the times where a gap changes sign or monotonicity, on a closed form: the rotation
// x = cos t, y = −sin t, gap g = x − y = √2 sin(t + π/4): sign changes at 3π/4, 7π/4,
// monotonicity changes (g' = cos t − sin t = 0) at π/4, 5π/4. And τ-time landing on END.
#include <gtest/gtest.h>

#include <cmath>

#include "integrate/fast_events.hpp"
#include "models/model_test_support.hpp"
#include "numerics/precision.hpp"
#include "support/rotation_model.hpp"

namespace softcert {
namespace {

TEST(FastEvents, LocatesSignAndMonotonicityChangesOfAGapDouble) {
  for (auto kind : {integrate::Stepper::dopri5, integrate::Stepper::rkf78, integrate::Stepper::bs, integrate::Stepper::taylor}) {
    const auto ev = integrate::locate_gap_events<double>(test_support::Rotation<double>{}, 6.0, {0, 1}, kind, 1e-12);
    ASSERT_EQ(ev.size(), 4u) << integrate::to_string(kind);
    const double pi = std::acos(-1.0);
    const double expected[] = {pi / 4, 3 * pi / 4, 5 * pi / 4, 7 * pi / 4};
    const integrate::GapEventKind kinds[] = {integrate::GapEventKind::monotonicity_change,
                                             integrate::GapEventKind::sign_change,
                                             integrate::GapEventKind::monotonicity_change,
                                             integrate::GapEventKind::sign_change};
    const int dirs[] = {-1, -1, +1, +1};  // g' goes + → − at π/4; g goes + → − at 3π/4; ...
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(ev[k].t, expected[k], 1e-10) << integrate::to_string(kind) << " event " << k;
      EXPECT_EQ(ev[k].kind, kinds[k]);
      EXPECT_EQ(ev[k].direction, dirs[k]);
      EXPECT_TRUE(ev[k].refined);
    }
  }
}

TEST(FastEvents, LocatesEventsAtHighPrecision) {
  num::PrecisionGuard g(128);
  const auto ev = integrate::locate_gap_events<MpReal>(test_support::Rotation<MpReal>{}, MpReal(3), {0, 1}, integrate::Stepper::rkf78,
                                                       MpReal("1e-30"));
  ASSERT_EQ(ev.size(), 2u);
  const MpReal pi = boost::math::constants::pi<MpReal>();
  EXPECT_LT(abs(ev[0].t - pi / 4), MpReal("1e-26"));
  EXPECT_LT(abs(ev[1].t - 3 * pi / 4), MpReal("1e-26"));
}

TEST(FastEvents, HeadlineGapsInTauTimeReportTimesInT) {
  // u-gaps of the logistic flow never change sign (order preservation, Thm 3.2): no sign
  // events for u_0 − u_1; the located events (if any) lie within the horizon.
  const auto inst = testing::headline();
  const auto m = models::LogisticReducedTau<double>::from_instance(inst);
  const auto ev = integrate::locate_gap_events<double>(m, 1e4, {8, 9}, integrate::Stepper::dopri5, 1e-12);
  for (const auto& e : ev) {
    EXPECT_NE(e.kind, integrate::GapEventKind::sign_change);
    EXPECT_LE(e.t, 1e4);
  }
}

TEST(FastRun, TauTimeLandsExactlyOnLongHorizons) {
  const auto inst = testing::headline();
  const auto m = models::LogisticReducedTau<double>::from_instance(inst);
  for (double end : {1e3, 1e5, 1e9}) {
    const auto run = integrate::run_to_time<double>(m, end, integrate::Stepper::dopri5, 1e-13);
    EXPECT_EQ(run.x[m.time_index()], end);
    EXPECT_LT(run.steps.accepted, 20000u);
    // Loss ≈ 1/(c t) (docs/models.md, "Rates"): within a factor 2 at long horizons.
    std::vector<double> a(run.x.begin(), run.x.begin() + 8), u(run.x.begin() + 8, run.x.begin() + 16);
    const auto s = num::softmax(a);
    double us = 0;
    for (int i = 0; i < 8; ++i) us += s[i] * u[i];
    const double loss = std::log1p(std::exp(-us));
    if (end >= 1e5) {
      EXPECT_GT(loss * end, 0.5);
      EXPECT_LT(loss * end, 2.0);
    }
  }
}

}  // namespace
}  // namespace softcert
