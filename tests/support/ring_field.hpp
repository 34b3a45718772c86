#pragma once
// A ring of n coupled cubic oscillators, dx_i/dt = 0.3 (x_{i−1} + x_{i+1}) − x_i³ − x_i +
// 0.05 x_{i−1} x_{i+1}: a smooth nonlinear field, written once over the scalar kind, on which
// the ball step takes several pieces (tests of the ball step's threads and of the CPU cap).
#include <cstddef>
#include <type_traits>

namespace softcert::testing {

template <std::size_t n>
struct RingField {
  template <class X, class DX>
  void operator()(const X& x, DX& dx) const {
    using V = std::decay_t<decltype(x[0])>;
    for (std::size_t i = 0; i < n; ++i) {
      const V& l = x[(i + n - 1) % n];
      const V& r = x[(i + 1) % n];
      dx[i] = V(0.3) * (l + r) - x[i] * x[i] * x[i] - x[i] + V(0.05) * l * r;
    }
  }
};

}  // namespace softcert::testing
