#pragma once
// The reduced logistic system of docs/models.md, state x = (a, u) ∈ R^{2T}:
//     s = softmax(a), γ = 1/(1 + exp(uᵀs)),
//     da_i/dt = γ s_i (u_i − sᵀu),     du_i/dt = γ c s_i,
// with u = Vᵀβ*, c = ‖β*‖². It is closed: (V, a) with logistic loss and softmax normalization
// projects onto it exactly (V(t) = V(0) + β* (u(t) − u(0))ᵀ / c).
//
// LogisticReducedTau is the same orbit in τ-time (dτ = γ dt), state (a, u, t) ∈ R^{2T+1}:
//     da_i/dτ = s_i (u_i − sᵀu),   du_i/dτ = c s_i,   dt/dτ = 1 + exp(uᵀs).
// Long horizons in t (10⁵ … 10⁹) are short in τ (t ≈ e^{max u}, max u grows linearly in τ).
//
// Both evaluate their vector field on any X that S converts to (S itself or a Taylor series
// over S) using only +, −, ×, ÷, num::exp and num::softmax (or num::softmax_quotient, whose shift
// index is chosen from the values: any index gives the same function), without branching on
// values of X otherwise.
// For interval S every parameter encloses the instance's exact value (parse_decimal<S>).
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "instances/instance.hpp"
#include "models/model_parameters.hpp"
#include "models/softmax_form.hpp"
#include "numerics/elementary.hpp"
#include "numerics/stable.hpp"

namespace softcert::models {

namespace detail {
// The replicator part shared by t- and τ-time: s = softmax(a), su = sᵀu.
template <class X>
void softmax_and_mean(const std::vector<X>& x, std::size_t T, SoftmaxForm form, std::vector<X>& s, X& su) {
  const std::vector<X> a(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(T));
  s = softmax_in(form, a);
  su = X(0);
  for (std::size_t i = 0; i < T; ++i) su = su + s[i] * x[T + i];
}

// σ(a) and the logistic loss log(1 + e^{−⟨β*, V σ(a)⟩}) = softplus(−uᵀσ(a)) of a reduced state
// (a, u[, t]): the model's outputs, computed here once for both tiers.
template <class K>
std::vector<K> attention_of(const std::vector<K>& x, std::size_t T) {
  return num::softmax(std::vector<K>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(T)));
}
template <class K>
K mean_value(const std::vector<K>& x, std::size_t T) {  // uᵀσ(a)
  const std::vector<K> s = attention_of(x, T);
  K us(0);
  for (std::size_t i = 0; i < T; ++i) us += x[T + i] * s[i];
  return us;
}

template <class S>
void require_logistic_softmax(const instances::Instance& inst, const char* form) {
  if (inst.tied()) throw std::invalid_argument(std::string("model: the ") + form + " form is not for the tied model");
  if (inst.loss != instances::Loss::logistic)
    throw std::invalid_argument(std::string("loss: the ") + form + " form needs loss \"logistic\"");
  if (inst.normalization != instances::Normalization::softmax)
    throw std::invalid_argument(std::string("normalization: the ") + form + " form needs normalization \"softmax\"");
}
}  // namespace detail

template <class S>
class LogisticReduced {  // (a, u) ∈ R^{2T}, docs/models.md
 public:
  LogisticReduced(std::vector<S> a0, std::vector<S> u0, S c) : a0_(std::move(a0)), u0_(std::move(u0)), c_(std::move(c)) {
    if (a0_.size() != u0_.size() || a0_.empty()) throw std::invalid_argument("a: size must equal size of u and be ≥ 1");
  }
  // From an instance with loss logistic and normalization softmax: u0 = V(0)ᵀβ*, c = ‖β*‖².
  static LogisticReduced from_instance(const instances::Instance& inst) {
    detail::require_logistic_softmax<S>(inst, "reduced logistic");
    ReducedParameters<S> p = reduced_parameters<S>(inst);
    return LogisticReduced(std::move(p.a0), std::move(p.u0), std::move(p.c));
  }

  // The same field with softmax evaluated in `form` (SoftmaxForm; the default is pairwise).
  LogisticReduced with_softmax_form(SoftmaxForm form) const {
    LogisticReduced m(*this);
    m.form_ = form;
    return m;
  }

  std::size_t tokens() const { return a0_.size(); }
  std::size_t dimension() const { return 2 * a0_.size(); }
  const S& c() const { return c_; }
  std::vector<S> initial_state() const {
    std::vector<S> x(a0_);
    x.insert(x.end(), u0_.begin(), u0_.end());
    return x;
  }

  // Guarantee (interval K): σ(a) and the loss of every state in the box x (a, u[, t]).
  template <class K>
  std::vector<K> attention(const std::vector<K>& x) const { return detail::attention_of(x, a0_.size()); }
  template <class K>
  K loss_value(const std::vector<K>& x) const { return num::softplus(K(-detail::mean_value(x, a0_.size()))); }

  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dxdt) const {
    const std::size_t T = a0_.size();
    if (dxdt.size() != x.size()) dxdt.resize(x.size());
    std::vector<X> s;
    X su(0);
    detail::softmax_and_mean(x, T, form_, s, su);
    // γ = 1/(1 + e^{uᵀs}): no cancellation; e^{uᵀs} overflows a double only for uᵀs > 709,
    // i.e. t ≈ e^709, far beyond any horizon in t.
    const X gamma = X(1) / (X(1) + num::exp(su));
    for (std::size_t i = 0; i < T; ++i) {
      const X gs = gamma * s[i];
      dxdt[i] = gs * (x[T + i] - su);
      dxdt[T + i] = gs * c_;
    }
  }

 private:
  std::vector<S> a0_, u0_;
  S c_;
  SoftmaxForm form_ = SoftmaxForm::pairwise;
};

template <class S>
class LogisticReducedTau {  // (a, u, t) ∈ R^{2T+1}, τ-time, docs/models.md
 public:
  LogisticReducedTau(std::vector<S> a0, std::vector<S> u0, S c, S t0 = S(0))
      : a0_(std::move(a0)), u0_(std::move(u0)), c_(std::move(c)), t0_(std::move(t0)) {
    if (a0_.size() != u0_.size() || a0_.empty()) throw std::invalid_argument("a: size must equal size of u and be ≥ 1");
  }
  static LogisticReducedTau from_instance(const instances::Instance& inst) {
    detail::require_logistic_softmax<S>(inst, "reduced logistic τ-time");
    ReducedParameters<S> p = reduced_parameters<S>(inst);
    return LogisticReducedTau(std::move(p.a0), std::move(p.u0), std::move(p.c));
  }

  // The same field with softmax evaluated in `form` (SoftmaxForm; the default is pairwise).
  LogisticReducedTau with_softmax_form(SoftmaxForm form) const {
    LogisticReducedTau m(*this);
    m.form_ = form;
    return m;
  }

  std::size_t tokens() const { return a0_.size(); }
  std::size_t dimension() const { return 2 * a0_.size() + 1; }
  // Index of the state component that carries t.
  std::size_t time_index() const { return 2 * a0_.size(); }
  const S& c() const { return c_; }
  std::vector<S> initial_state() const {
    std::vector<S> x(a0_);
    x.insert(x.end(), u0_.begin(), u0_.end());
    x.push_back(t0_);
    return x;
  }

  // Guarantee (interval K): σ(a) and the loss of every state in the box x (a, u[, t]).
  template <class K>
  std::vector<K> attention(const std::vector<K>& x) const { return detail::attention_of(x, a0_.size()); }
  template <class K>
  K loss_value(const std::vector<K>& x) const { return num::softplus(K(-detail::mean_value(x, a0_.size()))); }

  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dxdt) const {
    const std::size_t T = a0_.size();
    if (dxdt.size() != x.size()) dxdt.resize(x.size());
    std::vector<X> s;
    X su(0);
    detail::softmax_and_mean(x, T, form_, s, su);
    for (std::size_t i = 0; i < T; ++i) {
      dxdt[i] = s[i] * (x[T + i] - su);
      dxdt[T + i] = s[i] * c_;
    }
    dxdt[2 * T] = X(1) + num::exp(su);
  }

 private:
  std::vector<S> a0_, u0_;
  S c_, t0_;
  SoftmaxForm form_ = SoftmaxForm::pairwise;
};

}  // namespace softcert::models
