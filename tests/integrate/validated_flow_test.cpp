// The one validated flow (integrate/validated_flow.hpp): what needs step records does not
// compile with the ball stepper (the component rule takes either: its box series); the solution curve's queries contain closed-form flows (a
// 300-bit MPFR reference); the component stop rule brackets a known crossing time; a finisher
// ends a run with an enclosure of x(END); the failure rule keeps the last validated box.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "integrate/validated_flow.hpp"
#include "support/mpfr_reference.hpp"

namespace softcert {
namespace {

using integrate::BallStepper;
using integrate::FlowAction;
using integrate::FlowControl;
using integrate::FlowEnd;
using integrate::BallSet;
using integrate::DoubletonSet;
using integrate::LohnerStepper;
using integrate::SolutionCurve;

auto flow_decay = [](const auto& x, auto& dx) { dx[0] = -x[0]; };
auto flow_rotation = [](const auto& x, auto& dx) {
  dx[0] = x[1];
  dx[1] = -x[0];
};
// x0' = 1 (a clock), x1' = −x1: the clock crosses c at τ = c − x0(0), where x1 = x1(0) e^{−τ}.
auto flow_clock_decay = [](const auto& x, auto& dx) {
  using V = std::decay_t<decltype(x[0])>;
  dx[0] = V(1);
  dx[1] = -x[1];
};

using FlowDecay = decltype(flow_decay);
using FlowRotation = decltype(flow_rotation);
using FlowClockDecay = decltype(flow_clock_decay);

// ----- compile time: records only with the Lohner stepper -----------------------------------
// A TubeStep observer needs records: with a BallStepper run_flow does not exist (its constraint
// fails), with a LohnerStepper it does. The component (τ-time) stop rule takes either: it reads
// the step's crossing_record() (the ball step's is its box series).
template <class Stepper>
constexpr bool takes_tube_step_observer = requires(Stepper& st, typename Stepper::Set& set, FlowControl c) {
  integrate::run_flow<IntervalD>(st, set, std::vector<IntervalD>{}, IntervalD(0), integrate::until_time(IntervalD(1)), c,
                                 integrate::no_finisher, integrate::on_tube_step([](const integrate::TubeStep<IntervalD>&) {}));
};
template <class Stepper>
constexpr bool takes_component_rule = requires(Stepper& st, typename Stepper::Set& set, FlowControl c) {
  integrate::run_flow<IntervalD>(st, set, std::vector<IntervalD>{}, IntervalD(0),
                                 integrate::until_component(0, std::vector<IntervalD>{IntervalD(1)}, IntervalD(2)), c,
                                 integrate::no_finisher);
};
template <class Stepper>
constexpr bool takes_segment_observer = requires(Stepper& st, typename Stepper::Set& set, FlowControl c) {
  integrate::run_flow<IntervalD>(st, set, std::vector<IntervalD>{}, IntervalD(0), integrate::until_time(IntervalD(1)), c,
                                 integrate::no_finisher, integrate::on_segment([](const integrate::TubeSegment<IntervalD>&) {}));
};
static_assert(LohnerStepper<IntervalD, FlowDecay>::has_records);
static_assert(!BallStepper<IntervalD, FlowDecay>::has_records);
static_assert(takes_tube_step_observer<LohnerStepper<IntervalD, FlowDecay>>);
static_assert(!takes_tube_step_observer<BallStepper<IntervalD, FlowDecay>>);
static_assert(takes_component_rule<LohnerStepper<IntervalD, FlowDecay>>);
static_assert(takes_component_rule<BallStepper<IntervalD, FlowDecay>>);
static_assert(takes_segment_observer<BallStepper<IntervalD, FlowDecay>>);
// The curve of a ball run has no record queries either.
template <class Curve>
constexpr bool curve_has_step_queries = requires(const Curve& c) {
  c.step(0);
  c.state_at(IntervalD(0));
};
static_assert(curve_has_step_queries<SolutionCurve<IntervalD, true>>);
static_assert(!curve_has_step_queries<SolutionCurve<IntervalD, false>>);
static_assert(std::is_same_v<decltype(std::declval<BallStepper<IntervalD, FlowDecay>&>().integrate(
                                 std::vector<IntervalD>{}, IntervalD(0), IntervalD(1))),
                             SolutionCurve<IntervalD, false>>);

template <class Stepper>
constexpr bool stepper_has_last_step = requires(const Stepper& s) { s.last_step(); };
static_assert(stepper_has_last_step<LohnerStepper<IntervalD, FlowDecay>>);
static_assert(!stepper_has_last_step<BallStepper<IntervalD, FlowDecay>>);

// ----- helpers ---------------------------------------------------------------------------------
constexpr mpfr_prec_t kFlowRefBits = 300;

bool flow_contains(const IntervalD& x, const testing::Ref& r) { return testing::inside_compound(x.lower(), r.get(), x.upper()); }

// e^{−t}·x0 at 300 bits.
void flow_exp_minus(testing::Ref& out, double t, double x0) {
  mpfr_set_d(out.get(), -t, MPFR_RNDN);
  mpfr_exp(out.get(), out.get(), MPFR_RNDN);
  mpfr_mul_d(out.get(), out.get(), x0, MPFR_RNDN);
}

template <class Stepper>
auto flow_curve_to(Stepper& st, const std::vector<IntervalD>& x0, double t_end) {
  auto set = integrate::start_set(st, x0);
  FlowControl control;
  control.keep_segments = true;
  return integrate::run_flow<IntervalD>(st, set, x0, IntervalD(0), integrate::until_time(IntervalD(t_end)), control,
                                        integrate::no_finisher);
}

// ----- the curve's queries against closed forms -----------------------------------------------
// ẋ = −x from x0 = 1: x(t) = e^{−t}. state_over and function_over on sub-intervals contain the
// exact values at sample times inside them; the end box flow_contains e^{−T}; with records the
// sub-interval enclosure is far tighter than the segment hull.
TEST(ValidatedFlow, CurveQueriesContainTheDecay) {
  integrate::LohnerOptions o;
  o.keep_records = true;
  LohnerStepper<IntervalD, FlowDecay> st(flow_decay, 1, o);
  const double T = 3;
  const auto curve = flow_curve_to(st, {IntervalD(1.0)}, T);
  ASSERT_TRUE(curve.completed());
  EXPECT_EQ(curve.steps(), curve.segments().size());
  testing::Ref ref(kFlowRefBits);
  flow_exp_minus(ref, T, 1);
  EXPECT_TRUE(flow_contains(curve.end_box()[0], ref));
  ASSERT_EQ(curve.crossings().size(), 1u);
  EXPECT_TRUE(flow_contains(curve.crossings()[0].box[0], ref));
  for (double a : {0.0, 0.3, 1.1, 2.5}) {
    const double b = a + 0.4;
    const IntervalD span(a, b);
    const std::vector<IntervalD> x = curve.state_over(span);
    const IntervalD sq = curve.function_over([](const std::vector<IntervalD>& v) { return v[0] * v[0]; }, span);
    for (double t : {a, 0.5 * (a + b), b}) {
      flow_exp_minus(ref, t, 1);
      EXPECT_TRUE(flow_contains(x[0], ref)) << t;
      flow_exp_minus(ref, 2 * t, 1);  // x² = e^{−2t}
      EXPECT_TRUE(flow_contains(sq, ref)) << t;
    }
    // with records: inside the steps, never wider than the hull of the segment boxes
    const IntervalD hull = curve.enclosure_at(span)[0];
    EXPECT_LE(x[0].upper() - x[0].lower(), hull.upper() - hull.lower()) << a;
  }
  // x ≥ 1/2 holds until ln 2 ≈ 0.693: the first time it may fail is at or before ln 2, and
  // certainly after the last segment that ends below it
  const auto fail = curve.first_time_may_fail([](const std::vector<IntervalD>& b) { return b[0].lower() >= 0.5; });
  ASSERT_TRUE(fail.has_value());
  EXPECT_LE(fail->lower(), std::log(2.0));
  // 0 < x ≤ 1 always; the segment boxes (the step polynomial over a whole step of length ~1)
  // overestimate, but stay within (−1, 2)
  EXPECT_FALSE(curve.first_time_may_fail([](const std::vector<IntervalD>& b) { return b[0].lower() > -1 && b[0].upper() < 2; })
                   .has_value());
}

// The rotation from (1, 0) with both steppers: every query flow_contains (cos t, −sin t).
TEST(ValidatedFlow, CurveQueriesContainTheRotationWithBothSteppers) {
  const double T = 6;
  auto check = [&](const auto& curve) {
    ASSERT_TRUE(curve.completed());
    testing::Ref c(kFlowRefBits), s(kFlowRefBits);
    for (double a : {0.0, 1.0, 2.9, 5.5}) {
      const double b = a + 0.5;
      const std::vector<IntervalD> x = curve.state_over(IntervalD(a, b));
      for (double t : {a, 0.5 * (a + b), b}) {
        mpfr_set_d(c.get(), t, MPFR_RNDN);
        mpfr_sin_cos(s.get(), c.get(), c.get(), MPFR_RNDN);
        mpfr_neg(s.get(), s.get(), MPFR_RNDN);
        EXPECT_TRUE(flow_contains(x[0], c)) << t;
        EXPECT_TRUE(flow_contains(x[1], s)) << t;
      }
    }
    mpfr_set_d(c.get(), T, MPFR_RNDN);
    mpfr_sin_cos(s.get(), c.get(), c.get(), MPFR_RNDN);
    mpfr_neg(s.get(), s.get(), MPFR_RNDN);
    EXPECT_TRUE(flow_contains(curve.end_box()[0], c));
    EXPECT_TRUE(flow_contains(curve.end_box()[1], s));
    // x² + y² = 1 on the whole horizon
    const IntervalD r2 = curve.function_over([](const std::vector<IntervalD>& v) { return v[0] * v[0] + v[1] * v[1]; },
                                             IntervalD(0.0, T));
    EXPECT_TRUE(r2.lower() <= 1 && 1 <= r2.upper());
  };
  integrate::LohnerOptions lo;
  lo.keep_records = true;
  LohnerStepper<IntervalD, FlowRotation> lohner(flow_rotation, 2, lo);
  check(flow_curve_to(lohner, {IntervalD(1.0), IntervalD(0.0)}, T));
  BallStepper<IntervalD, FlowRotation> ball(flow_rotation, 2);
  check(flow_curve_to(ball, {IntervalD(1.0), IntervalD(0.0)}, T));
}

// ----- stop rules ------------------------------------------------------------------------------
// The clock x0' = 1 from x0 = 0.25 crosses 1 at τ = 0.75 and 2.5 at τ = 2.25; the crossings
// bracket those times tightly and their boxes contain x1 = e^{−τ} — with the Lohner step's
// records and with the ball step's box series (BoxSeriesRecord).
template <class Stepper>
void expect_clock_crossings(Stepper& st) {
  const std::vector<IntervalD> x0 = {IntervalD(0.25), IntervalD(1.0)};
  auto set = integrate::start_set(st, x0);
  const auto curve = integrate::run_flow<IntervalD>(
      st, set, x0, IntervalD(0), integrate::until_component(0, std::vector<IntervalD>{IntervalD(1.0), IntervalD(2.5)}, IntervalD(10.0)),
      FlowControl{}, integrate::no_finisher);
  ASSERT_TRUE(curve.completed());
  ASSERT_EQ(curve.crossings().size(), 2u);
  const double tau[] = {0.75, 2.25}, target[] = {1.0, 2.5};
  testing::Ref ref(kFlowRefBits);
  for (int k = 0; k < 2; ++k) {
    const auto& c = curve.crossings()[k];
    EXPECT_TRUE(c.time.lower() <= tau[k] && tau[k] <= c.time.upper()) << k;
    EXPECT_LT(c.time.upper() - c.time.lower(), 1e-12) << k;
    EXPECT_TRUE(c.box[0].lower() <= target[k] && target[k] <= c.box[0].upper()) << k;
    flow_exp_minus(ref, tau[k], 1);
    EXPECT_TRUE(flow_contains(c.box[1], ref)) << k;
    EXPECT_GE(c.steps, 1u);
  }
  EXPECT_LE(curve.crossings()[0].steps, curve.crossings()[1].steps);
}
TEST(ValidatedFlow, ComponentCrossingBracketsTheKnownTime) {
  LohnerStepper<IntervalD, FlowClockDecay> lohner(flow_clock_decay, 2);
  expect_clock_crossings(lohner);
  BallStepper<IntervalD, FlowClockDecay> ball(flow_clock_decay, 2);
  expect_clock_crossings(ball);
}

// The ball step's crossing on a clock that is not a polynomial in τ, with a short series (order
// 3, fixed steps of 1/8): x' = −x, t' = 1 + x² from (1, 0), so t = τ + (1 − e^{−2τ})/2, and
// x(τ) = e^{−τ}. Two crossings, each against the τ* a 300-bit bisection finds: t = 0.23 inside the
// first step (τ* ≈ 0.122, from a point: the box series is thin there, and its remainder
// x_4(E)·s^4 ≈ −7·10⁻⁵ is what keeps τ* in the bracket), and t = 1 four steps later. The clock's
// weight 2^−4 (BallSettings::ball_weights) goes through both.
void clock_crossing(double target, testing::Ref& lo) {
  // g(τ) = τ + (1 − e^{−2τ})/2 − target is increasing, g(0) < 0 < g(target).
  testing::Ref hi(kFlowRefBits), mid(kFlowRefBits), g(kFlowRefBits);
  mpfr_set_d(lo.get(), 0, MPFR_RNDN);
  mpfr_set_d(hi.get(), target, MPFR_RNDN);
  for (int i = 0; i < 280; ++i) {
    mpfr_add(mid.get(), lo.get(), hi.get(), MPFR_RNDN);
    mpfr_div_2ui(mid.get(), mid.get(), 1, MPFR_RNDN);
    mpfr_mul_si(g.get(), mid.get(), -2, MPFR_RNDN);
    mpfr_exp(g.get(), g.get(), MPFR_RNDN);
    mpfr_d_sub(g.get(), 1.0, g.get(), MPFR_RNDN);
    mpfr_div_2ui(g.get(), g.get(), 1, MPFR_RNDN);
    mpfr_add(g.get(), g.get(), mid.get(), MPFR_RNDN);
    mpfr_sub_d(g.get(), g.get(), target, MPFR_RNDN);
    if (mpfr_sgn(g.get()) < 0) mpfr_set(lo.get(), mid.get(), MPFR_RNDN);
    else mpfr_set(hi.get(), mid.get(), MPFR_RNDN);
  }
}
TEST(ValidatedFlow, BallCrossingOfANonlinearClockHoldsTheReference) {
  auto clock = [](const auto& x, auto& dx) {
    using V = std::decay_t<decltype(x[0])>;
    dx[0] = -x[0];
    dx[1] = V(1) + x[0] * x[0];
  };
  integrate::BallOptions o;
  o.order = 3;
  o.fixed_step = 0.125;
  o.ball_weights = {1.0, 0.0625};
  BallStepper<IntervalD, decltype(clock)> st(clock, 2, o);
  const std::vector<IntervalD> x0 = {IntervalD(1.0), IntervalD(0.0)};
  BallSet<IntervalD> set = BallSet<IntervalD>::from_box(x0);
  const std::vector<double> targets = {0.23, 1.0};
  const auto curve = integrate::run_flow<IntervalD>(
      st, set, x0, IntervalD(0),
      integrate::until_component(1, std::vector<IntervalD>{IntervalD(targets[0]), IntervalD(targets[1])}, IntervalD(10.0)),
      FlowControl{}, integrate::no_finisher);
  ASSERT_TRUE(curve.completed()) << curve.message();
  ASSERT_EQ(curve.crossings().size(), 2u);
  EXPECT_EQ(curve.crossings()[0].steps, 1u);  // the first crossing is inside the first step
  for (std::size_t k = 0; k < 2; ++k) {
    testing::Ref tau(kFlowRefBits);
    clock_crossing(targets[k], tau);
    const auto& c = curve.crossings()[k];
    EXPECT_TRUE(flow_contains(c.time, tau)) << k << ": [" << c.time.lower() << ", " << c.time.upper() << "] ref " << tau.str();
    EXPECT_LT(c.time.upper() - c.time.lower(), 1e-3) << k;
    EXPECT_TRUE(c.box[1].lower() <= targets[k] && targets[k] <= c.box[1].upper()) << k;
    testing::Ref x(kFlowRefBits);
    mpfr_neg(x.get(), tau.get(), MPFR_RNDN);
    mpfr_exp(x.get(), x.get(), MPFR_RNDN);  // e^{−τ*}
    EXPECT_TRUE(flow_contains(c.box[0], x)) << k << ": [" << c.box[0].lower() << ", " << c.box[0].upper() << "] ref " << x.str();
    EXPECT_LT(c.box[0].upper() - c.box[0].lower(), 1e-3) << k;
  }
}

// A τ cap before the crossing fails the run with the time-change message; a crossing target not
// after the start too.
TEST(ValidatedFlow, ComponentRuleFailsWhenTheCapComesFirst) {
  LohnerStepper<IntervalD, FlowClockDecay> st(flow_clock_decay, 2);
  const std::vector<IntervalD> x0 = {IntervalD(0.0), IntervalD(1.0)};
  DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
  const auto curve = integrate::run_flow<IntervalD>(
      st, set, x0, IntervalD(0), integrate::until_component(0, std::vector<IntervalD>{IntervalD(3.0)}, IntervalD(2.0)),
      FlowControl{}, integrate::no_finisher);
  EXPECT_EQ(curve.end(), FlowEnd::failure);
  EXPECT_NE(curve.message().find("cap"), std::string::npos) << curve.message();
  EXPECT_THROW(curve.rethrow(), support::ValidationFailure);
  // the last validated box is the state at τ = 2 (the cap): x0 ∋ 2
  EXPECT_TRUE(curve.last_box()[0].lower() <= 2 && 2 <= curve.last_box()[0].upper());
}

// Several times in one pass: each crossing is the state at its time exactly.
TEST(ValidatedFlow, SeveralTimesInOnePass) {
  LohnerStepper<IntervalD, FlowDecay> st(flow_decay, 1);
  const std::vector<IntervalD> x0 = {IntervalD(2.0)};
  DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
  const std::vector<IntervalD> times = {IntervalD(0.5), IntervalD(1.0), IntervalD(4.0)};
  const auto curve =
      integrate::run_flow<IntervalD>(st, set, x0, IntervalD(0), integrate::until_times(times), FlowControl{}, integrate::no_finisher);
  ASSERT_TRUE(curve.completed());
  ASSERT_EQ(curve.crossings().size(), 3u);
  testing::Ref ref(kFlowRefBits);
  for (int k = 0; k < 3; ++k) {
    const double t = times[k].lower();
    EXPECT_EQ(curve.crossings()[k].time.lower(), t);
    flow_exp_minus(ref, t, 2);
    EXPECT_TRUE(flow_contains(curve.crossings()[k].box[0], ref)) << t;
  }
  EXPECT_EQ(curve.crossings()[2].steps, curve.steps());
}

// An observer's predicate completes the run; an observer's stop ends it early (not completed);
// the budget ends it with FlowEnd::budget and the caller's message.
TEST(ValidatedFlow, ObserversAndTheBudgetEndARun) {
  const std::vector<IntervalD> x0 = {IntervalD(1.0)};
  {
    LohnerStepper<IntervalD, FlowDecay> st(flow_decay, 1);
    DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
    std::size_t seen = 0;
    const auto curve = integrate::run_flow<IntervalD>(
        st, set, x0, IntervalD(0), integrate::until_time(IntervalD(100.0)), FlowControl{}, integrate::no_finisher,
        integrate::on_tube_step([&](const integrate::TubeStep<IntervalD>& s) { seen = s.index() + 1; }),
        integrate::stop_when([](const integrate::TubeSegment<IntervalD>& seg) { return seg.end[0].upper() < 0.5; }));
    EXPECT_EQ(curve.end(), FlowEnd::predicate);
    EXPECT_TRUE(curve.completed());
    EXPECT_LT(curve.end_box()[0].upper(), 0.5);
    EXPECT_EQ(seen, curve.steps());
  }
  {
    LohnerStepper<IntervalD, FlowDecay> st(flow_decay, 1);
    DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
    const auto curve = integrate::run_flow<IntervalD>(
        st, set, x0, IntervalD(0), integrate::until_time(IntervalD(100.0)), FlowControl{}, integrate::no_finisher,
        integrate::on_segment([](const integrate::TubeSegment<IntervalD>&) { return FlowAction::stop; }));
    EXPECT_EQ(curve.end(), FlowEnd::observer_stop);
    EXPECT_FALSE(curve.completed());
    EXPECT_EQ(curve.steps(), 1u);
  }
  {
    BallStepper<IntervalD, FlowDecay> st(flow_decay, 1);
    BallSet<IntervalD> set = BallSet<IntervalD>::from_box(x0);
    FlowControl control;
    control.max_steps = 3;
    control.budget_message = "test: budget";
    const auto curve =
        integrate::run_flow<IntervalD>(st, set, x0, IntervalD(0), integrate::until_time(IntervalD(100.0)), control, integrate::no_finisher);
    EXPECT_EQ(curve.end(), FlowEnd::budget);
    EXPECT_EQ(curve.steps(), 3u);
    EXPECT_EQ(curve.message(), "test: budget");
    EXPECT_THROW(curve.rethrow(), support::ValidationFailure);
  }
}

// An observer that stops the run on the step that ends on the stop rule's time: the curve still
// says the step reached it (kink_crossing.hpp reads this); a step short of it says it did not.
TEST(ValidatedFlow, TheCurveSaysWhetherTheLastStepReachedTheEndTime) {
  const std::vector<IntervalD> x0 = {IntervalD(1.0)};
  for (const double end : {1e-3, 100.0}) {
    LohnerStepper<IntervalD, FlowDecay> st(flow_decay, 1);
    DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
    IntervalD t1(-1.0);
    const auto curve = integrate::run_flow<IntervalD>(
        st, set, x0, IntervalD(0), integrate::until_time(IntervalD(end)), FlowControl{}, integrate::no_finisher,
        integrate::on_tube_step([&](const integrate::TubeStep<IntervalD>& s) {
          t1 = s.record().t0 + s.h();
          return FlowAction::stop;
        }));
    EXPECT_EQ(curve.end(), FlowEnd::observer_stop);
    EXPECT_EQ(curve.steps(), 1u);
    // one step of ẋ = −x from 1 is far shorter than 100 and longer than 1e-3
    EXPECT_EQ(curve.last_step_reached_end(), end < 1.0) << end;
    EXPECT_EQ(curve.t_reached().lower() == end && curve.t_reached().upper() == end, end < 1.0) << end;
    EXPECT_GT(t1.upper(), 0.0);  // the record is readable in the observer
  }
}

// ẋ = x² blows up at t = 1: the run fails, and the last validated box flow_contains the exact
// 1/(1 − t) at the time reached (< 1).
TEST(ValidatedFlow, AFailedStepKeepsTheLastValidatedBox) {
  auto sq = [](const auto& x, auto& dx) { dx[0] = x[0] * x[0]; };
  integrate::LohnerOptions o;
  o.h_min = 1e-6;
  LohnerStepper<IntervalD, decltype(sq)> st(sq, 1, o);
  const std::vector<IntervalD> x0 = {IntervalD(1.0)};
  DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
  const auto curve =
      integrate::run_flow<IntervalD>(st, set, x0, IntervalD(0), integrate::until_time(IntervalD(2.0)), FlowControl{}, integrate::no_finisher);
  EXPECT_EQ(curve.end(), FlowEnd::failure);
  EXPECT_TRUE(curve.failed_in_validation());
  const double t = curve.t_reached().lower();
  ASSERT_LT(t, 1.0);
  ASSERT_GT(t, 0.5);
  testing::Ref ref(kFlowRefBits);
  mpfr_set_d(ref.get(), 1.0, MPFR_RNDN);
  mpfr_sub_d(ref.get(), ref.get(), t, MPFR_RNDN);
  mpfr_ui_div(ref.get(), 1, ref.get(), MPFR_RNDN);
  EXPECT_TRUE(flow_contains(curve.last_box()[0], ref));
}

// ----- finishers -------------------------------------------------------------------------------
// A tail lemma for ẋ = −x from x0 > 0: x decreases and stays positive, so x(END) ∈ (0, x(s)] for
// every END ≥ s. The finisher applies it once s ≥ 1; the run ends there (few steps) with a box
// that flow_contains e^{−END} for END = 50, far beyond the steps taken.
TEST(ValidatedFlow, AFinisherEndsTheRunWithAnEnclosureOfTheEnd) {
  LohnerStepper<IntervalD, FlowDecay> st(flow_decay, 1);
  const std::vector<IntervalD> x0 = {IntervalD(1.0)};
  DoubletonSet<IntervalD> set = DoubletonSet<IntervalD>::from_box(x0);
  std::size_t calls = 0;
  auto tail = [&](const integrate::FlowState<IntervalD, DoubletonSet<IntervalD>>& s) -> std::optional<integrate::TailEnd<IntervalD>> {
    ++calls;
    if (s.t.lower() < 1) return std::nullopt;
    return integrate::TailEnd<IntervalD>{{IntervalD(0.0, s.box[0].upper())}, s.t, s.steps};
  };
  const double END = 50;
  const auto curve = integrate::run_flow<IntervalD>(st, set, x0, IntervalD(0), integrate::until_time(IntervalD(END)),
                                                    FlowControl{}, tail);
  ASSERT_EQ(curve.end(), FlowEnd::finisher);
  ASSERT_TRUE(curve.tail().has_value());
  EXPECT_GE(curve.tail()->from.lower(), 1.0);
  EXPECT_EQ(curve.tail()->steps, curve.steps());
  EXPECT_EQ(calls, curve.steps());
  EXPECT_EQ(curve.final_time().lower(), END);
  testing::Ref ref(kFlowRefBits);
  flow_exp_minus(ref, END, 1);
  EXPECT_TRUE(flow_contains(curve.end_box()[0], ref));
  flow_exp_minus(ref, curve.tail()->from.upper(), 1);  // and the box's top is the state at s
  EXPECT_LE(mpfr_cmp_d(ref.get(), curve.end_box()[0].upper()), 0);
  EXPECT_LT(curve.end_box()[0].upper(), 0.4);
}

}  // namespace
}  // namespace softcert
