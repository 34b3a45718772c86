#pragma once
// The Jacobian Df of the value-softmax field (models/value_softmax.hpp) in closed form, for the
// softmax normalization in t-time with the square loss (∇²ℓ = I) or the regression loss
// (∇²ℓ = G = 2XᵀX, ValueSoftmax::gram2()): the ball step's Df over a box (docs/method.md §2b)
// without the tape's derivative pass (integrate/closed_form_jacobian.hpp attaches it).
//
// With α = softmax(a), J = ∂α/∂a = diag(α) − ααᵀ, β = Vα, g = ∇ℓ(β), H = ∇²ℓ(β), h = Vᵀg,
// f_V = −gαᵀ, f_a = −Jh (V indexed ij → i·T + j), the chain rule gives
//   ∂f_{V,ij}/∂V_lm = −H_il α_m α_j
//   ∂f_{V,ij}/∂a_m  = −(HVJ)_im α_j − g_i J_jm
//   ∂f_{a,k}/∂V_lm  = −J_km g_l − (JVᵀH)_kl α_m
//   ∂f_{a,k}/∂a_m   = −J_km (h_k − αᵀh) + α_k (Jh)_m − (JVᵀHVJ)_km.
// Evaluated in factored forms of the same real numbers, in which no interval sum has to cancel
// one term against another (narrower than the tape's, far narrower where α is nearly one-hot:
// docs/performance.md, "Df in closed form"): with U = V − β1ᵀ, i.e.
// U_im = Σ_{j≠m} α_j (V_im − V_ij) (Σ_j α_j = 1), one has VJ = U·diag(α), h − (αᵀh)1 = Uᵀg =: η,
// Jh = α ∘ η; with M = HU and N = UᵀHU,
//   ∂f_{V,ij}/∂a_m = α_j α_m (g_i − M_im)             (j ≠ m)
//                  = −α_m² M_im − g_i α_m(1 − α_m)      (j = m)
//   ∂f_{a,k}/∂V_lm = ∂f_{V,lm}/∂a_k                    (the same formula: J and H are symmetric)
//   ∂f_{a,k}/∂a_m  = α_k α_m (η_k + η_m − N_km)        (k ≠ m)
//                  = η_k·α_k(2α_k − 1) − α_k² N_kk       (k = m).
// (Near one-hot α, U's column of the leading score is ~ the other α_j, where V_im − β_i would
// keep the whole width of the box: on such boxes the tape's Df, which follows rhs's operations,
// is orders of magnitude wider, and its μ with it: tests/models/value_softmax_jacobian_test.cpp.)
// (f = −∇L, so Df = −∇²L is symmetric; the a–V entries are nevertheless computed from their own
// formula, which happens to be the V–a one.)
//
// Guarantee (value_softmax_jacobian, interval X): if it returns true, Df has n² entries (n =
// dT + T, row-major) and Df[r·n + c] ∋ ∂f_r/∂x_c(y) for every y in the box x (every component
// x_c ∋ y_c), for the model's exact field — the field with the exact decimal data, which the
// model's parameters (G, 2Xᵀy, β*) enclose. Every quantity above is a polynomial in α, V, a and
// the parameters evaluated in interval arithmetic (enclosing its range over the box by the
// inclusion property), α = softmax(a) is num::softmax over the box, and α_k(1 − α_k) and
// α_k(2α_k − 1) are enclosed by their exact ranges over α_k's interval (parabolas). Returns
// false, leaving Df unspecified, for any other (loss, normalization, time variable): the caller
// keeps the tape. Tests: tests/models/value_softmax_jacobian_test.cpp (every entry contains the
// 256-bit tape Jacobian at points of random boxes; fails with any one term dropped).
// The bulk runs in taylor::FastArith<X> under its Guard (the rounding mode set once; the same
// enclosures as X's operators). Reentrant: reads only the model and its arguments.
// For point kinds (double) it is the Jacobian at the point up to rounding (no guarantee).
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "models/value_softmax.hpp"
#include "numerics/stable.hpp"
#include "numerics/traits.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::models {

// Whether value_softmax_jacobian has a closed form for this model.
template <class S>
bool has_closed_form_jacobian(const ValueSoftmax<S>& m) {
  using L = instances::Loss;
  return !m.tau_time() && m.normalization() == instances::Normalization::softmax &&
         (m.loss() == L::regression || m.loss() == L::square);
}

namespace detail {
// c2·p² + c1·p over an interval: its exact range (a parabola with its vertex value v at p = pv:
// the hull of the values at the end points, and v when pv lies between them), each end point's
// value enclosed by interval arithmetic on the thin end point. pv and v are exact doubles.
template <class X>
X parabola(const X& p, double c2, double c1, double pv, double v) {
  if constexpr (num::is_interval_v<X>) {
    using B = num::BoundOf<X>;
    const B lo = num::lower(p), hi = num::upper(p);
    auto at = [&](const B& e) {
      const X t = num::hull_of_bounds<X>(e, e);
      return X(t * (X(c2) * t + X(c1)));
    };
    X r = num::hull(at(lo), at(hi));
    if (lo < B(pv) && B(pv) < hi) r = num::hull(r, X(v));
    return r;
  } else {
    return p * (X(c2) * p + X(c1));
  }
}
// J_kk = p(1 − p) (vertex 1/4 at p = 1/2) and p(2p − 1) (vertex −1/8 at p = 1/4).
template <class X>
X times_one_minus(const X& p) {
  return parabola(p, -1, 1, 0.5, 0.25);
}
template <class X>
X times_two_minus_one(const X& p) {
  return parabola(p, 2, -1, 0.25, -0.125);
}
}  // namespace detail

// Guarantee: see the top of this file.
template <class S, class X>
bool value_softmax_jacobian(const ValueSoftmax<S>& model, const std::vector<X>& x, std::vector<X>& Df) {
  if (!has_closed_form_jacobian(model)) return false;
  const std::size_t d = model.dim(), T = model.tokens(), dT = d * T, n = dT + T;
  if (x.size() != n) throw std::invalid_argument("value_softmax_jacobian: the state has the wrong dimension");
  const bool regression = model.loss() == instances::Loss::regression;
  const std::vector<X> a(x.begin() + static_cast<std::ptrdiff_t>(dT), x.end());
  const std::vector<X> alpha_x = num::softmax(a);  // the pairwise form over intervals (numerics/stable.hpp)
  // J_kk = α_k(1 − α_k) and α_k(2α_k − 1), each by its exact range over α_k's interval
  std::vector<X> jdiag_x(T), q_x(T);
  for (std::size_t k = 0; k < T; ++k) {
    jdiag_x[k] = detail::times_one_minus(alpha_x[k]);
    q_x[k] = detail::times_two_minus_one(alpha_x[k]);
  }

  using FA = taylor::FastArith<X>;
  using A = typename FA::type;
  Df.resize(n * n);
  [[maybe_unused]] const typename FA::Guard guard;  // FastIntervalD is sound only inside it
  const A zero(0.0);
  std::vector<A> al(T), jd(T), q(T), V(dT);
  for (std::size_t k = 0; k < T; ++k) {
    al[k] = FA::to(alpha_x[k]);
    jd[k] = FA::to(jdiag_x[k]);
    q[k] = FA::to(q_x[k]);
  }
  for (std::size_t r = 0; r < dT; ++r) V[r] = FA::to(x[r]);
  std::vector<A> G;  // H = G (regression) or I (square)
  if (regression) {
    G.resize(d * d);
    for (std::size_t r = 0; r < d * d; ++r) G[r] = FA::to(X(model.gram2()[r]));
  }
  // α_j α_m (T × T; α_j² on the diagonal, a product of nonnegative intervals)
  std::vector<A> aa(T * T);
  for (std::size_t j = 0; j < T; ++j)
    for (std::size_t m = 0; m < T; ++m) aa[j * T + m] = al[j] * al[m];
  // β = Vα, g = ∇ℓ(β) (as rhs: Gβ − 2Xᵀy, or β − β*)
  std::vector<A> beta(d, zero), g(d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < T; ++j) beta[i] = beta[i] + V[i * T + j] * al[j];
  for (std::size_t i = 0; i < d; ++i) {
    if (regression) {
      A acc = zero - FA::to(X(model.xty2()[i]));
      for (std::size_t k = 0; k < d; ++k) acc = acc + G[i * d + k] * beta[k];
      g[i] = acc;
    } else {
      g[i] = beta[i] - FA::to(X(model.beta()[i]));
    }
  }
  // U = V − β1ᵀ as U_im = Σ_{j≠m} α_j (V_im − V_ij) (the same number, since Σ_j α_j = 1: no
  // interval difference of V_im and β_i, which would keep the box's width where α is nearly
  // one-hot and U_im nearly 0), then h − (αᵀh)1 = Uᵀg, M = HU, N = UᵀM (T × T)
  std::vector<A> U(dT, zero), M(dT), N(T * T, zero), hs(T, zero);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t m = 0; m < T; ++m) {
      A acc = zero;
      for (std::size_t j = 0; j < T; ++j)
        if (j != m) acc = acc + al[j] * (V[i * T + m] - V[i * T + j]);
      U[i * T + m] = acc;
    }
  for (std::size_t k = 0; k < T; ++k)
    for (std::size_t i = 0; i < d; ++i) hs[k] = hs[k] + U[i * T + k] * g[i];
  if (regression) {
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t m = 0; m < T; ++m) {
        A acc = zero;
        for (std::size_t l = 0; l < d; ++l) acc = acc + G[i * d + l] * U[l * T + m];
        M[i * T + m] = acc;
      }
  } else {
    M = U;
  }
  for (std::size_t k = 0; k < T; ++k)
    for (std::size_t m = 0; m < T; ++m) {
      A acc = zero;
      for (std::size_t i = 0; i < d; ++i) acc = acc + U[i * T + k] * M[i * T + m];
      N[k * T + m] = acc;
    }
  // −H_il: the V–V block's factor
  std::vector<A> nH(d * d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t l = 0; l < d; ++l) nH[i * d + l] = regression ? zero - G[i * d + l] : (i == l ? A(-1.0) : zero);
  // ∂f_{V,ij}/∂a_m and ∂f_{a,m}/∂V_ij (the same formula)
  auto v_a = [&](std::size_t i, std::size_t j, std::size_t m) -> A {
    if (j == m) return zero - aa[m * T + m] * M[i * T + m] - g[i] * jd[m];
    return aa[j * T + m] * (g[i] - M[i * T + m]);
  };
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < T; ++j) {
      X* row = Df.data() + (i * T + j) * n;
      for (std::size_t l = 0; l < d; ++l) {
        X* blk = row + l * T;
        if (!regression && l != i) {
          for (std::size_t m = 0; m < T; ++m) blk[m] = X(0);
          continue;
        }
        const A f = nH[i * d + l];
        const A* aj = aa.data() + j * T;
        for (std::size_t m = 0; m < T; ++m) blk[m] = FA::from(f * aj[m]);
      }
      for (std::size_t m = 0; m < T; ++m) row[dT + m] = FA::from(v_a(i, j, m));
    }
  for (std::size_t k = 0; k < T; ++k) {
    X* row = Df.data() + (dT + k) * n;
    for (std::size_t l = 0; l < d; ++l)
      for (std::size_t m = 0; m < T; ++m) row[l * T + m] = FA::from(v_a(l, m, k));
    for (std::size_t m = 0; m < T; ++m) {
      if (m != k) row[dT + m] = FA::from(aa[k * T + m] * (hs[k] + hs[m] - N[k * T + m]));
      else row[dT + m] = FA::from(hs[k] * q[k] - aa[k * T + k] * N[k * T + k]);
    }
  }
  return true;
}

}  // namespace softcert::models
