#pragma once
// x' = (x₂, −x₁) from (1, 0): the rotation x(t) = (cos t, −sin t), a model with a closed-form
// solution for the fast-tier tests (gap x₁ − x₂ changes sign at t = 3π/4 + kπ).
#include <vector>

namespace softcert::test_support {

template <class K>
struct Rotation {
  std::vector<K> initial_state() const { return {K(1), K(0)}; }
  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& f) const {
    f.resize(2);
    f[0] = x[1];
    f[1] = -x[0];
  }
};

}  // namespace softcert::test_support
