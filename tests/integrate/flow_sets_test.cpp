// The two sets a validated step moves (integrate/flow_sets.hpp): each holds what it was made
// from, its box() holds the set (the ball's radius divided by the weights rounded upward), and a
// stepper takes only its own kind.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrate/validated_flow.hpp"
#include "integrate/validated_taylor.hpp"
#include "numerics/kinds.hpp"

namespace softcert {
namespace {

using integrate::BallSet;
using integrate::DoubletonSet;

bool holds(const std::vector<IntervalD>& outer, const std::vector<IntervalD>& inner) {
  if (outer.size() != inner.size()) return false;
  for (std::size_t i = 0; i < outer.size(); ++i)
    if (!(outer[i].lower() <= inner[i].lower() && inner[i].upper() <= outer[i].upper())) return false;
  return true;
}

TEST(FlowSets, BothSetsFromABoxHoldTheBox) {
  const std::vector<IntervalD> box = {IntervalD(-4.0, -3.0), IntervalD(0.1, 0.3), IntervalD(2.0)};
  const auto d = DoubletonSet<IntervalD>::from_box(box);
  const auto b = BallSet<IntervalD>::from_box(box);
  EXPECT_TRUE(holds(d.box(), box));
  EXPECT_TRUE(holds(b.box(), box));
  for (std::size_t i = 0; i < box.size(); ++i) {  // the centre lies in the box, in both
    EXPECT_TRUE(box[i].lower() <= d.c[i].lower() && d.c[i].upper() <= box[i].upper());
    EXPECT_EQ(d.c[i].lower(), b.c[i].lower());
  }
  EXPECT_EQ(b.ball, 0.0);
}

// A doubleton set with a rotated B: the ball set made from it holds every point c + B r of it
// (checked at the corners of [r]), through its offset B·[r].
TEST(FlowSets, ABallSetMadeFromADoubletonHoldsIt) {
  DoubletonSet<IntervalD> d;
  d.c = {IntervalD(1.0), IntervalD(-2.0)};
  d.B = {IntervalD(0.6), IntervalD(-0.8), IntervalD(0.8), IntervalD(0.6)};
  d.r = {IntervalD(-0.5, 0.25), IntervalD(-0.125, 1.0)};
  const auto b = BallSet<IntervalD>::from(d);
  const auto bb = b.box();
  for (double r0 : {-0.5, 0.25})
    for (double r1 : {-0.125, 1.0}) {
      const double x0 = 1.0 + 0.6 * r0 - 0.8 * r1, x1 = -2.0 + 0.8 * r0 + 0.6 * r1;
      EXPECT_TRUE(bb[0].lower() <= x0 && x0 <= bb[0].upper()) << r0 << ", " << r1;
      EXPECT_TRUE(bb[1].lower() <= x1 && x1 <= bb[1].upper()) << r0 << ", " << r1;
    }
  EXPECT_TRUE(holds(bb, d.box()));
}

// box() of a ball: each coordinate within ball/w_i of c, rounded upward (1/3 is not a double).
TEST(FlowSets, ABallsBoxRoundsTheRadiusOverTheWeightsUpward) {
  BallSet<IntervalD> b;
  b.c = {IntervalD(0.0), IntervalD(0.0)};
  b.ball = 1.0 / 3.0;  // rounded to nearest: below 1/3
  b.weights = {1.0, 0.25};
  const auto x = b.box();
  EXPECT_EQ(x[0].upper(), b.ball);         // ball/1 is exact
  EXPECT_EQ(x[0].lower(), -b.ball);
  EXPECT_GE(x[1].upper(), 4 * b.ball);     // ball/0.25 = 4·ball, exact too
  EXPECT_LE(x[1].lower(), -4 * b.ball);
  b.ball = 0.1;
  b.weights = {3.0, 1.0};  // 0.1/3 is not a double: the bound must lie above it
  const double r = b.box()[0].upper();
  EXPECT_GT(std::fma(r, 3.0, -b.ball), 0.0) << "3r − ball, with one rounding, keeps its sign";
  EXPECT_LT(std::fma(std::nextafter(r, 0.0), 3.0, -b.ball), 0.0) << "the tightest such double";
}

// A stepper moves only its own set: handing a ball stepper a doubleton set (or the reverse)
// does not compile.
struct Decay {
  template <class V>
  void operator()(const V& x, V& dx) const {
    dx[0] = -x[0];
  }
};
template <class Stepper, class Set>
constexpr bool steps_set = requires(Stepper& st, Set& set, integrate::FlowControl c) {
  integrate::run_flow<IntervalD>(st, set, std::vector<IntervalD>{}, IntervalD(0), integrate::until_time(IntervalD(1)), c,
                                 integrate::no_finisher);
};
static_assert(steps_set<integrate::LohnerStepper<IntervalD, Decay>, DoubletonSet<IntervalD>>);
static_assert(!steps_set<integrate::LohnerStepper<IntervalD, Decay>, BallSet<IntervalD>>);
static_assert(steps_set<integrate::BallStepper<IntervalD, Decay>, BallSet<IntervalD>>);
static_assert(!steps_set<integrate::BallStepper<IntervalD, Decay>, DoubletonSet<IntervalD>>);

}  // namespace
}  // namespace softcert
