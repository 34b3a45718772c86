#pragma once
// integrate::StepRecord<S>: what one validated Taylor–Lohner step (validated_taylor.hpp) knows
// about the solutions it covers, and the queries that evaluate inside the step. The fields are
// the integrator's; everything outside src/integrate asks through the methods (or through
// TubeStep, tube.hpp), never by indexing coefficients or Jacobians.
//
// Notation (docs/method.md "Trajectory queries"): the step starts at t0 from the Lohner set
// X = {c + B r : r ∈ [r]} and advances by h ⊂ [0, h̄]; x_k(y) is the k-th Taylor coefficient of
// the solution through y, Dx_k its derivative in y, E the a priori box. For every solution
// x from X and every s ∈ [0, h̄], with x(0) = c + B r:
//     x(s) = Σ_{k≤p} x_k(x(0)) s^k + x_{p+1}(x(ξ)) s^{p+1}            (Taylor, Lagrange; x(ξ) ∈ E)
//     x_k(x(0)) ∈ x_k(c) + Dx_k([X])·B·r                              (mean value theorem)
// Every query below is one of these two forms applied to a linear functional w of the state
// (a coordinate, a difference of two coordinates, ...); since the forms are linear in x_k, the
// functional is taken INSIDE them, coefficient by coefficient and row by row of Dx_k·B, so the
// shared errors of the coordinates cancel (an enclosure of x_p − x_q is far tighter than the
// difference of the two coordinate enclosures).
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "integrate/lohner_linalg.hpp"
#include "integrate/step_series.hpp"
#include "numerics/traits.hpp"
#include "taylor/fast_arith.hpp"

namespace softcert::integrate {

template <class S>
struct StepRecord {
  using FA = taylor::FastArith<S>;  // the arithmetic of the queries' inner loops
  using A = typename FA::type;

  std::size_t n = 0, p = 0;
  S t0, h;                      // the step started at t0 and advanced by h (h ⊂ [0, h̄])
  std::vector<S> apriori;       // Z ⊂ int E: holds x(s) for s ∈ [0, h̄] (tighter than E)
  std::vector<S> apriori_tested;  // E: the box the a priori test Z ⊂ int E passed on; remainder = x_{p+1}(E)
  std::vector<S> center;        // n×(p+1): x_k(c)
  // (q+1)×n×n: Dx_k([X]) for k ≤ q = jac_order(); Dx_k = 0 for k > q (ValidatedOptions::
  // jacobian_order), not stored: at the tied model's D = 50 (n = 2551, p = 30, q = 10) the
  // p + 1 orders would be 3.2 GB, 20 of the 31 orders zeros. Every query below runs its Horner sums from
  // order q: the terms above are exact zeros, and a·s + 0 = a·s, 0·s + x = x in any rounding,
  // so the enclosures are the ones Horner from p gave.
  std::vector<S> jac;
  std::size_t jac_order = static_cast<std::size_t>(-1);
  std::size_t jq() const { return std::min(p, jac_order); }
  std::vector<S> remainder;     // n: x_{p+1}(E)
  std::vector<S> B, r, c;       // the Lohner set at t0

  // Guarantee: for every solution from the set at t0 and every exact s ∈ `s` ∩ [0, h̄],
  // x_i(t0 + s) lies in component(i, s) / enclose(s)[i]:
  //   Σ_k x_k(c)_i s^k + x_{p+1}(E)_i s^{p+1} + Σ_m (J(s)·B)_{im} r_m,  J(s) = Σ_k Dx_k([X]) s^k,
  // the Taylor expansion with Lagrange remainder plus the mean value form of x0 ↦ Σ_k x_k(x0) s^k
  // between c and x0 = c + B r (Dx_0 = I). Computed in the fast arithmetic under its guard.
  S component(std::size_t i, const S& s) const { return evaluate(s, i, i + 1)[0]; }
  std::vector<S> enclose(const S& s) const { return evaluate(s, 0, n); }
  // Guarantee: the same as enclose(s): for every solution from the set at t0 and every exact
  // s ∈ `s` ∩ [0, h̄], x(t0 + s) lies in the result. The mean value term is evaluated as
  // J(s)·[B·r] — the parallelepiped B·r first enclosed in a box, then multiplied — instead of
  // (J(s)·B)·r: O(q·n²) work instead of an n³ product, and wider by the wrapping of B·r into a box
  // (at most a factor ~√n on the set's spread, which is ~1e-12 on a point start while the motion
  // over the step is ~1e-2; docs/method.md §2, "The tube segment"). The integrator's tube segment
  // uses it: at the tied model's D = 50 (n = 2551) the n³ form would be a large part of a step
  // (docs/performance.md, "The Lohner step's n³ work at D = 50").
  std::vector<S> enclose_wrapped(const S& s_in) const {
    const std::size_t q = jq();
    std::vector<S> out(n);
    const auto Bf = lohner::to_fast(B), rf = lohner::to_fast(r);
    const A s = FA::to(s_in);
    [[maybe_unused]] const typename FA::Guard guard;
    std::vector<A> dev(n, A(0));  // B·[r]: encloses B r for every r ∈ [r]
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t m = 0; m < n; ++m) dev[j] += Bf[j * n + m] * rf[m];
    for (std::size_t i = 0; i < n; ++i) {
      A acc = FA::to(remainder[i]);
      for (std::size_t k = p + 1; k-- > 0;) acc = acc * s + FA::to(center[i * (p + 1) + k]);
      for (std::size_t j = 0; j < n; ++j) {  // (J(s))_ij by Horner from q (terms above are exact zeros)
        A a = FA::to(jac[(q * n + i) * n + j]);
        for (std::size_t k = q; k-- > 0;) a = a * s + FA::to(jac[(k * n + i) * n + j]);
        acc += a * dev[j];
      }
      out[i] = FA::from(acc);
    }
    return out;
  }

  // Guarantee: contains x_i(t0 + s) − x_j(t0 + s) for every exact s ∈ `s` ∩ [0, h̄] and every
  // solution from the step's initial set (the same form as component(), with the difference
  // taken inside it).
  S difference(std::size_t i, std::size_t j, const S& s) const {
    return direct_form([i, j](const auto& get) { return get(i) - get(j); }, s);
  }
  // Guarantee: contains Σ_i w_i x_i(t0 + s) for every exact s ∈ `s` ∩ [0, h̄] and every solution
  // from the step's initial set. `w` holds (index, weight) pairs; weights are exact (thin) or
  // enclosures, in which case the result holds for every weight in them.
  S linear(const std::vector<std::pair<std::size_t, S>>& w, const S& s) const { return direct_form(combine(w), s); }

  // Guarantee: the Taylor form of g(s) = x_i(t0 + s) − x_j(t0 + s) on the step, valid for every
  // solution from the step's initial set (step_series.hpp): coefficient k encloses
  // x_k,i(x0) − x_k,j(x0) over the set, the remainder encloses the same over E.
  StepSeries<S> difference_series(std::size_t i, std::size_t j) const {
    return series([i, j](const auto& get) { return get(i) - get(j); });
  }
  // Guarantee: the Taylor form of g(s) = Σ_i w_i x_i(t0 + s), as difference_series.
  StepSeries<S> linear_series(const std::vector<std::pair<std::size_t, S>>& w) const { return series(combine(w)); }

 private:
  // Σ w_i get(i) for a list of (index, weight) pairs (weights 1 and −1 add or subtract), in the
  // fast arithmetic (get returns its values).
  static auto combine(const std::vector<std::pair<std::size_t, S>>& w) {
    return [&w](const auto& get) {
      A acc(0);
      for (const auto& [i, wi] : w) acc += FA::to(wi) * get(i);
      return acc;
    };
  }

  // The functionals w above take a getter of the fast arithmetic's values and return one; the
  // queries below run them in the fast arithmetic under its Guard (one rounding-mode switch a
  // query instead of two an operation: the same enclosures, taylor/fast_arith.hpp).
  // w applied to the Taylor polynomial with remainder and to the mean value term, evaluated at
  // s directly (Horner in s inside J(s), then ·B, then ·r).
  template <class W>
  S direct_form(const W& w, const S& s_in) const {
    const std::size_t P = p, Q = jq();
    [[maybe_unused]] const typename FA::Guard guard;
    const A s = FA::to(s_in);
    A acc = w([this](std::size_t i) { return FA::to(remainder[i]); });
    for (std::size_t k = P + 1; k-- > 0;) acc = acc * s + w([this, k, P](std::size_t i) { return FA::to(center[i * (P + 1) + k]); });
    std::vector<A> a(n);  // w·J(s), row vector
    for (std::size_t j = 0; j < n; ++j) {
      A aj = w([this, j, Q](std::size_t i) { return FA::to(jac[(Q * n + i) * n + j]); });
      for (std::size_t k = Q; k-- > 0;) aj = aj * s + w([this, j, k](std::size_t i) { return FA::to(jac[(k * n + i) * n + j]); });
      a[j] = aj;
    }
    A dev(0);
    for (std::size_t m = 0; m < n; ++m) {
      A row(0);
      for (std::size_t j = 0; j < n; ++j) row += a[j] * FA::to(B[j * n + m]);
      dev += row * FA::to(r[m]);
    }
    return FA::from(acc + dev);
  }

  // w applied coefficient by coefficient: C_k = w·x_k(c) + (w·Dx_k([X]))·B·r, R = w·x_{p+1}(E).
  template <class W>
  StepSeries<S> series(const W& w) const {
    const std::size_t P = p;
    [[maybe_unused]] const typename FA::Guard guard;
    const S R = FA::from(w([this](std::size_t i) { return FA::to(remainder[i]); }));
    std::vector<S> C(P + 1);
    for (std::size_t k = 0; k <= P; ++k) {
      A ck = w([this, k, P](std::size_t i) { return FA::to(center[i * (P + 1) + k]); });
      for (std::size_t m = 0; m < n && k <= jq(); ++m) {  // Dx_k = 0 above q: the term is an exact 0
        A row(0);
        for (std::size_t j = 0; j < n; ++j)
          row += w([this, j, k](std::size_t i) { return FA::to(jac[(k * n + i) * n + j]); }) * FA::to(B[j * n + m]);
        ck += row * FA::to(r[m]);
      }
      C[k] = FA::from(ck);
    }
    return StepSeries<S>(std::move(C), R);
  }

  std::vector<S> evaluate(const S& s_in, std::size_t i0, std::size_t i1) const {
    const A s = FA::to(s_in);
    const auto Bf = lohner::to_fast(B), rf = lohner::to_fast(r);
    std::vector<S> out;
    [[maybe_unused]] const typename FA::Guard guard;
    std::vector<A> Js(n), row(n);
    for (std::size_t i = i0; i < i1; ++i) {
      A acc = FA::to(remainder[i]);
      for (std::size_t k = p + 1; k-- > 0;) acc = acc * s + FA::to(center[i * (p + 1) + k]);
      for (std::size_t j = 0; j < n; ++j) {
        A a = FA::to(jac[(jq() * n + i) * n + j]);
        for (std::size_t k = jq(); k-- > 0;) a = a * s + FA::to(jac[(k * n + i) * n + j]);
        Js[j] = a;
      }
      for (std::size_t m = 0; m < n; ++m) row[m] = A(0);
      for (std::size_t j = 0; j < n; ++j)
        for (std::size_t m = 0; m < n; ++m) row[m] += Js[j] * Bf[j * n + m];
      for (std::size_t m = 0; m < n; ++m) acc += row[m] * rf[m];
      out.push_back(FA::from(acc));
    }
    return out;
  }
};

}  // namespace softcert::integrate
