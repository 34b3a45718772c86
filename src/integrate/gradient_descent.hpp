#pragma once
// Plain gradient descent on a model's loss, in double, as the authors' notebook runs it
// (github tml-epfl/softmax, visualizations/toy_experiments.ipynb): every parameter block is
// moved from gradients taken at the same point,
//     x_{k+1} = x_k − lr ∇L(x_k) = x_k + lr f(x_k),
// where f = model.rhs is the t-time vector field of the gradient flow (f = −∇L). After k
// iterations the iterate is compared with the flow at t = k·lr, the notebook's time axis.
//
// gradient_descent: no guarantee. It is the discrete process the authors plotted, computed in
// double (the same arithmetic as theirs, not bit-identical: their gradients are written
// differently and carry +1e-10 guards in the normalizations' denominators, docs/models.md). It
// is shown beside the flow, never used to decide a verdict.
//
// enclose_gradient_descent: the same iteration over an interval kind S. Guarantee: every x_k it
// visits contains the k-th iterate of exact real gradient descent from the model's initial state
// (itself enclosed from the instance's decimals) with step exactly lr, since x_{k+1} is the
// interval evaluation of x + lr f(x) over the enclosure x_k (the model's rhs is sound over S, as
// the validated integrator requires). No wrapping control: widths grow with the map's
// sensitivity, and a caller reads the enclosures as they come.
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

// Runs up to `iterations` steps of size lr over S; visit(k, x_k) is called for k = 0 … iterations
// and returns false to stop. Returns the last k visited.
template <class S, class Model, class Visit>
std::uint64_t enclose_gradient_descent(const Model& model, const S& lr, std::uint64_t iterations, Visit&& visit) {
  std::vector<S> x = model.initial_state(), f(x.size());
  for (std::uint64_t k = 0;; ++k) {
    if (!visit(k, static_cast<const std::vector<S>&>(x)) || k == iterations) return k;
    model.rhs(x, f);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = S(x[i] + S(lr * f[i]));
  }
}

}  // namespace softcert::integrate
