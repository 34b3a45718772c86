// Tests that pin the two ingredients that make a Taylor step rigorous, chosen so that removing
// either one makes them fail (checked by mutation: docs/method.md, "Tests"):
//  - the a priori enclosure: x' = x² blows up at t = 1/x0; a validated integrator must refuse
//    to pass the blow-up, however large a step it is asked to take;
//  - the remainder term: with a low order and large fixed steps the truncation error is far
//    above rounding, so an enclosure without the remainder misses the exact solution.
#include <gtest/gtest.h>

#include <cmath>
#include <type_traits>

#include "integrate/validated_taylor.hpp"

namespace softcert {
namespace {

using integrate::ValidatedOptions;
using integrate::ValidatedTaylor;

TEST(ValidatedGuards, RefusesToStepOverABlowUp) {
  auto sq = [](const auto& x, auto& dx) { dx[0] = x[0] * x[0]; };
  ValidatedOptions o;
  o.fixed_step = 0.75;  // asks for steps across the pole at t = 1
  o.h_min = 1e-6;
  ValidatedTaylor<IntervalD, decltype(sq)> vt(sq, 1, o);
  EXPECT_THROW(vt.integrate({IntervalD(1.0)}, IntervalD(0.0), IntervalD(2.0)), support::ValidationFailure);
  // and before the pole it encloses 1/(1 − t)
  ValidatedTaylor<IntervalD, decltype(sq)> vt2(sq, 1, o);
  const auto tube = vt2.integrate({IntervalD(1.0)}, IntervalD(0.0), IntervalD(0.5));
  EXPECT_TRUE(num::contains(tube.final_box()[0], 2.0));
  EXPECT_LT(num::width(tube.final_box()[0]), 1e-3);  // fixed large steps: truncation-limited
}

TEST(ValidatedGuards, LowOrderLargeStepsStillEnclose) {
  auto rot = [](const auto& x, auto& dx) { dx[0] = x[1]; dx[1] = -x[0]; };
  ValidatedOptions o;
  o.order = 4;
  o.fixed_step = 0.25;  // truncation error per step ≈ 0.25⁵/120 ≈ 8e-6
  ValidatedTaylor<IntervalD, decltype(rot)> vt(rot, 2, o);
  const auto tube = vt.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), IntervalD(4.0));
  EXPECT_TRUE(num::contains(tube.final_box()[0], std::cos(4.0)));
  EXPECT_TRUE(num::contains(tube.final_box()[1], -std::sin(4.0)));
  for (const auto& seg : tube.segments()) {
    const double t = num::to_double(seg.t0);
    EXPECT_TRUE(num::contains(seg.box[0], std::cos(t))) << t;
  }
}

// Both steps expand around the set's centre over the set's box: a set whose centre
// lies outside its box — {c + B r : r ∈ [1, 2]} with c = −5 — must fail the step, not be
// integrated as if the mean value form (Lohner) or the centre's remainder (ball) covered it. On
// ẋ = x², from the box [−4, −3] the exact solution at t = 0.1 is x0/(1 − 0.1·x0) ∈ [−2.9, −2.3];
// expanding around −5 instead encloses something else.
TEST(ValidatedGuards, ACentreOutsideTheBoxFailsTheStep) {
  auto sq = [](const auto& x, auto& dx) { dx[0] = x[0] * x[0]; };
  for (bool ball : {false, true}) {
    ValidatedOptions o;
    o.log_norm_ball = ball;
    integrate::with_stepper<IntervalD>(o, sq, 1, [&](auto& vt) {
      EXPECT_EQ(std::remove_cvref_t<decltype(vt)>::has_records, !ball);
      // the set [−4, −3] around c = −5, which is not in it; then the same set around −3.5
      auto around = [](double c, IntervalD r) {
        typename std::remove_cvref_t<decltype(vt)>::Set s;
        s.c = {IntervalD(c)};
        if constexpr (std::remove_cvref_t<decltype(vt)>::has_records) {
          s.B = {IntervalD(1.0)};
          s.r = {r};
        } else {
          s.offset = {r};
        }
        return s;
      };
      auto set = around(-5.0, IntervalD(1.0, 2.0));
      IntervalD t(0.0);
      EXPECT_THROW((void)vt.integrate(set, t, IntervalD(0.1)), support::ValidationFailure) << (ball ? "ball" : "Lohner");
      // the same set with its centre inside is stepped (the check refuses only what it must)
      auto ok = around(-3.5, IntervalD(-0.5, 0.5));
      IntervalD t2(0.0);
      EXPECT_NO_THROW((void)vt.integrate(ok, t2, IntervalD(0.1))) << (ball ? "ball" : "Lohner");
    });
  }
}

}  // namespace
}  // namespace softcert
