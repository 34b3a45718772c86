// Conserved quantities and cross-form agreement of the value-softmax models (docs/models.md),
// integrated in the fast tier: 1ᵀa; (I − β*β*ᵀ/c)V for the logistic loss; the T = 2 invariant
// H = cosh(a₁ − a₂) − (u₁ − u₂)²/(2c); full vs reduced; t-time vs τ-time.
#include <gtest/gtest.h>

#include <cmath>

#include "integrate/fast_run.hpp"
#include "models/make_model.hpp"
#include "models/model_test_support.hpp"
#include "numerics/precision.hpp"

namespace softcert {
namespace {

using integrate::Stepper;
using integrate::run_to_time;
using models::Form;

template <class K>
K sum_a(const std::vector<K>& x, std::size_t offset, std::size_t T) {
  K s(0);
  for (std::size_t k = 0; k < T; ++k) s += x[offset + k];
  return s;
}

TEST(ModelInvariants, OneTransposeAIsConservedFullModelDouble) {
  const auto inst = testing::headline();
  const models::ValueSoftmax<double> m(inst);
  const auto run = run_to_time<double>(m, 20.0, Stepper::dopri5, 1e-12);
  EXPECT_NEAR(sum_a(run.x, m.a_offset(), 8), 0.0, 1e-13);
  // and the flow really moved a
  EXPECT_GT(std::fabs(run.x[m.a_offset()]), 1e-3);
}

TEST(ModelInvariants, OneTransposeAIsConservedAt4096Bits) {
  num::PrecisionGuard g(4096);
  const auto inst = testing::two_token_logistic();
  const models::ValueSoftmax<MpReal> m(inst);
  const auto run = run_to_time<MpReal>(m, MpReal("0.25"), Stepper::rkf78, MpReal("1e-20"));
  // A linear invariant is kept by every Runge–Kutta / extrapolation step up to rounding.
  const MpReal drift = abs(sum_a(run.x, m.a_offset(), 2) - MpReal("0.1"));
  EXPECT_LT(drift, MpReal("1e-1200"));
  EXPECT_GT(abs(run.x[m.a_offset()] - MpReal("0.2")), MpReal("1e-4"));
}

// P V = (I − β*β*ᵀ/c) V is constant under the logistic loss.
template <class K>
std::vector<K> projected_V(const models::ValueSoftmax<K>& m, const std::vector<K>& x) {
  const std::size_t T = m.tokens(), d = m.dim();
  const auto& b = m.beta();
  std::vector<K> out(d * T);
  for (std::size_t j = 0; j < T; ++j) {
    K uj(0);
    for (std::size_t i = 0; i < d; ++i) uj += x[i * T + j] * b[i];
    for (std::size_t i = 0; i < d; ++i) out[i * T + j] = x[i * T + j] - b[i] * uj / m.c();
  }
  return out;
}

TEST(ModelInvariants, OrthogonalPartOfVIsConservedUnderLogisticLoss) {
  // A linear invariant: kept by every step up to rounding, whatever the tolerance.
  num::PrecisionGuard g(128);
  const auto inst = testing::headline();
  const models::ValueSoftmax<MpReal> m(inst);
  const auto x0 = m.initial_state();
  const auto run = run_to_time<MpReal>(m, MpReal(10), Stepper::rkf78, MpReal("1e-16"));
  const auto p0 = projected_V(m, x0), p1 = projected_V(m, run.x);
  MpReal worst(0);
  for (std::size_t k = 0; k < p0.size(); ++k) worst = std::max(worst, MpReal(abs(p1[k] - p0[k])));
  EXPECT_LT(worst, MpReal("1e-33"));
  // V itself changed by O(1) along β*
  EXPECT_GT(abs(run.x[0] - x0[0]), MpReal("1e-2"));
}

TEST(ModelInvariants, TwoTokenHamiltonianIsConserved) {
  num::PrecisionGuard g(128);
  const auto inst = testing::two_token_logistic();
  const auto m = models::LogisticReduced<MpReal>::from_instance(inst);
  auto H = [&](const std::vector<MpReal>& x) {
    const MpReal du = x[2] - x[3];
    return MpReal(cosh(MpReal(x[0] - x[1])) - du * du / (2 * m.c()));
  };
  const MpReal H0 = H(m.initial_state());
  for (Stepper kind : {Stepper::bs, Stepper::taylor})
    for (const char* t : {"1", "10", "100"}) {
      const auto run = run_to_time<MpReal>(m, MpReal(t), kind, MpReal("1e-32"));
      EXPECT_LT(abs(H(run.x) - H0), MpReal("1e-28")) << to_string(kind) << " t = " << t;
    }
  // The orbit is not trivially at rest: a₁ − a₂ moved.
  const auto run = run_to_time<MpReal>(m, MpReal(100), Stepper::bs, MpReal("1e-32"));
  EXPECT_GT(abs(MpReal(run.x[0] - run.x[1]) - MpReal("0.3")), MpReal("0.1"));
}

TEST(ModelInvariants, FullAndReducedLogisticAgree) {
  num::PrecisionGuard g(100);
  const auto inst = testing::headline();
  const models::ValueSoftmax<MpReal> full(inst);
  const auto red = models::LogisticReduced<MpReal>::from_instance(inst);
  const auto rf = run_to_time<MpReal>(full, MpReal(5), Stepper::rkf78, MpReal("1e-22"));
  const auto rr = run_to_time<MpReal>(red, MpReal(5), Stepper::rkf78, MpReal("1e-22"));
  const std::size_t T = 8, d = 8;
  for (std::size_t j = 0; j < T; ++j) {
    MpReal u(0);
    for (std::size_t i = 0; i < d; ++i) u += rf.x[i * T + j] * full.beta()[i];
    EXPECT_LT(abs(rf.x[d * T + j] - rr.x[j]), MpReal("1e-19")) << "a_" << j;
    EXPECT_LT(abs(u - rr.x[T + j]), MpReal("1e-19")) << "u_" << j;
  }
}

TEST(ModelInvariants, TTimeAndTauTimeAgree) {
  const auto inst = testing::headline();
  const auto red = models::LogisticReduced<double>::from_instance(inst);
  const auto tau = models::LogisticReducedTau<double>::from_instance(inst);
  const models::ValueSoftmax<double> full_tau(inst, true);
  const auto rt = run_to_time<double>(red, 500.0, Stepper::dopri5, 1e-13);
  const auto rs = run_to_time<double>(tau, 500.0, Stepper::rkf78, 1e-13);
  const auto rf = run_to_time<double>(full_tau, 500.0, Stepper::dopri5, 1e-13);
  EXPECT_EQ(rs.x[tau.time_index()], 500.0);
  EXPECT_GT(rs.tau, 0.0);
  EXPECT_LT(rs.tau, 500.0);  // τ runs slower than t (dt/dτ > 1)
  for (std::size_t k = 0; k < 16; ++k) EXPECT_NEAR(rt.x[k], rs.x[k], 1e-9 * (1 + std::fabs(rt.x[k]))) << k;
  for (std::size_t j = 0; j < 8; ++j) EXPECT_NEAR(rf.x[64 + j], rt.x[j], 1e-9 * (1 + std::fabs(rt.x[j]))) << j;
}

TEST(ModelInvariants, RankOneSquareMatchesFullSquareModel) {
  // V(0) = β* w₀ᵀ with β* = (0.6, 0.8), w₀ = (0.5, −0.25, 0.125); V entries exact decimals.
  const auto inst = instances::parse_instance(nlohmann::json::parse(R"({"model":"value_softmax","loss":"square",
    "normalization":"softmax","T":3,"d":2,"V":[["0.3","-0.15","0.075"],["0.4","-0.2","0.1"]],
    "a":["0","0.5","-0.5"],"beta":["0.6","0.8"],"provenance":"test"})"));
  num::PrecisionGuard g(100);
  const models::ValueSoftmax<MpReal> full(inst);
  const auto red = models::RankOneSquare<MpReal>::from_instance(inst);
  const auto rf = run_to_time<MpReal>(full, MpReal(30), Stepper::rkf78, MpReal("1e-22"));
  const auto rr = run_to_time<MpReal>(red, MpReal(30), Stepper::rkf78, MpReal("1e-22"));
  for (std::size_t j = 0; j < 3; ++j) {
    const MpReal u = rf.x[j] * MpReal("0.6") + rf.x[3 + j] * MpReal("0.8");
    EXPECT_LT(abs(rf.x[6 + j] - rr.x[j]), MpReal("1e-19"));
    EXPECT_LT(abs(u - rr.x[3 + j]), MpReal("1e-19"));
  }
  // ρ = 1 − uᵀs/c stays positive and decreases toward 0: the square loss is being fitted.
  std::vector<MpReal> a(rr.x.begin(), rr.x.begin() + 3);
  const auto s = num::softmax(a);
  MpReal us(0);
  for (int j = 0; j < 3; ++j) us += s[j] * rr.x[3 + j];
  EXPECT_GT(MpReal(1) - us, MpReal(0));
  EXPECT_LT(MpReal(1) - us, MpReal("0.5"));
}

TEST(ModelInvariants, RankOneFormRefusesAFullRankV) {
  auto j = nlohmann::json::parse(R"({"model":"value_softmax","loss":"square","normalization":"softmax","T":2,"d":2,
    "V":[["0.3","0.1"],["0.4","-0.2"]],"a":["0","0"],"beta":["0.6","0.8"],"provenance":"test"})");
  const auto inst = instances::parse_instance(j);
  try {
    (void)models::make_model<double>(inst, Form::reduced);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 2), "V:");
  }
}

}  // namespace
}  // namespace softcert
