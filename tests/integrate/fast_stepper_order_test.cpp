// Each stepper shows its order on a problem with a closed-form solution: the rotation
// x' = y, y' = −x, x(0) = 1, y(0) = 0, so x(t) = cos t, y(t) = −sin t.
#include <gtest/gtest.h>

#include <cmath>

#include "integrate/fast_run.hpp"
#include "numerics/precision.hpp"
#include "support/rotation_model.hpp"

namespace softcert {
namespace {

namespace ode = boost::numeric::odeint;
using State = std::vector<MpReal>;

struct Rotation {
  std::vector<MpReal> initial_state() const { return {MpReal(1), MpReal(0)}; }
  std::size_t dimension() const { return 2; }
  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& f) const {
    f.resize(2);
    f[0] = x[1];
    f[1] = -x[0];
  }
};

// Fixed-step error at t = 1 with n steps of an explicit stepper's do_step.
template <class Stepper>
MpReal fixed_step_error(int n) {
  Stepper st;
  State x{MpReal(1), MpReal(0)};
  const MpReal h = MpReal(1) / n;
  MpReal t(0);
  const Rotation rotation;
  const auto sys = integrate::odeint_system(rotation);
  for (int k = 0; k < n; ++k) {
    st.do_step(sys, x, t, h);
    t += h;
  }
  return abs(x[0] - cos(MpReal(1))) + abs(x[1] + sin(MpReal(1)));
}

template <class Stepper>
double observed_order(int n) {
  const MpReal e1 = fixed_step_error<Stepper>(n), e2 = fixed_step_error<Stepper>(2 * n);
  return log2(e1 / e2).convert_to<double>();
}

TEST(FastStepperOrder, Dopri5IsFifthOrder) {
  num::PrecisionGuard g(160);
  const double p = observed_order<ode::runge_kutta_dopri5<State, MpReal, State, MpReal>>(20);
  EXPECT_NEAR(p, 5.0, 0.3);
}

TEST(FastStepperOrder, Fehlberg78IsSeventhOrderOrBetter) {
  num::PrecisionGuard g(160);
  // odeint advances with the 7th-order solution of the 7(8) pair.
  const double p = observed_order<ode::runge_kutta_fehlberg78<State, MpReal, State, MpReal>>(10);
  EXPECT_GT(p, 6.7);
  EXPECT_LT(p, 8.5);
}

// Controlled steppers: the error at t = 5 decreases with the tolerance and stays below a small
// multiple of it.
template <class K>
K controlled_error(integrate::Stepper kind, const K& tol) {
  const test_support::Rotation<K> m;
  const auto run = integrate::run_to_time<K>(m, K(5), kind, tol);
  using std::abs, std::cos, std::sin;
  return abs(run.x[0] - cos(K(5))) + abs(run.x[1] + sin(K(5)));
}

TEST(FastStepperOrder, ControlledErrorsFollowTheToleranceInDouble) {
  for (auto kind : {integrate::Stepper::dopri5, integrate::Stepper::rkf78, integrate::Stepper::bs, integrate::Stepper::taylor}) {
    double prev = 1;
    for (double tol : {1e-6, 1e-8, 1e-10, 1e-12}) {
      const double e = controlled_error<double>(kind, tol);
      EXPECT_LT(e, 200 * tol) << integrate::to_string(kind) << " tol " << tol;
      EXPECT_LT(e, prev) << integrate::to_string(kind) << " tol " << tol;
      prev = e;
    }
  }
}

TEST(FastStepperOrder, BulirschStoerReachesHighPrecision) {
  num::PrecisionGuard g(160);
  for (const char* tol : {"1e-25", "1e-35"}) {
    const MpReal e = controlled_error<MpReal>(integrate::Stepper::bs, MpReal(tol));
    EXPECT_LT(e, MpReal(tol) * 200) << tol;
  }
}

// The Taylor stepper: the error follows the tolerance down to 1e-60 (order ⌈−ln(tol)/2⌉ = 70),
// and it does so in few steps (its reason to exist: long steps at high precision).
TEST(FastStepperOrder, TaylorReachesHighPrecisionInFewSteps) {
  num::PrecisionGuard g(240);
  MpReal prev(1);
  for (const char* tol : {"1e-25", "1e-35", "1e-60"}) {
    const MpReal e = controlled_error<MpReal>(integrate::Stepper::taylor, MpReal(tol));
    EXPECT_LT(e, MpReal(tol) * 200) << tol;
    EXPECT_LT(e, prev) << tol;
    prev = e;
    const auto run = integrate::run_to_time<MpReal>(test_support::Rotation<MpReal>{}, MpReal(5), integrate::Stepper::taylor, MpReal(tol));
    EXPECT_LE(run.steps.accepted, 12u) << tol;
    EXPECT_EQ(run.steps.rejected, 0u) << tol;
  }
}

TEST(FastStepperOrder, FixedStepOrderRatiosInDouble) {
  // Same as above on double for dopri5 where rounding does not interfere (n = 10, 20).
  using DState = std::vector<double>;
  auto err = [](int n) {
    ode::runge_kutta_dopri5<DState> st;
    DState x{1.0, 0.0};
    const double h = 1.0 / n;
    struct R {
      void operator()(const DState& x, DState& f, double) const { f[0] = x[1]; f[1] = -x[0]; }
    };
    for (int k = 0; k < n; ++k) st.do_step(R{}, x, k * h, h);
    return std::fabs(x[0] - std::cos(1.0)) + std::fabs(x[1] + std::sin(1.0));
  };
  EXPECT_NEAR(std::log2(err(10) / err(20)), 5.0, 0.3);
}

}  // namespace
}  // namespace softcert
