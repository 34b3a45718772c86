// Soundness of the validated Taylor–Lohner integrator on systems with closed-form solutions:
// the final enclosure AND every tube segment must contain the exact solution (evaluated with
// MPFR at 256 bits at sample times inside each segment), from points and from boxes.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "integrate/validated_taylor.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "support/mpfr_reference.hpp"

namespace softcert {
namespace {

using integrate::ValidatedOptions;
using integrate::ValidatedTaylor;

// exact(t, out): the exact solution at time t (double t, MPFR values at 256 bits).
using ExactSolution = std::function<void(double, std::vector<testing::Ref*>&)>;

struct RefVec {
  explicit RefVec(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) store.emplace_back(new testing::Ref(256));
    for (auto* r : store) ptrs.push_back(r);
  }
  ~RefVec() { for (auto& r : store) delete r; }
  std::vector<testing::Ref*> store, ptrs;
};

template <class S>
bool box_contains(const std::vector<S>& box, const std::vector<testing::Ref*>& ref) {
  for (std::size_t i = 0; i < box.size(); ++i) {
    if constexpr (std::is_same_v<S, IntervalD>) {
      if (!testing::inside_compound(box[i].lower(), ref[i]->get(), box[i].upper())) return false;
    } else {
      const MpReal lo = num::lower(box[i]), hi = num::upper(box[i]);
      if (mpfr_cmp(ref[i]->get(), lo.backend().data()) < 0 || mpfr_cmp(ref[i]->get(), hi.backend().data()) > 0) return false;
    }
  }
  return true;
}

// Checks the final box at t_end and each segment at its start, middle and end.
template <class S, class Tube>
void expect_tube_contains(const Tube& tube, double t_end, const ExactSolution& exact, std::size_t n) {
  RefVec ref(n);
  exact(t_end, ref.ptrs);
  EXPECT_TRUE(box_contains(tube.final_box(), ref.ptrs)) << "final enclosure misses the exact solution";
  std::size_t misses = 0;
  for (const auto& seg : tube.segments()) {
    const double a = num::to_double(seg.t0), b = num::to_double(seg.t1);
    for (double t : {a, 0.5 * (a + b), b}) {
      using B = num::BoundOf<S>;
      if (B(t) < num::upper(seg.t0) || B(t) > num::lower(seg.t1)) continue;  // only times surely inside
      exact(t, ref.ptrs);
      if (!box_contains(seg.box, ref.ptrs)) {
        ++misses;
        std::printf("miss t=%.17g seg [%.17g, %.17g] box0 [%.17g, %.17g] ref %s\n", t, num::to_double(seg.t0), num::to_double(seg.t1),
                    num::to_double(num::hull_of_bounds<S>(num::lower(seg.box[0]), num::lower(seg.box[0]))),
                    num::to_double(num::hull_of_bounds<S>(num::upper(seg.box[0]), num::upper(seg.box[0]))), ref.ptrs[0]->str().c_str());
      }
    }
  }
  EXPECT_EQ(misses, 0u) << "tube segments miss the exact solution";
}

template <class S>
double max_width(const std::vector<S>& box) {
  double w = 0;
  for (const auto& v : box) w = std::max(w, num::to_double(num::hull_of_bounds<S>(num::width(v), num::width(v))));
  return w;
}

auto rotation = [](const auto& x, auto& dx) { dx[0] = x[1]; dx[1] = -x[0]; };
// Its solution from (1, 0): (cos t, −sin t).
void rotation_from_1_0(double t, std::vector<testing::Ref*>& r) {
  mpfr_set_d(r[0]->get(), t, MPFR_RNDN);
  mpfr_cos(r[0]->get(), r[0]->get(), MPFR_RNDN);
  mpfr_set_d(r[1]->get(), t, MPFR_RNDN);
  mpfr_sin(r[1]->get(), r[1]->get(), MPFR_RNDN);
  mpfr_neg(r[1]->get(), r[1]->get(), MPFR_RNDN);
}

TEST(ValidatedClosedForms, RotationFromAPointDouble) {
  ValidatedTaylor<IntervalD, decltype(rotation)> vt(rotation, 2);
  const double T = 20;
  const auto tube = vt.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), IntervalD(T));
  expect_tube_contains<IntervalD>(tube, T, rotation_from_1_0, 2);
  EXPECT_LT(max_width(tube.final_box()), 1e-13);
}

TEST(ValidatedClosedForms, RotationAt256Bits) {
  num::PrecisionGuard g(256);
  ValidatedOptions o;
  o.order = 60;
  ValidatedTaylor<IntervalMp, decltype(rotation)> vt(rotation, 2, o);
  const auto tube = vt.integrate({IntervalMp(1), IntervalMp(0)}, IntervalMp(0), IntervalMp(10));
  expect_tube_contains<IntervalMp>(tube, 10, rotation_from_1_0, 2);
  EXPECT_LT(max_width(tube.final_box()), 1e-65);
}

// Decay x' = −x from a box: the enclosure must contain both extreme solutions and be about
// as wide as the exact image (no wrapping in 1-D).
TEST(ValidatedClosedForms, DecayFromABox) {
  auto decay = [](const auto& x, auto& dx) { dx[0] = -x[0]; };
  ValidatedTaylor<IntervalD, decltype(decay)> vt(decay, 1);
  const auto tube = vt.integrate({IntervalD(0.9, 1.1)}, IntervalD(0.0), IntervalD(5.0));
  for (double x0 : {0.9, 1.0, 1.1})
    expect_tube_contains<IntervalD>(tube, 5.0, [x0](double t, std::vector<testing::Ref*>& r) {
      mpfr_set_d(r[0]->get(), -t, MPFR_RNDN);
      mpfr_exp(r[0]->get(), r[0]->get(), MPFR_RNDN);
      mpfr_mul_d(r[0]->get(), r[0]->get(), x0, MPFR_RNDN);
    }, 1);
  EXPECT_LT(max_width(tube.final_box()), 0.2 * std::exp(-5.0) * (1 + 1e-10));
}

// Nilpotent x' = y, y' = z, z' = 0 from a box: x = x0 + y0 t + z0 t²/2. The rotating
// parallelepiped must not wrap: width stays that of the exact image.
TEST(ValidatedClosedForms, NilpotentFromABox) {
  auto nil = [](const auto& x, auto& dx) {
    dx[0] = x[1];
    dx[1] = x[2];
    dx[2] = std::decay_t<decltype(x[0])>(0);
  };
  ValidatedTaylor<IntervalD, decltype(nil)> vt(nil, 3);
  const double e = 1e-3, T = 8;
  const auto tube = vt.integrate({IntervalD(1 - e, 1 + e), IntervalD(-e, e), IntervalD(0.5 - e, 0.5 + e)}, IntervalD(0.0), IntervalD(T));
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      for (double sz : {-1.0, 1.0})
        expect_tube_contains<IntervalD>(tube, T, [=](double t, std::vector<testing::Ref*>& r) {
          const double x0 = 1 + sx * e, y0 = sy * e, z0 = 0.5 + sz * e;
          mpfr_set_d(r[0]->get(), x0 + y0 * t + z0 * t * t / 2, MPFR_RNDN);  // exact for these dyadics? close enough: compound slack
          mpfr_set_d(r[1]->get(), y0 + z0 * t, MPFR_RNDN);
          mpfr_set_d(r[2]->get(), z0, MPFR_RNDN);
        }, 3);
  // exact image width of x: 2e(1 + T + T²/2)
  const double exact_w = 2 * e * (1 + T + T * T / 2);
  EXPECT_LT(num::width(tube.final_box()[0]), exact_w * 1.000001);
}

// x' = e^{−x}, x(0) = 0: x(t) = log(1 + t) (Odeint on intervals is not validated: docs/method.md).
TEST(ValidatedClosedForms, ExpMinusXIsLogOnePlusT) {
  auto f = [](const auto& x, auto& dx) { dx[0] = num::exp(-x[0]); };
  ValidatedTaylor<IntervalD, decltype(f)> vt(f, 1);
  const auto tube = vt.integrate({IntervalD(0.0)}, IntervalD(0.0), IntervalD(1.0));
  expect_tube_contains<IntervalD>(tube, 1.0, [](double t, std::vector<testing::Ref*>& r) {
    mpfr_set_d(r[0]->get(), t, MPFR_RNDN);
    mpfr_log1p(r[0]->get(), r[0]->get(), MPFR_RNDN);
  }, 1);
  // x(1) = ln 2 exactly: the final box must contain it (ln 2 is not a double, so compare with
  // its roundings down and up at 256 bits: lower ≤ RD(ln 2) and RU(ln 2) ≤ upper)
  mpfr_t ln2;
  mpfr_init2(ln2, 256);
  mpfr_const_log2(ln2, MPFR_RNDN);
  EXPECT_LE(tube.final_box()[0].lower(), mpfr_get_d(ln2, MPFR_RNDD));
  EXPECT_GE(tube.final_box()[0].upper(), mpfr_get_d(ln2, MPFR_RNDU));
  mpfr_clear(ln2);
  EXPECT_LT(max_width(tube.final_box()), 1e-14);
}

// The logistic equation's solution from xa: x(t) = xa / (xa + (1 − xa) e^{−t}), at 256 bits.
ExactSolution logistic_from(double xa) {
  return [xa](double t, std::vector<testing::Ref*>& r) {
    mpfr_t e, one_minus;
    mpfr_inits2(256, e, one_minus, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_d(e, -t, MPFR_RNDN);
    mpfr_exp(e, e, MPFR_RNDN);
    mpfr_set_d(one_minus, xa, MPFR_RNDN);
    mpfr_d_sub(one_minus, 1.0, one_minus, MPFR_RNDN);  // exact at 256 bits
    mpfr_mul(e, e, one_minus, MPFR_RNDN);
    mpfr_add_d(e, e, xa, MPFR_RNDN);
    mpfr_set_d(r[0]->get(), xa, MPFR_RNDN);
    mpfr_div(r[0]->get(), r[0]->get(), e, MPFR_RNDN);
    mpfr_clears(e, one_minus, static_cast<mpfr_ptr>(nullptr));
  };
}

// Logistic x' = x(1 − x), x(0) = x0: x = x0 / (x0 + (1 − x0) e^{−t}); from a point and a box.
TEST(ValidatedClosedForms, LogisticEquation) {
  auto f = [](const auto& x, auto& dx) { dx[0] = x[0] * (std::decay_t<decltype(x[0])>(1) - x[0]); };
  ValidatedTaylor<IntervalD, decltype(f)> vt(f, 1);
  for (double w : {0.0, 1e-4}) {
    const double x0 = 0.1;
    const auto tube = vt.integrate({IntervalD(x0 - w, x0 + w)}, IntervalD(0.0), IntervalD(12.0));
    for (double xa : {x0 - w, x0 + w})
      expect_tube_contains<IntervalD>(tube, 12.0, logistic_from(xa), 1);
    if (w == 0) {
      EXPECT_LT(max_width(tube.final_box()), 1e-14);
    }
  }
}

// The midpoint–radius products and a lower derivative order q < p
// (ValidatedOptions::midrad_products, jacobian_order; docs/method.md §2) keep every enclosure
// sound — rotation from a box, every corner inside the final box and every tube segment — and
// the widths close to the full treatment.
TEST(ValidatedClosedForms, MidradProductsAndLowerDerivativeOrderStaySound) {
  const double e = 1e-6, T = 30;
  double w_full = 0;
  for (bool midrad : {false, true})
    for (unsigned q : {0u, 10u, 4u}) {
      ValidatedOptions o;
      o.midrad_products = midrad;
      o.jacobian_order = q;
      ValidatedTaylor<IntervalD, decltype(rotation)> vt(rotation, 2, o);
      const auto tube = vt.integrate({IntervalD(1 - e, 1 + e), IntervalD(-e, e)}, IntervalD(0.0), IntervalD(T));
      for (double sx : {-1.0, 1.0})
        for (double sy : {-1.0, 1.0})
          expect_tube_contains<IntervalD>(tube, T, [=](double t, std::vector<testing::Ref*>& r) {
            const double x0 = 1 + sx * e, y0 = sy * e;
            testing::Ref c(256), sn(256), tmp(256);
            mpfr_set_d(c.get(), t, MPFR_RNDN);
            mpfr_sin_cos(sn.get(), c.get(), c.get(), MPFR_RNDN);
            mpfr_mul_d(r[0]->get(), c.get(), x0, MPFR_RNDN);  // x0 cos t + y0 sin t
            mpfr_mul_d(tmp.get(), sn.get(), y0, MPFR_RNDN);
            mpfr_add(r[0]->get(), r[0]->get(), tmp.get(), MPFR_RNDN);
            mpfr_mul_d(r[1]->get(), c.get(), y0, MPFR_RNDN);  // −x0 sin t + y0 cos t
            mpfr_mul_d(tmp.get(), sn.get(), x0, MPFR_RNDN);
            mpfr_sub(r[1]->get(), r[1]->get(), tmp.get(), MPFR_RNDN);
          }, 2);
      const double w = max_width(tube.final_box());
      if (!midrad && q == 0) w_full = w;
      // The exact image has width ≤ 2e·√2; q = 4 of p = 20 adds the box coefficients' width
      // without wrapping control (measured 3.67e-6 after 30 steps of h ≈ 1: sound, wider).
      EXPECT_LT(w, q == 4 ? 2 * w_full : 2 * e * 1.5) << "midrad " << midrad << " q " << q;
      if (q == 0) {
        EXPECT_LT(w, w_full * (1 + 1e-6) + 1e-15) << "midrad products widened the enclosure";
      }
    }
}


// ----- The ball step (BallStepper; docs/method.md §2b) ----------------------------------------

using integrate::BallStepper;

template <class Stepper>
constexpr bool has_last_step = requires(const Stepper& s) { s.last_step(); };

integrate::BallOptions ball_options(unsigned order = 20) {
  integrate::BallOptions o;
  o.order = order;
  return o;
}

// x' = x, y' = −2y from a box: distances grow like e^t (μ = 1 exactly). Every corner's exact
// solution must lie in the final box and in every segment. Without the factor e^{μh} the radius
// would stay at the box's √2·e while the corners move e^T·e from the centre's solution.
TEST(ValidatedClosedForms, BallStepCarriesTheGrowthOfAnExpandingFlow) {
  auto f = [](const auto& x, auto& dx) {
    dx[0] = x[0];
    dx[1] = -(x[1] + x[1]);
  };
  BallStepper<IntervalD, decltype(f)> vt(f, 2, ball_options());
  const double e = 1e-3, T = 3;
  const auto tube = vt.integrate({IntervalD(1 - e, 1 + e), IntervalD(1 - e, 1 + e)}, IntervalD(0.0), IntervalD(T));
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      expect_tube_contains<IntervalD>(tube, T, [=](double t, std::vector<testing::Ref*>& r) {
        mpfr_set_d(r[0]->get(), t, MPFR_RNDN);
        mpfr_exp(r[0]->get(), r[0]->get(), MPFR_RNDN);
        mpfr_mul_d(r[0]->get(), r[0]->get(), 1 + sx * e, MPFR_RNDN);
        mpfr_set_d(r[1]->get(), -2 * t, MPFR_RNDN);
        mpfr_exp(r[1]->get(), r[1]->get(), MPFR_RNDN);
        mpfr_mul_d(r[1]->get(), r[1]->get(), 1 + sy * e, MPFR_RNDN);
      }, 2);
  // x's exact image is 2e·e^T wide; the ball of the initial box has radius √2·e, grown by e^T.
  const double w = num::width(tube.final_box()[0]);
  EXPECT_GE(w, 2 * e * std::exp(T));
  EXPECT_LT(w, 2 * std::sqrt(2.0) * e * std::exp(T) * 1.01);
}

// Rotation (μ = 0): from a point the ball holds only the steps' own remainders and rounding; from
// a box its radius stays that of the box's ball, and every corner stays inside.
TEST(ValidatedClosedForms, BallStepOnARotation) {
  auto exact_from = [](double x0, double y0) {
    return [=](double t, std::vector<testing::Ref*>& r) {
      mpfr_t c, s;
      mpfr_inits2(256, c, s, static_cast<mpfr_ptr>(nullptr));
      mpfr_set_d(c, t, MPFR_RNDN);
      mpfr_sin_cos(s, c, c, MPFR_RNDN);
      // (x, y)(t) = (x0 cos t + y0 sin t, −x0 sin t + y0 cos t)
      mpfr_mul_d(r[0]->get(), c, x0, MPFR_RNDN);
      mpfr_t tmp;
      mpfr_init2(tmp, 256);
      mpfr_mul_d(tmp, s, y0, MPFR_RNDN);
      mpfr_add(r[0]->get(), r[0]->get(), tmp, MPFR_RNDN);
      mpfr_mul_d(r[1]->get(), c, y0, MPFR_RNDN);
      mpfr_mul_d(tmp, s, x0, MPFR_RNDN);
      mpfr_sub(r[1]->get(), r[1]->get(), tmp, MPFR_RNDN);
      mpfr_clears(c, s, tmp, static_cast<mpfr_ptr>(nullptr));
    };
  };
  {
    BallStepper<IntervalD, decltype(rotation)> vt(rotation, 2, ball_options());
    const auto tube = vt.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), IntervalD(20.0));
    expect_tube_contains<IntervalD>(tube, 20.0, exact_from(1, 0), 2);
    EXPECT_LT(max_width(tube.final_box()), 1e-12);
  }
  {
    const double e = 1e-4;
    BallStepper<IntervalD, decltype(rotation)> vt(rotation, 2, ball_options());
    const auto tube = vt.integrate({IntervalD(1 - e, 1 + e), IntervalD(-e, e)}, IntervalD(0.0), IntervalD(20.0));
    for (double sx : {-1.0, 1.0})
      for (double sy : {-1.0, 1.0}) expect_tube_contains<IntervalD>(tube, 20.0, exact_from(1 + sx * e, sy * e), 2);
    EXPECT_LT(max_width(tube.final_box()), 2 * std::sqrt(2.0) * e * (1 + 1e-6));
  }
}

// A short series with a fixed step (order 3, h = 1/4): the truncation error per step is ~1e-3,
// so an enclosure without the remainder x_{p+1}(E)·h^{p+1} would miss the exact solution.
TEST(ValidatedClosedForms, BallStepKeepsTheRemainderOfAShortSeries) {
  integrate::BallOptions o = ball_options(3);
  o.fixed_step = 0.25;
  BallStepper<IntervalD, decltype(rotation)> vt(rotation, 2, o);
  const auto tube = vt.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), IntervalD(5.0));
  expect_tube_contains<IntervalD>(tube, 5.0, rotation_from_1_0, 2);
  EXPECT_GT(max_width(tube.final_box()), 1e-6);  // the remainders are in it
  // a ball step leaves no Taylor–Lohner record: asking for one does not compile
  static_assert(!has_last_step<decltype(vt)>);
}

// The step cut into pieces (BallSettings::ball_pieces), each with its own box and μ_i: on
// the logistic equation from a box (Df = 1 − 2x varies over a step) every extreme solution stays
// inside with 1, 3, 4 and 5 pieces and with 0 (chosen per step, integrate/ball_pieces.hpp
// BallPieceRule), and more pieces are not wider.
TEST(ValidatedClosedForms, BallStepInPiecesStaysSoundAndNarrows) {
  auto f = [](const auto& x, auto& dx) { dx[0] = x[0] * (std::decay_t<decltype(x[0])>(1) - x[0]); };
  const double x0 = 0.1, w = 1e-4, T = 4;
  double width_one = 0;
  for (unsigned pieces : {1u, 3u, 4u, 5u, 0u}) {
    integrate::BallOptions o = ball_options();
    o.ball_pieces = pieces;
    o.h_max = 0.5;  // long enough steps for Df to vary over each
    BallStepper<IntervalD, decltype(f)> vt(f, 1, o);
    const auto tube = vt.integrate({IntervalD(x0 - w, x0 + w)}, IntervalD(0.0), IntervalD(T));
    for (double xa : {x0 - w, x0 + w})
      expect_tube_contains<IntervalD>(tube, T, logistic_from(xa), 1);
    const double width = num::width(tube.final_box()[0]);
    if (pieces == 1) width_one = width;
    else EXPECT_LE(width, width_one) << pieces << " pieces";
  }
}

// A fast passive clock (BallSettings::ball_weights): x' = −x, t' = 1 + K x² with K = 100, from
// x0 ∈ [1 − e, 1 + e], t0 = 0. Exactly x = x0 e^{−τ}, t = τ + K x0² (1 − e^{−2τ})/2. t drives
// nothing, but its row of Df (2Kx) makes μ₂ ≈ Kx in the Euclidean norm; with t weighted by 2^−10
// the row is 0.2x and μ ≈ 0.01, so the ball keeps about its initial radius e (x's own spread
// shrinks, but t's error, weighted, is part of the ball). Every corner's exact solution must lie
// in the final box and in every
// segment — in particular t, whose spread 2Ke(1 − e^{−2τ}) is ~200× x's: a box that took the
// radius as ρ (not ρ/w_t) for t would miss it.
ExactSolution clock_from(double x0, double K) {
  return [=](double tau, std::vector<testing::Ref*>& r) {
    testing::Ref e2(256);
    mpfr_set_d(r[0]->get(), -tau, MPFR_RNDN);
    mpfr_exp(r[0]->get(), r[0]->get(), MPFR_RNDN);
    mpfr_mul_d(r[0]->get(), r[0]->get(), x0, MPFR_RNDN);  // x0 e^{−τ}
    mpfr_set_d(e2.get(), -2 * tau, MPFR_RNDN);
    mpfr_exp(e2.get(), e2.get(), MPFR_RNDN);
    mpfr_d_sub(e2.get(), 1.0, e2.get(), MPFR_RNDN);  // 1 − e^{−2τ}
    mpfr_mul_d(e2.get(), e2.get(), K * 0.5, MPFR_RNDN);
    mpfr_mul_d(e2.get(), e2.get(), x0, MPFR_RNDN);
    mpfr_mul_d(e2.get(), e2.get(), x0, MPFR_RNDN);
    mpfr_add_d(r[1]->get(), e2.get(), tau, MPFR_RNDN);
  };
}
auto fast_clock = [](const auto& x, auto& dx) {
  using V = std::decay_t<decltype(x[0])>;
  dx[0] = -x[0];
  dx[1] = V(1) + V(100) * x[0] * x[0];
};

TEST(ValidatedClosedForms, BallStepWeightsAFastPassiveClock) {
  const double e = 1e-6, T = 2;
  integrate::BallOptions o = ball_options();
  o.ball_weights = {1.0, std::ldexp(1.0, -10)};
  BallStepper<IntervalD, decltype(fast_clock)> vt(fast_clock, 2, o);
  const auto tube = vt.integrate({IntervalD(1 - e, 1 + e), IntervalD(0.0)}, IntervalD(0.0), IntervalD(T));
  for (double x0 : {1 - e, 1 + e}) expect_tube_contains<IntervalD>(tube, T, clock_from(x0, 100), 2);
  const double wx = num::width(tube.final_box()[0]), wt = num::width(tube.final_box()[1]);
  EXPECT_LT(wx, 2.5 * e);                                      // no growth beyond e^{0.01·T} and t's weighted share
  EXPECT_GT(wt, 2 * 100 * e * (1 - std::exp(-2 * T)));         // t's spread is in its box
  // The Euclidean norm on the same flow: its ball grows like e^{∫Kx} (≈ e^{9.5} by τ = 0.1).
  integrate::BallOptions plain = ball_options();
  BallStepper<IntervalD, decltype(fast_clock)> euclid(fast_clock, 2, plain);
  const auto short_tube = euclid.integrate({IntervalD(1 - e, 1 + e), IntervalD(0.0)}, IntervalD(0.0), IntervalD(0.1));
  integrate::BallOptions weighted = o;
  BallStepper<IntervalD, decltype(fast_clock)> w2(fast_clock, 2, weighted);
  const auto short_weighted = w2.integrate({IntervalD(1 - e, 1 + e), IntervalD(0.0)}, IntervalD(0.0), IntervalD(0.1));
  EXPECT_GT(num::width(short_tube.final_box()[0]), 100 * num::width(short_weighted.final_box()[0]));
  // weights that are not powers of two, or not one per component, are refused
  integrate::BallOptions odd = ball_options();
  odd.ball_weights = {1.0, 0.3};
  BallStepper<IntervalD, decltype(fast_clock)> bad(fast_clock, 2, odd);
  EXPECT_THROW(bad.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), IntervalD(0.1)), std::invalid_argument);
  odd.ball_weights = {1.0};
  BallStepper<IntervalD, decltype(fast_clock)> short_w(fast_clock, 2, odd);
  EXPECT_THROW(short_w.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), IntervalD(0.1)), std::invalid_argument);
}

}  // namespace
}  // namespace softcert
