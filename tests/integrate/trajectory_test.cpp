// The trajectory API (integrate/tube.hpp, step_record.hpp, step_series.hpp, walk.hpp) against a
// closed-form flow: x' = Ax with A = [[−1, 2], [0, −3]], whose solution is
//     x2(t) = x2₀ e^{−3t},   x1(t) = x1₀ e^{−t} + x2₀ (e^{−t} − e^{−3t}).
// Every query — the state over a sub-interval of a step, a coordinate, the difference x1 − x2,
// a linear functional, their Taylor forms (value, slope, derivative along the flow), any
// function of the state, and the same over a time interval spanning several steps — must
// contain the exact value (MPFR at 256 bits) at sample times, for every corner of the initial
// box. One test shows the remainder term is load-bearing: without it the enclosure misses.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <array>
#include <functional>
#include <vector>

#include "integrate/tube.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/walk.hpp"
#include "numerics/precision.hpp"
#include "support/mpfr_reference.hpp"

namespace softcert {
namespace {

using integrate::ValidatedOptions;
using integrate::ValidatedTaylor;

auto linear_field = [](const auto& x, auto& dx) {
  using X = std::decay_t<decltype(x[0])>;
  dx[0] = X(2) * x[1] - x[0];
  dx[1] = X(-3) * x[1];
};

// The exact quantities at time t = t0 + q (summed exactly at 256 bits) from (x1₀, x2₀): x1, x2,
// x1 − x2, d/dt (x1 − x2), 3·x1 + 0.5·x2, x1² + x2.
struct Exact {
  testing::Ref x1{256}, x2{256}, diff{256}, ddiff{256}, lin{256}, fun{256};
  Exact(double x10, double x20, double t0, double q = 0) {
    testing::Ref e1(256), e3(256), tmp(256);
    mpfr_set_d(e1.get(), t0, MPFR_RNDN);
    mpfr_add_d(e1.get(), e1.get(), q, MPFR_RNDN);  // exact: two doubles fit in 256 bits
    mpfr_mul_si(e3.get(), e1.get(), -3, MPFR_RNDN);
    mpfr_neg(e1.get(), e1.get(), MPFR_RNDN);
    mpfr_exp(e1.get(), e1.get(), MPFR_RNDN);
    mpfr_exp(e3.get(), e3.get(), MPFR_RNDN);
    mpfr_mul_d(x2.get(), e3.get(), x20, MPFR_RNDN);
    mpfr_sub(tmp.get(), e1.get(), e3.get(), MPFR_RNDN);
    mpfr_mul_d(tmp.get(), tmp.get(), x20, MPFR_RNDN);
    mpfr_mul_d(x1.get(), e1.get(), x10, MPFR_RNDN);
    mpfr_add(x1.get(), x1.get(), tmp.get(), MPFR_RNDN);
    mpfr_sub(diff.get(), x1.get(), x2.get(), MPFR_RNDN);
    // d/dt (x1 − x2) = (−x1 + 2 x2) − (−3 x2) = −x1 + 5 x2
    mpfr_mul_ui(ddiff.get(), x2.get(), 5, MPFR_RNDN);
    mpfr_sub(ddiff.get(), ddiff.get(), x1.get(), MPFR_RNDN);
    mpfr_mul_ui(lin.get(), x1.get(), 3, MPFR_RNDN);
    mpfr_div_ui(tmp.get(), x2.get(), 2, MPFR_RNDN);
    mpfr_add(lin.get(), lin.get(), tmp.get(), MPFR_RNDN);
    mpfr_sqr(fun.get(), x1.get(), MPFR_RNDN);
    mpfr_add(fun.get(), fun.get(), x2.get(), MPFR_RNDN);
  }
};

bool holds(const IntervalD& enc, const testing::Ref& ref) {
  return testing::inside_compound(enc.lower(), ref.get(), enc.upper());
}

const std::array<std::array<double, 2>, 4> kCorners{{{0.9, -0.4}, {0.9, -0.6}, {1.1, -0.4}, {1.1, -0.6}}};
const std::vector<IntervalD> kBox{IntervalD(0.9, 1.1), IntervalD(-0.6, -0.4)};

// Every query of one step over the sub-interval [a, b] of its offsets, at sample offsets in it.
void expect_step_queries_contain(const integrate::TubeStep<IntervalD>& st, double a, double b, std::size_t& checked) {
  const IntervalD s(a, b);
  const std::vector<IntervalD> state = st.state(s);
  const IntervalD c1 = st.component(0, s), d = st.difference(0, 1, s);
  const IntervalD lin = st.linear({{0, IntervalD(3)}, {1, IntervalD(0.5)}}, s);
  const integrate::StepSeries<IntervalD> ds = st.difference_series(0, 1);
  const IntervalD dv = ds.value(s), dd = ds.derivative(s);
  const IntervalD lv = st.linear_series({{0, IntervalD(3)}, {1, IntervalD(0.5)}}).value(s);
  const std::vector<IntervalD> dx = st.derivative(s);
  const IntervalD f = st.function([](const std::vector<IntervalD>& x) { return x[0] * x[0] + x[1]; }, s);
  const double t0 = st.t0().lower();
  ASSERT_EQ(st.t0().lower(), st.t0().upper());
  for (const auto& c : kCorners)
    for (double q : {a, 0.5 * (a + b), b}) {
      const Exact e(c[0], c[1], t0, q);
      ++checked;
      EXPECT_TRUE(holds(state[0], e.x1) && holds(state[1], e.x2)) << "state at t = " << t0 + q;
      EXPECT_TRUE(holds(c1, e.x1)) << "component at t = " << t0 + q;
      EXPECT_TRUE(holds(d, e.diff) && holds(dv, e.diff)) << "difference at t = " << t0 + q;
      EXPECT_TRUE(holds(dd, e.ddiff)) << "difference derivative at t = " << t0 + q;
      EXPECT_TRUE(holds(lin, e.lin) && holds(lv, e.lin)) << "linear functional at t = " << t0 + q;
      EXPECT_TRUE(holds(f, e.fun)) << "function at t = " << t0 + q;
      // ẋ = Ax at the exact state: x1' − x2' is the exact ddiff
      EXPECT_TRUE(holds(IntervalD(dx[0] - dx[1]), e.ddiff)) << "field at t = " << t0 + q;
    }
}

// The flow from kBox to t = 3 in steps of at most 0.25, with step records.
auto box_tube_to_3() {
  ValidatedOptions o;
  o.keep_records = true;
  o.h_max = 0.25;
  ValidatedTaylor<IntervalD, decltype(linear_field)> vt(linear_field, 2, o);
  return vt.integrate(kBox, IntervalD(0.0), IntervalD(3.0));
}

TEST(Trajectory, StepQueriesContainTheExactFlowFromABox) {
  const auto tube = box_tube_to_3();
  ASSERT_TRUE(tube.has_records());
  ASSERT_GE(tube.steps(), 12u);
  std::size_t checked = 0;
  for (std::size_t k = 0; k < tube.steps(); ++k) {
    const auto st = tube.step(k);
    EXPECT_EQ(st.index(), k);
    const double h = st.h().lower();
    expect_step_queries_contain(st, 0.3 * h, 0.6 * h, checked);  // a strict sub-interval
    expect_step_queries_contain(st, 0.0, h, checked);            // the whole step
  }
  EXPECT_GT(checked, 100u);
  // the difference is taken inside the forms: tighter than the difference of the coordinates
  const auto st = tube.step(tube.steps() / 2);
  const IntervalD s(0.0, st.h().lower());
  const std::vector<IntervalD> b = st.state(s);
  EXPECT_LT(num::width(st.difference(0, 1, s)), num::width(IntervalD(b[0] - b[1])));
}

TEST(Trajectory, QueriesOverTimeIntervalsSpanningSeveralSteps) {
  ValidatedOptions o;
  o.keep_records = true;
  o.h_max = 0.2;
  ValidatedTaylor<IntervalD, decltype(linear_field)> vt(linear_field, 2, o);
  const auto tube = vt.integrate(kBox, IntervalD(0.0), IntervalD(2.0));
  const IntervalD t(0.7, 1.9);
  const std::vector<IntervalD> x = tube.state_at(t);
  const IntervalD d = tube.difference_at(0, 1, t);
  for (const auto& c : kCorners)
    for (double q : {0.7, 1.0, 1.25, 1.5, 1.9}) {
      const Exact e(c[0], c[1], q);
      EXPECT_TRUE(holds(x[0], e.x1) && holds(x[1], e.x2)) << "t = " << q;
      EXPECT_TRUE(holds(d, e.diff)) << "t = " << q;
    }
  // a thin time inside one step is answered by that step (and its neighbour at a boundary)
  const IntervalD xd = tube.difference_at(0, 1, IntervalD(1.3));
  EXPECT_LT(num::width(xd), 0.25);  // the box's spread, not the whole horizon's
  EXPECT_THROW(tube.state_at(IntervalD(2.5, 3.0)), std::out_of_range);
  EXPECT_THROW((integrate::Tube<IntervalD>().step(0)), std::out_of_range);
}

// The walk visits the same validated steps the integrator takes, in order, covering [0, END].
TEST(Trajectory, WalkVisitsConsecutiveStepsAndAnswersTheSameQueries) {
  ValidatedOptions o;
  o.h_max = 0.25;
  ValidatedTaylor<IntervalD, decltype(linear_field)> vt(linear_field, 2, o);
  std::size_t visited = 0, checked = 0;
  double t_prev = 0;
  const integrate::WalkOutcome w = integrate::walk(
      vt, kBox, IntervalD(0.0), IntervalD(3.0),
      [&](const integrate::TubeStep<IntervalD>& st) {
        EXPECT_EQ(st.index(), visited++);
        EXPECT_EQ(st.t0().lower(), t_prev);
        t_prev = st.t0().lower() + st.h().lower();
        expect_step_queries_contain(st, 0.0, st.h().lower(), checked);
        return true;
      },
      [](const integrate::TubeStep<IntervalD>&) { return false; });
  EXPECT_TRUE(w.covered);
  EXPECT_FALSE(w.stopped);
  EXPECT_EQ(w.steps, visited);
  EXPECT_EQ(t_prev, 3.0);
}

// With a low order and long steps the Lagrange remainder is most of the truncation error:
// dropping it (the record's remainder set to 0) makes the enclosures miss the exact solution,
// so the containment tests above would catch a dropped remainder.
TEST(Trajectory, TheRemainderTermIsLoadBearing) {
  ValidatedOptions o;
  o.keep_records = true;
  o.order = 3;
  o.fixed_step = 0.25;
  ValidatedTaylor<IntervalD, decltype(linear_field)> vt(linear_field, 2, o);
  const auto tube = vt.integrate({IntervalD(1.0), IntervalD(-0.5)}, IntervalD(0.0), IntervalD(0.25));
  ASSERT_EQ(tube.steps(), 1u);
  const integrate::StepRecord<IntervalD>& rec = *tube.segments()[0].record;
  integrate::StepRecord<IntervalD> dropped = rec;
  for (auto& x : dropped.remainder) x = IntervalD(0.0);
  const IntervalD s(0.25);
  const Exact e(1.0, -0.5, 0.25);
  EXPECT_TRUE(holds(rec.difference(0, 1, s), e.diff));
  EXPECT_TRUE(holds(rec.difference_series(0, 1).value(s), e.diff));
  EXPECT_TRUE(holds(rec.component(1, s), e.x2));
  EXPECT_FALSE(holds(dropped.difference(0, 1, s), e.diff));
  EXPECT_FALSE(holds(dropped.difference_series(0, 1).value(s), e.diff));
  EXPECT_FALSE(holds(dropped.component(1, s), e.x2));
}

// The tube segment of every step (StepRecord::enclose_wrapped: the mean value term as
// J(s)·[B·r], O(q·n²)) contains the exact state at every sample time of the step, from every
// corner of the box; and it is no more than a little wider than the tight (J(s)·B)·[r] form.
// The mean value term is load-bearing: with the set's spread dropped (r = 0) the wrapped form
// misses the corners' exact states.
TEST(Trajectory, TubeSegmentsContainTheExactStatesOfTheirStep) {
  const auto tube = box_tube_to_3();
  ASSERT_GE(tube.steps(), 12u);
  std::size_t checked = 0;
  for (const auto& seg : tube.segments()) {
    const double t0 = seg.t0.lower(), h = seg.t1.upper() - t0;
    const auto& rec = *seg.record;
    const IntervalD whole(0.0, num::upper(rec.h));
    const std::vector<IntervalD> wrapped = rec.enclose_wrapped(whole), tight = rec.enclose(whole);
    for (const auto& c : kCorners)
      for (double q : {0.0, h / 3, 2 * h / 3, num::lower(rec.h)}) {
        const Exact e(c[0], c[1], t0, q);
        ++checked;
        EXPECT_TRUE(holds(seg.box[0], e.x1) && holds(seg.box[1], e.x2)) << "segment at t = " << t0 + q;
        EXPECT_TRUE(holds(wrapped[0], e.x1) && holds(wrapped[1], e.x2)) << "wrapped at t = " << t0 + q;
      }
    for (std::size_t i = 0; i < 2; ++i) EXPECT_LE(num::width(wrapped[i]), 2 * num::width(tight[i]));  // wrapping in 2-D: ≤ ~√2
  }
  EXPECT_GE(checked, 12u * 16u);
  const auto& rec = *tube.segments()[tube.steps() / 2].record;
  integrate::StepRecord<IntervalD> dropped = rec;
  for (auto& x : dropped.r) x = IntervalD(0.0);
  const double t0 = num::lower(rec.t0), h = num::lower(rec.h);
  const std::vector<IntervalD> miss = dropped.enclose_wrapped(IntervalD(h));
  bool missed = false;
  for (const auto& c : kCorners) {
    const Exact e(c[0], c[1], t0, h);
    missed = missed || !holds(miss[0], e.x1) || !holds(miss[1], e.x2);
  }
  EXPECT_TRUE(missed);
}

// The same queries at 128 bits (MPFI): the difference encloses the exact value to ~1e-30.
TEST(Trajectory, DifferenceAt128Bits) {
  num::PrecisionGuard g(128);
  ValidatedOptions o;
  o.keep_records = true;
  o.order = 30;
  ValidatedTaylor<IntervalMp, decltype(linear_field)> vt(linear_field, 2, o);
  const auto tube = vt.integrate({IntervalMp(1), IntervalMp(-0.5)}, IntervalMp(0), IntervalMp(1));
  const IntervalMp d = tube.difference_at(0, 1, IntervalMp(1));
  const Exact e(1.0, -0.5, 1.0);
  const MpReal lo = num::lower(d), hi = num::upper(d);
  EXPECT_GE(mpfr_cmp(e.diff.get(), lo.backend().data()), 0);
  EXPECT_LE(mpfr_cmp(e.diff.get(), hi.backend().data()), 0);
  EXPECT_LT(num::to_double(num::hull_of_bounds<IntervalMp>(num::width(d), num::width(d))), 1e-30);
}

}  // namespace
}  // namespace softcert
