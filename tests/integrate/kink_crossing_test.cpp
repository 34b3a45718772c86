// The rigorous tier through a kink (integrate/kink_crossing.hpp, docs/method.md §5b):
//  - a toy relu-like flow with a closed form, x = (a, b, t): ȧ = −f'(a)(1 + t), ḃ = f(a) + 1,
//    ṫ = 1, f = relu. a reaches 0 at t* = √(1 + 2a(0)) − 1 and stays there; b(END) =
//    a0 t* − t*²/2 − t*³/6 + END. The certified arrival contains t*, the enclosure at END contains
//    the closed form (300-bit MPFR), and continuing with the approach branch's field instead
//    (KinkCrossingOptions::swap_branch, the mutation) misses it;
//  - the same toy with ȧ = −f'(a)·q(t) where a(t) = −(t − 1/8)(t − 3/8)(t − 5/8) dips below 0
//    and back inside one step [0, 1]: the crossing is not transversal over the step, so the run
//    stops with KinkPossible no later than the true arrival t = 1/8; without the transversality
//    check (check_transversal = false, the mutation) it returns an enclosure whose arrival is at
//    5/8 (bisection on a non-monotone score) — wrong;
//  - q = 1 − t: the kink holds the score only until t = 1 (pinning condition); the run stops
//    there, naming the certified arrival at 1 − √½;
//  - the value-softmax model (T = 2, logistic loss, relu and |x|) whose second score reaches its
//    kink at t ≈ 0.0379: the enclosure at t = 1 contains a 300-bit MPFR reference that integrates
//    the positive branch to the crossing (located by Newton's method and bracketed to 1e-60 by
//    the sign of a_2 on both sides), sets a_2 = 0 and integrates the zero branch from there.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/fast_stepper.hpp"
#include "integrate/kink_crossing.hpp"
#include "integrate/odeint_system.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "support/mp_containment.hpp"

namespace softcert {
namespace {

using testing::contains;

// The toy model of the file comment, in the interface kink_crossing.hpp needs (one score a at
// index 0, t at index 2), ȧ = −f'(a)·q(t): rising q = 1 + t; dip q = 3t² − (9/4)t + 23/64
// (a = −(t−1/8)(t−3/8)(t−5/8)); turning q = 1 − t (the kink pulls until t = 1, then pushes away).
enum class ToyQ { rising, dip, turning };

template <class S>
class ToyKink {
 public:
  enum class Branch : signed char { by_sign, positive, negative, zero };
  // tau = false: the same field integrated in t (index 2 is then a state that equals t, not the
  // integration variable the crossing reads times from; kink_crossing.hpp runs it in t-time).
  ToyKink(ToyQ q, std::string a0, bool tau = true) : q_(q), a0_(std::move(a0)), tau_(tau) {}
  bool tau_time() const { return tau_; }
  std::size_t tokens() const { return 1; }
  std::size_t a_offset() const { return 0; }
  std::size_t time_index() const { return 2; }
  std::size_t dimension() const { return 3; }
  instances::Normalization normalization() const { return instances::Normalization::relu; }
  bool has_negative_branch() const { return false; }
  void set_branch(std::size_t, Branch b) { b_ = b; }
  Branch branch(std::size_t) const { return b_; }
  void clear_branches() { b_ = Branch::by_sign; }
  std::vector<S> initial_state() const { return {num::parse_decimal<S>(a0_), S(0), S(0)}; }

  template <class X>
  void f_of(const X& a, X& f, X& fp) const {
    Branch b = b_;
    if (b == Branch::by_sign) {
      if (num::certainly_positive(a)) b = Branch::positive;
      else if (num::certainly_nonpositive(a)) b = Branch::zero;
      else throw std::domain_error("toy: the sign of a is not certain");
    }
    f = b == Branch::positive ? a : X(0);
    fp = b == Branch::positive ? X(1) : X(0);
  }
  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dx) const {
    dx.resize(3);
    X f, fp;
    f_of(x[0], f, fp);
    const X& t = x[2];
    const X q = q_ == ToyQ::dip       ? X(X(3) * t * t - X(2.25) * t + X(0.359375))
                : q_ == ToyQ::turning ? X(X(1) - t)
                                      : X(X(1) + t);
    dx[0] = X(0) - fp * q;
    dx[1] = f + X(1);
    dx[2] = X(1);
  }
  template <class X>
  std::vector<X> attention(const std::vector<X>& x) const {
    X f, fp;
    f_of(x[0], f, fp);
    return {f};
  }

 private:
  ToyQ q_;
  std::string a0_;
  bool tau_ = true;
  Branch b_ = Branch::by_sign;
};

struct ToyClosedForm {
  MpReal t_star, b_end;
};

// t* = √(1 + 2 a0) − 1, b(END) = a0 t* − t*²/2 − t*³/6 + END, at 300 bits.
ToyClosedForm toy_closed_form(const char* a0_text, const char* end_text) {
  const MpReal a0(a0_text), end(end_text);
  const MpReal ts = sqrt(MpReal(1) + MpReal(2) * a0) - MpReal(1);
  return {ts, a0 * ts - ts * ts / 2 - ts * ts * ts / 6 + end};
}

// a(t) = max(0, a0 − t − t²/2), b(t) = a0 s − s²/2 − s³/6 + t with s = min(t, t*), at 300 bits.
std::pair<MpReal, MpReal> toy_state_at(const char* a0_text, const MpReal& t) {
  const MpReal a0(a0_text);
  const MpReal ts = sqrt(MpReal(1) + MpReal(2) * a0) - MpReal(1);
  const MpReal s = t < ts ? t : ts;
  const MpReal a = t < ts ? MpReal(a0 - t - t * t / 2) : MpReal(0);
  return {a, a0 * s - s * s / 2 - s * s * s / 6 + t};
}

// The mutation without the transversality check: the arrivals it certifies, whether its run then
// stops or returns.
template <class Toy>
std::vector<integrate::KinkArrival> arrivals_without_transversality_check(const Toy& toy, const integrate::ValidatedOptions& vo) {
  integrate::KinkCrossingOptions no_check;
  no_check.check_transversal = false;
  try {
    return integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), vo, no_check).kink_arrivals;
  } catch (const integrate::KinkPossible& e) {
    return e.info().arrivals;
  }
}

TEST(KinkCrossing, ToyFlowCrossesAtItsClosedFormTimeAndTheEnclosureContainsTheClosedForm) {
  num::PrecisionGuard g(300);
  const ToyClosedForm cf = toy_closed_form("0.7", "2");
  const ToyKink<IntervalD> toy(ToyQ::rising, "0.7");
  const auto enc = integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), integrate::ValidatedOptions{});
  ASSERT_EQ(enc.kink_arrivals.size(), 1u);
  EXPECT_EQ(enc.kink_arrivals[0].score, 0u);
  EXPECT_EQ(enc.kink_arrivals[0].motion, "stays");
  const MpReal lo(enc.kink_arrivals[0].t.lower_text()), hi(enc.kink_arrivals[0].t.upper_text());
  EXPECT_LE(lo, cf.t_star);
  EXPECT_GE(hi, cf.t_star);
  EXPECT_LT(hi - lo, MpReal("1e-10"));  // a bracket, not the whole step
  EXPECT_EQ(num::lower(enc.x[0]), 0.0);
  EXPECT_EQ(num::upper(enc.x[0]), 0.0);
  EXPECT_TRUE(contains(enc.x[1], cf.b_end)) << num::lower(enc.x[1]) << " " << num::upper(enc.x[1]);
  EXPECT_TRUE(contains(enc.x[2], MpReal(2)));
  EXPECT_LT(num::width(enc.x[1]), 1e-8);
  // Also at 128 bits.
  {
    num::PrecisionGuard g128(128);
    const ToyKink<IntervalMp> mp(ToyQ::rising, "0.7");
    const auto e = integrate::enclose_through_kinks<IntervalMp>(mp, IntervalMp(2), integrate::ValidatedOptions{});
    num::PrecisionGuard g300(300);
    EXPECT_TRUE(contains(e.x[1], cf.b_end));
  }
}

TEST(KinkCrossing, ContinuingWithTheApproachBranchMissesTheClosedForm) {
  num::PrecisionGuard g(300);
  const ToyClosedForm cf = toy_closed_form("0.7", "2");
  const ToyKink<IntervalD> toy(ToyQ::rising, "0.7");
  integrate::KinkCrossingOptions swap;
  swap.swap_branch = true;  // the mutation: the wrong branch after the crossing
  const auto enc = integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), integrate::ValidatedOptions{}, swap);
  EXPECT_FALSE(contains(enc.x[1], cf.b_end));
}

TEST(KinkCrossing, ANonTransversalCrossingStopsNoLaterThanTheTrueArrival) {
  const ToyKink<IntervalD> toy(ToyQ::dip, "0.029296875");  // a(0) = 15/512
  integrate::ValidatedOptions vo;
  vo.fixed_step = 1;  // one step over [0, 1]: a dips below 0 at 1/8, is back above 0 on (3/8, 5/8)
  try {
    (void)integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), vo);
    ADD_FAILURE() << "an enclosure through a crossing that is not certainly transversal";
  } catch (const integrate::KinkPossible& e) {
    const auto& k = e.info();
    EXPECT_NE(std::string(e.what()).find("not certainly transversal"), std::string::npos) << e.what();
    EXPECT_LE(std::stod(k.stopped_at.upper_text()), 0.125);  // never past the true arrival at 1/8
    EXPECT_GT(std::stod(k.stopped_at.lower_text()), 0.01);   // and not a stop at 0
    EXPECT_TRUE(k.arrivals.empty());
  }
  // The mutation without the check certifies an arrival at 5/8 (wrong: 1/8); its run then stops
  // or returns, either way with that arrival.
  const auto arrivals = arrivals_without_transversality_check(toy, vo);
  ASSERT_EQ(arrivals.size(), 1u);
  EXPECT_GT(std::stod(arrivals[0].t.lower_text()), 0.125);
}

TEST(KinkCrossing, WhenTheKinkStopsPullingTheRunStopsThere) {
  // q = 1 − t: a = 0.25 − t + t²/2 reaches 0 at 1 − √½ ≈ 0.2929 and is held there while
  // P = −q < 0; from t = 1 the positive side pushes away (the relu solution is no longer
  // unique): the run must stop by t = 1 with the arrival named.
  const ToyKink<IntervalD> toy(ToyQ::turning, "0.25");
  integrate::ValidatedOptions vo;
  vo.h_max = 0.125;  // (one step over [0, 3] would not be transversal: q changes sign in it)
  try {
    (void)integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), vo);
    ADD_FAILURE() << "an enclosure past the time the kink stops holding the score";
  } catch (const integrate::KinkPossible& e) {
    const auto& k = e.info();
    EXPECT_NE(std::string(e.what()).find("may leave it"), std::string::npos) << e.what();
    EXPECT_LE(std::stod(k.stopped_at.lower_text()), 1.0);
    ASSERT_EQ(k.arrivals.size(), 1u);
    num::PrecisionGuard g(300);
    const MpReal ts = MpReal(1) - sqrt(MpReal("0.5"));
    EXPECT_LE(MpReal(k.arrivals[0].t.lower_text()), ts);
    EXPECT_GE(MpReal(k.arrivals[0].t.upper_text()), ts);
  }
}

// The same toy in t-time (the time variable of square loss): the arrival is bracketed around
// t* and the enclosures at several times in one pass — before, near and after t* — contain the
// closed form; in τ-time the same pass gives the same containment. The mutation that keeps the
// approach branch misses b(2).
TEST(KinkCrossing, TTimeToyThroughItsKinkContainsTheClosedFormAtEveryTime) {
  for (const bool tau : {false, true}) {
    const ToyKink<IntervalD> toy(ToyQ::rising, "0.7", tau);
    const std::vector<const char*> texts{"0.25", "0.5", "0.55", "1", "2"};
    std::vector<IntervalD> times;
    for (const char* t : texts) times.push_back(num::parse_decimal<IntervalD>(t));
    const auto encs = integrate::enclose_through_kinks_at<IntervalD>(toy, times, integrate::ValidatedOptions{});
    ASSERT_EQ(encs.size(), times.size());
    num::PrecisionGuard g(300);
    const ToyClosedForm cf = toy_closed_form("0.7", "2");
    for (std::size_t j = 0; j < times.size(); ++j) {
      const auto& e = encs[j];
      EXPECT_EQ(e.tau_time, tau);
      const auto [a, b] = toy_state_at("0.7", MpReal(texts[j]));
      EXPECT_TRUE(contains(e.x[0], a)) << texts[j] << " tau " << tau << ": [" << num::lower(e.x[0]) << ", " << num::upper(e.x[0]) << "]";
      EXPECT_TRUE(contains(e.x[1], b)) << texts[j] << " tau " << tau;
      EXPECT_TRUE(contains(e.x[2], MpReal(texts[j]))) << texts[j] << " tau " << tau;
      EXPECT_LT(num::width(e.x[1]), 1e-6) << texts[j] << " tau " << tau;
    }
    const auto& last = encs.back();
    ASSERT_EQ(last.kink_arrivals.size(), 1u);
    EXPECT_LE(MpReal(last.kink_arrivals[0].t.lower_text()), cf.t_star) << tau;
    EXPECT_GE(MpReal(last.kink_arrivals[0].t.upper_text()), cf.t_star) << tau;
    EXPECT_LT(MpReal(last.kink_arrivals[0].t.upper_text()) - MpReal(last.kink_arrivals[0].t.lower_text()), MpReal("1e-10"));
    EXPECT_EQ(num::upper(last.x[0]), 0.0);
    EXPECT_TRUE(encs.front().kink_arrivals.empty()) << "an arrival listed at t = 0.25, before t* ≈ 0.549";
    // the mutation: the approach branch after the crossing
    integrate::KinkCrossingOptions swap;
    swap.swap_branch = true;
    num::PrecisionGuard g53(53);
    const auto wrong = integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), integrate::ValidatedOptions{}, swap);
    num::PrecisionGuard g300(300);
    EXPECT_FALSE(contains(wrong.x[1], cf.b_end)) << tau;
  }
}

// The pinning condition in t-time: with q = 1 − t the kink holds the score only until t = 1;
// the run stops there. Without the check (check_pinning = false, the mutation) it returns an
// enclosure at t = 2 — through a time where the solution is no longer unique — which this test
// refuses.
TEST(KinkCrossing, WithoutThePinningCheckTheRunGoesWhereTheKinkNoLongerHolds) {
  for (const bool tau : {false, true}) {
    const ToyKink<IntervalD> toy(ToyQ::turning, "0.25", tau);
    integrate::ValidatedOptions vo;
    vo.h_max = 0.125;
    bool stopped = false;
    try {
      (void)integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), vo);
    } catch (const integrate::KinkPossible& e) {
      stopped = true;
      EXPECT_NE(std::string(e.what()).find("may leave it"), std::string::npos) << e.what();
      EXPECT_LE(std::stod(e.info().stopped_at.lower_text()), 1.0) << tau;
      ASSERT_EQ(e.info().arrivals.size(), 1u);
    }
    EXPECT_TRUE(stopped) << "tau " << tau << ": an enclosure past the time the kink stops holding the score";
    integrate::KinkCrossingOptions no_pin;
    no_pin.check_pinning = false;
    bool mutated_returns = true;
    try {
      (void)integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), vo, no_pin);
    } catch (const integrate::KinkPossible&) {
      mutated_returns = false;
    }
    EXPECT_TRUE(mutated_returns) << "tau " << tau << ": the mutation is not caught by the check above";
  }
}

// Transversality in t-time: the dipping toy in one step [0, 1] stops no later than the true
// arrival 1/8; without the check the arrival is put at 5/8.
TEST(KinkCrossing, TTimeNonTransversalCrossingStopsNoLaterThanTheTrueArrival) {
  const ToyKink<IntervalD> toy(ToyQ::dip, "0.029296875", false);
  integrate::ValidatedOptions vo;
  vo.fixed_step = 1;
  try {
    (void)integrate::enclose_through_kinks<IntervalD>(toy, IntervalD(2), vo);
    ADD_FAILURE() << "an enclosure through a crossing that is not certainly transversal";
  } catch (const integrate::KinkPossible& e) {
    EXPECT_NE(std::string(e.what()).find("not certainly transversal"), std::string::npos) << e.what();
    EXPECT_LE(std::stod(e.info().stopped_at.upper_text()), 0.125);
    EXPECT_GT(std::stod(e.info().stopped_at.lower_text()), 0.01);
  }
  const auto arrivals = arrivals_without_transversality_check(toy, vo);
  ASSERT_EQ(arrivals.size(), 1u);
  EXPECT_GT(std::stod(arrivals[0].t.lower_text()), 0.125);
}

// T = 2, d = 1: the second score is pushed through 0 early (t ≈ 0.0379 under logistic loss,
// 0.0261 under square loss).
instances::Instance two_token(const char* loss, const char* normalization) {
  nlohmann::json j = {{"model", "value_softmax"}, {"loss", loss}, {"normalization", normalization},
                      {"T", 2}, {"d", 1}, {"V", nlohmann::json::array({nlohmann::json::array({"0.5", "-3"})})},
                      {"a", {"1", "0.05"}}, {"beta", {"1"}}, {"provenance", "test: a kink reached early"}};
  return instances::parse_instance(j);
}

using MpModel = models::ValueSoftmax<MpReal>;

std::vector<MpReal> run_mp(const MpModel& m, std::vector<MpReal> x, MpReal t0, const MpReal& t1) {
  integrate::ControlledStepper<MpReal> st(integrate::Stepper::taylor, MpReal("1e-60"));
  const auto sys = integrate::odeint_system(m);
  integrate::StepCount c;
  MpReal dt = t1 - t0;
  if (t1 > t0) integrate::advance_to(st, sys, x, t0, t1, dt, c);
  return x;
}

// The kinked flow at t_end at 300 bits (file comment); t_star gets the crossing time.
std::vector<MpReal> kinked_reference(const instances::Instance& inst, const MpReal& t_end, MpReal& t_star) {
  MpModel on(inst);
  on.set_branch(0, MpModel::Branch::positive);
  on.set_branch(1, MpModel::Branch::positive);
  const std::size_t k = inst.d * inst.T + 1;
  const std::vector<MpReal> x0 = on.initial_state();
  MpReal t("0.03");
  std::vector<MpReal> x, f;
  for (int it = 0; it < 40; ++it) {
    x = run_mp(on, x0, MpReal(0), t);
    on.rhs(x, f);
    const MpReal step = x[k] / f[k];
    t = t - step;
    if (abs(step) < MpReal("1e-75")) break;
  }
  EXPECT_GT(run_mp(on, x0, MpReal(0), t - MpReal("1e-60"))[k], 0);
  EXPECT_LT(run_mp(on, x0, MpReal(0), t + MpReal("1e-60"))[k], 0);
  t_star = t;
  x = run_mp(on, x0, MpReal(0), t);
  x[k] = 0;
  on.set_branch(1, MpModel::Branch::zero);
  return run_mp(on, x, t, t_end);
}

TEST(KinkCrossing, ValueSoftmaxPastTheKinkContainsA300BitReferenceOfTheKinkedFlow) {
  // logistic loss: τ-time; square loss: t-time (both through enclose_full_state)
  for (const char* loss : {"logistic", "square"})
    for (const char* norm : {"relu", "abs"}) {
      const auto inst = two_token(loss, norm);
      integrate::ValidatedOptions vo;
      vo.order = 30;  // the plan's order over double intervals (at 20 the t-time run is 1e-5 wide here)
      const auto enc = integrate::enclose_full_state<IntervalD>(inst, IntervalD(1), vo);
      EXPECT_EQ(enc.tau_time, std::string(loss) == "logistic");
      num::PrecisionGuard g(300);
      MpReal t_star;
      const std::vector<MpReal> ref = kinked_reference(inst, MpReal(1), t_star);
      ASSERT_EQ(enc.kink_arrivals.size(), 1u) << loss << " " << norm;
      EXPECT_EQ(enc.kink_arrivals[0].score, 1u);
      EXPECT_EQ(enc.kink_arrivals[0].motion, std::string(norm) == "abs" ? "slides" : "stays");
      EXPECT_LE(MpReal(enc.kink_arrivals[0].t.lower_text()), t_star) << loss << " " << norm;
      EXPECT_GE(MpReal(enc.kink_arrivals[0].t.upper_text()), t_star) << loss << " " << norm;
      for (std::size_t i = 0; i < ref.size(); ++i)
        EXPECT_TRUE(contains(enc.x[i], ref[i])) << loss << " " << norm << " component " << i << ": [" << num::lower(enc.x[i])
                                                << ", " << num::upper(enc.x[i]) << "]";
      EXPECT_EQ(num::upper(enc.x[inst.d * inst.T + 1]), 0.0);
      EXPECT_EQ(num::upper(enc.alpha[1]), 0.0);
      EXPECT_LT(num::width(enc.x[0]), 1e-9) << loss << " " << norm;
    }
}

// Trajectories (enclose_model_states_at, what `rigorous_integrate_model_at` and the Python
// module call) go through the certified crossing too: under square loss (t-time) the states at
// t = 0.01 (before the crossing at ≈ 0.0261), 0.5 and 1 from one pass contain the 300-bit
// reference of the kinked flow at each time.
TEST(KinkCrossing, TrajectoryThroughTheKinkContainsTheReferenceAtEveryTime) {
  for (const char* loss : {"square", "logistic"}) {
    const auto inst = two_token(loss, "relu");
    const std::vector<const char*> texts{"0.01", "0.5", "1"};
    std::vector<IntervalD> times;
    for (const char* t : texts) times.push_back(num::parse_decimal<IntervalD>(t));
    const auto encs = integrate::enclose_model_states_at<IntervalD>(
        models::ValueSoftmax<IntervalD>(inst, std::string(loss) == "logistic"), times, integrate::ValidatedOptions{});
    ASSERT_EQ(encs.size(), times.size());
    num::PrecisionGuard g(300);
    for (std::size_t j = 0; j < times.size(); ++j) {
      MpReal t_star;
      const std::vector<MpReal> ref = j == 0 ? run_mp(MpModel(inst), MpModel(inst).initial_state(), MpReal(0), MpReal(texts[0]))
                                             : kinked_reference(inst, MpReal(texts[j]), t_star);
      for (std::size_t i = 0; i < ref.size(); ++i)
        EXPECT_TRUE(contains(encs[j].x[i], ref[i])) << loss << " t = " << texts[j] << " component " << i;
      EXPECT_EQ(encs[j].kink_arrivals.size(), j == 0 ? 0u : 1u) << loss << " t = " << texts[j];
    }
    EXPECT_GT(num::lower(encs[0].x[inst.d * inst.T + 1]), 0.0);  // before the crossing: a_2 > 0
  }
}

}  // namespace
}  // namespace softcert
