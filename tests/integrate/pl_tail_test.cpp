// The PL tail (integrate/pl_tail.hpp). Closed forms first:
//  - the radius of a thin set at a = 0 (softmax, ‖α‖² = 1/T exactly, the smallest possible μ) is
//    the exact √(2L/μ) = ‖β − β*‖·√T rounded up — a 300-bit value must not exceed it (fails on a
//    missing √2, on μ too large, on a radius rounded down) and must be within 1e-12 of it; a
//    second case (g and μ exact, R = 2√3) where the nearest double is below the exact radius;
//  - T = d = 1: V̇ = −(V − β*) moves straight to β*, so the path length from s is exactly
//    |V(s) − β*| = the lemma's radius: the box must contain V(END) = β* + (V(s) − β*)e^{−(END − s)}
//    and the box with the radius divided by √2 (the missing-factor variant) must miss it;
//  - a ball that would reach the singularity a = 0 of the x² normalization is refused.
// Then random square-loss instances (T = 3, d = 2; softmax, x², sum, sigmoid): the tail's box at
// END contains a 300-bit fast-tier reference (taylor stepper), with the tail taken early (large R)
// and with the default stop rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "support/value_softmax_json.hpp"
#include "instances/instance.hpp"
#include "integrate/fast_run.hpp"
#include "integrate/pl_tail.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "support/mp_containment.hpp"
#include "support/random_inputs.hpp"

namespace softcert {
namespace {

using testing::contains;
using testing::milli;

using instances::Normalization;

nlohmann::json square_json(std::size_t T, std::size_t d, const std::vector<std::string>& V, const std::vector<std::string>& a,
                           const std::vector<std::string>& beta, const std::string& norm = "softmax") {
  nlohmann::json j = testing::value_softmax_json(T, d, V, a, "square", norm, "test: pl tail");
  j["beta"] = beta;
  return j;
}

TEST(PlTail, RadiusOfAThinSetIsTheExactBoundRoundedUp) {
  // T = 3, d = 2, a = 0: α = (1/3, 1/3, 1/3), β = V α = (0.3, −0.1)·… chosen so g = β − β* = (1, 2).
  const auto inst = instances::parse_instance(
      square_json(3, 2, {"1", "2", "0", "0", "3", "0"}, {"0", "0", "0"}, {"0", "-1"}));
  // β = (1, 1), β* = (0, −1): g = (1, 2), ‖g‖ = √5, μ = 1/3, R = √5 · √3 = √15.
  const models::ValueSoftmax<IntervalD> m(inst);
  const auto set = integrate::DoubletonSet<IntervalD>::from_box(m.initial_state());
  const auto ball = integrate::pl_ball(m, set);
  ASSERT_TRUE(ball.valid);
  num::PrecisionGuard g(300);
  const MpReal exact = boost::multiprecision::sqrt(MpReal(15));
  EXPECT_GE(MpReal(num::upper(ball.radius)), exact);
  EXPECT_LE(MpReal(num::upper(ball.radius)), exact * MpReal("1.000000000001"));
  EXPECT_LE(num::lower(ball.mu), 1.0 / 3.0);
  for (std::size_t i = 0; i < ball.box.size(); ++i)
    EXPECT_TRUE(num::subset(m.initial_state()[i] + num::hull_of_bounds<IntervalD>(-num::upper(ball.radius), num::upper(ball.radius)),
                            ball.box[i]));
}

TEST(PlTail, RadiusIsRoundedUpWhereRoundingToNearestWouldCutIt) {
  // T = 4, d = 3, a = 0: α = 1/4 exactly, β = (1, 1, 1), β* = (2, 0, 2): g = (−1, 1, −1) exactly,
  // μ = 1/4 exactly, R = √3 · 2 = 2√3. The double nearest to 2√3 lies BELOW it
  // (3.4641016151377544 < 3.46410161513775458…): only a radius rounded up contains the exact one.
  const auto inst = instances::parse_instance(square_json(
      4, 3, {"1", "1", "1", "1", "4", "0", "0", "0", "0", "2", "2", "0"}, {"0", "0", "0", "0"}, {"2", "0", "2"}));
  const models::ValueSoftmax<IntervalD> m(inst);
  const auto ball = integrate::pl_ball(m, integrate::DoubletonSet<IntervalD>::from_box(m.initial_state()));
  ASSERT_TRUE(ball.valid);
  num::PrecisionGuard g(300);
  const MpReal exact = MpReal(2) * boost::multiprecision::sqrt(MpReal(3));
  ASSERT_LT(MpReal(2.0 * std::sqrt(3.0)), exact);  // the premise of this test
  EXPECT_GE(MpReal(num::upper(ball.radius)), exact);
  EXPECT_LE(MpReal(num::upper(ball.radius)), exact * MpReal("1.000000000001"));
}

TEST(PlTail, OneDimensionalFlowIsTightAndAShorterRadiusMisses) {
  // V̇ = −(V − β*), a constant (T = 1: α ≡ 1, ȧ = 0). V(0) = 2, β* = 1/2.
  const auto inst = instances::parse_instance(square_json(1, 1, {"2"}, {"0.25"}, {"0.5"}));
  const models::ValueSoftmax<IntervalD> m(inst);
  integrate::PlTailOptions to;
  to.relative = 1e300;  // take the tail at the first step: R is large, so the test is sharp
  integrate::PlTail<IntervalD> tail;
  const double END = 1e4;
  const auto enc = integrate::enclose_with_pl_tail(m, IntervalD(END), integrate::ValidatedOptions{}, to, &tail);
  ASSERT_TRUE(tail.used);
  const double s = num::lower(tail.from), R = num::upper(tail.radius);
  EXPECT_GT(R, 0.1);  // far from settled: the check below is not about rounding noise
  num::PrecisionGuard g(300);
  const MpReal half("0.5");
  const MpReal Vs = half + MpReal("1.5") * boost::multiprecision::exp(-MpReal(s));
  const MpReal Vend = half + (Vs - half) * boost::multiprecision::exp(-(MpReal(END) - MpReal(s)));
  EXPECT_TRUE(contains(enc.x[0], Vend));
  EXPECT_TRUE(contains(enc.x[1], MpReal("0.25")));
  // The exact radius is |V(s) − β*|; the lemma's bound is within a hair of it.
  EXPECT_LE(MpReal(R), (Vs - half) * MpReal("1.0000001"));
  // The missing-√2 variant (R/√2) misses V(END).
  const double Rw = R / std::sqrt(2.0);
  // lower(box) = lower([V(s)]) − R (rounded down); the wrong box's lower end is that + R − R/√2.
  const MpReal lo_wrong = MpReal(num::lower(enc.x[0])) + MpReal(R) - MpReal(Rw);
  EXPECT_GT(lo_wrong, Vend);
}

// pl_detail::mu_lower_on_ball: for every normalization, ‖α(a)‖² at 256 bits at points within
// distance R of the centre box — on the ball's edge along ∓∇‖α‖² (where it falls fastest) and at
// random — is at least the bound. Dropping the gradient term, or its factor 2, fails here.
TEST(PlTail, MuOnTheBallIsBelowEveryPointOfTheBall) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const char* norms[] = {"softmax", "sigmoid", "square", "sum", "abs", "relu"};
  const double radii[] = {1e-3, 0.05, 0.2};
  int informative = 0;
  for (int trial = 0; trial < 180; ++trial) {
    const std::string norm = norms[trial % 6];
    const std::size_t T = 2 + static_cast<std::size_t>(trial % 5);
    std::vector<double> c(T);
    for (std::size_t k = 0; k < T; ++k) c[k] = 0.5 + 2.5 * u(rng) + (k == 0 ? 2.0 : 0.0);  // positive: signs certain on K
    std::vector<std::string> V(T, "1"), a(T);
    for (std::size_t k = 0; k < T; ++k) a[k] = num::decimal_round_trip(c[k]);
    const auto inst = instances::parse_instance(square_json(T, 1, V, a, {"1"}, norm));
    const models::ValueSoftmax<IntervalD> m(inst);
    const double R = radii[trial % 3], width = trial % 2 ? 1e-7 : 0.0;
    std::vector<IntervalD> a0, K;
    for (double x : c) {
      a0.push_back(num::hull_of_bounds<IntervalD>(x, x + width));
      K.push_back(a0.back() + num::hull_of_bounds<IntervalD>(-R, R));
    }
    const double mu = integrate::pl_detail::mu_lower_on_ball(m, a0, K, IntervalD(R));
    if (mu > 0) ++informative;
    num::PrecisionGuard g(256);
    const models::ValueSoftmax<MpReal> mp(inst);
    auto q_at = [&](const std::vector<double>& p) {
      std::vector<MpReal> x(p.begin(), p.end()), alpha, w;
      mp.normalize(x, alpha, w);
      MpReal q(0);
      for (const auto& v : alpha) q += v * v;
      return q;
    };
    for (int sample = 0; sample < 6; ++sample) {
      std::vector<double> p0(T), delta(T);
      for (std::size_t k = 0; k < T; ++k) p0[k] = c[k] + width * u(rng);
      if (sample < 2) {  // ±∇‖α‖² by central differences (only a direction)
        for (std::size_t k = 0; k < T; ++k) {
          auto hi = p0, lo = p0;
          hi[k] += 1e-6;
          lo[k] -= 1e-6;
          delta[k] = (q_at(hi) - q_at(lo)).convert_to<double>() * (sample == 0 ? -1 : 1);
        }
      } else {
        for (auto& x : delta) x = gauss(rng);
      }
      double norm2 = 0;
      for (double x : delta) norm2 += x * x;
      if (!(norm2 > 0)) continue;
      const double scale = R * (sample < 4 ? 1 - 1e-9 : u(rng)) / std::sqrt(norm2);
      std::vector<double> p(T);
      for (std::size_t k = 0; k < T; ++k) p[k] = p0[k] + delta[k] * scale;
      EXPECT_GE(q_at(p), MpReal(mu)) << norm << " trial " << trial << " sample " << sample << " R " << R;
    }
  }
  EXPECT_GT(informative, 60);  // the bound is not vacuous (0) on most of these balls
}

TEST(PlTail, BallReachingTheSingularityOfTheSquareNormalizationIsRefused) {
  // x² normalization, T = 1: α = a²/a² is singular at a = 0; with a = 10⁻³ and |β − β*| = 1 the
  // ball (radius ≥ 1) contains a = 0, so no tail may be claimed.
  const auto inst = instances::parse_instance(square_json(1, 1, {"1"}, {"0.001"}, {"2"}, "square"));
  const models::ValueSoftmax<IntervalD> m(inst);
  const auto set = integrate::DoubletonSet<IntervalD>::from_box(m.initial_state());
  EXPECT_FALSE(integrate::pl_ball(m, set).valid);
  // Far from it (a = 10, radius 1) it is accepted.
  const auto inst2 = instances::parse_instance(square_json(1, 1, {"1"}, {"10"}, {"2"}, "square"));
  const models::ValueSoftmax<IntervalD> m2(inst2);
  EXPECT_TRUE(integrate::pl_ball(m2, integrate::DoubletonSet<IntervalD>::from_box(m2.initial_state())).valid);
}

// A normalization given as a formula (docs/formulas.md): the tail's lemma needs only Σα = 1 and
// f C¹ with Σf ≠ 0 on a neighbourhood of the set, which it checks on the formula itself.
nlohmann::json with_normalization_formula(nlohmann::json j, const std::string& f) {
  j["normalization"] = "formula";
  j["normalization_formula"] = f;
  return j;
}

TEST(PlTail, BallReachingTheSingularityOfANormalizationFormulaIsRefused) {
  // The square normalization's test above with f written "x^2", and with "log(x)": its ball
  // reaches a ≤ 0, where log is undefined.
  for (const char* f : {"x^2", "log(x) + 3"}) {
    const auto near = instances::parse_instance(with_normalization_formula(square_json(1, 1, {"1"}, {"0.001"}, {"2"}), f));
    const models::ValueSoftmax<IntervalD> m(near);
    EXPECT_FALSE(integrate::pl_ball(m, integrate::DoubletonSet<IntervalD>::from_box(m.initial_state())).valid) << f;
    const auto far = instances::parse_instance(with_normalization_formula(square_json(1, 1, {"1"}, {"10"}, {"2"}), f));
    const models::ValueSoftmax<IntervalD> m2(far);
    EXPECT_TRUE(integrate::pl_ball(m2, integrate::DoubletonSet<IntervalD>::from_box(m2.initial_state())).valid) << f;
  }
}

instances::Instance random_square(unsigned seed, const std::string& norm) {
  std::mt19937 gen(seed);
  auto dec = [&gen](int lo, int hi) { return milli(std::uniform_int_distribution<int>(lo, hi)(gen)); };
  std::vector<std::string> V, a;
  for (int i = 0; i < 6; ++i) V.push_back(dec(-500, 500));
  for (int i = 0; i < 3; ++i) a.push_back(dec(200, 1500));
  return instances::parse_instance(square_json(3, 2, V, a, {dec(300, 900), dec(-900, -300)}, norm));
}

// The tail as early as possible (taken at the first valid ball) and by the default rule: both
// enclosures of x(END) contain a 300-bit fast-tier reference. `default_rule_uses_tail`: whether
// the default rule must have ended with the tail (it may reach END by validated steps first; the
// validated box is then what is checked).
void expect_tail_contains_reference(const instances::Instance& inst, double END, const std::string& name,
                                    bool default_rule_uses_tail) {
  std::vector<MpReal> ref;
  {
    num::PrecisionGuard g(300);
    ref = integrate::run_to_time<MpReal>(models::ValueSoftmax<MpReal>(inst), MpReal(END), integrate::Stepper::taylor,
                                         MpReal("1e-60"))
              .x;
  }
  const models::ValueSoftmax<IntervalD> m(inst);
  for (double relative : {1e300, 1e-2}) {
    integrate::PlTailOptions to;
    to.relative = relative;
    integrate::PlTail<IntervalD> tail;
    const auto enc = integrate::enclose_with_pl_tail(m, IntervalD(END), integrate::ValidatedOptions{}, to, &tail);
    const std::string what = name + " relative " + std::to_string(relative);
    if (relative > 1 || default_rule_uses_tail) {
      EXPECT_TRUE(tail.used) << what;
    }
    ASSERT_EQ(enc.x.size(), ref.size()) << what;
    for (std::size_t i = 0; i < ref.size(); ++i)
      EXPECT_TRUE(contains(enc.x[i], ref[i]))
          << what << ": component " << i << " [" << num::lower_decimal(enc.x[i]) << ", " << num::upper_decimal(enc.x[i])
          << "] misses " << num::to_decimal(ref[i]);
  }
}

TEST(PlTail, RandomSquareLossInstancesContainA300BitReference) {
  unsigned seed = 40;
  for (const char* norm : {"softmax", "square", "sum", "sigmoid"})
    expect_tail_contains_reference(random_square(++seed, norm), 300, norm, true);
}

TEST(PlTail, NormalizationFormulasContainA300BitReference) {
  unsigned seed = 60;
  for (const char* f : {"x^2", "exp(x)", "1 + x^2"}) {
    const auto inst = instances::parse_instance(
        with_normalization_formula(instances::to_json(random_square(++seed, "softmax")), f));
    expect_tail_contains_reference(inst, 300, f, true);
  }
}

// --- regression loss: L = ‖y − Xβ‖², PL constant λμ with λ ≤ λ_min(2XᵀX) ---------------------

nlohmann::json regression_json(std::size_t T, std::size_t d, const std::vector<std::string>& V, const std::vector<std::string>& a,
                               const std::vector<std::vector<std::string>>& X, const std::vector<std::string>& y,
                               const std::string& norm = "softmax") {
  nlohmann::json j = square_json(T, d, V, a, std::vector<std::string>(d, "1"), norm);
  j["loss"] = "regression";
  j.erase("beta");
  j["X"] = X;
  j["y"] = y;
  return j;
}

// A regression instance T = 3, d = 2 (n = 3 data rows) with millesimal entries drawn from `seed`.
instances::Instance random_regression(unsigned seed, const std::string& norm) {
  std::mt19937 gen(seed);
  auto dec = [&gen](int lo, int hi) { return milli(std::uniform_int_distribution<int>(lo, hi)(gen)); };
  std::vector<std::string> V, a, y;
  for (int i = 0; i < 6; ++i) V.push_back(dec(-500, 500));
  for (int i = 0; i < 3; ++i) a.push_back(dec(200, 1500));
  std::vector<std::vector<std::string>> X(3);
  for (auto& row : X) row = {dec(-1000, 1000), dec(-1000, 1000)};
  for (int i = 0; i < 3; ++i) y.push_back(dec(-500, 500));
  return instances::parse_instance(regression_json(3, 2, V, a, X, y, norm));
}

TEST(PlTail, RegressionRadiusIsTheLemmaBoundWithACertifiedLambda) {
  // T = 1 (α ≡ 1, μ = 1), d = 2, X = diag(0.5, 1), y = 0: G = diag(0.5, 2), λ_min = 0.5, c = 0.
  // V = (1, 1): g = G β = (0.5, 2), ‖g‖ = √4.25, and the lemma's R = ‖g‖/(λ_min √μ) = 2√4.25.
  const auto inst = instances::parse_instance(
      regression_json(1, 2, {"1", "1"}, {"0"}, {{"0.5", "0"}, {"0", "1"}}, {"0", "0"}));
  const models::ValueSoftmax<IntervalD> m(inst);
  const auto ball = integrate::pl_ball(m, integrate::DoubletonSet<IntervalD>::from_box(m.initial_state()));
  ASSERT_TRUE(ball.valid);
  EXPECT_LT(num::upper(ball.lambda), 0.5);   // certified below λ_min
  EXPECT_GT(num::lower(ball.lambda), 0.45);  // and close to it
  num::PrecisionGuard g(300);
  const MpReal bound = MpReal(2) * boost::multiprecision::sqrt(MpReal("4.25"));
  EXPECT_GE(MpReal(num::upper(ball.radius)), bound);  // R/λ dropped, or λ², would be below it
  EXPECT_LE(MpReal(num::upper(ball.radius)), bound * MpReal("1.02"));
}

TEST(PlTail, RegressionOneDimensionalFlowIsTightAndARadiusWithoutLambdaMisses) {
  // T = 1, d = 1, X = (0.5), y = (1): G = 0.5, c = 1, V̇ = −(G V − c), V(t) = 2 − 2e^{−t/2} from
  // V(0) = 0; a constant. The lemma's R = |g(V(s))|/λ = |V(s) − 2|·(G/λ): tight as λ → G.
  const auto inst = instances::parse_instance(regression_json(1, 1, {"0"}, {"0.25"}, {{"0.5"}}, {"1"}));
  const models::ValueSoftmax<IntervalD> m(inst);
  integrate::PlTailOptions to;
  to.relative = 1e300;  // the tail at the first step, where R is large
  integrate::PlTail<IntervalD> tail;
  const double END = 1e4;
  const auto enc = integrate::enclose_with_pl_tail(m, IntervalD(END), integrate::ValidatedOptions{}, to, &tail);
  ASSERT_TRUE(tail.used);
  const double s = num::lower(tail.from), R = num::upper(tail.radius), lambda = num::lower(tail.lambda);
  ASSERT_LT(lambda, 0.5);
  EXPECT_GT(R, 0.1);
  num::PrecisionGuard g(300);
  const MpReal Vs = MpReal(2) - MpReal(2) * boost::multiprecision::exp(-MpReal(s) / 2);
  const MpReal Vend = MpReal(2) - MpReal(2) * boost::multiprecision::exp(-MpReal(END) / 2);
  EXPECT_TRUE(contains(enc.x[0], Vend));
  EXPECT_LE(MpReal(R), (MpReal(2) - Vs) * MpReal("1.02"));
  // Without the 1/λ (R·λ, λ < 1) the ball around V(s) stops short of V(END).
  const MpReal hi_wrong = MpReal(num::upper(enc.x[0])) - MpReal(R) + MpReal(R) * MpReal(lambda);
  EXPECT_LT(hi_wrong, Vend);
}

TEST(PlTail, RegressionWithoutAFullRankDesignGetsNoBall) {
  // One data point in d = 2: G = 2xxᵀ is singular, λ_min = 0, so no PL constant.
  const auto inst = instances::parse_instance(regression_json(2, 2, {"1", "0", "0", "1"}, {"0", "0"}, {{"1", "1"}}, {"1"}));
  const models::ValueSoftmax<IntervalD> m(inst);
  EXPECT_FALSE(integrate::pl_ball(m, integrate::DoubletonSet<IntervalD>::from_box(m.initial_state())).valid);
}

// A ball set (the ball step's: B empty, a radius) enters pl_ball as the box form, whose J·B and
// G·J·B skip the products' exact zero terms; the dense Lohner form of the same box (B = I) must
// give the same ball to the last bit — any term the sparse form drops or misplaces shows here.
TEST(PlTail, BallSetsGiveTheSameBallAsTheDenseFormOfTheirBox) {
  unsigned seed = 90;
  int valid = 0;
  for (const char* loss : {"regression", "square"})
    for (const char* norm : {"softmax", "square", "sum", "sigmoid"})
      for (double width : {0.0, 1e-6, 1e-3}) {
        const auto inst = std::string(loss) == "regression" ? random_regression(++seed, norm) : [&] {
          std::mt19937 gen(++seed);
          auto dec = [&gen](int lo, int hi) { return milli(std::uniform_int_distribution<int>(lo, hi)(gen)); };
          std::vector<std::string> V, a, beta;
          for (int i = 0; i < 6; ++i) V.push_back(dec(-500, 500));
          for (int i = 0; i < 3; ++i) a.push_back(dec(200, 1500));
          for (int i = 0; i < 2; ++i) beta.push_back(dec(-1000, 1000));
          return instances::parse_instance(square_json(3, 2, V, a, beta, norm));
        }();
        const models::ValueSoftmax<IntervalD> m(inst);
        integrate::BallSet<IntervalD> ball_set;
        for (const auto& x : m.initial_state()) {
          ball_set.c.push_back(x);
          ball_set.offset.push_back(num::hull_of_bounds<IntervalD>(-width, width));
        }
        ball_set.ball = width / 3;
        const auto sparse = integrate::pl_ball(m, ball_set);
        const auto dense = integrate::pl_ball(m, integrate::DoubletonSet<IntervalD>::from_box(ball_set.box()));
        ASSERT_EQ(sparse.valid, dense.valid) << loss << " " << norm << " " << width;
        if (!sparse.valid) continue;
        ++valid;
        EXPECT_EQ(num::lower(sparse.g_norm), num::lower(dense.g_norm)) << loss << " " << norm << " " << width;
        EXPECT_EQ(num::upper(sparse.g_norm), num::upper(dense.g_norm)) << loss << " " << norm << " " << width;
        EXPECT_EQ(num::upper(sparse.radius), num::upper(dense.radius)) << loss << " " << norm << " " << width;
        EXPECT_EQ(num::lower(sparse.mu), num::lower(dense.mu)) << loss << " " << norm << " " << width;
        ASSERT_EQ(sparse.box.size(), dense.box.size());
        for (std::size_t i = 0; i < sparse.box.size(); ++i) {
          EXPECT_EQ(num::lower(sparse.box[i]), num::lower(dense.box[i]));
          EXPECT_EQ(num::upper(sparse.box[i]), num::upper(dense.box[i]));
        }
      }
  EXPECT_GE(valid, 12);  // most of the 24 sets have a ball: the comparison is not vacuous
}

TEST(PlTail, RandomRegressionInstancesContainA300BitReference) {
  unsigned seed = 70;
  for (const char* norm : {"softmax", "square", "sum", "sigmoid"}) {
    // the default rule: x² and sum settle more slowly here and may reach END = 200 first
    expect_tail_contains_reference(random_regression(++seed, norm), 200, norm, false);
  }
}

// PlTailOptions::decided: the run ends at the first ball whose box satisfies the caller's test,
// and that box still contains a 300-bit reference of x(END). The test asks the box to be at most
// `w` wide in every component, a question only a ball late enough can settle: the run must stop
// on a box that satisfies it (so the decided ball, not an earlier or the narrowest one, is
// returned), earlier than the default rule and at a box wider than the default rule's.
TEST(PlTail, DecidedStopsAtTheFirstBallThatSettlesTheQuestionAndContainsA300BitReference) {
  const auto inst = random_regression(91, "softmax");
  const double END = 200;
  std::vector<MpReal> ref;
  {
    num::PrecisionGuard g(300);
    ref = integrate::run_to_time<MpReal>(models::ValueSoftmax<MpReal>(inst), MpReal(END), integrate::Stepper::taylor, MpReal("1e-60")).x;
  }
  const models::ValueSoftmax<IntervalD> m(inst);
  integrate::PlTail<IntervalD> plain_tail;
  const auto plain = integrate::enclose_with_pl_tail(m, IntervalD(END), integrate::ValidatedOptions{}, {}, &plain_tail);
  const double w = 1e-3;
  auto narrow = [w](const std::vector<IntervalD>& box) {
    for (const auto& x : box)
      if (x.upper() - x.lower() > w) return false;
    return true;
  };
  integrate::PlTailOptions to;
  std::size_t calls = 0;
  to.decided = [&](const num::BoxBall<IntervalD>& ball) {
    ++calls;
    return narrow(ball.box());
  };
  integrate::PlTail<IntervalD> tail;
  const auto enc = integrate::enclose_with_pl_tail(m, IntervalD(END), integrate::ValidatedOptions{}, to, &tail);
  ASSERT_TRUE(tail.used);
  EXPECT_GT(calls, 1u);             // not decided on the first ball
  EXPECT_TRUE(narrow(enc.x));       // the box returned is the one the test held on
  EXPECT_LT(tail.steps, plain.steps);  // earlier than the default rule
  double widest = 0;
  for (const auto& x : enc.x) widest = std::max(widest, x.upper() - x.lower());
  EXPECT_GT(widest, w / 100);  // a wide box: the question, not the flow's settling, ended the run
  ASSERT_EQ(enc.x.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i)
    EXPECT_TRUE(contains(enc.x[i], ref[i])) << "component " << i << " [" << num::lower_decimal(enc.x[i]) << ", "
                                            << num::upper_decimal(enc.x[i]) << "] misses " << num::to_decimal(ref[i]);
  // The ball that ended the run: its box is enc.x, and the reference lies within Euclidean
  // distance R of its centre box (the finer statement callers use, numerics/box_ball.hpp).
  ASSERT_TRUE(enc.tail_ball.has_value());
  const auto ball_box = enc.tail_ball->box();
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_TRUE(num::subset(enc.x[i], ball_box[i])) << i;
  num::PrecisionGuard g(300);
  MpReal dist_sq(0);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const MpReal lo(enc.tail_ball->centre[i].lower()), hi(enc.tail_ball->centre[i].upper());
    const MpReal out = ref[i] < lo ? MpReal(lo - ref[i]) : (ref[i] > hi ? MpReal(ref[i] - hi) : MpReal(0));
    dist_sq += out * out;
  }
  const MpReal R(enc.tail_ball->radius.upper());
  EXPECT_LE(dist_sq, R * R) << "distance² " << num::to_decimal(dist_sq) << " > R² " << num::to_decimal(MpReal(R * R));
}

}  // namespace
}  // namespace softcert
