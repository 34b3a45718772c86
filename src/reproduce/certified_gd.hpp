#pragma once
// The authors' gradient descent itself enclosed, for `softcert reproduce`'s figure of the
// headline run (notebook cells 2–3): the iterates x_{k+1} = x_k − lr ∇L(x_k) of exact real
// arithmetic from the instance's exact data, lr the double the notebook's learning rate rounds to
// (numpy's), enclosed under Lohner's wrapping control (flow::gradient_descent_iterates, Lohner wrapping)
// on the reduced (a, u) model — the set-up of the check varre2026.gd.order_preservation
// (docs/theorems/varre2026_gd_iterates.md).
// Gradient descent keeps V_k = V_0 + β* w_kᵀ, so (a, u) iterate on their own, exactly.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "numerics/enclosure.hpp"

namespace softcert::reproduce {

struct CertifiedIterate {
  std::uint64_t k = 0;
  std::vector<num::Enclosure> sigma, u;  // σ(a_k)_i and u_i(k), tokens counted from 0
  num::Enclosure loss;
  double width = 0;  // the largest width among sigma and u (outward doubles)
};

// Guarantee: every enclosure of `iterates` contains the value at iterate k of exact gradient
// descent with step exactly lr (a double) from the instance's exact decimals. The iteration stops
// early (note says why) when an enclosure grows wider than max_width; `done` is the last iterate
// reached.
struct CertifiedIterates {
  std::vector<CertifiedIterate> iterates;  // at the requested k ≤ done, in order
  std::uint64_t requested = 0, done = 0;
  unsigned precision_bits = 0;
  double lr = 0;
  std::string note;  // "" when every requested iterate was reached
  double max_width() const;
};

// `record_at`: sorted iterations (0 = the start); iterate up to min(iterations, last of record_at).
// Needs logistic loss and softmax (throws std::invalid_argument otherwise). progress(k) is called
// every 10⁵ iterates.
CertifiedIterates certify_gd_iterates(const instances::Instance& inst, double lr, std::uint64_t iterations,
                                      const std::vector<std::uint64_t>& record_at, unsigned bits = 384, double max_width = 1e-3,
                                      const std::function<void(std::uint64_t)>& progress = {});

}  // namespace softcert::reproduce
