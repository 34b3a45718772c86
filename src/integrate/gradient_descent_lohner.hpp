#pragma once
// Gradient-descent iterates enclosed with Lohner's QR wrapping control for maps: the iterate
// x_k is kept as a doubleton c_k + A_k r_k (c_k a point, A_k a point matrix, r_k an interval
// vector containing 0) instead of a box, so that the box's rotation under the map does not
// blow the enclosure up at every iterate (the wrapping effect of plain interval iteration,
// integrate/gradient_descent.hpp, whose widths grow with every iterate).
//
// One iterate of F(x) = x + lr f(x), from x ∈ X_k = c + A r:
//     [Fc] ∋ F(c)          (F evaluated over the thin c),
//     J    ∋ DF(ξ)         for every ξ ∈ X_k (DF = I + lr Df, Df the model's interval Jacobian),
//     B    = J·A,  c' = mid [Fc],  Q from a QR factorisation of mid B (any invertible Q will do),
//     r'   = (Q⁻¹B)·r + Q⁻¹([Fc] − c'),   A' = Q,
// with Q⁻¹ replaced by an interval matrix containing it (lohner::near_inverse_of_orthogonal).
// Why it encloses: X_k is convex and contains c (r ∋ 0) and every x = c + Aρ, ρ ∈ r, so the
// mean value theorem row by row gives F_i(x) − F_i(c) = DF_i(ξ_i)(x − c) with ξ_i ∈ X_k, hence
// F(x) ∈ [Fc] + M·A·ρ for some M ∈ J, and F(x) − c' = Q·Q⁻¹(F(x) − c') with
// Q⁻¹(F(x) − c') ∈ Q⁻¹([Fc] − c') + (Q⁻¹ B)·ρ ⊆ r' (interval products contain every product of
// their members; r' ∋ 0 since c' ∈ [Fc]). So x_{k+1} = F(x_k) ∈ c' + Q r'.
//
// Guarantee: every box passed to visit(k, X_k) contains the k-th iterate of exact real
// gradient descent with step exactly lr from the model's initial state (itself enclosed), if
// the model's rhs is sound over S and `jacobian(model, X, Df)` encloses Df over the box X.
#include <cstdint>
#include <vector>

#include "integrate/flow_sets.hpp"
#include "integrate/lohner_linalg.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// x ↦ x + lr f(x) on the doubleton d = c + A r (flow_sets.hpp's DoubletonSet, A its B), as derived above; `box` is convex and contains c and every
// point the doubleton stands for (d.box(), or the initial box itself).
template <class S, class Model, class Jacobian>
DoubletonSet<S> gradient_descent_lohner_step(const Model& model, const S& lr, const DoubletonSet<S>& d,
                                             const std::vector<S>& box, Jacobian&& jacobian) {
  const std::size_t n = d.c.size();
  constexpr bool midrad = std::is_same_v<S, IntervalD>;
  std::vector<S> f(n), Fc(n), Df, B, QinvB;
  model.rhs(d.c, f);
  for (std::size_t i = 0; i < n; ++i) Fc[i] = d.c[i] + S(lr * f[i]);
  jacobian(model, box, Df);
  {  // J = I + lr·Df, in the fast arithmetic (taylor/fast_arith.hpp)
    using FA = taylor::FastArith<S>;
    const auto lrf = FA::to(lr);
    [[maybe_unused]] const typename FA::Guard guard;
    for (std::size_t i = 0; i < n * n; ++i) Df[i] = FA::from(i % (n + 1) == 0 ? lrf * FA::to(Df[i]) + FA::to(S(1)) : lrf * FA::to(Df[i]));
  }
  lohner::product(Df, d.B, B, n, midrad);
  DoubletonSet<S> next;
  for (const S& v : Fc) next.c.push_back(num::mid_scalar(v));
  next.B = lohner::orthogonal_from(B, d.r, n);
  const std::vector<S> Qinv = lohner::near_inverse_of_orthogonal(next.B, n, midrad).enclosure();
  lohner::product(Qinv, B, QinvB, n, midrad);
  std::vector<S> shift(n);
  for (std::size_t i = 0; i < n; ++i) shift[i] = Fc[i] - next.c[i];
  next.r = lohner::fast_mat_vec(QinvB, d.r, n);
  const std::vector<S> moved = lohner::fast_mat_vec(Qinv, shift, n);
  for (std::size_t i = 0; i < n; ++i) next.r[i] += moved[i];
  return next;
}

// Runs up to `iterations` steps of size lr over S; visit(k, X_k) is called for k = 0 …
// iterations with a box containing the k-th iterate and returns false to stop. Returns the last
// k visited. The same interface as enclose_gradient_descent; on_set(k, d) sees the doubleton of
// each iterate first (e.g. a certificate writer).
struct NoDoubletonObserver {
  template <class D>
  void operator()(std::uint64_t, const D&) const {}
};
template <class S, class Model, class Jacobian, class Visit, class OnSet = NoDoubletonObserver>
std::uint64_t enclose_gradient_descent_lohner(const Model& model, const S& lr, std::uint64_t iterations, Jacobian&& jacobian,
                                              Visit&& visit, OnSet&& on_set = {}) {
  const std::vector<S> x0 = model.initial_state();
  DoubletonSet<S> d = DoubletonSet<S>::from_box(x0);
  for (std::uint64_t k = 0;; ++k) {
    const std::vector<S> box = k == 0 ? x0 : d.box();
    on_set(k, static_cast<const DoubletonSet<S>&>(d));
    if (!visit(k, static_cast<const std::vector<S>&>(box)) || k == iterations) return k;
    d = gradient_descent_lohner_step(model, lr, d, box, jacobian);
  }
}

}  // namespace softcert::integrate
