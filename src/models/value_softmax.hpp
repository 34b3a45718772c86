#pragma once
// The full value-softmax model (docs/models.md): β = V α(a), V ∈ R^{d×T}, a ∈ R^T, loss ℓ(β),
// gradient flow ẋ = −∇L. State x = (V row-major, a) ∈ R^{dT+T}; in τ-time (logistic loss
// only) also t: x = (V, a, t) ∈ R^{dT+T+1}.
//
// With g = ∇ℓ(β) and h = Vᵀ g:
//     dV/dt = −g αᵀ,
//     normalizations α_k = f(a_k)/F, F = Σ_j f(a_j):  da_k/dt = −(f'(a_k)/F)(h_k − αᵀh)
//         softmax f = exp (f'/F = α_k), square f = x², abs f = |x|, relu f = max(x, 0), sum f = x,
//         formula f = the instance's normalization_formula (f' derived from it);
//     elementwise sigmoid α_k = σ(a_k):                da_k/dt = −σ_k(1 − σ_k) h_k.
// Losses (g = ∇ℓ):
//     logistic          ℓ = log(1 + e^{−m}), m = ⟨β*, β⟩          g = −β* / (1 + e^{m})
//     logistic_dataset  ℓ = (1/n) Σ log(1 + e^{−y_i⟨x_i, β⟩})     g = −(1/n) Σ y_i x_i / (1 + e^{y_i⟨x_i,β⟩})
//     square            ℓ = ½‖β − β*‖²                             g = β − β*
//     regression        ℓ = ‖y − Xβ‖²                              g = −2 Xᵀ(y − Xβ) = 2XᵀXβ − 2Xᵀy
//     cross_entropy     ℓ = −Σ_k p_k log softmax(β)_k              g = (Σp) softmax(β) − p
//     formula, margin   ℓ = φ(z), z = ⟨β*, β⟩                      g = φ'(z) β*
//     formula, by coordinate  ℓ = Σ_i φ(β_i, β*_i)                 g_i = ∂φ/∂β_i (β_i, β*_i)
// (φ and its derivative are formulas, instances/formula.hpp: the derivative is derived from the
// text once, at construction, and both are evaluated with the field's own operations.)
// τ-time (logistic): dτ = γ dt with γ = 1/(1 + e^{m}), so g/γ = −β*:
//     dV/dτ = β* αᵀ, da_k/dτ = (f'(a_k)/F)(u_k − αᵀu) with u = Vᵀβ*, dt/dτ = 1 + e^{m}.
//
// Kinks: abs and relu need the sign of each a_k. It is decided with num::certainly_positive /
// certainly_negative on X: for point kinds it is the sign of the value (an exact 0 gets f = 0
// and f' = 0, the subgradient the authors' code uses); for interval kinds an argument whose
// sign is not certain throws std::domain_error (the rigorous tier must report inconclusive).
// X therefore needs num::ScalarTraits for these two normalizations. With a fixed branch pattern
// (set_branch, integrate/kink_crossing.hpp) the sign is not decided: score k uses the branch
// given — positive f = a_k, negative f = −a_k (|x| only), zero f = f' = 0 (relu below 0, or a
// score held on its kink) — on any argument, so the field is one analytic formula per pattern.
// All other
// (loss, normalization) pairs use only +, −, ×, ÷, num::exp/sqr/softmax (a formula also exp,
// log, log1p, expm1, sqrt, integer powers) and no branching on values of X. square and sum normalizations are singular where F = 0 (e.g. a = 0).
#include <array>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "instances/formula.hpp"
#include "instances/instance.hpp"
#include "models/model_parameters.hpp"
#include "numerics/elementary.hpp"
#include "numerics/stable.hpp"
#include "numerics/traits.hpp"

namespace softcert::models {

template <class S>
class ValueSoftmax {
 public:
  using Loss = instances::Loss;
  using Normalization = instances::Normalization;

  // tau_time: integrate in τ (dτ = γ dt) with t as the last state component; logistic only.
  explicit ValueSoftmax(const instances::Instance& inst, bool tau_time = false)
      : loss_(inst.loss), norm_(inst.normalization), T_(inst.T), d_(inst.d), tau_(tau_time),
        V0_(parse_matrix<S>(inst.V)), a0_(parse_vector<S>(inst.a)), beta_(parse_vector<S>(inst.beta)),
        X_(parse_matrix<S>(inst.X)), y_(parse_vector<S>(inst.y)), p_(parse_vector<S>(inst.p)) {
    if (inst.tied()) throw std::invalid_argument("model: \"tied_value_softmax\" is not the value-softmax model");
    if (tau_ && loss_ != Loss::logistic) throw std::invalid_argument("loss: τ-time needs loss \"logistic\"");
    c_ = squared_norm(beta_);
    if (loss_ == Loss::regression) {  // G = 2XᵀX, c = 2Xᵀy (gradient())
      XtX2_.assign(d_ * d_, S(0));
      Xty2_.assign(d_, S(0));
      for (std::size_t r = 0; r < X_.size(); ++r)
        for (std::size_t i = 0; i < d_; ++i) {
          Xty2_[i] = Xty2_[i] + S(2) * X_[r][i] * y_[r];
          for (std::size_t k = 0; k < d_; ++k) XtX2_[i * d_ + k] = XtX2_[i * d_ + k] + S(2) * X_[r][i] * X_[r][k];
        }
    }
    p_sum_ = S(0);
    for (const auto& v : p_) p_sum_ = p_sum_ + v;
    if (loss_ == Loss::formula) {
      using instances::Formula;
      const Formula phi = Formula::parse(inst.loss_formula, instances::loss_formula_variables(), "loss_formula");
      margin_loss_ = phi.uses(instances::kMargin);
      phi_ = instances::CompiledFormula<S>(phi);
      dphi_ = instances::CompiledFormula<S>(phi.derivative(margin_loss_ ? instances::kMargin : instances::kBeta));
    }
    if (norm_ == Normalization::formula) {
      using instances::Formula;
      const Formula f = Formula::parse(inst.normalization_formula, instances::normalization_formula_variables(),
                                       "normalization_formula");
      f_ = instances::CompiledFormula<S>(f);
      df_ = instances::CompiledFormula<S>(f.derivative(0));
    }
  }

  std::size_t tokens() const { return T_; }
  std::size_t dim() const { return d_; }
  Normalization normalization() const { return norm_; }
  // |x| or relu: the field has a kink where a score is 0 (the rigorous tier stops before it).
  bool kinked() const { return norm_ == Normalization::abs || norm_ == Normalization::relu; }

  // The branch of f used for score k when fixed (kinked normalizations only): by_sign decides
  // it from a_k's certain sign (the default, above); the others fix it whatever a_k is.
  enum class Branch : signed char { by_sign, positive, negative, zero };
  void set_branch(std::size_t k, Branch b) {
    if (!kinked()) throw std::invalid_argument("set_branch: only |x| and relu have branches");
    if (b == Branch::negative && norm_ != Normalization::abs) throw std::invalid_argument("set_branch: relu has no negative branch");
    if (branches_.empty()) branches_.assign(T_, Branch::by_sign);
    branches_.at(k) = b;
  }
  bool has_negative_branch() const { return norm_ == Normalization::abs; }
  Branch branch(std::size_t k) const { return branches_.empty() ? Branch::by_sign : branches_.at(k); }
  void clear_branches() { branches_.clear(); }
  bool tau_time() const { return tau_; }
  const std::vector<S>& beta() const { return beta_; }
  const S& c() const { return c_; }
  Loss loss() const { return loss_; }
  // Regression loss only (empty otherwise): G = 2XᵀX (d × d, row-major) and c = 2Xᵀy, so that
  // the β-gradient of ‖y − Xβ‖² is G β − c.
  const std::vector<S>& gram2() const { return XtX2_; }
  const std::vector<S>& xty2() const { return Xty2_; }
  std::size_t dimension() const { return d_ * T_ + T_ + (tau_ ? 1 : 0); }
  std::size_t a_offset() const { return d_ * T_; }
  std::size_t time_index() const { return d_ * T_ + T_; }  // meaningful when tau_time()

  std::vector<S> initial_state() const {
    std::vector<S> x;
    x.reserve(dimension());
    for (const auto& row : V0_) x.insert(x.end(), row.begin(), row.end());
    x.insert(x.end(), a0_.begin(), a0_.end());
    if (tau_) x.push_back(S(0));
    return x;
  }

  // α(a) and the Jacobian weights w_k (f'(a_k)/F, or σ_k(1−σ_k) for sigmoid).
  template <class X>
  void normalize(const std::vector<X>& a, std::vector<X>& alpha, std::vector<X>& w) const {
    const std::size_t T = a.size();
    alpha.assign(T, X(0));
    w.assign(T, X(0));
    switch (norm_) {
      case Normalization::softmax:
        alpha = num::softmax(a);
        w = alpha;
        return;
      case Normalization::sigmoid:
        for (std::size_t k = 0; k < T; ++k) {
          alpha[k] = X(1) / (X(1) + num::exp(X(X(0) - a[k])));
          w[k] = alpha[k] * (X(1) - alpha[k]);
        }
        return;
      default: break;
    }
    std::vector<X> f(T, X(0)), fp(T, X(0));
    for (std::size_t k = 0; k < T; ++k) {
      switch (norm_) {
        case Normalization::square: f[k] = num::sqr(a[k]); fp[k] = X(2) * a[k]; break;
        case Normalization::sum: f[k] = a[k]; fp[k] = X(1); break;
        case Normalization::formula: f[k] = f_(a[k]); fp[k] = df_(a[k]); break;
        case Normalization::abs:
        case Normalization::relu: {
          const Branch b = branch(k);
          const int sg = b == Branch::by_sign ? certain_sign(a[k]) : b == Branch::positive ? 1 : b == Branch::negative ? -1 : 0;
          if (sg > 0) { f[k] = a[k]; fp[k] = X(1); }
          else if (sg < 0 && norm_ == Normalization::abs) { f[k] = X(0) - a[k]; fp[k] = X(-1); }
          break;  // relu of a negative, or an exact 0: f = f' = 0
        }
        default: break;
      }
    }
    X F(0);
    for (const auto& v : f) F = F + v;
    for (std::size_t k = 0; k < T; ++k) {
      alpha[k] = f[k] / F;
      w[k] = fp[k] / F;
    }
  }

  // Normalization formula only: f and f' defined (analytic) on the box a and Σ_j f(a_j)
  // certainly nonzero, so the weights are C¹ on a neighbourhood of it; false when not shown.
  template <class X>
  bool formula_normalization_regular(const std::vector<X>& a) const {
    try {
      X F(0);
      for (const auto& v : a) {
        F = F + f_(v);
        (void)df_(v);
      }
      return num::certainly_positive(F) || num::certainly_negative(F);
    } catch (const std::domain_error&) {
      return false;
    }
  }

  // α(a) of a state (the a part of x, from a_offset()).
  template <class X>
  std::vector<X> attention(const std::vector<X>& x) const {
    const std::vector<X> a(x.begin() + static_cast<std::ptrdiff_t>(a_offset()),
                           x.begin() + static_cast<std::ptrdiff_t>(a_offset() + T_));
    std::vector<X> alpha, w;
    normalize(a, alpha, w);
    return alpha;
  }

  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dxdt) const {
    const std::size_t T = T_, d = d_;
    if (dxdt.size() != x.size()) dxdt.resize(x.size());
    const std::vector<X> a(x.begin() + static_cast<std::ptrdiff_t>(d * T), x.begin() + static_cast<std::ptrdiff_t>(d * T + T));
    std::vector<X> alpha, w;
    normalize(a, alpha, w);
    std::vector<X> b(d, X(0));  // β = V α
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < T; ++j) b[i] = b[i] + x[i * T + j] * alpha[j];
    std::vector<X> g;
    if (tau_) {
      X m(0);
      for (std::size_t i = 0; i < d; ++i) m = m + b[i] * beta_[i];
      g.assign(d, X(0));
      for (std::size_t i = 0; i < d; ++i) g[i] = X(0) - X(beta_[i]);
      dxdt[time_index()] = X(1) + num::exp(m);
    } else {
      g = gradient(b);
    }
    std::vector<X> h(T, X(0));  // h = Vᵀ g
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < T; ++j) {
        dxdt[i * T + j] = X(0) - g[i] * alpha[j];
        h[j] = h[j] + x[i * T + j] * g[i];
      }
    if (norm_ == Normalization::sigmoid) {
      for (std::size_t k = 0; k < T; ++k) dxdt[d * T + k] = X(0) - w[k] * h[k];
    } else {
      X ha(0);
      for (std::size_t k = 0; k < T; ++k) ha = ha + alpha[k] * h[k];
      for (std::size_t k = 0; k < T; ++k) dxdt[d * T + k] = w[k] * (ha - h[k]);
    }
  }

  // ∇ℓ(β).
  template <class X>
  std::vector<X> gradient(const std::vector<X>& b) const {
    const std::size_t d = d_;
    std::vector<X> g(d, X(0));
    switch (loss_) {
      case Loss::logistic: {
        X m(0);
        for (std::size_t i = 0; i < d; ++i) m = m + b[i] * beta_[i];
        const X sig = X(1) / (X(1) + num::exp(m));  // σ(−m), no overflow for m → −∞ … +∞
        for (std::size_t i = 0; i < d; ++i) g[i] = X(0) - sig * beta_[i];
        break;
      }
      case Loss::logistic_dataset: {
        const std::size_t n = X_.size();
        for (std::size_t r = 0; r < n; ++r) {
          X m(0);
          for (std::size_t i = 0; i < d; ++i) m = m + b[i] * X_[r][i];
          m = m * y_[r];
          const X coef = X(y_[r]) / ((X(1) + num::exp(m)) * X(static_cast<int>(n)));
          for (std::size_t i = 0; i < d; ++i) g[i] = g[i] - coef * X_[r][i];
        }
        break;
      }
      case Loss::square:
        for (std::size_t i = 0; i < d; ++i) g[i] = b[i] - beta_[i];
        break;
      case Loss::regression: {
        // g = G β − c with G = 2XᵀX and c = 2Xᵀy formed once (constructor): the same field as
        // −2Xᵀ(y − Xβ), but over intervals the Taylor recursion does not carry |X|ᵀ|X|, so the
        // validated steps are longer (docs/performance.md, "Why the regression steps are small").
        for (std::size_t i = 0; i < d; ++i) {
          X acc = X(0) - X(Xty2_[i]);
          for (std::size_t k = 0; k < d; ++k) acc = acc + X(XtX2_[i * d + k]) * b[k];
          g[i] = acc;
        }
        break;
      }
      case Loss::cross_entropy: {
        const std::vector<X> sm = num::softmax(b);
        for (std::size_t i = 0; i < d; ++i) g[i] = sm[i] * p_sum_ - p_[i];
        break;
      }
      case Loss::formula:
        if (margin_loss_) {
          X z(0);
          for (std::size_t i = 0; i < d; ++i) z = z + b[i] * beta_[i];
          const X dz = dphi_.evaluate(formula_values(z, X(0), X(0)).data());
          for (std::size_t i = 0; i < d; ++i) g[i] = dz * beta_[i];
        } else {
          for (std::size_t i = 0; i < d; ++i) g[i] = dphi_.evaluate(formula_values(X(0), b[i], X(beta_[i])).data());
        }
        break;
    }
    return g;
  }

  // ℓ(β) for β = V α(a) of a state (point or interval kinds with ScalarTraits).
  template <class X>
  X loss_value(const std::vector<X>& x) const {
    const std::size_t T = T_, d = d_;
    const std::vector<X> a(x.begin() + static_cast<std::ptrdiff_t>(d * T), x.begin() + static_cast<std::ptrdiff_t>(d * T + T));
    std::vector<X> alpha, w;
    normalize(a, alpha, w);
    std::vector<X> b(d, X(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < T; ++j) b[i] = b[i] + x[i * T + j] * alpha[j];
    X L(0);
    switch (loss_) {
      case Loss::logistic: {
        X m(0);
        for (std::size_t i = 0; i < d; ++i) m = m + b[i] * beta_[i];
        return num::softplus(X(X(0) - m));
      }
      case Loss::logistic_dataset: {
        for (std::size_t r = 0; r < X_.size(); ++r) {
          X m(0);
          for (std::size_t i = 0; i < d; ++i) m = m + b[i] * X_[r][i];
          L = L + num::softplus(X(X(0) - m * y_[r]));
        }
        return L / X(static_cast<int>(X_.size()));
      }
      case Loss::square:
        for (std::size_t i = 0; i < d; ++i) L = L + num::sqr(X(b[i] - beta_[i]));
        return L / X(2);
      case Loss::regression:
        for (std::size_t r = 0; r < X_.size(); ++r) {
          X res(y_[r]);
          for (std::size_t i = 0; i < d; ++i) res = res - b[i] * X_[r][i];
          L = L + num::sqr(res);
        }
        return L;
      case Loss::cross_entropy: {
        const X lse = num::logsumexp(b);
        for (std::size_t i = 0; i < d; ++i) L = L + X(p_[i]) * (lse - b[i]);
        return L;
      }
      case Loss::formula:
        if (margin_loss_) {
          X z(0);
          for (std::size_t i = 0; i < d; ++i) z = z + b[i] * beta_[i];
          return phi_.evaluate(formula_values(z, X(0), X(0)).data());
        }
        for (std::size_t i = 0; i < d; ++i) L = L + phi_.evaluate(formula_values(X(0), b[i], X(beta_[i])).data());
        return L;
    }
    return L;
  }

 private:
  // The loss formula's variables in the order of instances::loss_formula_variables().
  template <class X>
  static std::array<X, 3> formula_values(const X& z, const X& beta, const X& target) {
    return {z, beta, target};
  }

  // +1 / −1 when the sign of x is certain, 0 for an exact zero; throws when undecided.
  template <class X>
  static int certain_sign(const X& x) {
    if (num::certainly_positive(x)) return 1;
    if (num::certainly_negative(x)) return -1;
    if (num::certainly_nonnegative(x) && num::certainly_nonpositive(x)) return 0;
    throw std::domain_error("abs/relu normalization: the sign of an attention score is not certain");
  }

  Loss loss_;
  Normalization norm_;
  std::size_t T_, d_;
  bool tau_;
  std::vector<std::vector<S>> V0_;
  std::vector<S> a0_, beta_;
  std::vector<std::vector<S>> X_;
  std::vector<S> y_, p_;
  std::vector<Branch> branches_;  // empty: every score by_sign
  std::vector<S> XtX2_, Xty2_;  // regression: 2XᵀX (d × d, row-major) and 2Xᵀy
  S c_{0}, p_sum_{0};
  bool margin_loss_ = false;                      // loss formula: φ(z) (true) or Σ_i φ(β_i, β*_i)
  instances::CompiledFormula<S> phi_, dphi_;      // loss formula and its derivative (in z or beta)
  instances::CompiledFormula<S> f_, df_;          // normalization formula and its derivative
};

}  // namespace softcert::models
