// The cross-entropy tail (integrate/cross_entropy_tail.hpp; docs/method.md §5d).
//  - the softmax floor lies below the exact root of kl(p ‖ x) = ε (300-bit bisection) and within
//    0.1 % of it (fails on a floor taken from the wrong side of the bisection);
//  - the rate κ = 2 S m/T satisfies ‖∇L‖² ≥ κ (L − L*) at 300 bits on states where ‖σ‖² = 1/T
//    exactly (a = 0) and q is off p̂ on its smallest and largest classes, within 8× of tight
//    (so a rate without the 1/T, 16× larger there, fails);
//  - the staged bound at H contains the 300-bit gap L(x(H)) − L* of a fast-tier reference run, from
//    the reference gap at s, on random instances;
//  - the loss-gap enclosure over a box contains L(x) − L* at its corners and random points (300 bits),
//    and its mean value form is what makes it narrow near the infimum.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "support/value_softmax_json.hpp"
#include "instances/instance.hpp"
#include "integrate/cross_entropy_tail.hpp"
#include "integrate/fast_run.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "support/mp_containment.hpp"
#include "support/random_inputs.hpp"

namespace softcert {
namespace {

using testing::contains;
using testing::milli;

// kl(p ‖ x) at the current MPFR precision.
MpReal ce_tail_binary_kl(const MpReal& p, const MpReal& x) {
  return p * boost::multiprecision::log(p / x) + (MpReal(1) - p) * boost::multiprecision::log((MpReal(1) - p) / (MpReal(1) - x));
}

// The x < p with kl(p ‖ x) = eps, by 1000 bisection steps at 300 bits (0 if kl(p ‖ 0+) ≤ eps).
MpReal ce_tail_exact_floor(const MpReal& p, const MpReal& eps) {
  MpReal lo(0), hi = p;
  for (int i = 0; i < 1000; ++i) {
    const MpReal m = (lo + hi) / 2;
    if (ce_tail_binary_kl(p, m) > eps) lo = m;
    else hi = m;
  }
  return lo;
}

TEST(CrossEntropyTail, SoftmaxFloorIsJustBelowTheExactRoot) {
  // (p, ε): the authors' smallest class (p ≈ 7.45e-5) at the gaps where the tail is taken, a
  // middle one, and a large p.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0.00007451665743705715", "1e-6"}, {"0.00007451665743705715", "3e-5"}, {"0.00007451665743705715", "2e-4"},
      {"0.0136890355", "1e-3"},          {"0.6294368932", "0.05"},           {"0.25", "1e-9"}};
  for (const auto& [ps, es] : cases) {
    const IntervalD p = num::parse_decimal<IntervalD>(ps), eps = num::parse_decimal<IntervalD>(es);
    const double m = integrate::softmax_floor(p, eps);
    num::PrecisionGuard g(300);
    const MpReal exact = ce_tail_exact_floor(MpReal(ps), MpReal(es));
    ASSERT_GT(exact, MpReal(0)) << ps << " " << es;
    EXPECT_LT(MpReal(m), exact) << ps << " " << es;                    // every q_r ≥ exact > m
    EXPECT_GT(MpReal(m), exact * MpReal("0.999")) << ps << " " << es;  // and not far below it
  }
  // No floor without a certainly positive p̂ or below 1.
  EXPECT_EQ(integrate::softmax_floor(IntervalD(0.0), IntervalD(1e-3)), 0.0);
  EXPECT_EQ(integrate::softmax_floor(IntervalD(1.0), IntervalD(1e-3)), 0.0);
}

// A cross-entropy instance (T scores, d classes).
nlohmann::json ce_tail_json(std::size_t T, std::size_t d, const std::vector<std::string>& V, const std::vector<std::string>& a,
                            const std::vector<std::string>& p) {
  nlohmann::json j = testing::value_softmax_json(T, d, V, a, "cross_entropy", "softmax", "test: cross-entropy tail");
  j["p"] = p;
  return j;
}

// L − L* and ‖∇L‖² (= ‖rhs‖²) at the instance's initial state, at the current MPFR precision.
std::pair<MpReal, MpReal> ce_tail_gap_and_grad2(const instances::Instance& inst) {
  const models::ValueSoftmax<MpReal> m(inst);
  MpReal sum(0), lstar(0);
  for (const auto& d : inst.p) sum += MpReal(d);
  for (const auto& d : inst.p) lstar -= MpReal(d) * boost::multiprecision::log(MpReal(d) / sum);
  const auto x = m.initial_state();
  std::vector<MpReal> f(x.size(), MpReal(0));
  m.rhs(x, f);
  MpReal g2(0);
  for (const auto& v : f) g2 += v * v;
  return {m.loss_value(x) - lstar, g2};
}

TEST(CrossEntropyTail, RateIsAPlConstantAndNearlyTight) {
  // d = 3 classes with p = (0.02, 0.18, 0.8), T = 16 scores at a = 0 (‖σ‖² = 1/T exactly, and
  // ∇_a L = 0 because V's columns are equal, so ‖∇L‖² = ‖g‖²/T).
  // V has equal columns v, so β = v and the logits are set directly: q = p̂ moved by ±ε·p̂_min on
  // the smallest and largest classes (the direction where KL ≤ ‖p̂ − q‖²/(2 min(p̂, q)) is least slack).
  const std::vector<std::string> p = {"0.02", "0.18", "0.8"};
  const std::vector<IntervalD> pe = {num::parse_decimal<IntervalD>(p[0]), num::parse_decimal<IntervalD>(p[1]),
                                     num::parse_decimal<IntervalD>(p[2])};
  for (double rel : {0.3, 0.1, 0.01, -0.1, -0.3}) {
    const double q0 = 0.02 * (1 + rel), q2 = 0.8 - 0.02 * rel;
    // β = log q (softmax(log q) = q since Σq = 1; the decimals round q slightly: only β counts).
    const std::vector<std::string> beta = {num::decimal_round_trip(std::log(q0)), num::decimal_round_trip(std::log(0.18)),
                                           num::decimal_round_trip(std::log(q2))};
    std::vector<std::string> V;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t k = 0; k < 16; ++k) V.push_back(beta[i]);
    const auto inst = instances::parse_instance(ce_tail_json(16, 3, V, std::vector<std::string>(16, "0"), p));
    num::PrecisionGuard g(300);
    const auto [gap, grad2] = ce_tail_gap_and_grad2(inst);
    ASSERT_GT(gap, MpReal(0));
    // ε = the gap / S, rounded up to a double interval.
    const double eps_up = static_cast<double>(gap) * (1 + 1e-12);
    const double kappa = integrate::cross_entropy_rate(pe, 16, IntervalD(eps_up));
    ASSERT_GT(kappa, 0.0) << rel;
    // The PL inequality the tail rests on; slack ≈ 2–3.2 here (the deviation is shared by two
    // classes, and the floor is below min q), so a rate without the 1/T (16× larger), or with
    // the KL step's factor 2 doubled, fails it.
    EXPECT_GE(grad2, MpReal(kappa) * gap) << rel;
    EXPECT_LT(grad2, MpReal(8 * kappa) * gap) << rel;  // and it is not vacuous
  }
}

TEST(CrossEntropyTail, StagedBoundIsNoLowerThanTheLemmaAtItsFinalRate) {
  // Every stage's rate is at most the rate at the final (smallest) gap G_N, and the stages cover
  // at most H − s, so G_N ≥ G_s·exp(−κ(G_N)(H − s)); with the rate nearly constant (gaps ≪ p_min)
  // the two are close. A stage decaying faster than its rate allows (e.g. exp(−2κΔ)) fails this.
  const std::vector<std::string> ps = {"0.02", "0.18", "0.8"};
  std::vector<IntervalD> p;
  for (const auto& d : ps) p.push_back(num::parse_decimal<IntervalD>(d));
  for (std::size_t T : {1u, 4u, 10u})
    for (double G : {1e-6, 1e-5, 1e-4}) {
      const double left = 2000;
      const auto tail = integrate::cross_entropy_tail_bound(p, T, G, left, 0);
      ASSERT_GT(tail.stages, 0u);
      const double kN = integrate::cross_entropy_rate(p, T, IntervalD(tail.gap_bound) / IntervalD(1.0));
      num::PrecisionGuard g(300);
      const MpReal lemma = MpReal(G) * boost::multiprecision::exp(-MpReal(kN) * MpReal(left));
      EXPECT_GE(MpReal(tail.gap_bound), lemma * MpReal("0.999999")) << T << " " << G;
      EXPECT_LE(MpReal(tail.gap_bound), MpReal(G)) << T << " " << G;
    }
}

instances::Instance ce_tail_random(unsigned seed, std::size_t T, std::size_t d) {
  std::mt19937 gen(seed);
  auto dec = [&gen](int lo, int hi) { return milli(std::uniform_int_distribution<int>(lo, hi)(gen)); };
  std::vector<std::string> V, a(T, "0"), p;
  for (std::size_t i = 0; i < d * T; ++i) V.push_back(dec(-300, 300));
  std::vector<int> w(d);
  int total = 0;
  for (auto& v : w) total += v = std::uniform_int_distribution<int>(20, 500)(gen);
  for (std::size_t i = 0; i < d; ++i) p.push_back(num::decimal_round_trip(static_cast<double>(w[i]) / total));
  return instances::parse_instance(ce_tail_json(T, d, V, a, p));
}

TEST(CrossEntropyTail, StagedBoundContainsA300BitReferenceGap) {
  for (unsigned seed : {3u, 4u, 5u}) {
    const auto inst = ce_tail_random(seed, 2 + seed % 2, 3);
    const double s = 40, H = 400;
    MpReal gap_s, gap_H;
    {
      num::PrecisionGuard g(300);
      const models::ValueSoftmax<MpReal> m(inst);
      MpReal sum(0), lstar(0);
      for (const auto& d : inst.p) sum += MpReal(d);
      for (const auto& d : inst.p) lstar -= MpReal(d) * boost::multiprecision::log(MpReal(d) / sum);
      gap_s = m.loss_value(integrate::run_to_time<MpReal>(m, MpReal(s), integrate::Stepper::taylor, MpReal("1e-60")).x) - lstar;
      gap_H = m.loss_value(integrate::run_to_time<MpReal>(m, MpReal(H), integrate::Stepper::taylor, MpReal("1e-60")).x) - lstar;
    }
    std::vector<IntervalD> p;
    for (const auto& d : inst.p) p.push_back(num::parse_decimal<IntervalD>(d));
    const double g_s = static_cast<double>(gap_s) * (1 + 1e-12);
    const auto tail = integrate::cross_entropy_tail_bound(p, inst.T, g_s, H - s, 0);
    EXPECT_GT(tail.stages, 0u) << seed;
    EXPECT_LT(tail.gap_bound, g_s) << seed;  // the lemma did decay the gap
    num::PrecisionGuard g(300);
    EXPECT_GE(MpReal(tail.gap_bound), gap_H) << seed << ": bound " << tail.gap_bound << " below the reference "
                                             << num::to_decimal(gap_H);
  }
}

TEST(CrossEntropyTail, LossGapEnclosureContainsA300BitReferenceAndIsNarrowNearTheInfimum) {
  // Near the infimum: β = log p̂ + small, so ∇L is small over the box.
  const std::vector<std::string> p = {"0.1", "0.3", "0.6"};
  std::vector<std::string> V;
  const double b[3] = {std::log(0.1) + 1e-3, std::log(0.3) - 2e-3, std::log(0.6)};
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 2; ++k) V.push_back(num::decimal_round_trip(b[i] + (k ? 1e-3 : -1e-3)));
  const auto inst = instances::parse_instance(ce_tail_json(2, 3, V, {"0.5", "-0.25"}, p));
  const models::ValueSoftmax<IntervalD> m(inst);
  IntervalD lstar(0.0);
  {
    IntervalD sum(0.0);
    for (const auto& d : p) sum += num::parse_decimal<IntervalD>(d);
    for (const auto& d : p) {
      const IntervalD pr = num::parse_decimal<IntervalD>(d);
      lstar -= pr * num::log(IntervalD(pr / sum));
    }
  }
  // A box of half-width ~1e-4 around the instance's state.
  std::vector<IntervalD> X = m.initial_state();
  for (auto& v : X) v = IntervalD(num::mid(v) - 1e-4, num::mid(v) + 1e-4);
  const IntervalD gap = integrate::loss_gap_enclosure(m, X, lstar);
  const IntervalD naive = m.loss_value(X) - lstar;
  EXPECT_LT(num::width(gap), 0.05 * num::width(naive));  // the mean value form is what narrows it
  num::PrecisionGuard g(300);
  const models::ValueSoftmax<MpReal> mr(inst);
  MpReal sum(0), ls(0);
  for (const auto& d : p) sum += MpReal(d);
  for (const auto& d : p) ls -= MpReal(d) * boost::multiprecision::log(MpReal(d) / sum);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(0, 1);
  const std::size_t n = X.size();
  for (std::size_t k = 0; k < 64 + (std::size_t(1) << n); ++k) {
    std::vector<MpReal> x(n);
    for (std::size_t i = 0; i < n; ++i) {
      // the first 2ⁿ points are the box's corners, then random points inside it
      const MpReal lo(num::lower(X[i])), hi(num::upper(X[i]));
      x[i] = k < (std::size_t(1) << n) ? ((k >> i) & 1 ? hi : lo) : lo + (hi - lo) * MpReal(u(gen));
    }
    const MpReal ref = mr.loss_value(x) - ls;
    EXPECT_TRUE(contains(gap, ref)) << "point " << k << ": [" << num::lower_decimal(gap) << ", " << num::upper_decimal(gap)
                                    << "] misses " << num::to_decimal(ref);
  }
}

}  // namespace
}  // namespace softcert
