// The derivative rows of exp / expm1 nodes over IntervalD go through the SSE2 kernels of
// taylor/mac.hpp (Tape::eval_d); MPFI tapes take the generic loops. Both enclose the same exact
// x0-derivatives of the Taylor coefficients, so the 200-bit enclosure's midpoint must lie in the
// IntervalD one for every (component, order, direction), on a field where exponentials of mixed
// signs feed each other — a dropped or mis-scaled term of the recurrence would not.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "numerics/precision.hpp"
#include "taylor/tape.hpp"

namespace softcert {
namespace {

struct Exponentials {
  template <class X>
  void operator()(const std::vector<X>& x, std::vector<X>& dx) const {
    const std::size_t n = x.size();
    for (std::size_t i = 0; i < n; ++i) {
      const X& u = x[i];
      const X& v = x[(i + 1) % n];
      const X& w = x[(i + 4) % n];
      const X e = num::exp(v - u);
      dx[i] = i % 2 == 0 ? e * w - num::expm1(X(0) - u * X(0.5)) : num::exp(X(0) - e * X(0.25)) - v * X(0.75);
    }
  }
};

template <class S>
std::vector<S> start(std::size_t n) {
  std::vector<S> x;
  for (std::size_t i = 0; i < n; ++i) {
    const double c = 0.15 * static_cast<double>(i % 5) - 0.35;
    x.push_back(num::hull_of_bounds<S>(num::BoundOf<S>(c - 1e-8), num::BoundOf<S>(c + 1e-8)));
  }
  return x;
}

TEST(TapeExpRows, DoubleIntervalDerivativesEncloseTheMpfiOnes) {
  const std::size_t n = 12, p = 12;
  taylor::Tape<IntervalD> td;
  td.record(Exponentials{}, start<IntervalD>(n), p);
  td.solve(true);
  num::PrecisionGuard g(200);
  taylor::Tape<IntervalMp> tm;
  tm.record(Exponentials{}, start<IntervalMp>(n), p);
  tm.solve(true);
  std::size_t outside = 0, wide = 0, nonzero = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k <= p; ++k)
      for (std::size_t j = 0; j < n; ++j) {
        const IntervalD d = td.derivative(i, k, j);
        const double m = num::to_double(num::mid(tm.derivative(i, k, j)));
        if (!(d.lower() <= m && m <= d.upper())) ++outside;
        if (d.upper() - d.lower() > 1e-4 * (1 + std::fabs(m))) ++wide;
        if (m != 0) ++nonzero;
      }
  EXPECT_EQ(outside, 0u);
  EXPECT_EQ(wide, 0u);
  EXPECT_GT(nonzero, n * n * p / 2);  // the orders above 0 are dense: a real comparison
}

}  // namespace
}  // namespace softcert
