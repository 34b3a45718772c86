// flow::curve_over, the executor's curve segment by segment: the segments cover [0, H] without a
// gap in both time variables, hold an independent 256-bit reference state at times inside them,
// and a cancelled run returns what it validated, marked incomplete.
#include <atomic>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "integrate/flow.hpp"

namespace softcert {
namespace {

instances::Instance curve_test_headline() {
  std::ifstream f(SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json");
  std::stringstream text;
  text << f.rdbuf();
  return instances::parse_instance(nlohmann::json::parse(text.str()));
}

bool curve_box_contains(const IntervalD& box, double x) { return box.lower() <= x && x <= box.upper(); }

// Every t in [0, H] lies in a segment's time range: the ranges start at 0, end at H or beyond,
// and each starts no later than the one before ends.
void expect_curve_covers(const flow::CurveEnclosure& c, double H) {
  ASSERT_FALSE(c.segments.empty());
  EXPECT_LE(c.segments.front().t.lower(), 0.0);
  EXPECT_GE(c.segments.back().t.upper(), H);
  for (std::size_t k = 1; k < c.segments.size(); ++k)
    EXPECT_LE(c.segments[k].t.lower(), c.segments[k - 1].t.upper()) << "gap before segment " << k;
}

// The 256-bit fast-tier state at t (an independent reference, accurate far below the boxes'
// widths) lies in a segment whose time range holds t — the curve's guarantee: some segment holds
// the state at t (a range can reach past its own step, where the next segment holds it).
void expect_curve_holds_reference(const instances::Instance& inst, const flow::CurveEnclosure& c, double t) {
  const auto ref = flow::estimate_at(inst, t, 256);
  int in_range = 0, holding = 0;
  for (const auto& seg : c.segments) {
    if (!curve_box_contains(seg.t, t)) continue;
    ++in_range;
    bool all = true;
    for (std::size_t i = 0; i < inst.T; ++i)
      all = all && curve_box_contains(seg.a[i], ref.values.a[i]) && curve_box_contains(seg.u[i], ref.values.u[i]) &&
            curve_box_contains(seg.softmax[i], ref.values.alpha[i]);
    holding += all ? 1 : 0;
  }
  EXPECT_GE(in_range, 1) << "no segment's range holds t = " << t;
  EXPECT_GE(holding, 1) << "no segment holds the state at t = " << t;
}

TEST(CurveOver, SegmentsCoverTheHorizonAndHoldTheReferenceInTTime) {
  const auto inst = curve_test_headline();
  flow::Request r;
  r.time = integrate::PlanTime::t;
  const auto c = flow::curve_over(inst, 10, r);
  ASSERT_TRUE(c.complete) << c.stopped;
  EXPECT_EQ(c.time_variable, integrate::PlanTime::t);
  EXPECT_EQ(c.t_reached, 10.0);
  expect_curve_covers(c, 10);
  for (double t : {0.37, 2.5, 7.0, 9.99}) expect_curve_holds_reference(inst, c, t);
}

TEST(CurveOver, TauTimeSegmentsCarryTheirTimeRangeFromTheTComponent) {
  const auto inst = curve_test_headline();
  const auto c = flow::curve_over(inst, 1000);  // the plan's τ-time from END ≥ 100
  ASSERT_TRUE(c.complete) << c.stopped;
  EXPECT_EQ(c.time_variable, integrate::PlanTime::tau);
  expect_curve_covers(c, 1000);
  for (double t : {1.0, 55.5, 400.0, 999.0}) expect_curve_holds_reference(inst, c, t);
}

TEST(CurveOver, ACancelledRunReturnsWhatItValidatedMarkedIncomplete) {
  const auto inst = curve_test_headline();
  std::atomic<bool> cancel{true};
  const auto c = flow::curve_over(inst, 10, {}, &cancel);
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.stopped, "interrupted");
  ASSERT_EQ(c.segments.size(), 1u);  // the step in which the flag was seen
  EXPECT_GT(c.t_reached, 0.0);
  EXPECT_LE(c.t_reached, c.segments.back().t.upper());
  expect_curve_holds_reference(inst, c, c.t_reached / 2);
}

}  // namespace
}  // namespace softcert
