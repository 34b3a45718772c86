#pragma once
// The Jacobian Df of the tied value-softmax field in τ-time (models/tied_value_softmax.hpp) in
// closed form: the ball step's Df over a box (docs/method.md §2b) without the tape's derivative
// pass, whose cost is the tape's nodes times the n = D² + D + 1 directions
// (integrate/closed_form_jacobian.hpp attaches it; docs/performance.md, "Df in closed form").
//
// In τ-time g = −β* is constant. With z = U a, α = softmax(z), J = ∂α/∂z = diag α − ααᵀ,
// r = Uᵀg, w = r − (αᵀr)1, q = Jr = α ⊙ w, β̃ = Uᵀα, Ũ = U − 1β̃ᵀ (Ũ_mk = U_mk − β̃_k),
// ν = Uᵀq and s = ⟨β*, Uα⟩, the field is f_{U,ij} = −(g_i α_j + q_i a_j), f_{a,k} = −Σ_i U_ik q_i,
// f_t = 1 + e^s, and the chain rule (∂α_j/∂U_lm = J_jl a_m, ∂α_j/∂a_m = (JU)_jm, JU = diag(α)Ũ,
// ∂r_j/∂U_lm = δ_jm g_l, ∂(αᵀr)/∂U_lm = a_m q_l + α_m g_l, ∂(αᵀr)/∂a_m = ν_m) gives, with
// c_ij = a_j α_i:
//   ∂f_{U,ij}/∂U_lm = a_m P_ij,l + c_ij g_l (α_m − δ_im),
//        P_ij,l     = −g_i J_jl − a_j w_i J_il + c_ij q_l
//   ∂f_{U,ij}/∂a_m  = −g_i α_j Ũ_jm − a_j (q_i Ũ_im − α_i ν_m) − δ_jm q_i
//   ∂f_{a,k}/∂U_lm  = a_m α_l (ν_k − w_l Ũ_lk) − g_l α_m Ũ_mk − δ_km q_l
//   ∂f_{a,k}/∂a_m   = −Σ_i Ũ_ik q_i Ũ_im
//   ∂f_t/∂U_lm      = −e^s (g_l α_m + a_m q_l),    ∂f_t/∂a_m = −e^s ν_m,
// and nothing depends on t (its column is 0). The a–a block is −Uᵀ diag(w) J U + β̃ νᵀ written
// with Σ_i q_i = 0 and Σ_i α_i Ũ_ik = 0, and the a–U block's first factor is q_l β̃_k − (Uᵀ
// diag(w) J)_kl with J_il = α_i(δ_il − α_l): forms of the same real numbers in which no interval
// sum cancels one large term against another. Ũ and w are summed as Ũ_mk = Σ_{i≠m} α_i (U_mk −
// U_ik) and w_i = Σ_{j≠i} α_j (r_i − r_j) (Σ_j α_j = 1), so that where α is nearly one-hot they
// are not the difference of two numbers each as wide as the box (as for the untied model,
// models/value_softmax_jacobian.hpp).
//
// Guarantee (tied_value_softmax_jacobian, interval X): if it returns true, Df has n² entries
// (row-major) and Df[r·n + c] ∋ ∂f_r/∂x_c(y) for every y in the box x (every component x_c ∋
// y_c), for the model's exact field — the field with the exact decimal β*, which the model's
// parameters enclose. Every quantity above is a polynomial in α, U, a, β* and e^s evaluated in
// interval arithmetic (enclosing its range over the box by the inclusion property); α is
// num::softmax over the box, e^s num::exp of s's enclosure, and J_kk = α_k(1 − α_k) is
// enclosed by its exact range over α_k's interval (models::detail::times_one_minus). Returns
// false, leaving Df unspecified, in t-time (there g = −γβ* depends on the state): the caller
// keeps the tape. Tests: tests/models/tied_value_softmax_jacobian_test.cpp (every entry
// contains the 256-bit tape Jacobian at points of random boxes; fails with a term dropped).
// The bulk runs in taylor::FastArith<X> under its Guard (the rounding mode set once; the same
// enclosures as X's operators). With `both` (num::PairRunner) the rows are filled in two fixed
// halves, possibly on two threads, each under its own Guard: the same bits as one thread.
// Reentrant: reads only the model and its arguments.
// For point kinds (double) it is the Jacobian at the point up to rounding (no guarantee).
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "models/tied_value_softmax.hpp"
#include "models/value_softmax_jacobian.hpp"
#include "numerics/elementary.hpp"
#include "numerics/pair_runner.hpp"
#include "numerics/stable.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::models {

// Whether tied_value_softmax_jacobian has a closed form for this model.
template <class S>
bool has_closed_form_jacobian(const TiedValueSoftmax<S>& m) {
  return m.tau_time();
}

namespace detail {

// The quantities every entry of the closed form is made of (the top of this file), over the box
// x, in taylor::FastArith<X>'s arithmetic: α, a, g = −β*, U (row-major D × D), J, r, w, q, Ũ, ν
// and e^s. Computed under one FastArith Guard; the caller's entries need their own.
template <class X>
struct TiedJacobianParts {
  using FA = taylor::FastArith<X>;
  using A = typename FA::type;
  std::size_t D = 0;
  std::vector<A> al, a, g, U, J, r, w, q, Ut, nu;
  A es;
};

template <class S, class X>
TiedJacobianParts<X> tied_jacobian_parts(const TiedValueSoftmax<S>& model, const std::vector<X>& x) {
  const std::size_t D = model.dim(), DD = D * D;
  if (x.size() != model.dimension()) throw std::invalid_argument("tied_value_softmax_jacobian: the state has the wrong dimension");
  const std::vector<X> alpha_x = model.attention(x);  // num::softmax of U a over the box
  const X es_x = num::exp(model.margin(x, alpha_x));   // e^s, s = ⟨β*, Uα⟩
  std::vector<X> jd_x(D);
  for (std::size_t k = 0; k < D; ++k) jd_x[k] = times_one_minus(alpha_x[k]);

  using FA = taylor::FastArith<X>;
  using A = typename FA::type;
  TiedJacobianParts<X> t;
  t.D = D;
  const A zero(0.0);
  auto &al = t.al, &a = t.a, &g = t.g, &U = t.U, &J = t.J, &r = t.r, &w = t.w, &q = t.q, &Ut = t.Ut, &nu = t.nu;
  for (auto* v : {&al, &a, &g, &q}) v->resize(D);
  U.resize(DD);
  J.resize(DD);
  r.assign(D, zero);
  w.assign(D, zero);
  Ut.assign(DD, zero);
  nu.assign(D, zero);
  // FastIntervalD is sound only inside a Guard
  [[maybe_unused]] const typename FA::Guard guard;
  for (std::size_t k = 0; k < D; ++k) {
    al[k] = FA::to(alpha_x[k]);
    a[k] = FA::to(x[DD + k]);
    g[k] = zero - FA::to(X(model.beta()[k]));
  }
  for (std::size_t i = 0; i < DD; ++i) U[i] = FA::to(x[i]);
  t.es = FA::to(es_x);
  // J = diag α − ααᵀ, its diagonal by the parabola's exact range
  for (std::size_t j = 0; j < D; ++j)
    for (std::size_t l = 0; l < D; ++l) J[j * D + l] = j == l ? FA::to(jd_x[j]) : zero - al[j] * al[l];
  // r = Uᵀg; w_i = Σ_{j≠i} α_j (r_i − r_j); q = α ⊙ w
  for (std::size_t i = 0; i < D; ++i)
    for (std::size_t j = 0; j < D; ++j) r[j] = r[j] + U[i * D + j] * g[i];
  for (std::size_t i = 0; i < D; ++i) {
    for (std::size_t j = 0; j < D; ++j)
      if (j != i) w[i] = w[i] + al[j] * (r[i] - r[j]);
    q[i] = al[i] * w[i];
  }
  // Ũ_mk = Σ_{i≠m} α_i (U_mk − U_ik) (= U_mk − β̃_k); ν = Uᵀq
  for (std::size_t m = 0; m < D; ++m)
    for (std::size_t k = 0; k < D; ++k) {
      A acc = zero;
      for (std::size_t i = 0; i < D; ++i)
        if (i != m) acc = acc + al[i] * (U[m * D + k] - U[i * D + k]);
      Ut[m * D + k] = acc;
    }
  for (std::size_t i = 0; i < D; ++i)
    for (std::size_t m = 0; m < D; ++m) nu[m] = nu[m] + U[i * D + m] * q[i];
  return t;
}

}  // namespace detail

// Guarantee: see the top of this file.
template <class S, class X>
bool tied_value_softmax_jacobian(const TiedValueSoftmax<S>& model, const std::vector<X>& x, std::vector<X>& Df,
                                 const num::PairRunner& both = {}) {
  if (!has_closed_form_jacobian(model)) return false;
  const std::size_t D = model.dim(), DD = D * D, n = model.dimension();
  const detail::TiedJacobianParts<X> parts = detail::tied_jacobian_parts(model, x);
  using FA = taylor::FastArith<X>;
  using A = typename FA::type;
  Df.resize(n * n);
  const A zero(0.0), one(1.0);
  const auto &al = parts.al, &a = parts.a, &g = parts.g, &J = parts.J, &w = parts.w, &q = parts.q, &Ut = parts.Ut, &nu = parts.nu;
  const A es = parts.es;
  X* const out = Df.data();
  const std::size_t tc = n - 1;  // t's column and row
  // The rows of U for i in [i0, i1): ∂f_{U,ij}/∂U_lm, ∂f_{U,ij}/∂a_m, and 0 for t.
  auto u_rows = [&](std::size_t i0, std::size_t i1) {
    std::vector<A> P(D);
    for (std::size_t i = i0; i < i1; ++i)
      for (std::size_t j = 0; j < D; ++j) {
        X* row = out + (i * D + j) * n;
        const A c = a[j] * al[i], awi = a[j] * w[i];
        for (std::size_t l = 0; l < D; ++l) P[l] = c * q[l] - g[i] * J[j * D + l] - awi * J[i * D + l];
        for (std::size_t l = 0; l < D; ++l) {
          const A cg = c * g[l];
          X* blk = row + l * D;
          for (std::size_t m = 0; m < D; ++m) blk[m] = FA::from(a[m] * P[l] + cg * (m == i ? al[i] - one : al[m]));
        }
        for (std::size_t m = 0; m < D; ++m) {
          A e = zero - g[i] * al[j] * Ut[j * D + m] - a[j] * (q[i] * Ut[i * D + m] - al[i] * nu[m]);
          if (m == j) e = e - q[i];
          row[DD + m] = FA::from(e);
        }
        row[tc] = X(0);
      }
  };
  // The rows of a (∂f_{a,k}/∂U_lm, ∂f_{a,k}/∂a_m, and 0 for t) and the row of t.
  auto a_and_t_rows = [&] {
    for (std::size_t k = 0; k < D; ++k) {
      X* row = out + (DD + k) * n;
      for (std::size_t l = 0; l < D; ++l) {
        const A R = al[l] * (nu[k] - w[l] * Ut[l * D + k]);
        X* blk = row + l * D;
        for (std::size_t m = 0; m < D; ++m) {
          A e = a[m] * R - g[l] * (al[m] * Ut[m * D + k]);
          if (m == k) e = e - q[l];
          blk[m] = FA::from(e);
        }
      }
      for (std::size_t m = 0; m < D; ++m) {
        A acc = zero;
        for (std::size_t i = 0; i < D; ++i) acc = acc + Ut[i * D + k] * q[i] * Ut[i * D + m];
        row[DD + m] = FA::from(zero - acc);
      }
      row[tc] = X(0);
    }
    X* row = out + tc * n;
    for (std::size_t l = 0; l < D; ++l)
      for (std::size_t m = 0; m < D; ++m) row[l * D + m] = FA::from(zero - es * (g[l] * al[m] + a[m] * q[l]));
    for (std::size_t m = 0; m < D; ++m) row[DD + m] = FA::from(zero - es * nu[m]);
    row[tc] = X(0);
  };
  // Two fixed halves of the rows, each under its own Guard (the rounding mode is a thread's):
  // every entry is computed by the same operations whichever thread runs it.
  const std::size_t half = D / 2;
  num::run_pair(
      both,
      [&] {
        [[maybe_unused]] const typename FA::Guard g1;
        u_rows(0, half);
      },
      [&] {
        [[maybe_unused]] const typename FA::Guard g2;
        u_rows(half, D);
        a_and_t_rows();
      });
  return true;
}

}  // namespace softcert::models
