// The rigorous tier on the logistic reduced value-softmax flow (models/logistic_reduced.hpp):
//  - T = 2: H = cosh(a1 − a2) − (u1 − u2)²/(2c) is conserved; its enclosure over every tube
//    segment must contain H(x(0));
//  - random instances: the enclosures contain an independent high-precision reference
//    (Taylor series in MPFR at 256 bits, non-rigorous, step 0.1, order 20: local error ≈ 1e-21), from points and
//    from boxes;
//  - τ-time: the enclosure of the state at a given t agrees with (overlaps) the t-time one
//    and contains the reference;
//  - the entry point of `softcert integrate --tier rigorous`.
#include <gtest/gtest.h>

#include <cstdio>

#include <cmath>
#include <fstream>
#include <random>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/logistic_reduced.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "taylor/series.hpp"

namespace softcert {
namespace {

using integrate::ValidatedTaylor;

// Non-rigorous reference: Taylor series of order `order` in MpReal, via taylor::Series
// (whole-series Picard: coefficient k+1 from f evaluated on the order-k series), fixed steps.
template <class Model>
std::vector<MpReal> reference_solution(const Model& m, std::vector<MpReal> x, double t_end, double h = 0.1, std::size_t order = 20) {
  const std::size_t n = x.size();
  const int steps = static_cast<int>(std::ceil(t_end / h));
  const MpReal hh = MpReal(t_end) / steps;
  for (int s = 0; s < steps; ++s) {
    std::vector<taylor::Series<MpReal>> X(n);
    for (std::size_t i = 0; i < n; ++i) X[i] = taylor::Series<MpReal>(std::vector<MpReal>{x[i]});
    for (std::size_t k = 0; k < order; ++k) {
      std::vector<taylor::Series<MpReal>> F(n);
      m.rhs(X, F);
      for (std::size_t i = 0; i < n; ++i) {
        std::vector<MpReal> c = X[i].coefficients();
        c.resize(k + 2, MpReal(0));
        const MpReal fk = k < F[i].size() ? F[i][k] : MpReal(0);
        c[k + 1] = fk / MpReal(static_cast<int>(k + 1));
        X[i] = taylor::Series<MpReal>(c);
      }
    }
    for (std::size_t i = 0; i < n; ++i) x[i] = X[i].evaluate(hh);
  }
  return x;
}

bool contains_mp(const IntervalD& box, const MpReal& v) {
  return MpReal(box.lower()) <= v && v <= MpReal(box.upper());
}

struct Instance {
  std::vector<double> a, u;
  double c;
};

// Random instance: a, u entries from raw mt19937_64 words (no std:: distributions), dyadic
// (exact in double and MPFR), c = 1.
Instance random_instance(std::uint64_t seed, std::size_t T) {
  std::mt19937_64 g(seed);
  auto unit = [&] { return static_cast<double>(g() >> 11) * 0x1.0p-53; };
  Instance in;
  for (std::size_t i = 0; i < T; ++i) in.a.push_back(std::ldexp(std::floor(std::ldexp(2 * unit() - 1, 20)), -20));
  for (std::size_t i = 0; i < T; ++i) in.u.push_back(std::ldexp(std::floor(std::ldexp(4 * unit() - 2, 20)), -20));
  in.c = 1;
  return in;
}

template <class S>
models::LogisticReduced<S> model_of(const Instance& in) {
  std::vector<S> a, u;
  for (double v : in.a) a.push_back(S(v));
  for (double v : in.u) u.push_back(S(v));
  return models::LogisticReduced<S>(a, u, S(in.c));
}

template <class S>
S energy(const std::vector<S>& x, const S& c) {  // T = 2
  const S d = x[0] - x[1], du = x[2] - x[3];
  const S e = num::exp(d), em = num::exp(S(-d));
  return (e + em) / S(2) - num::sqr(du) / (S(2) * c);
}

TEST(ValidatedLogistic, TwoTokenEnergyIsConservedInsideEveryEnclosure) {
  const Instance in{{0.25, -0.5}, {1.5, -0.75}, 1.0};
  const auto m = model_of<IntervalD>(in);
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  ValidatedTaylor<IntervalD, decltype(field)> vt(field, 4);
  const auto tube = vt.integrate(m.initial_state(), IntervalD(0.0), IntervalD(30.0));
  const IntervalD H0 = energy(m.initial_state(), m.c());
  const bool all = tube.all_segments([&](const std::vector<IntervalD>& box) {
    const IntervalD H = energy(box, m.c());
    return num::possibly_le(H, H0) && num::possibly_ge(H, H0);  // the exact H0 ∈ H(box) is possible
  });
  EXPECT_TRUE(all);
  const IntervalD Hf = energy(tube.final_box(), m.c());
  EXPECT_TRUE(num::subset(H0, IntervalD(Hf.lower() - 1e-300, Hf.upper() + 1e-300)) || (num::possibly_le(Hf, H0) && num::possibly_ge(Hf, H0)));
  EXPECT_LT(num::width(Hf), 1e-10);  // and the enclosure is tight enough to mean something
}

TEST(ValidatedLogistic, RandomInstancesContainTheHighPrecisionReference) {
  num::PrecisionGuard g(256);
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const std::size_t T = 2 + seed % 3;
    const Instance in = random_instance(seed, T);
    const auto m = model_of<IntervalD>(in);
    auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
    ValidatedTaylor<IntervalD, decltype(field)> vt(field, 2 * T);
    const double t_end = 3.0;
    const auto tube = vt.integrate(m.initial_state(), IntervalD(0.0), IntervalD(t_end));
    const auto mref = model_of<MpReal>(in);
    const auto ref = reference_solution(mref, mref.initial_state(), t_end);
    for (std::size_t i = 0; i < 2 * T; ++i) {
      EXPECT_TRUE(contains_mp(tube.final_box()[i], ref[i])) << "seed " << seed << " component " << i;
      EXPECT_LT(num::width(tube.final_box()[i]), 1e-12);
    }
  }
}

TEST(ValidatedLogistic, BoxInitialSetContainsEveryCornerSolution) {
  num::PrecisionGuard g(256);
  const Instance in = random_instance(7, 2);
  const double w = 1e-6;
  std::vector<IntervalD> box;
  for (double v : in.a) box.push_back(IntervalD(v - w, v + w));
  for (double v : in.u) box.push_back(IntervalD(v - w, v + w));
  const auto m = model_of<IntervalD>(in);
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  ValidatedTaylor<IntervalD, decltype(field)> vt(field, 4);
  const auto tube = vt.integrate(box, IntervalD(0.0), IntervalD(2.0));
  for (int corner : {0, 5, 10, 15}) {  // opposite corners and two mixed ones
    Instance ci = in;
    for (int i = 0; i < 2; ++i) ci.a[i] += ((corner >> i) & 1) ? w : -w;
    for (int i = 0; i < 2; ++i) ci.u[i] += ((corner >> (2 + i)) & 1) ? w : -w;
    const auto mref = model_of<MpReal>(ci);
    const auto ref = reference_solution(mref, mref.initial_state(), 2.0);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_TRUE(contains_mp(tube.final_box()[i], ref[i])) << corner << " " << i;
  }
  // Lohner keeps the box close to the exact image: width grows like the flow's expansion, not exponentially.
  for (const auto& v : tube.final_box()) EXPECT_LT(num::width(v), 100 * w);
}

// The derivative pass from the O(T) quotient softmax (SoftmaxForm::quotient, as
// integrate/rigorous_integrate.cpp sets it) while the coefficients keep the pairwise form: from a
// box at T = 16, every corner solution tried stays inside, and the box is as narrow as with the
// pairwise Jacobian (the Jacobian carries the box: A·[r]).
TEST(ValidatedLogistic, QuotientSoftmaxJacobianCarriesABoxAtLargeT) {
  num::PrecisionGuard g(256);
  const std::size_t T = 16;
  const Instance in = random_instance(11, T);
  const double w = 1e-6;
  std::vector<IntervalD> box;
  for (double v : in.a) box.push_back(IntervalD(v - w, v + w));
  for (double v : in.u) box.push_back(IntervalD(v - w, v + w));
  const auto m = model_of<IntervalD>(in);
  const auto mq = m.with_softmax_form(models::SoftmaxForm::quotient);
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  ValidatedTaylor<IntervalD, decltype(field)> pairwise(field, 2 * T), quotient(field, 2 * T);
  quotient.set_double_jacobian_field([&mq](const auto& y, auto& dy) { mq.rhs(y, dy); });
  const auto tp = pairwise.integrate(box, IntervalD(0.0), IntervalD(2.0));
  const auto tq = quotient.integrate(box, IntervalD(0.0), IntervalD(2.0));
  for (std::uint64_t corner : {0x0ull, 0xffffffffull, 0x5a5a5a5aull, 0x3c3c00ffull}) {
    Instance ci = in;
    for (std::size_t i = 0; i < T; ++i) ci.a[i] += ((corner >> i) & 1) ? w : -w;
    for (std::size_t i = 0; i < T; ++i) ci.u[i] += ((corner >> (T + i)) & 1) ? w : -w;
    const auto mref = model_of<MpReal>(ci);
    const auto ref = reference_solution(mref, mref.initial_state(), 2.0);
    for (std::size_t i = 0; i < 2 * T; ++i) EXPECT_TRUE(contains_mp(tq.final_box()[i], ref[i])) << corner << " " << i;
  }
  for (std::size_t i = 0; i < 2 * T; ++i) {
    EXPECT_LT(num::width(tq.final_box()[i]), 100 * w);
    EXPECT_LT(num::width(tq.final_box()[i]), 1.01 * num::width(tp.final_box()[i]) + 1e-15) << i;
  }
}

TEST(ValidatedLogistic, TauTimeStateAtAGivenTimeAgreesWithTTime) {
  num::PrecisionGuard g(256);
  const Instance in = random_instance(11, 3);
  std::vector<IntervalD> a, u;
  for (double v : in.a) a.push_back(IntervalD(v));
  for (double v : in.u) u.push_back(IntervalD(v));
  const models::LogisticReducedTau<IntervalD> mt(a, u, IntervalD(in.c));
  auto ftau = [&mt](const auto& y, auto& dy) { mt.rhs(y, dy); };
  ValidatedTaylor<IntervalD, decltype(ftau)> vt(ftau, mt.dimension());
  const double t_target = 4.0;
  const auto hit = integrate::integrate_to_component_value(vt, mt.initial_state(), mt.time_index(), IntervalD(t_target), IntervalD(100.0), 10000);
  const auto mref = model_of<MpReal>(in);
  const auto ref = reference_solution(mref, mref.initial_state(), t_target);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_TRUE(contains_mp(hit.box[i], ref[i])) << i;
    EXPECT_LT(num::width(hit.box[i]), 1e-10) << i;
  }
  EXPECT_TRUE(num::certainly_positive(hit.tau));
  EXPECT_TRUE(num::certainly_lt(hit.tau, IntervalD(t_target)));  // dt/dτ > 1 ⇒ τ* < t*
}

TEST(ValidatedLogistic, GridOfTimesRefusesTimesThatAreNotPositiveAndIncreasing) {
  std::ifstream f(SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json");
  const auto pb = instances::parse_instance(nlohmann::json::parse(f));
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"2", "1"}, {"1", "1"}, {"0", "1"}, {"-1"}, {"1", "x"}})
    EXPECT_THROW(integrate::rigorous_integrate_at(pb, bad), std::invalid_argument) << bad.front() << ", " << bad.back();
  EXPECT_TRUE(integrate::rigorous_integrate_at(pb, {}).empty());
  // one pass, two times: the second equals a separate integration to it (same steps, same cap)
  const auto grid = integrate::rigorous_integrate_at(pb, {"0.5", "2"});
  integrate::RigorousIntegrateOptions o;
  o.time_variable = integrate::PlanTime::tau;
  const auto single = integrate::rigorous_integrate(pb, "2", o);
  ASSERT_EQ(grid.size(), 2u);
  EXPECT_EQ(grid[1].u[0].lower_text(), single.u[0].lower_text());
  EXPECT_EQ(grid[1].steps, single.steps);
  EXPECT_LT(grid[0].steps, grid[1].steps);
}

TEST(ValidatedLogistic, EntryPointOnTheHeadlineInstance) {
  std::ifstream f(SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json");
  ASSERT_TRUE(f.good());
  const auto inst = nlohmann::json::parse(f);
  integrate::RigorousIntegrateOptions o;
  const auto r = integrate::rigorous_integrate(inst, "2", o);
  EXPECT_EQ(r.a.size(), 8u);
  EXPECT_LT(r.max_width, 1e-12);
  // softmax entries enclose numbers in (0, 1) summing to 1
  IntervalD sum(0.0);
  for (const auto& e : r.softmax) sum += num::hull_of_bounds<IntervalD>(std::stod(e.lower_text()), std::stod(e.upper_text()));
  EXPECT_TRUE(num::contains(IntervalD(sum.lower() - 1e-15, sum.upper() + 1e-15), 1.0));
  // τ-time at the same t overlaps
  o.time_variable = integrate::PlanTime::tau;
  const auto rt = integrate::rigorous_integrate(inst, "2", o);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_LE(std::stod(rt.u[i].lower_text()), std::stod(r.u[i].upper_text()) + 1e-15);
    EXPECT_LE(std::stod(r.u[i].lower_text()), std::stod(rt.u[i].upper_text()) + 1e-15);
  }
  const auto j = integrate::to_json(r);
  EXPECT_EQ(j["tier"], "rigorous");
  EXPECT_EQ(j["a"].size(), 8u);
  EXPECT_EQ(j["V"].size(), 8u);
  // bad input names the field
  auto bad = inst;
  bad["a"][3] = "zero";
  try {
    integrate::rigorous_integrate(bad, "1", o);
    ADD_FAILURE() << "accepted a non-decimal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a[3]"), std::string::npos) << e.what();
  }
  bad = inst;
  bad["loss"] = "square";
  EXPECT_THROW(integrate::rigorous_integrate(bad, "1", o), std::invalid_argument);
}


// MPFI with the Lohner Jacobian in IntervalD (set_double_jacobian_field): the enclosures
// still contain a 300-bit reference, and they are as tight as the all-MPFI path's (within 4×):
// the double Jacobian's width only enters through A·[r].
TEST(ValidatedLogistic, MpfiWithDoubleJacobianContainsTheReference) {
  num::PrecisionGuard g(300);
  for (std::uint64_t seed : {1u}) {
    const Instance in = random_instance(seed, 3);
    instances::Instance pb;
    pb.loss = instances::Loss::logistic;
    pb.normalization = instances::Normalization::softmax;
    pb.T = 3;
    pb.d = 1;
    pb.beta = {"1"};  // c = 1, u(0) = V(0)ᵀβ* = V row 0
    pb.V.assign(1, {});
    auto exact = [](double v) {  // the dyadic's exact decimal expansion (glibc prints it exactly)
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.30f", v);
      return std::string(buf);
    };
    for (std::size_t i = 0; i < 3; ++i) {
      pb.a.push_back(exact(in.a[i]));
      pb.V[0].push_back(exact(in.u[i]));
    }
    const auto mref = model_of<MpReal>(in);
    const auto ref = reference_solution(mref, mref.initial_state(), 1.0, 0.25, 40);
    integrate::RigorousIntegrateOptions o;
    o.precision_bits = 128;
    const auto mixed = integrate::rigorous_integrate(pb, "1", o);
    o.double_jacobian = false;
    const auto mpfi = integrate::rigorous_integrate(pb, "1", o);
    for (std::size_t i = 0; i < 3; ++i)
      for (const auto* r : {&mixed, &mpfi}) {
        EXPECT_LE(MpReal(r->a[i].lower_text()), ref[i]) << seed << " a" << i;
        EXPECT_GE(MpReal(r->a[i].upper_text()), ref[i]) << seed << " a" << i;
        EXPECT_LE(MpReal(r->u[i].lower_text()), ref[3 + i]) << seed << " u" << i;
        EXPECT_GE(MpReal(r->u[i].upper_text()), ref[3 + i]) << seed << " u" << i;
      }
    EXPECT_LT(mixed.max_width, 1e-30) << seed << " widths " << mixed.max_width << " / " << mpfi.max_width;
    EXPECT_LT(mixed.max_width, 4 * mpfi.max_width) << seed;
  }
}

// A box of initial points at 128 bits: the Jacobian is what carries the box (A·[r]), so every
// corner solution must stay inside when it is computed in IntervalD, and the box must stay
// close to the exact image.
TEST(ValidatedLogistic, MpfiBoxWithDoubleJacobianContainsEveryCornerSolution) {
  num::PrecisionGuard g(300);
  const Instance in = random_instance(7, 2);
  const double w = 1e-12;
  auto run = [&] {
    num::PrecisionGuard g128(128);
    std::vector<IntervalMp> box;
    for (double v : in.a) box.push_back(num::hull_of_bounds<IntervalMp>(MpReal(v - w), MpReal(v + w)));
    for (double v : in.u) box.push_back(num::hull_of_bounds<IntervalMp>(MpReal(v - w), MpReal(v + w)));
    const auto m = model_of<IntervalMp>(in);
    const auto md = model_of<IntervalD>(in);
    auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
    ValidatedTaylor<IntervalMp, decltype(field)> vt(field, 4);
    vt.set_double_jacobian_field([&md](const auto& y, auto& dy) { md.rhs(y, dy); });
    return vt.integrate(box, IntervalMp(0), IntervalMp(1)).final_box();
  };
  const auto good = run();
  for (int corner : {0, 5, 10, 15}) {  // opposite corners and two mixed ones
    Instance ci = in;
    for (int i = 0; i < 2; ++i) ci.a[i] += ((corner >> i) & 1) ? w : -w;
    for (int i = 0; i < 2; ++i) ci.u[i] += ((corner >> (2 + i)) & 1) ? w : -w;
    const auto mref = model_of<MpReal>(ci);
    const auto ref = reference_solution(mref, mref.initial_state(), 1.0, 0.25, 40);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_TRUE(num::contains(good[i], ref[i])) << corner << " " << i;
    }
  }
  for (const auto& v : good) EXPECT_LT(num::width(v), MpReal(100 * w));
}

}  // namespace
}  // namespace softcert

namespace softcert {
namespace {

// At 128 bits with the double Jacobian (q = p), the a priori box's polynomial Σ x_k([X]) H^k
// takes x_k, k ≥ 1, from the IntervalD derivative pass and the box tape in MPFI is skipped
// (integrate/validated_taylor.hpp, step 2). What the a priori box must hold is every solution
// over the whole step: each tube segment (intersected with it) contains the 300-bit reference
// at times inside the step, not only at its end. (Mutation checked: with those coefficients
// dropped from P the a priori test still passes on a box around [X]; the final enclosures still
// contain the reference, but the segment boxes miss it: 66 failed checks here.)
TEST(ValidatedLogistic, MpfiDoubleBoxCoefficientsEncloseTheSolutionInsideEveryStep) {
  num::PrecisionGuard g(300);
  const Instance in = random_instance(3, 3);
  const auto mref = model_of<MpReal>(in);
  std::vector<integrate::TubeSegment<IntervalMp>> segments;
  double box_record = -1;
  {
    num::PrecisionGuard g128(128);
    const auto m = model_of<IntervalMp>(in);
    const auto md = model_of<IntervalD>(in);
    auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
    ValidatedTaylor<IntervalMp, decltype(field)> vt(field, 6);
    vt.set_double_jacobian_field([&md](const auto& y, auto& dy) { md.rhs(y, dy); });
    segments = vt.integrate(m.initial_state(), IntervalMp(0), IntervalMp(1)).segments();
    box_record = vt.profile().box_record;  // never lapped on this path: no MPFI box tape
  }
  EXPECT_EQ(box_record, 0.0);
  ASSERT_GE(segments.size(), 2u);
  // reference: ~1e-40 local error per 0.125 (order 30 at 300 bits), far below the boxes' widths
  for (std::size_t s = 0; s < segments.size(); ++s) {
    const double t0 = num::to_double(num::hull_of_bounds<IntervalMp>(num::upper(segments[s].t0), num::upper(segments[s].t0)));
    const double t1 = num::to_double(num::hull_of_bounds<IntervalMp>(num::lower(segments[s].t1), num::lower(segments[s].t1)));
    const double t = t0 + 0.6 * (t1 - t0);
    const auto ref = reference_solution(mref, mref.initial_state(), t, 0.125, 30);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_TRUE(num::contains(segments[s].box[i], ref[i])) << s << " " << i;
  }
}

}  // namespace
}  // namespace softcert
