// The value-softmax field's Jacobian in closed form over a box (models/value_softmax_jacobian.hpp),
// which the ball step uses for Df over its pieces' boxes (integrate/closed_form_jacobian.hpp):
//  1. containment: on random boxes around random states (moderate and polarised scores, radii
//     1e-9 … 0.05) of random regression and square-loss instances and of the authors' κ = 5
//     regression instance, every entry of the IntervalD closed form contains the Jacobian at
//     sample points of the box (the centre, corners, interior points), computed independently at
//     256 bits: the Taylor tape's first-order derivative pass in MPFI on the point. Fails with any
//     one term of the closed form dropped (docs/method.md, "Tests", lists the mutations tried);
//     α_k(1 − α_k) and α_k(2α_k − 1) by their exact ranges (the parabolas' vertices included);
//  2. width: not much wider than the tape's Df over the same box (the sum of the widths, and
//     the certified bound μ of the logarithmic norm, printed);
//  3. the ball step with the closed form gives the same bits on one thread and two, and the
//     closed form is attached only where it applies.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/closed_form_jacobian.hpp"
#include "integrate/validated_taylor.hpp"
#include "models/value_softmax.hpp"
#include "models/value_softmax_jacobian.hpp"
#include "numerics/log_norm_bound.hpp"
#include "numerics/precision.hpp"
#include "support/mp_containment.hpp"
#include "support/jacobian_checks.hpp"
#include "support/random_inputs.hpp"
#include "support/value_softmax_json.hpp"

namespace softcert {
namespace {

using testing::milli;
using testing::tape_jacobian;

// A random value-softmax instance with the softmax normalization: T tokens, d dimensions, loss
// "regression" (d + 1 data rows) or "square" (β* random); entries k/1000.
instances::Instance jacobian_instance(unsigned seed, const std::string& loss, std::size_t T, std::size_t d) {
  std::mt19937 gen(seed);
  auto dec = [&gen](int lo, int hi) { return milli(std::uniform_int_distribution<int>(lo, hi)(gen)); };
  std::vector<std::string> V, a;
  for (std::size_t i = 0; i < d * T; ++i) V.push_back(dec(-800, 800));
  for (std::size_t k = 0; k < T; ++k) a.push_back(dec(-1000, 1000));
  nlohmann::json j = testing::value_softmax_json(T, d, V, a, loss, "softmax", "test: closed-form Jacobian");
  if (loss == "regression") {
    j["X"] = nlohmann::json::array();
    j["y"] = nlohmann::json::array();
    for (std::size_t r = 0; r <= d; ++r) {
      nlohmann::json row = nlohmann::json::array();
      for (std::size_t i = 0; i < d; ++i) row.push_back(dec(-1000, 1000));
      j["X"].push_back(row);
      j["y"].push_back(dec(-1000, 1000));
    }
  } else {
    j["beta"] = nlohmann::json::array();
    for (std::size_t i = 0; i < d; ++i) j["beta"].push_back(dec(-900, 900));
  }
  return instances::parse_instance(j);
}

// The Jacobian of the instance's field at the point y, enclosed at 256 bits by the tape in MPFI.
// (tape_jacobian at IntervalD over a box is what the ball step used before the closed form.)
std::vector<IntervalMp> reference_jacobian(const instances::Instance& inst, const std::vector<double>& y) {
  num::PrecisionGuard guard(256);
  const models::ValueSoftmax<IntervalMp> model(inst);
  std::vector<IntervalMp> x(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) x[i] = IntervalMp(y[i]);
  return tape_jacobian(model, x);
}

// A box of radius r around a state whose V entries are uniform in ±vmax and scores in ±amax.
std::vector<IntervalD> random_state_box(testing::InputGenerator& gen, std::size_t d, std::size_t T, double vmax, double amax, double r) {
  std::vector<IntervalD> box;
  for (std::size_t i = 0; i < d * T + T; ++i) {
    const double c = i < d * T ? gen.uniform(-vmax, vmax) : gen.uniform(-amax, amax);
    box.push_back(IntervalD(c - r, c + r));
  }
  return box;
}

// Containment and width on one box (testing::check_closed_form_on_box).
double check_closed_form_on_box(const instances::Instance& inst, const std::vector<IntervalD>& box, testing::InputGenerator& gen,
                                const std::string& what, std::size_t points = 6) {
  const models::ValueSoftmax<IntervalD> model(inst);
  return testing::check_closed_form_on_box(
      model, [&](const std::vector<IntervalD>& b, std::vector<IntervalD>& Df) { return models::value_softmax_jacobian(model, b, Df); },
      [&](const std::vector<double>& y) { return reference_jacobian(inst, y); }, box, gen, what, points);
}

TEST(ValueSoftmaxJacobian, ContainsThe256BitJacobianAtPointsOfRandomBoxes) {
  testing::InputGenerator gen(2026120301);
  unsigned seed = 300;
  for (const std::string loss : {"regression", "square"})
    for (std::size_t T : {2u, 3u, 5u})
      for (double r : {0.0, 1e-9, 1e-4, 0.05}) {  // r = 0: a point, where a wrong rounding direction shows
        const std::size_t d = T == 5 ? 3 : 2;
        const instances::Instance inst = jacobian_instance(++seed, loss, T, d);
        for (double amax : {1.0, 8.0}) {  // moderate scores, and polarised ones (α near one-hot)
          const std::vector<IntervalD> box = random_state_box(gen, d, T, 1.5, amax, r);
          check_closed_form_on_box(inst, box, gen,
                    loss + " T=" + std::to_string(T) + " d=" + std::to_string(d) + " r=" + std::to_string(r) + " amax=" + std::to_string(amax));
        }
      }
}

// A point where every input is a double and exact: dyadic data (G = 2XᵀX, 2Xᵀy and β* exact) and
// equal scores (α = (1/2, 1/2) exactly), random doubles for V. Only the rounding of each
// operation can then give the entries their width: evaluated in the wrong rounding direction
// (the fast arithmetic outside its Guard rounds to nearest, and its intervals collapse to
// points) they miss the 256-bit Jacobian.
TEST(ValueSoftmaxJacobian, ContainsThe256BitJacobianAtAPointOfExactDoubles) {
  testing::InputGenerator gen(2026120305);
  const std::size_t T = 2, d = 3;
  for (const std::string loss : {"square", "regression"}) {
    nlohmann::json j = testing::value_softmax_json(T, d, std::vector<std::string>(d * T, "0"), {"0", "0"}, loss, "softmax",
                                                   "test: exact point");
    if (loss == "square") {
      j["beta"] = {"0.5", "-0.25", "1.125"};
    } else {
      j["X"] = {{"0.5", "-1.25", "0.75"}, {"1", "0.25", "-0.5"}, {"-0.375", "0.5", "2"}, {"0.125", "1.5", "-1"}};
      j["y"] = {"1", "-0.5", "0.25", "2.5"};
    }
    const instances::Instance inst = instances::parse_instance(j);
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<IntervalD> box;
      for (std::size_t i = 0; i < d * T; ++i) box.push_back(IntervalD(gen.uniform(-1.5, 1.5)));
      box.push_back(IntervalD(0.3));
      box.push_back(IntervalD(0.3));
      check_closed_form_on_box(inst, box, gen, loss + " exact point " + std::to_string(trial), 1);
    }
  }
}

// The parabolas α(1 − α) and α(2α − 1) over an interval (detail::times_one_minus,
// times_two_minus_one): the result contains
// the value at every point of the interval, computed at 256 bits — at the vertex (1/2 and 1/4)
// when the interval straddles it, at the end points and inside — and is not much wider than the
// exact range (fails if the vertex value is left out: at these widths the other terms of a Df
// entry are wider than the 1/4 − α(1 − α) it would miss, so the point test above cannot see it).
TEST(ValueSoftmaxJacobian, ParabolaEnclosesItsRangeOverAnInterval) {
  testing::InputGenerator gen(2026120304);
  num::PrecisionGuard guard(256);
  struct P { double c2, c1, pv; };
  for (const P par : {P{-1, 1, 0.5}, P{2, -1, 0.25}}) {
    for (int trial = 0; trial < 200; ++trial) {
      const bool straddle = trial % 2 == 0;
      const double w = std::pow(10.0, -gen.uniform(1, 12));
      const double lo = straddle ? par.pv - w * gen.uniform(0.01, 1) : gen.uniform(0, 1);
      const double hi = straddle ? par.pv + w * gen.uniform(0.01, 1) : std::min(1.0, lo + w);
      const IntervalD p(lo, hi);
      const IntervalD r = par.c2 < 0 ? models::detail::times_one_minus(p) : models::detail::times_two_minus_one(p);
      auto exact = [&](double p) { return MpReal(p) * (MpReal(par.c2) * MpReal(p) + MpReal(par.c1)); };
      std::vector<double> pts = {lo, hi, gen.uniform(lo, hi)};
      if (lo < par.pv && par.pv < hi) pts.push_back(par.pv);
      MpReal ex_lo = exact(lo), ex_hi = exact(lo);
      for (double p : pts) {
        const MpReal e = exact(p);
        EXPECT_TRUE(MpReal(r.lower()) <= e && e <= MpReal(r.upper())) << "c2 " << par.c2 << " [" << lo << ", " << hi << "] at " << p;
        ex_lo = std::min(ex_lo, e);
        ex_hi = std::max(ex_hi, e);
      }
      // the exact range's end points are among pts: not wider than it plus rounding
      EXPECT_LE(MpReal(r.upper() - r.lower()), (ex_hi - ex_lo) + MpReal(1e-15)) << "[" << lo << ", " << hi << "]";
    }
  }
}

// The authors' κ = 5 regression instance (d = T = 20, n = 420): boxes around its initial state
// and around a polarised state, with the widths of a ball step's piece.
TEST(ValueSoftmaxJacobian, ContainsThe256BitJacobianOnTheAuthorsRegressionInstance) {
  const instances::Instance inst =
      instances::load_instance(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/regression-kappa5.json");
  const models::ValueSoftmax<IntervalD> model(inst);
  testing::InputGenerator gen(2026120302);
  const std::vector<IntervalD> x0 = model.initial_state();
  for (double r : {1e-6, 1e-3}) {
    std::vector<IntervalD> box = x0, polar = x0;
    for (std::size_t i = 0; i < box.size(); ++i) {
      const double c = x0[i].lower() + (x0[i].upper() - x0[i].lower()) / 2;
      box[i] = IntervalD(c - r, c + r);
      // scores spread over ±6: one score far ahead of the others, as late in the run
      const double cp = i < model.a_offset() ? c : c + (i == model.a_offset() + 3 ? 6.0 : gen.uniform(-2, 2));
      polar[i] = IntervalD(cp - r, cp + r);
    }
    check_closed_form_on_box(inst, box, gen, "authors kappa5 r=" + std::to_string(r), 2);
    check_closed_form_on_box(inst, polar, gen, "authors kappa5 polarised r=" + std::to_string(r), 2);
  }
}

TEST(ValueSoftmaxJacobian, OnlyForSoftmaxInTTimeWithSquareOrRegressionLoss) {
  const instances::Instance reg = jacobian_instance(1, "regression", 3, 2);
  EXPECT_TRUE(models::has_closed_form_jacobian(models::ValueSoftmax<IntervalD>(reg)));
  instances::Instance other = reg;
  other.normalization = instances::Normalization::sigmoid;
  const models::ValueSoftmax<IntervalD> sig(other);
  EXPECT_FALSE(models::has_closed_form_jacobian(sig));
  std::vector<IntervalD> Df;
  EXPECT_FALSE(models::value_softmax_jacobian(sig, sig.initial_state(), Df));
  // the stepper gets it only where it applies
  auto f = [&sig](const auto& y, auto& dy) { sig.rhs(y, dy); };
  integrate::BallStepper<IntervalD, decltype(f)> st(f, sig.dimension());
  integrate::use_closed_form_jacobian(st, sig);
  EXPECT_FALSE(st.has_box_jacobian());
  const models::ValueSoftmax<IntervalD> m(reg);
  auto g = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  integrate::BallStepper<IntervalD, decltype(g)> st2(g, m.dimension());
  integrate::use_closed_form_jacobian(st2, m);
  EXPECT_TRUE(st2.has_box_jacobian());
}

// The ball step with the closed form: the same bits on one thread and two (4 pieces a step), and
// a narrower or equal ball than with the tape's Df is not asserted (only printed): μ differs.
TEST(ValueSoftmaxJacobian, BallStepWithTheClosedFormGivesTheSameBitsOnOneAndTwoThreads) {
  const instances::Instance inst = jacobian_instance(7, "regression", 4, 3);
  const models::ValueSoftmax<IntervalD> model(inst);
  testing::expect_closed_form_ball_step_same_bits_on_one_and_two_threads(model, 2.0);
}

}  // namespace
}  // namespace softcert
