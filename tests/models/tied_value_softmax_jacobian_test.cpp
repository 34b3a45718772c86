// The tied model's Jacobian in closed form over a box, τ-time (models/tied_value_softmax_jacobian.hpp),
// which the ball step uses for Df over its pieces' boxes (integrate/closed_form_jacobian.hpp):
//  1. containment: on random boxes around random states (moderate and polarised scores, radii
//     0, 1e-9 … 0.05) of random tied instances and of the authors' D = 10 instance, every entry of
//     the IntervalD closed form contains the Jacobian at sample points of the box (the centre,
//     corners, interior points), computed independently at 256 bits: the Taylor tape's
//     first-order derivative pass in MPFI on the point. A point of exact doubles with α exact
//     (equal scores) catches a wrong rounding direction. Fails with any one term dropped
//     (docs/method.md, "Tests", lists the mutations tried);
//  2. width: not much wider than the tape's Df over the same box (the sum of the widths, and the
//     certified bound μ of the logarithmic norm, printed);
//  The same containment and width hold for Df as the product L Rᵀ of its two thin factors
//  (models/tied_value_softmax_jacobian_factors.hpp), and the μ the ball step takes from the
//  factors (numerics/product_log_norm.hpp) is not far above the dense form's;
//  3. attached only in τ-time; its rows in two halves on two threads, and the ball step with it,
//     give the same bits as one thread.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/closed_form_jacobian.hpp"
#include "integrate/validated_taylor.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/tied_value_softmax_jacobian.hpp"
#include "models/tied_value_softmax_jacobian_factors.hpp"
#include "numerics/decimal.hpp"
#include "numerics/log_norm_bound.hpp"
#include "numerics/pair_runner.hpp"
#include "numerics/precision.hpp"
#include "numerics/product_log_norm.hpp"
#include "support/jacobian_checks.hpp"
#include "support/random_inputs.hpp"

namespace softcert {
namespace {

using testing::bitwise_equal;
using testing::tape_jacobian;

// A tied instance: U (D × D), a and β* as given decimals.
instances::Instance tied_instance_of(std::size_t D, const std::vector<std::string>& U, const std::vector<std::string>& a,
                                     const std::vector<std::string>& beta) {
  nlohmann::json j = {{"model", "tied_value_softmax"}, {"loss", "logistic"}, {"normalization", "softmax"},
                      {"T", D},                        {"d", D},             {"provenance", "test: tied closed-form Jacobian"}};
  j["U"] = nlohmann::json::array();
  for (std::size_t i = 0; i < D; ++i) j["U"].push_back(std::vector<std::string>(U.begin() + i * D, U.begin() + (i + 1) * D));
  j["a"] = a;
  j["beta"] = beta;
  return instances::parse_instance(j);
}

// A random tied instance with entries k/1000.
instances::Instance random_tied_instance(unsigned seed, std::size_t D) {
  std::mt19937 gen(seed);
  auto dec = [&gen](int lo, int hi) { return testing::milli(std::uniform_int_distribution<int>(lo, hi)(gen)); };
  std::vector<std::string> U, a, beta;
  for (std::size_t i = 0; i < D * D; ++i) U.push_back(dec(-1200, 1200));
  for (std::size_t k = 0; k < D; ++k) a.push_back(dec(-1000, 1000));
  for (std::size_t k = 0; k < D; ++k) beta.push_back(dec(-900, 900));
  return tied_instance_of(D, U, a, beta);
}

// The Jacobian of the instance's τ-time field at the point y, enclosed at 256 bits by the tape in MPFI.
std::vector<IntervalMp> tied_reference_jacobian(const instances::Instance& inst, const std::vector<double>& y) {
  num::PrecisionGuard guard(256);
  const models::TiedValueSoftmax<IntervalMp> model(inst, true);
  std::vector<IntervalMp> x(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) x[i] = IntervalMp(y[i]);
  return tape_jacobian(model, x);
}

// A box of radius r around a state whose U entries are uniform in ±umax, scores in ±amax, t in [0, 50].
std::vector<IntervalD> random_tied_box(testing::InputGenerator& gen, std::size_t D, double umax, double amax, double r) {
  std::vector<IntervalD> box;
  for (std::size_t i = 0; i < D * D + D + 1; ++i) {
    const double c = i < D * D ? gen.uniform(-umax, umax) : i < D * D + D ? gen.uniform(-amax, amax) : gen.uniform(0, 50);
    box.push_back(IntervalD(c - r, c + r));
  }
  return box;
}

// Df as the product L Rᵀ of the two factors (models/tied_value_softmax_jacobian_factors.hpp) in
// interval arithmetic: it holds every L Rᵀ with L, R in the factors.
bool tied_factor_product(const models::TiedValueSoftmax<IntervalD>& model, const std::vector<IntervalD>& box, std::vector<IntervalD>& Df) {
  std::vector<IntervalD> left, right;
  std::size_t k = 0;
  if (!models::tied_value_softmax_jacobian_factors(model, box, left, right, k)) return false;
  const std::size_t n = model.dimension();
  EXPECT_EQ(k, 4 * model.dim() + 1);
  EXPECT_EQ(left.size(), n * k);
  EXPECT_EQ(right.size(), n * k);
  Df.assign(n * n, IntervalD(0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t p = 0; p < k; ++p) Df[i * n + j] = Df[i * n + j] + left[i * k + p] * right[j * k + p];
  return true;
}

// Containment and width on one box (testing::check_closed_form_on_box), for the dense closed form
// and for the product of its factors; the factors' μ (numerics/product_log_norm.hpp) against the
// dense one's.
double check_tied_closed_form_on_box(const instances::Instance& inst, const std::vector<IntervalD>& box, testing::InputGenerator& gen,
                                     const std::string& what, std::size_t points = 6) {
  const models::TiedValueSoftmax<IntervalD> model(inst, true);
  auto reference = [&](const std::vector<double>& y) { return tied_reference_jacobian(inst, y); };
  testing::check_closed_form_on_box(
      model, [&](const std::vector<IntervalD>& b, std::vector<IntervalD>& Df) { return tied_factor_product(model, b, Df); }, reference,
      box, gen, what + " (factors)", points);
  std::vector<IntervalD> left, right, Df;
  std::size_t k = 0;
  EXPECT_TRUE(models::tied_value_softmax_jacobian_factors(model, box, left, right, k));
  EXPECT_TRUE(models::tied_value_softmax_jacobian(model, box, Df));
  const std::size_t n = model.dimension();
  const num::LogNormBound dense = num::log_norm_upper_bound(Df, n), product = num::log_norm_upper_bound_of_product(left, right, n, k);
  std::printf("%s: mu dense %.9g product %.9g\n", what.c_str(), dense.mu, product.mu);
  EXPECT_LE(product.mu, dense.mu + 0.25 * std::fabs(dense.mu) + 1e-9) << what;
  return testing::check_closed_form_on_box(
      model, [&](const std::vector<IntervalD>& b, std::vector<IntervalD>& Df) { return models::tied_value_softmax_jacobian(model, b, Df); },
      reference, box, gen, what, points);
}

TEST(TiedValueSoftmaxJacobian, ContainsThe256BitJacobianAtPointsOfRandomBoxes) {
  testing::InputGenerator gen(2026120601);
  unsigned seed = 500;
  for (std::size_t D : {2u, 3u, 5u})
    for (double r : {0.0, 1e-9, 1e-4, 0.05}) {  // r = 0: a point
      const instances::Instance inst = random_tied_instance(++seed, D);
      for (double amax : {1.0, 6.0}) {  // moderate scores, and polarised ones (α near one-hot)
        const std::vector<IntervalD> box = random_tied_box(gen, D, 1.5, amax, r);
        check_tied_closed_form_on_box(inst, box, gen,
                                      "D=" + std::to_string(D) + " r=" + std::to_string(r) + " amax=" + std::to_string(amax));
      }
    }
}

// A point where every input is a double and α is exact: U's first column is 3/4 throughout and
// a = (1/2, 0, …), so that z = U a has equal entries and α = 1/D exactly (D = 2, 4); U's other
// entries are random doubles and β* dyadic. Only the rounding of each operation can then give
// the entries their width: evaluated in the wrong rounding direction (the fast arithmetic
// outside its Guard rounds to nearest, and its intervals collapse to points) they miss the
// 256-bit Jacobian.
TEST(TiedValueSoftmaxJacobian, ContainsThe256BitJacobianAtAPointOfExactDoubles) {
  testing::InputGenerator gen(2026120602);
  for (std::size_t D : {2u, 4u})
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<std::string> U, a(D, "0"), beta;
      std::vector<IntervalD> box;
      a[0] = "0.5";
      for (std::size_t i = 0; i < D; ++i)
        for (std::size_t j = 0; j < D; ++j) {
          const double u = j == 0 ? 0.75 : gen.uniform(-1.5, 1.5);
          U.push_back(num::decimal_round_trip(u));
          box.push_back(IntervalD(u));
        }
      for (std::size_t k = 0; k < D; ++k) {
        beta.push_back(num::decimal_round_trip(std::round(gen.uniform(-64, 64)) / 64));
        box.push_back(IntervalD(k == 0 ? 0.5 : 0.0));
      }
      box.push_back(IntervalD(2.0));
      const instances::Instance inst = tied_instance_of(D, U, a, beta);
      check_tied_closed_form_on_box(inst, box, gen, "exact point D=" + std::to_string(D) + " #" + std::to_string(trial), 1);
    }
}

// The authors' D = 10 instance (n = 111): boxes around its initial state and around a polarised
// state (one score far ahead, as late in the run), with the widths of a ball step's piece.
TEST(TiedValueSoftmaxJacobian, ContainsThe256BitJacobianOnTheAuthorsD10Instance) {
  const instances::Instance inst =
      instances::load_instance(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/tied-D10.json");
  const models::TiedValueSoftmax<IntervalD> model(inst, true);
  testing::InputGenerator gen(2026120603);
  const std::vector<IntervalD> x0 = model.initial_state();
  for (double r : {1e-6, 1e-3}) {
    std::vector<IntervalD> box = x0, polar = x0;
    for (std::size_t i = 0; i < box.size(); ++i) {
      const double c = x0[i].lower() + (x0[i].upper() - x0[i].lower()) / 2;
      box[i] = IntervalD(c - r, c + r);
      const bool score = i >= model.a_offset() && i < model.time_index();
      const double cp = score ? c + (i == model.a_offset() + 3 ? 6.0 : gen.uniform(-1, 1)) : c + gen.uniform(-0.5, 0.5);
      polar[i] = IntervalD(cp - r, cp + r);
    }
    check_tied_closed_form_on_box(inst, box, gen, "authors D10 r=" + std::to_string(r), 2);
    check_tied_closed_form_on_box(inst, polar, gen, "authors D10 polarised r=" + std::to_string(r), 2);
  }
}

TEST(TiedValueSoftmaxJacobian, OnlyInTauTime) {
  const instances::Instance inst = random_tied_instance(9, 3);
  const models::TiedValueSoftmax<IntervalD> t_time(inst, false), tau(inst, true);
  EXPECT_FALSE(models::has_closed_form_jacobian(t_time));
  std::vector<IntervalD> Df;
  EXPECT_FALSE(models::tied_value_softmax_jacobian(t_time, t_time.initial_state(), Df));
  auto f = [&t_time](const auto& y, auto& dy) { t_time.rhs(y, dy); };
  integrate::BallStepper<IntervalD, decltype(f)> st(f, t_time.dimension());
  integrate::use_closed_form_jacobian(st, t_time);
  EXPECT_FALSE(st.has_box_jacobian());
  auto g = [&tau](const auto& y, auto& dy) { tau.rhs(y, dy); };
  integrate::BallStepper<IntervalD, decltype(g)> st2(g, tau.dimension());
  integrate::use_closed_form_jacobian(st2, tau);
  EXPECT_TRUE(st2.has_box_jacobian());
}

// The rows in two halves on two threads (the second job on a thread of its own, which starts in
// round-to-nearest: each half must set its own mode), or run backwards: one thread's bits.
TEST(TiedValueSoftmaxJacobian, TwoThreadsGiveOneThreadsBits) {
  const instances::Instance inst =
      instances::load_instance(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/tied-D10.json");
  const models::TiedValueSoftmax<IntervalD> model(inst, true);
  testing::InputGenerator gen(2026120604);
  const std::vector<IntervalD> box = random_tied_box(gen, 10, 1.5, 4.0, 1e-3);
  std::vector<IntervalD> one, two, backwards;
  ASSERT_TRUE(models::tied_value_softmax_jacobian(model, box, one));
  const num::PairRunner on_two = [](const std::function<void()>& a, const std::function<void()>& b) {
    std::thread t([&b] {
      std::fesetround(FE_TONEAREST);
      b();
    });
    a();
    t.join();
  };
  const num::PairRunner reversed = [](const std::function<void()>& a, const std::function<void()>& b) {
    b();
    a();
  };
  ASSERT_TRUE(models::tied_value_softmax_jacobian(model, box, two, on_two));
  ASSERT_TRUE(models::tied_value_softmax_jacobian(model, box, backwards, reversed));
  ASSERT_EQ(one.size(), two.size());
  ASSERT_EQ(one.size(), backwards.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < one.size(); ++k)
    for (const auto* other : {&two, &backwards})
      if (!bitwise_equal(one[k].lower(), (*other)[k].lower()) || !bitwise_equal(one[k].upper(), (*other)[k].upper())) ++differ;
  EXPECT_EQ(differ, 0u);
}

TEST(TiedValueSoftmaxJacobian, BallStepWithTheClosedFormGivesTheSameBitsOnOneAndTwoThreads) {
  const instances::Instance inst = random_tied_instance(11, 4);
  const models::TiedValueSoftmax<IntervalD> model(inst, true);
  testing::expect_closed_form_ball_step_same_bits_on_one_and_two_threads(model, 1.0);
}

}  // namespace
}  // namespace softcert
