#pragma once
// Square loss ℓ(β) = ½‖β − β*‖² from a rank-one start V(0) = β* w₀ᵀ (docs/models.md): V stays
// β* wᵀ and, with u = c w, c = ‖β*‖², ρ = 1 − wᵀs = 1 − uᵀs / c, state x = (a, u) ∈ R^{2T}:
//     da_i/dt = ρ s_i (u_i − sᵀu),     du_i/dt = ρ c s_i.
// It is the logistic orbit with γ replaced by ρ; ρ → 0 at a finite τ*, so polarization stops
// part-way.
//
// from_instance takes u0 = V(0)ᵀβ*, which is exact for the rank-one V(0) = β* u0ᵀ / c; it
// refuses (field "V") an instance whose V is not rank one along β* to 1e-12 relative in double,
// because then the reduced system is not the projection of the full one.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "instances/instance.hpp"
#include "models/logistic_reduced.hpp"
#include "models/model_parameters.hpp"
#include "numerics/stable.hpp"

namespace softcert::models {

template <class S>
class RankOneSquare {
 public:
  RankOneSquare(std::vector<S> a0, std::vector<S> u0, S c) : a0_(std::move(a0)), u0_(std::move(u0)), c_(std::move(c)) {
    if (a0_.size() != u0_.size() || a0_.empty()) throw std::invalid_argument("a: size must equal size of u and be ≥ 1");
  }
  static RankOneSquare from_instance(const instances::Instance& inst) {
    if (inst.loss != instances::Loss::square) throw std::invalid_argument("loss: the rank-one form needs loss \"square\"");
    if (inst.normalization != instances::Normalization::softmax)
      throw std::invalid_argument("normalization: the rank-one form needs normalization \"softmax\"");
    check_rank_one(inst);
    ReducedParameters<S> p = reduced_parameters<S>(inst);
    return RankOneSquare(std::move(p.a0), std::move(p.u0), std::move(p.c));
  }

  std::size_t tokens() const { return a0_.size(); }
  std::size_t dimension() const { return 2 * a0_.size(); }
  const S& c() const { return c_; }
  std::vector<S> initial_state() const {
    std::vector<S> x(a0_);
    x.insert(x.end(), u0_.begin(), u0_.end());
    return x;
  }
  // Guarantee (interval K): σ(a) and the loss ½‖β* wᵀσ(a) − β*‖² = ½ c ρ², ρ = 1 − uᵀσ(a)/c, of
  // every state in the box x = (a, u).
  template <class K>
  std::vector<K> attention(const std::vector<K>& x) const { return detail::attention_of(x, a0_.size()); }
  template <class K>
  K loss_value(const std::vector<K>& x) const {
    const K rho = K(1) - detail::mean_value(x, a0_.size()) / c_;
    return K(c_ * rho * rho / K(2));
  }

  template <class X>
  void rhs(const std::vector<X>& x, std::vector<X>& dxdt) const {
    const std::size_t T = a0_.size();
    if (dxdt.size() != x.size()) dxdt.resize(x.size());
    const std::vector<X> a(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(T));
    const std::vector<X> s = num::softmax(a);
    X su(0);
    for (std::size_t i = 0; i < T; ++i) su = su + s[i] * x[T + i];
    const X rho = X(1) - su / c_;
    for (std::size_t i = 0; i < T; ++i) {
      const X rs = rho * s[i];
      dxdt[i] = rs * (x[T + i] - su);
      dxdt[T + i] = rs * c_;
    }
  }

 private:
  static void check_rank_one(const instances::Instance& inst) {
    const auto V = parse_matrix<double>(inst.V);
    const auto beta = parse_vector<double>(inst.beta);
    const auto u = transpose_times(V, beta);
    const double c = squared_norm(beta);
    double scale = 1e-300, residual = 0;
    for (std::size_t i = 0; i < V.size(); ++i)
      for (std::size_t j = 0; j < V[i].size(); ++j) {
        scale = std::fmax(scale, std::fabs(V[i][j]));
        residual = std::fmax(residual, std::fabs(V[i][j] - beta[i] * u[j] / c));
      }
    if (residual > 1e-12 * scale)
      throw std::invalid_argument("V: the rank-one form needs V = beta wᵀ (residual " + std::to_string(residual / scale) + " relative)");
  }

  std::vector<S> a0_, u0_;
  S c_;
};

}  // namespace softcert::models
