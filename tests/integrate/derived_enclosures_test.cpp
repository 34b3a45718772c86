// integrate/derived_enclosures.hpp: the derived quantities of a rigorous result contain the
// values computed with MPFR at 300 bits at every corner-free point of the boxes tried, their
// decimal ends are outward (a thin state gives an enclosure around the exact value, not on one
// side), and the closed forms hold (uniform weights: H = log T, max weight 1/T, no argmax).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "integrate/derived_enclosures.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {
namespace {

EnclosedValue box(const std::string& lo, const std::string& hi) { return EnclosedValue{num::Enclosure::parse(lo, hi), 0}; }
EnclosedValue thin(const std::string& x) { return box(x, x); }

MpReal mp(const std::string& s) { return num::parse_decimal<MpReal>(s); }

bool contains(const EnclosedValue& e, const MpReal& x) { return mp(e.lower_text()) <= x && x <= mp(e.upper_text()); }

TEST(DerivedEnclosures, UniformWeightsGiveTheClosedForms) {
  RigorousIntegrateResult r;
  r.precision_bits = 53;
  for (int k = 0; k < 4; ++k) {
    r.a.push_back(thin("0"));
    r.softmax.push_back(thin("0.25"));
  }
  r.loss = thin("0.5");
  const DerivedEnclosures d = derive_enclosures(r);
  num::PrecisionGuard g(300);
  ASSERT_TRUE(d.entropy && d.max_weight && d.score_gap);
  EXPECT_TRUE(contains(*d.entropy, boost::multiprecision::log(MpReal(4))));
  // Outward: log 4 is irrational, so neither end may equal it and the width must be > 0.
  EXPECT_LT(mp(d.entropy->lower_text()), mp(d.entropy->upper_text()));
  EXPECT_LT(mp(d.entropy->upper_text()) - mp(d.entropy->lower_text()), MpReal("1e-14"));
  EXPECT_TRUE(contains(*d.max_weight, MpReal("0.25")));
  EXPECT_FALSE(d.argmax.has_value());
  EXPECT_EQ(mp(d.score_gap->lower_text()), 0);
  EXPECT_EQ(mp(d.score_gap->upper_text()), 0);
  EXPECT_TRUE(contains(d.loss, MpReal("0.5")));
}

TEST(DerivedEnclosures, RandomBoxesContainEveryPointsValues) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> score(-3, 3), rad(0, 1e-6);
  for (int trial = 0; trial < 200; ++trial) {
    const int T = 2 + trial % 5;
    RigorousIntegrateResult r;
    r.precision_bits = trial % 2 ? 53 : 120;
    std::vector<double> a(T);
    std::vector<double> lo(T), hi(T);
    for (int k = 0; k < T; ++k) {
      a[k] = score(rng);
      const double w = rad(rng);
      r.a.push_back(box(num::to_decimal(a[k] - w), num::to_decimal(a[k] + w)));
    }
    // Weights: a box around softmax(a) at each point, widened by 1e-9.
    double z = 0;
    for (double x : a) z += std::exp(x);
    for (int k = 0; k < T; ++k) {
      const double s = std::exp(a[k]) / z;
      r.softmax.push_back(box(num::to_decimal(s - 1e-9), num::to_decimal(s + 1e-9)));
    }
    r.loss = box("0.1", "0.2");
    const DerivedEnclosures d = derive_enclosures(r);
    num::PrecisionGuard g(300);
    // Points of the boxes: each end and the middle of every weight, chosen at random.
    std::uniform_int_distribution<int> pick(0, 2);
    for (int sample = 0; sample < 20; ++sample) {
      std::vector<MpReal> w(T), s(T);
      MpReal sum = 0;
      for (int k = 0; k < T; ++k) {
        const MpReal L = mp(r.softmax[k].lower_text()), H = mp(r.softmax[k].upper_text());
        const int c = pick(rng);
        w[k] = c == 0 ? L : c == 1 ? H : (L + H) / 2;
        sum += w[k];
        const MpReal aL = mp(r.a[k].lower_text()), aH = mp(r.a[k].upper_text());
        s[k] = c == 0 ? aL : c == 1 ? aH : (aL + aH) / 2;
      }
      MpReal h = 0, best = 0;
      for (int k = 0; k < T; ++k) {
        const MpReal p = w[k] / sum;
        h -= p * boost::multiprecision::log(p);
        if (p > best) best = p;
      }
      ASSERT_TRUE(d.entropy.has_value());
      EXPECT_TRUE(contains(*d.entropy, h)) << "trial " << trial;
      EXPECT_TRUE(contains(*d.max_weight, best)) << "trial " << trial;
      std::vector<MpReal> sorted = s;
      std::sort(sorted.begin(), sorted.end(), [](const MpReal& x, const MpReal& y) { return x > y; });
      EXPECT_TRUE(contains(*d.score_gap, sorted[0] - sorted[1])) << "trial " << trial;
      for (int k = 0; k < T; ++k) EXPECT_TRUE(contains(d.gaps_to_max[k], sorted[0] - s[k])) << "trial " << trial;
    }
    if (d.argmax) {
      for (int k = 0; k < T; ++k)
        if (k != static_cast<int>(*d.argmax)) { EXPECT_GT(mp(r.softmax[*d.argmax].lower_text()), mp(r.softmax[k].upper_text())); }
    }
  }
}

TEST(DerivedEnclosures, SignedWeightsHaveNoEntropy) {
  RigorousIntegrateResult r;
  r.precision_bits = 53;
  r.a = {thin("1"), thin("-1")};
  r.softmax = {thin("1.5"), thin("-0.5")};  // the sum normalization: a_k / Σa
  r.loss = thin("1");
  const DerivedEnclosures d = derive_enclosures(r);
  EXPECT_FALSE(d.entropy.has_value());
  EXPECT_NE(d.entropy_note.find("undefined"), std::string::npos);
  ASSERT_TRUE(d.argmax.has_value());
  EXPECT_EQ(*d.argmax, 0u);
}

TEST(DerivedEnclosures, IntervalVectorsGiveTheSameAsTheResult) {
  // The checks' entry point (interval vectors) and the result's (decimal enclosures) agree.
  RigorousIntegrateResult r;
  r.precision_bits = 53;
  r.a = {box("0.1", "0.2"), box("-1", "-0.9"), thin("2")};
  r.softmax = {box("0.2", "0.21"), box("0.05", "0.06"), box("0.7", "0.75")};
  r.loss = thin("0.3");
  std::vector<IntervalD> a, w;
  for (const auto& e : r.a) a.push_back(num::hull_of_bounds<IntervalD>(std::stod(e.lower_text()), std::stod(e.upper_text())));
  for (const auto& e : r.softmax) w.push_back(num::hull_of_bounds<IntervalD>(std::stod(e.lower_text()), std::stod(e.upper_text())));
  // 0.1, 0.2, ... are not doubles: the result's path widens them outward, so compare by containment.
  const DerivedEnclosures x = derive_enclosures(r), y = derive_enclosures(a, w, IntervalD(0.3));
  ASSERT_TRUE(x.entropy && y.entropy);
  EXPECT_LE(std::stod(x.entropy->lower_text()), std::stod(y.entropy->lower_text()) + 1e-15);
  EXPECT_GE(std::stod(x.entropy->upper_text()), std::stod(y.entropy->upper_text()) - 1e-15);
  EXPECT_EQ(x.argmax, y.argmax);
  EXPECT_EQ(x.argmax, 2u);
}

TEST(DerivedEnclosures, PointsAreThePlainFormulas) {
  const DerivedEnclosures d = derive_points({0.0, 1.0}, {0.25, 0.75}, 0.3);
  ASSERT_TRUE(d.entropy && d.max_weight && d.score_gap);
  EXPECT_NEAR(std::stod(d.entropy->lower_text()), -(0.25 * std::log(0.25) + 0.75 * std::log(0.75)), 1e-15);
  EXPECT_EQ(d.entropy->lower_text(), d.entropy->upper_text());
  EXPECT_EQ(std::stod(d.max_weight->lower_text()), 0.75);
  EXPECT_EQ(std::stod(d.score_gap->lower_text()), 1.0);
  EXPECT_EQ(d.argmax, 1u);
}

}  // namespace
}  // namespace softcert::integrate
