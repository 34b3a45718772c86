// Taylor-mode AD against closed forms: each series coefficient must enclose the exact Taylor
// coefficient (MPFR reference at 256 bits) of a function with a known expansion.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "numerics/stable.hpp"
#include "taylor/series.hpp"
#include "taylor/tape.hpp"

namespace softcert {
namespace {

using taylor::Series;

constexpr std::size_t kOrder = 12;

double factorial(int n) { double f = 1; for (int i = 2; i <= n; ++i) f *= i; return f; }

// The series t ↦ x0 + t.
template <class S>
Series<S> var(double x0) { return Series<S>::variable(S(x0), kOrder); }

TEST(TaylorSeries, ExpLogSqrtAgainstClosedForms) {
  const double x0 = 0.7;
  const auto x = var<IntervalD>(x0);
  const auto e = num::exp(x);      // e^{x0} / k!
  const auto l = num::log(x);      // log x0, then (−1)^{k+1} / (k x0^k)
  const auto s = num::sqrt(x);     // binomial(1/2, k) x0^{1/2 − k}
  const auto l1 = num::log1p(x);   // log(1 + x0), (−1)^{k+1}/(k (1+x0)^k)
  const auto em = num::expm1(x);   // e^{x0} − 1, then e^{x0}/k!
  double binom = 1;
  for (std::size_t k = 0; k <= kOrder; ++k) {
    const double ek = std::exp(x0) / factorial(static_cast<int>(k));
    EXPECT_NEAR(num::mid(e[k]), ek, 1e-14 * ek) << k;
    EXPECT_TRUE(num::contains(e[k], num::mid(e[k])));
    if (k >= 1) {
      const double sign = (k % 2 == 1) ? 1.0 : -1.0;
      const double lk = sign / (k * std::pow(x0, k));
      EXPECT_NEAR(num::mid(l[k]), lk, 1e-12 * std::fabs(lk)) << k;
      const double l1k = sign / (k * std::pow(1 + x0, k));
      EXPECT_NEAR(num::mid(l1[k]), l1k, 1e-12 * std::fabs(l1k)) << k;
      EXPECT_NEAR(num::mid(em[k]), ek, 1e-14 * ek) << k;
    }
    const double sk = binom * std::pow(x0, 0.5 - static_cast<double>(k));
    EXPECT_NEAR(num::mid(s[k]), sk, 1e-12 * std::fabs(sk) + 1e-15) << k;
    binom *= (0.5 - static_cast<double>(k)) / static_cast<double>(k + 1);
  }
}

// Enclosure at 256 bits: exp(sin-free) composition 1/(1 − t) = Σ t^k and exp(log(x)) = x.
TEST(TaylorSeries, IntervalCoefficientsEncloseExactValues) {
  num::PrecisionGuard g(256);
  const auto t = Series<IntervalMp>::variable(IntervalMp(0), kOrder);
  const auto geo = Series<IntervalMp>(IntervalMp(1)) / (1 - t);
  for (std::size_t k = 0; k <= kOrder; ++k) EXPECT_TRUE(num::contains(geo[k], MpReal(1))) << k;
  const auto x = Series<IntervalMp>::variable(num::parse_decimal<IntervalMp>("0.3"), kOrder);
  const auto back = num::exp(num::log(x));
  EXPECT_TRUE(num::subset(x[0], IntervalMp(back[0]))) ;
  EXPECT_TRUE(num::contains(back[1], MpReal(1)));
  for (std::size_t k = 2; k <= kOrder; ++k) EXPECT_TRUE(num::contains(back[k], MpReal(0))) << k;
  // (x0 + t)^5 by pow_int (squaring): coefficient k = C(5,k) x0^{5−k}.
  const auto p5 = num::pow_int(Series<IntervalMp>::variable(IntervalMp(2), kOrder), 5);
  const int binom5[] = {1, 5, 10, 10, 5, 1};
  for (int k = 0; k <= 5; ++k) EXPECT_TRUE(num::contains(p5[k], MpReal(binom5[k] << (5 - k)))) << k;
  for (std::size_t k = 6; k <= kOrder; ++k) EXPECT_TRUE(num::contains(p5[k], MpReal(0)));
}

// The stable functions (softmax, sigmoid, softplus, logsumexp) must act on whole series: the
// derivative of σ(x) is σ(1 − σ), of softplus is σ, of logsumexp is softmax.
TEST(TaylorSeries, StableFunctionsKeepHigherCoefficients) {
  const double x0 = -0.4;
  const auto x = Series<IntervalD>::variable(IntervalD(x0), 4);
  const auto sg = num::sigmoid(x);
  const auto sp = num::softplus(x);
  const double s = 1 / (1 + std::exp(-x0));
  EXPECT_NEAR(num::mid(sg[1]), s * (1 - s), 1e-14);
  EXPECT_NEAR(num::mid(sp[1]), s, 1e-14);
  EXPECT_NEAR(num::mid(sg[2]), s * (1 - s) * (1 - 2 * s) / 2, 1e-14);
  std::vector<Series<IntervalD>> a = {x, Series<IntervalD>(IntervalD(0.3)), Series<IntervalD>(IntervalD(-1.0))};
  const auto lse = num::logsumexp(a);
  const auto sm = num::softmax(a);
  const double z = std::exp(x0) + std::exp(0.3) + std::exp(-1.0);
  EXPECT_NEAR(num::mid(lse[1]), std::exp(x0) / z, 1e-14);
  EXPECT_NEAR(num::mid(sm[0][0]), std::exp(x0) / z, 1e-14);
  EXPECT_NEAR(num::mid(sm[1][1]), -std::exp(0.3) * std::exp(x0) / (z * z), 1e-14);
}

// The tape gives the same Taylor coefficients as the closed-form solutions of small ODEs,
// and derivatives with respect to x0 that match the closed form.
TEST(TaylorTape, OdeCoefficientsAndDerivativesMatchClosedForms) {
  // x' = e^{−x}, x(0) = x0: x(t) = log(e^{x0} + t). Coefficient k (k ≥ 1):
  // (−1)^{k+1} e^{−k x0} / k; derivative wrt x0: (−1)^{k} e^{−k x0}.
  taylor::Tape<IntervalD> tape;
  const double x0 = 0.25;
  tape.record([](const auto& x, auto& dx) { dx[0] = num::exp(-x[0]); }, {IntervalD(x0)}, 15);
  tape.solve(true);
  for (std::size_t k = 1; k <= 15; ++k) {
    const double sign = (k % 2 == 1) ? 1.0 : -1.0;
    const double ck = sign * std::exp(-static_cast<double>(k) * x0) / static_cast<double>(k);
    EXPECT_NEAR(num::mid(tape.coefficient(0, k)), ck, 1e-14 * std::fabs(ck) + 1e-300) << k;
    EXPECT_NEAR(num::mid(tape.derivative(0, k, 0)), -sign * std::exp(-static_cast<double>(k) * x0), 1e-13) << k;
  }
  EXPECT_NEAR(num::mid(tape.derivative(0, 0, 0)), 1.0, 0);
  // Logistic x' = x(1 − x) through a division and log/sqrt round trips: x(t) = 1/(1 + (1/x0 − 1)e^{−t}).
  taylor::Tape<IntervalD> tl;
  tl.record([](const auto& x, auto& dx) {
      using X = std::decay_t<decltype(x[0])>;
      const X y = num::sqr(num::sqrt(x[0])) * num::exp(num::log(X(1) - x[0]));
      dx[0] = y / X(1) + num::log1p(num::expm1(X(0)));
    }, {IntervalD(0.5)}, 6);
  tl.solve(false);
  // x0 = 1/2: x(t) = 1/2 + t/4 − t³/48 + t⁵/480 …
  EXPECT_NEAR(num::mid(tl.coefficient(0, 1)), 0.25, 1e-15);
  EXPECT_NEAR(num::mid(tl.coefficient(0, 2)), 0.0, 1e-15);
  EXPECT_NEAR(num::mid(tl.coefficient(0, 3)), -1.0 / 48, 1e-15);
  EXPECT_NEAR(num::mid(tl.coefficient(0, 5)), 1.0 / 480, 1e-15);
}

// Derivatives through every operation agree with a central finite difference of the
// coefficients (a 2-D field using all operations).
TEST(TaylorTape, DerivativesAgreeWithFiniteDifferences) {
  auto field = [](const auto& x, auto& dx) {
    using X = std::decay_t<decltype(x[0])>;
    dx[0] = x[1] * num::sqrt(X(2) + x[0]) - num::log1p(num::sqr(x[0])) / (X(3) + x[1] * x[1]);
    dx[1] = num::expm1(-x[0]) + num::log(X(2) + num::exp(x[1])) * X(0.5);
  };
  const std::vector<double> x0 = {0.3, -0.2};
  const std::size_t p = 8;
  taylor::Tape<double> tape;
  tape.record(field, x0, p);
  tape.solve(true);
  const double eps = 1e-6;
  for (std::size_t j = 0; j < 2; ++j) {
    auto xp = x0, xm = x0;
    xp[j] += eps;
    xm[j] -= eps;
    taylor::Tape<double> tp, tm;
    tp.record(field, xp, p);
    tp.solve(false);
    tm.record(field, xm, p);
    tm.solve(false);
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t k = 0; k <= p; ++k) {
        const double fd = (tp.coefficient(i, k) - tm.coefficient(i, k)) / (2 * eps);
        EXPECT_NEAR(tape.derivative(i, k, j), fd, 1e-6 * (1 + std::fabs(fd))) << i << " " << k << " " << j;
      }
  }
}

}  // namespace
}  // namespace softcert
