// The rigorous tier for any full model (integrate/rigorous_full.hpp):
//  - the tied model (D = 3, t-time): the enclosure of the state at t = 3 contains an
//    independent 256-bit fast-tier run (Taylor stepper in MPFR, tolerance 1e-60), is not a
//    point (width > 0) and excludes that reference moved by 1e-9 in any component;
//  - the segment visitor sees segments that cover [0, END] without gaps, each containing the
//    reference at its end time;
//  - the value-softmax model keeps its τ-time path for logistic loss (t carried as a state,
//    its enclosure contains END), and its enclosure also contains a 256-bit reference;
//  - a kink crossed (relu with a score through 0) is crossed with a certificate in both time
//    variables (integrate/kink_crossing.hpp); in t-time (square loss) the run then stops where
//    the pinning condition is no longer certain (the loss, and with it the kink's pull, tends to
//    0), never with an enclosure; the same start under x² goes through;
//  - the energy tail (integrate/gradient_flow_tail.hpp): square loss to END = 200, stopped early
//    by the bound √((END − s)·L(s)); its enclosure contains the 256-bit reference at END and the
//    fully integrated enclosure's centre, with r_max = 0 it integrates all the way, and a τ-time
//    model (not a gradient flow in its time) is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "instances/generator.hpp"
#include "instances/instance.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/gradient_flow_tail.hpp"
#include "integrate/rigorous_full.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert {
namespace {

nlohmann::json tied_json() {
  return nlohmann::json::parse(R"({"model":"tied_value_softmax","loss":"logistic","normalization":"softmax",
    "T":3,"d":3,"U":[["1","0","0"],["0","1","0"],["0","0","1"]],
    "a":["1.05","0.92","1.13"],"beta":["0.6","-0.48","0.64"],"provenance":"test"})");
}

nlohmann::json value_json(const char* loss, const char* normalization) {
  auto j = nlohmann::json::parse(R"({"model":"value_softmax","T":3,"d":2,
    "V":[["0.1","-0.05","0.2"],["-0.15","0.3","0.05"]],
    "a":["1.1","0.9","1.0"],"beta":["0.6","0.8"],"provenance":"test"})");
  j["loss"] = loss;
  j["normalization"] = normalization;
  return j;
}

// The state (U or V row-major, a) at t by the fast tier at 256 bits, as MPFR numbers.
std::vector<MpReal> reference_state(const instances::Instance& inst, const std::string& t) {
  integrate::FastOptions fo;
  fo.precision_bits = 256;
  fo.tolerance = 1e-60;
  fo.escalate = false;
  fo.time = integrate::PlanTime::t;
  const integrate::FastReport rep = integrate::integrate_fast(inst, t, fo);
  std::vector<MpReal> x;
  for (const auto& row : rep.run.mp->V) x.insert(x.end(), row.begin(), row.end());
  x.insert(x.end(), rep.run.mp->a.begin(), rep.run.mp->a.end());
  return x;
}

bool contains(const IntervalD& box, const MpReal& v) { return MpReal(box.lower()) <= v && v <= MpReal(box.upper()); }

TEST(RigorousFull, TiedEnclosureContainsA256BitReferenceAndNotAPerturbedOne) {
  num::PrecisionGuard g(256);
  const auto inst = instances::parse_instance(tied_json());
  const std::vector<MpReal> ref = reference_state(inst, "3");
  const models::TiedValueSoftmax<IntervalD> model(inst);
  integrate::ValidatedOptions vo;
  const auto enc = integrate::enclose_model_state<IntervalD>(model, IntervalD(3), vo);
  EXPECT_FALSE(enc.tau_time);
  EXPECT_EQ(enc.a_offset, 9u);
  ASSERT_EQ(enc.x.size(), 12u);
  ASSERT_EQ(ref.size(), 12u);
  ASSERT_EQ(enc.alpha.size(), 3u);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_TRUE(contains(enc.x[i], ref[i])) << "component " << i << ": [" << num::lower(enc.x[i]) << ", " << num::upper(enc.x[i]) << "] misses " << ref[i];
    EXPECT_GT(num::upper(enc.x[i]) - num::lower(enc.x[i]), 0.0) << i;
    EXPECT_LT(num::upper(enc.x[i]) - num::lower(enc.x[i]), 1e-9) << i;
    EXPECT_FALSE(contains(enc.x[i], ref[i] + MpReal("1e-9"))) << i;
    EXPECT_FALSE(contains(enc.x[i], ref[i] - MpReal("1e-9"))) << i;
  }
  // The state moved: U is no longer the identity (both terms of dU/dt act).
  EXPECT_FALSE(contains(enc.x[0], MpReal(1)));
  EXPECT_FALSE(contains(enc.x[1], MpReal(0)));
  // α(END) encloses softmax(U a) of the reference.
  std::vector<MpReal> z(3, MpReal(0));
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) z[i] += ref[i * 3 + j] * ref[9 + j];
  MpReal s(0);
  for (const auto& v : z) s += exp(v);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(contains(enc.alpha[i], exp(z[i]) / s)) << i;
  // enclose_full_state picks the tied model for a tied instance.
  const auto viaInst = integrate::enclose_full_state<IntervalD>(inst, IntervalD(3), vo);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_TRUE(contains(viaInst.x[i], ref[i])) << i;
}

// The tied model in τ-time with the ball step (the plan's choice from 200 states on; docs/method.md
// §2b): t weighted in the ball's norm, the crossing t = 20 read from the box series. The state
// there contains the 256-bit t-time reference, the t component contains 20, and the enclosure is
// narrow (so the test is not vacuous).
TEST(RigorousFull, TiedBallStepInTauTimeContainsA256BitReference) {
  num::PrecisionGuard g(256);
  const auto inst = instances::parse_instance(tied_json());
  const std::vector<MpReal> ref = reference_state(inst, "20");
  const models::TiedValueSoftmax<IntervalD> model(inst, true);
  integrate::ValidatedOptions vo;
  vo.log_norm_ball = true;
  const auto enc = integrate::enclose_model_state<IntervalD>(model, IntervalD(20), vo);
  EXPECT_TRUE(enc.tau_time);
  ASSERT_EQ(enc.x.size(), 13u);
  ASSERT_EQ(ref.size(), 12u);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_TRUE(contains(enc.x[i], ref[i])) << "component " << i << ": [" << num::lower(enc.x[i]) << ", " << num::upper(enc.x[i]) << "] misses " << ref[i];
    EXPECT_LT(num::upper(enc.x[i]) - num::lower(enc.x[i]), 1e-8) << i;
  }
  EXPECT_TRUE(contains(enc.x.back(), MpReal(20)));
}

TEST(RigorousFull, SegmentsCoverTheHorizonAndContainTheSolution) {
  num::PrecisionGuard g(256);
  const auto inst = instances::parse_instance(tied_json());
  const models::TiedValueSoftmax<IntervalD> model(inst);
  std::vector<integrate::TubeSegment<IntervalD>> segs;
  const auto enc = integrate::enclose_model_state<IntervalD>(model, IntervalD(2), integrate::ValidatedOptions{},
                                                             [&](const auto& s) { segs.push_back(s); });
  ASSERT_EQ(segs.size(), enc.steps);
  ASSERT_GE(segs.size(), 2u);
  EXPECT_EQ(num::lower(segs.front().t0), 0.0);
  EXPECT_EQ(num::upper(segs.back().t1), 2.0);
  for (std::size_t k = 1; k < segs.size(); ++k) EXPECT_EQ(num::lower(segs[k].t0), num::upper(segs[k - 1].t1)) << k;
  // At a segment's end time (thin), its box contains the reference state there.
  const std::size_t mid = segs.size() / 2;
  const double tm = num::upper(segs[mid].t1);
  ASSERT_EQ(num::lower(segs[mid].t1), tm);
  const std::vector<MpReal> ref = reference_state(inst, num::decimal_round_trip(tm));
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_TRUE(contains(segs[mid].box[i], ref[i])) << i;
}

TEST(RigorousFull, ValueSoftmaxLogisticRunsInTauTimeAndSquareInT) {
  num::PrecisionGuard g(256);
  integrate::ValidatedOptions vo;
  {
    const auto inst = instances::parse_instance(value_json("logistic", "square"));
    const auto enc = integrate::enclose_full_state<IntervalD>(inst, IntervalD(5), vo);
    EXPECT_TRUE(enc.tau_time);
    ASSERT_EQ(enc.x.size(), 2u * 3 + 3 + 1);
    EXPECT_TRUE(contains(enc.x.back(), MpReal(5)));  // the t component at the crossing
    const std::vector<MpReal> ref = reference_state(inst, "5");
    for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_TRUE(contains(enc.x[i], ref[i])) << i;
  }
  {
    const auto inst = instances::parse_instance(value_json("square", "softmax"));
    const auto enc = integrate::enclose_full_state<IntervalD>(inst, IntervalD(5), vo);
    EXPECT_FALSE(enc.tau_time);
    ASSERT_EQ(enc.x.size(), 2u * 3 + 3);
    const std::vector<MpReal> ref = reference_state(inst, "5");
    for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_TRUE(contains(enc.x[i], ref[i])) << i;
  }
}

TEST(RigorousFull, AKinkOnTheWayIsCrossedWithACertificateInBothTimeVariables) {
  auto j = value_json("square", "relu");
  j["a"] = {"1", "0.001", "0.5"};  // the losing score crosses 0 early
  // t-time (square loss): a[1] reaches its kink at t ≈ 1.36 (certified), and later the
  // pinning condition is no longer certain (t ≈ 41): KinkPossible with the arrival named.
  try {
    (void)integrate::enclose_full_state<IntervalD>(instances::parse_instance(j), IntervalD(100), integrate::ValidatedOptions{});
    ADD_FAILURE() << "an enclosure where the pinning condition is not certain";
  } catch (const integrate::KinkPossible& e) {
    ASSERT_EQ(e.info().arrivals.size(), 1u) << e.what();
    EXPECT_EQ(e.info().arrivals[0].score, 1u);
  }
  // τ-time (logistic loss): the crossing is certified (integrate/kink_crossing.hpp) and named.
  j["loss"] = "logistic";
  const auto enc = integrate::enclose_full_state<IntervalD>(instances::parse_instance(j), IntervalD(100),
                                                            integrate::ValidatedOptions{});
  ASSERT_FALSE(enc.kink_arrivals.empty());
  EXPECT_EQ(enc.kink_arrivals[0].score, 1u);
  // The same start under a smooth normalization (x², F > 0 throughout) goes through.
  j["normalization"] = "square";
  EXPECT_NO_THROW((void)integrate::enclose_full_state<IntervalD>(instances::parse_instance(j), IntervalD(100),
                                                                 integrate::ValidatedOptions{}));
}

// K = box + [−r, r] must contain the exact widened box: with r far below an ulp of the box, a
// bound computed as lower − r rounded to nearest would stay at lower and cut the ball.
TEST(EnergyTail, WidensOutwardEvenBelowAnUlp) {
  const std::vector<IntervalD> box{IntervalD(1), IntervalD(-3)};
  const auto K = integrate::detail::widened_by(box, 1e-20);
  ASSERT_EQ(K.size(), 2u);
  EXPECT_LT(num::lower(K[0]), 1.0);
  EXPECT_GT(num::upper(K[0]), 1.0);
  EXPECT_LT(num::lower(K[1]), -3.0);
  EXPECT_GT(num::upper(K[1]), -3.0);
  EXPECT_LE(num::upper(K[0]) - num::lower(K[0]), 1e-15);  // outward by an ulp or so, not more
}

TEST(EnergyTail, StopsEarlyAndStillEnclosesTheStateAtEnd) {
  num::PrecisionGuard g(256);
  const auto inst = instances::parse_instance(value_json("square", "softmax"));
  const models::ValueSoftmax<IntervalD> model(inst, false);
  integrate::EnergyTail<IntervalD> tail;
  const auto enc = integrate::enclose_with_energy_tail<IntervalD>(model, IntervalD(200), IntervalD(0), 1e-9,
                                                                  integrate::ValidatedOptions{}, &tail);
  ASSERT_TRUE(tail.used);
  EXPECT_LT(num::upper(tail.from), 200.0);
  EXPECT_LE(num::upper(tail.radius), 1e-9);
  const auto full = integrate::enclose_full_state<IntervalD>(inst, IntervalD(200), integrate::ValidatedOptions{});
  EXPECT_LT(enc.steps, full.steps);
  const std::vector<MpReal> ref = reference_state(inst, "200");
  ASSERT_EQ(enc.x.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_TRUE(contains(enc.x[i], ref[i])) << i;
    EXPECT_TRUE(contains(enc.x[i], MpReal(num::mid(full.x[i])))) << i;
    EXPECT_LT(num::upper(enc.x[i]) - num::lower(enc.x[i]), 3e-9) << i;
  }
  // r_max = 0: the bound never applies, the flow is integrated to END.
  integrate::EnergyTail<IntervalD> none;
  const auto all = integrate::enclose_with_energy_tail<IntervalD>(model, IntervalD(200), IntervalD(0), 0.0,
                                                                  integrate::ValidatedOptions{}, &none);
  EXPECT_FALSE(none.used);
  EXPECT_EQ(all.steps, full.steps);
  // τ-time is not a gradient flow in τ: refused.
  const models::ValueSoftmax<IntervalD> tau_model(instances::parse_instance(value_json("logistic", "softmax")), true);
  EXPECT_THROW((void)integrate::enclose_with_energy_tail<IntervalD>(tau_model, IntervalD(5), IntervalD(0), 1e-9,
                                                                    integrate::ValidatedOptions{}),
               std::invalid_argument);
}

// A gradient flow whose field clips its domain: ẋ = −√x = −∇(⅔ x^{3/2}) on x ≥ 0. Over a box
// K = [−1, 4] its interval field is finite (numerics/elementary.hpp: √ of [−1, 4] encloses the
// image of [0, 4]) although √ is not C¹ at 0 and undefined left of it, so "rhs(K) finite" says
// nothing about C¹ near K. The energy tail must not accept such a model.
struct ClippedSqrtGradientFlow {
  std::size_t dimension() const { return 1; }
  std::vector<IntervalD> initial_state() const { return {IntervalD(1.0)}; }
  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dx) const {
    dx.assign(1, X(0) - num::sqrt(x[0]));
  }
  template <class X>
  X loss_value(const std::vector<X>& x) const {
    return X(2) / X(3) * x[0] * num::sqrt(x[0]);
  }
};

template <class M>
concept EnergyTailTakes = requires(const M& m) {
  integrate::enclose_with_energy_tail<IntervalD>(m, IntervalD(1), IntervalD(0), 1.0, integrate::ValidatedOptions{});
};

TEST(EnergyTail, RequiresAModelWhoseFiniteEnclosuresMeanC1) {
  EXPECT_TRUE(EnergyTailTakes<models::ValueSoftmax<IntervalD>>);
  EXPECT_TRUE(EnergyTailTakes<models::ValueSoftmax<IntervalMp>>);
  EXPECT_FALSE(EnergyTailTakes<ClippedSqrtGradientFlow>);
  // why: the clipped field is finite over a box where it is not C¹
  std::vector<IntervalD> dK;
  ClippedSqrtGradientFlow{}.rhs(std::vector<IntervalD>{IntervalD(-1.0, 4.0)}, dK);
  EXPECT_TRUE(integrate::detail::all_finite(dK));
}

}  // namespace
}  // namespace softcert
