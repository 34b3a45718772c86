#pragma once
// Plain gradient descent on a model's loss, in double, as the authors' notebook runs it
// (github tml-epfl/softmax, visualizations/toy_experiments.ipynb): every parameter block is
// moved from gradients taken at the same point,
//     x_{k+1} = x_k − lr ∇L(x_k) = x_k + lr f(x_k),
// where f = model.rhs is the t-time vector field of the gradient flow (f = −∇L). After k
// iterations the iterate is compared with the flow at t = k·lr, the notebook's time axis.
//
// No guarantee: this is the discrete process the authors plotted, computed in double (the
// same arithmetic as theirs, not bit-identical: their gradients are written differently and
// carry +1e-10 guards in the normalizations' denominators, docs/models.md). It is shown beside
// the flow, never used to decide a verdict.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace softcert::integrate {

// Runs `iterations` steps of size lr from the model's initial state. `record` is called with
// (k, x_k) for every k in `record_at` (sorted, each ≤ iterations; 0 = the initial state).
template <class Model>
void gradient_descent(const Model& model, double lr, std::uint64_t iterations, const std::vector<std::uint64_t>& record_at,
                      const std::function<void(std::uint64_t, const std::vector<double>&)>& record) {
  if (!(lr > 0)) throw std::invalid_argument("learning rate: must be positive");
  std::vector<double> x = model.initial_state(), f(x.size());
  std::size_t next = 0;
  for (std::uint64_t k = 0;; ++k) {
    while (next < record_at.size() && record_at[next] == k) record(k, x), ++next;
    if (k == iterations || next == record_at.size()) break;
    model.rhs(x, f);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += lr * f[i];
  }
  if (next != record_at.size()) throw std::invalid_argument("record_at: must be sorted and ≤ iterations");
}

}  // namespace softcert::integrate
