#pragma once
// The tied value-softmax model of the authors' notebook (github tml-epfl/softmax,
// visualizations/toy_experiments.ipynb, cell 8, "TiedUSolver"; docs/models.md): one square
// matrix U ∈ R^{D×D} both mixes the scores and holds the values,
//     z = U a,   α = softmax(z),   β = U α,   ℓ(β) = log(1 + e^{−⟨β*, β⟩}),
// and the gradient flow of L(U, a) = ℓ(U softmax(U a)) is, with g = ∇ℓ(β) = −β*/(1 + e^{m}),
// m = ⟨β*, β⟩, r = Uᵀg and q = J(z) r = α ⊙ (r − αᵀr) (J = diag α − ααᵀ is symmetric):
//     dU/dt = −(g αᵀ + q aᵀ),     da/dt = −Uᵀ q.
// Both terms of dU/dt are there because U enters twice (through β and through z). State
// x = (U row-major, a) ∈ R^{D²+D}.
// τ-time (as for ValueSoftmax under logistic loss): dτ = γ dt with γ = 1/(1 + e^{m}); the field
// is linear in g = −γβ*, so dx/dτ is the same field with g = −β*, and t is carried as the last
// state component, dt/dτ = 1 + e^{m} ≥ 1: x = (U, a, t) ∈ R^{D²+D+1}. Long horizons are short in
// τ (the loss, hence γ, decays like 1/t). The vector field uses only +, −, ×, ÷, num::exp and
// num::softmax with no branching on values, so it evaluates on any X that S converts to
// (point kinds, intervals, Taylor series over them); interval parameters enclose the
// instance's exact decimals.
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "instances/instance.hpp"
#include "models/model_parameters.hpp"
#include "numerics/elementary.hpp"
#include "numerics/stable.hpp"

namespace softcert::models {

template <class S>
class TiedValueSoftmax {
 public:
  // tau_time: integrate in τ (dτ = γ dt) with t as the last state component.
  explicit TiedValueSoftmax(const instances::Instance& inst, bool tau_time = false)
      : D_(inst.d), tau_(tau_time), U0_(parse_matrix<S>(inst.V)), a0_(parse_vector<S>(inst.a)),
        beta_(parse_vector<S>(inst.beta)) {
    if (!inst.tied()) throw std::invalid_argument("model: the tied model needs model \"tied_value_softmax\"");
  }

  std::size_t tokens() const { return D_; }
  std::size_t dim() const { return D_; }
  bool tau_time() const { return tau_; }
  std::size_t dimension() const { return D_ * D_ + D_ + (tau_ ? 1 : 0); }
  std::size_t a_offset() const { return D_ * D_; }
  std::size_t time_index() const { return D_ * D_ + D_; }  // meaningful when tau_time()
  const std::vector<S>& beta() const { return beta_; }

  std::vector<S> initial_state() const {
    std::vector<S> x;
    x.reserve(dimension());
    for (const auto& row : U0_) x.insert(x.end(), row.begin(), row.end());
    x.insert(x.end(), a0_.begin(), a0_.end());
    if (tau_) x.push_back(S(0));
    return x;
  }

  // α = softmax(U a) of a state.
  template <class X>
  std::vector<X> attention(const std::vector<X>& x) const {
    const std::size_t D = D_;
    std::vector<X> z(D, X(0));
    for (std::size_t i = 0; i < D; ++i)
      for (std::size_t j = 0; j < D; ++j) z[i] = z[i] + x[i * D + j] * x[D * D + j];
    return num::softmax(z);
  }

  // m = ⟨β*, U α⟩ for the state's α.
  template <class X>
  X margin(const std::vector<X>& x, const std::vector<X>& alpha) const {
    const std::size_t D = D_;
    X m(0);
    for (std::size_t i = 0; i < D; ++i) {
      X b(0);
      for (std::size_t j = 0; j < D; ++j) b = b + x[i * D + j] * alpha[j];
      m = m + b * beta_[i];
    }
    return m;
  }

  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dxdt) const {
    const std::size_t D = D_;
    if (dxdt.size() != x.size()) dxdt.resize(x.size());
    const std::vector<X> alpha = attention(x);
    std::vector<X> g(D);
    if (tau_) {
      for (std::size_t i = 0; i < D; ++i) g[i] = X(0) - X(beta_[i]);
      dxdt[time_index()] = X(1) + num::exp(margin(x, alpha));
    } else {
      const X gamma = X(1) / (X(1) + num::exp(margin(x, alpha)));
      for (std::size_t i = 0; i < D; ++i) g[i] = X(0) - gamma * beta_[i];
    }
    std::vector<X> r(D, X(0));  // r = Uᵀ g
    for (std::size_t i = 0; i < D; ++i)
      for (std::size_t j = 0; j < D; ++j) r[j] = r[j] + x[i * D + j] * g[i];
    X ra(0);
    for (std::size_t j = 0; j < D; ++j) ra = ra + alpha[j] * r[j];
    std::vector<X> q(D);
    for (std::size_t j = 0; j < D; ++j) q[j] = alpha[j] * (r[j] - ra);
    for (std::size_t j = 0; j < D; ++j) dxdt[D * D + j] = X(0);
    for (std::size_t i = 0; i < D; ++i)
      for (std::size_t j = 0; j < D; ++j) {
        dxdt[i * D + j] = X(0) - (g[i] * alpha[j] + q[i] * x[D * D + j]);
        dxdt[D * D + j] = dxdt[D * D + j] - x[i * D + j] * q[i];
      }
  }

  // ℓ(U softmax(U a)) of a state.
  template <class X>
  X loss_value(const std::vector<X>& x) const {
    return num::softplus(X(X(0) - margin(x, attention(x))));
  }

  // ‖U e_k‖ (Euclidean norm of column k) of a state: the notebook's "massive activation".
  template <class X>
  X column_norm_squared(const std::vector<X>& x, std::size_t k) const {
    X s(0);
    for (std::size_t i = 0; i < D_; ++i) s = s + x[i * D_ + k] * x[i * D_ + k];
    return s;
  }

 private:
  std::size_t D_;
  bool tau_;
  std::vector<std::vector<S>> U0_;
  std::vector<S> a0_, beta_;
};

}  // namespace softcert::models
