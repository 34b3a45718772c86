// The derivative pass in blocks of x0-directions (taylor/tape.hpp, Tape::solve; the block width
// from taylor/memory_cap.hpp) must give the same numbers as the pass over all directions at once,
// bit for bit, for every (component, order, direction): each direction's rows are computed from
// its own rows and the shared coefficients only. The field uses every recorded operation (add,
// sub, neg, mul, scale, div, div_const, exp, expm1, log, log1p, sqrt, sqr) over IntervalD (the
// SSE2 rows) and MPFI (the generic loops); block widths that divide n and that do not (a narrower
// last block) are compared with the one-block pass.
#include <gtest/gtest.h>

#include <cfenv>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "numerics/precision.hpp"
#include "taylor/memory_cap.hpp"
#include "taylor/tape.hpp"

namespace softcert {
namespace {

struct EveryTapeOperation {
  template <class X>
  void operator()(const std::vector<X>& x, std::vector<X>& dx) const {
    const std::size_t n = x.size();
    for (std::size_t i = 0; i < n; ++i) {
      const X& u = x[i];
      const X& v = x[(i + 1) % n];
      const X& w = x[(i + 3) % n];
      const X prod = u * v;                                   // mul
      const X e = num::exp(v - u);                            // sub, exp
      const X q = (X(1) + w * w) / (X(2) + prod * X(0.5));    // add, scale, div
      const X l = num::log(X(3) + num::sqr(u)) - num::log1p(-(v * X(0.25)));  // sqr, log, neg, log1p
      const X s = num::sqrt(X(2) + e) / X(3);                 // sqrt, div_const
      switch (i % 3) {
        case 0: dx[i] = e * w - num::expm1(X(0) - u * X(0.5)) + q; break;
        case 1: dx[i] = l * s - prod; break;
        default: dx[i] = q * l + s * w; break;
      }
    }
  }
};

template <class S>
std::vector<S> blocks_start(std::size_t n) {
  std::vector<S> x;
  for (std::size_t i = 0; i < n; ++i) {
    const double c = 0.13 * static_cast<double>(i % 7) - 0.4;
    x.push_back(num::hull_of_bounds<S>(num::BoundOf<S>(c - 1e-7), num::BoundOf<S>(c + 1e-7)));
  }
  return x;
}

// Counts the (component, order, direction) whose derivative differs in either endpoint between
// the one-block pass and a pass in blocks of `width`; `nonzero` counts the derivatives that are
// not exactly 0 in the reference (so that the comparison is not vacuous).
template <class S>
std::size_t differences(std::size_t n, std::size_t p, std::size_t q, std::size_t width, std::size_t& nonzero) {
  taylor::Tape<S> whole, blocked;
  whole.record(EveryTapeOperation{}, blocks_start<S>(n), p);
  whole.solve(true, q);
  EXPECT_EQ(whole.derivative_block(), n);
  blocked.set_derivative_block(width);
  blocked.record(EveryTapeOperation{}, blocks_start<S>(n), p);
  blocked.solve(true, q);
  EXPECT_EQ(blocked.derivative_block(), std::min(width, n));
  std::size_t diff = 0;
  nonzero = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k <= q; ++k)
      for (std::size_t j = 0; j < n; ++j) {
        const S a = whole.derivative(i, k, j), b = blocked.derivative(i, k, j);
        if (!(num::lower(a) == num::lower(b) && num::upper(a) == num::upper(b))) ++diff;
        if (!(num::lower(a) == 0 && num::upper(a) == 0)) ++nonzero;
      }
  for (std::size_t i = 0; i < n; ++i)  // the coefficients are the same pass either way
    for (std::size_t k = 0; k <= p; ++k) {
      const S a = whole.coefficient(i, k), b = blocked.coefficient(i, k);
      if (!(num::lower(a) == num::lower(b) && num::upper(a) == num::upper(b))) ++diff;
    }
  return diff;
}

TEST(TapeBlocks, DoubleIntervalBlocksAreBitForBitTheOneBlockPass) {
  const std::size_t n = 11, p = 14;
  for (std::size_t q : {std::size_t{3}, p})
    for (std::size_t width : {1, 2, 4, 5, 10, 11}) {
      std::size_t nonzero = 0;
      EXPECT_EQ(differences<IntervalD>(n, p, q, width, nonzero), 0u) << "q " << q << " width " << width;
      EXPECT_GT(nonzero, 3 * n * n / 2) << "q " << q;  // beyond the identity of order 0
    }
}

TEST(TapeBlocks, MpfiBlocksAreBitForBitTheOneBlockPass) {
  num::PrecisionGuard g(120);
  const std::size_t n = 7, p = 8;
  for (std::size_t width : {1, 3, 7}) {
    std::size_t nonzero = 0;
    EXPECT_EQ(differences<IntervalMp>(n, p, p, width, nonzero), 0u) << "width " << width;
    EXPECT_GT(nonzero, n * n * (p + 1) / 2);
  }
}

// The pass in two interleaved halves (Tape::set_block_runner, n ≥ kTwoWayFrom): the second half
// runs on another thread, in a copy of the tape, and must give the one-thread pass's numbers bit
// for bit — also when that thread starts in round-to-nearest (its job must set the rounding mode
// itself; without that its interval bounds would be wrong, and differ). The runner here is a
// plain thread, so the test does not depend on a free core.
TEST(TapeBlocks, TwoThreadHalvesAreBitForBitTheOneThreadPass) {
  const std::size_t n = taylor::Tape<IntervalD>::kTwoWayFrom + 5, p = 6, q = 4;
  std::size_t threads_used = 0;
  const auto runner = [&threads_used](const std::function<void()>& a, const std::function<void()>& b) {
    std::thread other([&b] {
      std::fesetround(FE_TONEAREST);
      b();
    });
    a();
    other.join();
    ++threads_used;
  };
  for (std::size_t width : {std::size_t{0}, std::size_t{40}}) {  // 0: the cap's width (one block alone)
    taylor::Tape<IntervalD> one, two;
    one.record(EveryTapeOperation{}, blocks_start<IntervalD>(n), p);
    one.solve(true, q);
    if (width) two.set_derivative_block(width);
    two.set_block_runner(runner);
    two.record(EveryTapeOperation{}, blocks_start<IntervalD>(n), p);
    two.solve(true, q);
    EXPECT_LT(two.derivative_block(), n);
    std::size_t diff = 0, nonzero = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k <= q; ++k)
        for (std::size_t j = 0; j < n; ++j) {
          const IntervalD a = one.derivative(i, k, j), b = two.derivative(i, k, j);
          if (!(a.lower() == b.lower() && a.upper() == b.upper())) ++diff;
          if (!(a.lower() == 0 && a.upper() == 0)) ++nonzero;
        }
    EXPECT_EQ(diff, 0u) << "width " << width;
    EXPECT_GT(nonzero, 3 * n / 2 * (q + 1)) << "width " << width;
  }
  EXPECT_EQ(threads_used, 2u);
}

// The width rule: one block while the array fits in an eighth of the cap; blocks that keep the
// block array and the n·orders·n result under it otherwise; a refusal when the result alone does
// not fit (the tied model at D = 100: n = 10101, ~18 GB of result at 11 orders).
TEST(TapeBlocks, BlockWidthKeepsTheCap) {
  const double cap = double(taylor::derivative_memory_cap());
  EXPECT_EQ(taylor::derivative_block_width(1000, 11, 100, 16), 100u);
  const std::size_t nodes = 45859, orders = 11, n = 2551;  // the tied model at D = 50, q = 10
  const double result = double(n) * orders * n * 16, per_direction = double(nodes) * orders * 16;
  if (result + 8 * per_direction <= cap && 8 * per_direction <= cap / 8) {
    const std::size_t w = taylor::derivative_block_width(nodes, orders, n, 16);
    EXPECT_LT(w, n);
    EXPECT_GE(w, 8u);
    EXPECT_LE(double(w) * per_direction, cap / 8);
    EXPECT_LE(double(w) * per_direction + result, cap);
    EXPECT_GT(double(w + 1) * per_direction, std::min(cap / 8, cap - result));  // the most that fit
  }
  EXPECT_THROW(taylor::derivative_block_width(4 * nodes, orders, 10101, 16), std::domain_error);
}

}  // namespace
}  // namespace softcert
