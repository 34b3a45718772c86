// integrate::plan_run and plan_entry (integrate/run_plan.hpp): each rule of the plan — form, time variable
// (the one "auto" threshold of both tiers, at exactly 100), stepper and pieces, order, tail —
// each typed override of an expert winning over it, and the combinations no method serves refused.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "integrate/fast_integrate.hpp"
#include "integrate/run_plan.hpp"

namespace softcert {
namespace {

using integrate::PlanForm;
using integrate::PlanStepper;
using integrate::PlanTail;
using integrate::PlanTier;
using integrate::PlanTime;
using integrate::RunRequest;

instances::Instance shape(std::size_t T, std::size_t d, instances::Loss loss,
                          instances::Normalization norm = instances::Normalization::softmax) {
  instances::Instance inst;
  inst.T = T;
  inst.d = d;
  inst.loss = loss;
  inst.normalization = norm;
  return inst;
}

RunRequest request(PlanTier tier, double horizon) {
  RunRequest q;
  q.tier = tier;
  q.horizon = horizon;
  return q;
}

// The shared "auto" rule: τ-time from END = 100 on (>=), in both tiers, for the reduced logistic
// form (rigorous) and the full form (fast); just below 100, t-time in both.
TEST(RunPlan, AutoTimeSwitchesAtExactly100InBothTiers) {
  const auto logistic = shape(4, 3, instances::Loss::logistic);
  const double below = std::nextafter(100.0, 0.0);
  EXPECT_TRUE(integrate::auto_tau_time(100));
  EXPECT_FALSE(integrate::auto_tau_time(below));
  for (PlanTier tier : {PlanTier::rigorous, PlanTier::fast}) {
    const auto at = integrate::plan_run(logistic, request(tier, 100));
    const auto under = integrate::plan_run(logistic, request(tier, below));
    EXPECT_EQ(at.time, PlanTime::tau) << static_cast<int>(tier);
    EXPECT_EQ(under.time, PlanTime::t) << static_cast<int>(tier);
  }
  EXPECT_EQ(integrate::plan_run(logistic, request(PlanTier::rigorous, 100)).form, PlanForm::reduced_logistic);
  EXPECT_EQ(integrate::plan_run(logistic, request(PlanTier::fast, 100)).form, PlanForm::full_state);
  // the fast tier's own resolver uses the same rule
  integrate::FastOptions fo;
  EXPECT_EQ(integrate::resolve_form(logistic, fo, 100), models::Form::full_tau);
  EXPECT_EQ(integrate::resolve_form(logistic, fo, below), models::Form::full);
}

// The fast tier's form is the plan's (resolve_form asks plan_run): its time variable added to the
// asked form, a τ form asking for τ-time; the tied model and square loss have no τ-time, and
// asking for it is refused naming time.
TEST(RunPlan, FastFormIsThePlans) {
  const auto logistic = shape(4, 3, instances::Loss::logistic), square = shape(4, 3, instances::Loss::square);
  auto tied = shape(3, 3, instances::Loss::logistic);
  tied.model = "tied_value_softmax";
  integrate::FastOptions fo;
  fo.form = models::Form::reduced;
  EXPECT_EQ(integrate::resolve_form(logistic, fo, 500), models::Form::reduced_tau);
  EXPECT_EQ(integrate::resolve_form(square, fo, 500), models::Form::reduced);
  fo.form = models::Form::full_tau;
  fo.time = PlanTime::t;
  EXPECT_EQ(integrate::resolve_form(logistic, fo, 1), models::Form::full_tau);
  fo.form = models::Form::full;
  fo.time.reset();
  EXPECT_EQ(integrate::resolve_form(tied, fo, 500), models::Form::full);
  fo.time = PlanTime::tau;
  for (const auto& inst : {tied, square}) {
    try {
      (void)integrate::resolve_form(inst, fo, 1);
      ADD_FAILURE() << "τ-time was not refused";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind("time: ", 0), 0u) << e.what();
    }
  }
}

// τ-time needs the logistic loss; the rigorous full state of logistic loss takes it at every
// horizon; the fast tier has no τ-time tied model; an explicit time wins where it is possible.
TEST(RunPlan, TimeVariableByLossFormAndRequest) {
  const auto square = shape(4, 3, instances::Loss::square);
  EXPECT_EQ(integrate::plan_run(square, request(PlanTier::rigorous, 1e4)).time, PlanTime::t);
  EXPECT_EQ(integrate::plan_run(square, request(PlanTier::fast, 1e4)).time, PlanTime::t);
  const auto sigmoid = shape(4, 3, instances::Loss::logistic, instances::Normalization::sigmoid);
  const auto full = integrate::plan_run(sigmoid, request(PlanTier::rigorous, 10));
  EXPECT_EQ(full.form, PlanForm::full_state);
  EXPECT_EQ(full.time, PlanTime::tau);
  auto tied = shape(3, 3, instances::Loss::logistic);
  tied.model = "tied_value_softmax";
  EXPECT_EQ(integrate::plan_run(tied, request(PlanTier::rigorous, 5)).time, PlanTime::tau);
  EXPECT_EQ(integrate::plan_run(tied, request(PlanTier::fast, 500)).time, PlanTime::t);
  auto q = request(PlanTier::rigorous, 1e5);
  q.time = PlanTime::t;
  EXPECT_EQ(integrate::plan_run(shape(4, 3, instances::Loss::logistic), q).time, PlanTime::t);
  q.time = PlanTime::tau;
  auto short_tau = q;
  short_tau.horizon = 1;  // asked below 100, where the plan says t
  EXPECT_EQ(integrate::plan_run(shape(4, 3, instances::Loss::logistic), short_tau).time, PlanTime::tau);
  try {
    (void)integrate::plan_run(square, q);
    ADD_FAILURE() << "τ-time for square loss was not refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("time: ", 0), 0u) << e.what();
  }
}

// The ball step from 200 states on (d = T = 14: 210 states; 211 in τ-time), the Lohner step
// below it (d = T = 13: 182), never for a caller that reads step records nor for |x| or relu in
// τ-time (their kink crossings read records); the pieces are then chosen per step (0).
TEST(RunPlan, StepperByDimensionTimeAndRecords) {
  const auto big = shape(14, 14, instances::Loss::regression), small = shape(13, 13, instances::Loss::regression);
  const auto b = integrate::plan_run(big, request(PlanTier::rigorous, 300));
  EXPECT_EQ(b.stepper, PlanStepper::ball);
  EXPECT_EQ(b.ball_pieces, 0u);
  const auto s = integrate::plan_run(small, request(PlanTier::rigorous, 300));
  EXPECT_EQ(s.stepper, PlanStepper::lohner);
  EXPECT_EQ(s.ball_pieces, 1u);
  auto records = request(PlanTier::rigorous, 300);
  records.needs_step_records = true;
  EXPECT_EQ(integrate::plan_run(big, records).stepper, PlanStepper::lohner);
  const auto logistic_big = shape(14, 14, instances::Loss::logistic, instances::Normalization::sigmoid);
  const auto lb = integrate::plan_run(logistic_big, request(PlanTier::rigorous, 300));
  EXPECT_EQ(lb.time, PlanTime::tau);
  EXPECT_EQ(lb.stepper, PlanStepper::ball);
  for (const auto kink : {instances::Normalization::abs, instances::Normalization::relu})
    EXPECT_EQ(integrate::plan_run(shape(14, 14, instances::Loss::logistic, kink), request(PlanTier::rigorous, 300)).stepper,
              PlanStepper::lohner);
  auto tied_big = shape(14, 14, instances::Loss::logistic), tied_small = shape(13, 13, instances::Loss::logistic);
  tied_big.model = tied_small.model = "tied_value_softmax";  // 14² + 14 + 1 = 211 and 183 states in τ-time
  EXPECT_EQ(integrate::plan_run(tied_big, request(PlanTier::rigorous, 500)).stepper, PlanStepper::ball);
  EXPECT_EQ(integrate::plan_run(tied_small, request(PlanTier::rigorous, 500)).stepper, PlanStepper::lohner);
}

// An expert's set / ball_pieces / order wins over the plan; what no method serves is refused.
TEST(RunPlan, ExpertOverridesWin) {
  const auto big = shape(14, 14, instances::Loss::regression), small = shape(4, 3, instances::Loss::square);
  auto q = request(PlanTier::rigorous, 300);
  q.set = PlanStepper::lohner;
  EXPECT_EQ(integrate::plan_run(big, q).stepper, PlanStepper::lohner);
  q.set = PlanStepper::ball;
  q.ball_pieces = 4;
  const auto p = integrate::plan_run(small, q);
  EXPECT_EQ(p.stepper, PlanStepper::ball);
  EXPECT_EQ(p.ball_pieces, 4u);
  q.set.reset();  // pieces alone ask for the ball step
  EXPECT_EQ(integrate::plan_run(small, q).stepper, PlanStepper::ball);
  q.order = 12;
  EXPECT_EQ(integrate::plan_run(small, q).order, 12u);
  const auto v = integrate::validated_options(integrate::plan_run(small, q));
  EXPECT_TRUE(v.log_norm_ball);
  EXPECT_EQ(v.ball_pieces, 4u);
  EXPECT_EQ(v.order, 12u);
  // refused: the ball for relu in τ-time, in the reduced form, for a record reader; pieces with
  // lohner. Served: the ball in τ-time for a smooth normalization.
  auto bad = request(PlanTier::rigorous, 10);
  bad.set = PlanStepper::ball;
  EXPECT_THROW(integrate::plan_run(shape(4, 3, instances::Loss::logistic, instances::Normalization::relu), bad),
               std::invalid_argument);
  EXPECT_EQ(integrate::plan_run(shape(4, 3, instances::Loss::logistic, instances::Normalization::sigmoid), bad).stepper,
            PlanStepper::ball);
  EXPECT_THROW(integrate::plan_run(shape(4, 3, instances::Loss::logistic), bad), std::invalid_argument);
  bad.needs_step_records = true;
  EXPECT_THROW(integrate::plan_run(small, bad), std::invalid_argument);
  auto lohner_pieces = request(PlanTier::rigorous, 10);
  lohner_pieces.set = PlanStepper::lohner;
  lohner_pieces.ball_pieces = 2;
  EXPECT_THROW(integrate::plan_run(small, lohner_pieces), std::invalid_argument);
  auto fast_set = request(PlanTier::fast, 10);
  fast_set.set = PlanStepper::ball;
  EXPECT_THROW(integrate::plan_run(small, fast_set), std::invalid_argument);
  // Each refusal is a PlanRefusal naming its field as a value, its message starting with the
  // field's name (a front end says it as its own option without reading the message).
  const auto refused_field = [](const instances::Instance& inst, const integrate::RunRequest& q) {
    try {
      (void)integrate::plan_run(inst, q);
    } catch (const integrate::PlanRefusal& e) {
      EXPECT_EQ(std::string(e.what()), std::string(integrate::PlanRefusal::name(e.field())) + ": " + e.why());
      return std::string(integrate::PlanRefusal::name(e.field()));
    }
    return std::string("none");
  };
  using instances::Loss;
  EXPECT_EQ(refused_field(small, fast_set), "set");
  EXPECT_EQ(refused_field(small, lohner_pieces), "ball_pieces");
  EXPECT_EQ(refused_field(shape(4, 3, Loss::logistic, instances::Normalization::relu), bad), "set");
  auto tau_square = request(PlanTier::rigorous, 10);
  tau_square.time = PlanTime::tau;
  EXPECT_EQ(refused_field(shape(4, 3, Loss::square), tau_square), "time");
  auto negative = request(PlanTier::rigorous, -1);
  EXPECT_EQ(refused_field(small, negative), "horizon");
  // the ball in t-time for logistic loss when the expert asks for t-time: served
  auto t_ball = request(PlanTier::rigorous, 10);
  t_ball.time = PlanTime::t;
  t_ball.set = PlanStepper::ball;
  EXPECT_EQ(integrate::plan_run(shape(4, 3, instances::Loss::logistic, instances::Normalization::sigmoid), t_ball).stepper,
            PlanStepper::ball);
}

// The form: empty is the plan's (rigorous: reduced where it applies; fast: full); an asked form
// wins where it applies (the full state of a logistic softmax instance, the fast tier's reduced
// form) and the reduced rigorous form elsewhere is refused naming the field.
TEST(RunPlan, AskedFormWins) {
  const auto logistic = shape(4, 3, instances::Loss::logistic), square = shape(4, 3, instances::Loss::square);
  auto q = request(PlanTier::rigorous, 10);
  EXPECT_EQ(integrate::plan_run(logistic, q).form, PlanForm::reduced_logistic);
  q.form = PlanForm::full_state;
  const auto full = integrate::plan_run(logistic, q);
  EXPECT_EQ(full.form, PlanForm::full_state);
  EXPECT_EQ(full.order, 30u);  // the full state's default order, not the reduced form's 20
  auto fast = request(PlanTier::fast, 10);
  fast.form = PlanForm::reduced_logistic;
  EXPECT_EQ(integrate::plan_run(square, fast).form, PlanForm::reduced_logistic);
  q.form = PlanForm::reduced_logistic;
  try {
    (void)integrate::plan_run(square, q);
    ADD_FAILURE() << "the reduced rigorous form of square loss was not refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("form: ", 0), 0u) << e.what();
  }
}

// Order: 20 for the reduced form, 30 for the full state over double intervals, bits/4 at 256
// bits (MPFR's 257); the fast tier has none.
TEST(RunPlan, OrderByFormAndPrecision) {
  const auto logistic = shape(4, 3, instances::Loss::logistic), square = shape(4, 3, instances::Loss::square);
  EXPECT_EQ(integrate::plan_run(logistic, request(PlanTier::rigorous, 10)).order, 20u);
  EXPECT_EQ(integrate::plan_run(square, request(PlanTier::rigorous, 10)).order, 30u);
  auto q = request(PlanTier::rigorous, 10);
  q.precision_bits = 256;
  EXPECT_EQ(integrate::plan_run(logistic, q).order, 64u);
  EXPECT_EQ(integrate::plan_run(square, q).order, 64u);
  EXPECT_EQ(integrate::plan_run(square, request(PlanTier::fast, 10)).order, 0u);
}

// The PL tail for square and regression loss in t-time, unless the tail is off; tail_width
// only with it.
TEST(RunPlan, TailByLossAndRequest) {
  const auto square = shape(4, 3, instances::Loss::square), regression = shape(4, 3, instances::Loss::regression);
  EXPECT_EQ(integrate::plan_run(square, request(PlanTier::rigorous, 10)).tail, PlanTail::pl);
  EXPECT_EQ(integrate::plan_run(regression, request(PlanTier::rigorous, 10)).tail, PlanTail::pl);
  EXPECT_EQ(integrate::plan_run(shape(4, 3, instances::Loss::logistic), request(PlanTier::rigorous, 10)).tail, PlanTail::none);
  auto off = request(PlanTier::rigorous, 10);
  off.tail = integrate::TailPolicy::off;
  EXPECT_EQ(integrate::plan_run(square, off).tail, PlanTail::none);
  EXPECT_EQ(integrate::plan_run(regression, off).tail, PlanTail::none);
  auto width = request(PlanTier::rigorous, 10);
  width.tail_width = 1e-7;
  EXPECT_DOUBLE_EQ(integrate::plan_run(square, width).tail_width, 1e-7);
  EXPECT_THROW(integrate::plan_run(shape(4, 3, instances::Loss::logistic), width), std::invalid_argument);
  width.tail = integrate::TailPolicy::off;
  EXPECT_THROW(integrate::plan_run(square, width), std::invalid_argument);
  // tail_decided (the caller's stop test) travels with the PL tail and is refused without it.
  auto decided = request(PlanTier::rigorous, 10);
  decided.tail_decided = [](const num::BoxBall<IntervalD>&) { return true; };
  EXPECT_TRUE(static_cast<bool>(integrate::plan_run(regression, decided).tail_decided));
  EXPECT_THROW(integrate::plan_run(shape(4, 3, instances::Loss::logistic), decided), std::invalid_argument);
  decided.tail = integrate::TailPolicy::off;
  EXPECT_THROW(integrate::plan_run(regression, decided), std::invalid_argument);
}


// Each rigorous entry point's own choices (plan_entry) win over what the request asks: the grid
// passes fix their time variable, set and tail whatever the caller set; the others fix the form.
TEST(RunPlan, EntryPointsFixTheirOwnChoices) {
  using integrate::RunEntry;
  const auto logistic = shape(4, 3, instances::Loss::logistic), square = shape(4, 3, instances::Loss::square);
  auto q = request(PlanTier::fast, 10);  // the entry points are the rigorous tier's, whatever the request says
  q.time = PlanTime::t;
  EXPECT_EQ(integrate::plan_entry(logistic, q, RunEntry::planned).tier, PlanTier::rigorous);
  EXPECT_EQ(integrate::plan_entry(logistic, q, RunEntry::planned).form, PlanForm::reduced_logistic);
  EXPECT_EQ(integrate::plan_entry(logistic, q, RunEntry::full_state).form, PlanForm::full_state);
  const auto grid = integrate::plan_entry(logistic, q, RunEntry::reduced_grid);
  EXPECT_EQ(grid.form, PlanForm::reduced_logistic);
  EXPECT_EQ(grid.time, PlanTime::tau);  // asked t; the grid's crossings need τ
  EXPECT_THROW(integrate::plan_entry(square, q, RunEntry::reduced), std::invalid_argument);
  auto ball = request(PlanTier::rigorous, 10);
  ball.set = PlanStepper::ball;
  ball.ball_pieces = 4;
  ball.time = PlanTime::t;
  EXPECT_EQ(integrate::plan_entry(square, ball, RunEntry::full_state).stepper, PlanStepper::ball);
  EXPECT_EQ(integrate::plan_entry(square, ball, RunEntry::full_state).tail, PlanTail::pl);
  const auto full_grid = integrate::plan_entry(square, ball, RunEntry::full_state_grid);
  EXPECT_EQ(full_grid.stepper, PlanStepper::lohner);
  EXPECT_EQ(full_grid.ball_pieces, 1u);
  EXPECT_EQ(full_grid.tail, PlanTail::none);
  EXPECT_EQ(integrate::plan_entry(logistic, ball, RunEntry::full_state_grid).time, PlanTime::tau);  // the plan's, not the asked t
}

}  // namespace
}  // namespace softcert
