#pragma once
// The cross-entropy value-softmax flow near its infimum: a tail lemma that bounds the loss gap
// at a far horizon H from a certified gap at an earlier time s, without integrating [s, H]
// (docs/method.md §5d; used by varre2026.kl.loss_reaches_infimum).
//
// Setting. ℓ(β) = −Σ_r p_r log q_r, q = softmax(β), β = V σ(a) ∈ R^d, σ = softmax over T
// scores, x = (V, a), ẋ = −∇L(x) (the t-time ValueSoftmax field, tests/models/
// model_gradient_test.cpp checks rhs = −∇L). Every p_r > 0, S = Σ_r p_r, p̂ = p/S. Then
// L* = inf L = −Σ p_r log p̂_r and L − L* = S·KL(p̂ ‖ q).
//
// Lemma (cross-entropy tail). Let G ≥ L(x(s)) − L* and let the solution exist on [s, ∞)
// (it does: the field is analytic on all of R^n, and the energy bound of
// integrate/gradient_flow_tail.hpp rules out blow-up). Let m > 0 be such that every q in the
// open simplex with KL(p̂ ‖ q) ≤ G/S has min_r q_r ≥ m, and m ≤ min_r p̂_r. Then for every t ≥ s
//     L(x(t)) − L* ≤ G·exp(−κ (t − s)),   κ = 2·S·m/T.
// Proof. (i) L is nonincreasing (dL/dt = −‖∇L‖²), so KL(p̂ ‖ q(t)) ≤ G/S and min_r q_r(t) ≥ m
// for all t ≥ s. (ii) KL(p̂ ‖ q) = Σ_r φ(p̂_r, q_r) with φ(p, x) = p log(p/x) − p + x (the added
// terms sum to 0); φ(·, x) has φ(x, x) = 0, ∂_p φ(x, x) = 0 and ∂²_p φ = 1/p, so by Taylor with
// the Lagrange remainder φ(p, x) = (p − x)²/(2ξ) for some ξ between p and x, hence
// KL ≤ ‖p̂ − q‖²/(2 min_r min(p̂_r, q_r)) ≤ ‖p̂ − q‖²/(2m) (m < p̂_r by construction, below).
// (iii) With g = ∇_β ℓ = S q − p = S(q − p̂), ∇_V L = g σᵀ, so ‖∇L‖² ≥ ‖∇_V L‖²_F = ‖g‖²‖σ‖² ≥
// ‖g‖²/T (Σσ = 1, Cauchy–Schwarz), and ‖g‖² = S²‖q − p̂‖² ≥ 2 S² m KL = 2 S m (L − L*). So
// ‖∇L‖² ≥ κ (L − L*) for t ≥ s, and d/dt [e^{κt}(L − L*)] = e^{κt}(κ(L − L*) − ‖∇L‖²) ≤ 0. ∎
//
// The floor m (softmax_floor). For one class r, merging the other classes (data processing, or
// the log-sum inequality) gives kl(p̂_r ‖ q_r) ≤ KL(p̂ ‖ q), with the binary divergence
// kl(p ‖ x) = p log(p/x) + (1 − p) log((1 − p)/(1 − x)), strictly decreasing in x on (0, p].
// So if x_c < p̂_r and kl(p̂_r ‖ x_c) > ε, every q with KL(p̂ ‖ q) ≤ ε has q_r > x_c (q_r ≤ x_c
// would give kl(p̂_r ‖ q_r) ≥ kl(p̂_r ‖ x_c) > ε). x_c is proposed by bisection in double and
// only its interval check carries the bound; m = min_r x_c.
//
// Staging (cross_entropy_tail_bound). A smaller gap gives a larger floor and rate, so the lemma
// is applied in stages: from G_i at t_i, for a length Δ_i (a double) the gap at t_i + Δ_i is at
// most G_{i+1} = G_i·exp(−κ(G_i) Δ_i), and the next stage starts from it. Σ Δ_i never exceeds
// the given lower bound of H − s, and the gap is nonincreasing, so the last G bounds L(x(H)) − L*.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// kl(p ‖ x) for 0 < x < 1, 0 < p < 1: an enclosure over every p and x inside the intervals.
inline IntervalD binary_kl(const IntervalD& p, const IntervalD& x) {
  const IntervalD one(1.0);
  return p * num::log(IntervalD(p / x)) + (one - p) * num::log(IntervalD((one - p) / (one - x)));
}

// Guarantee: for every exact p̂_r in `p_hat` (⊂ (0, 1), else 0 is returned) and every q in the
// open simplex with KL(p̂ ‖ q) ≤ upper(eps), q_r > the result (a double ≥ 0; 0: no floor).
inline double softmax_floor(const IntervalD& p_hat, const IntervalD& eps) {
  if (!(p_hat.lower() > 0) || !(p_hat.upper() < 1) || !(eps.upper() >= 0)) return 0;
  const double p = p_hat.lower(), e = eps.upper();
  // Proposal: bisection in double on kl(p ‖ x) = e over (0, p); lo keeps kl > e (or is 0).
  auto kl = [p](double x) { return p * std::log(p / x) + (1 - p) * std::log((1 - p) / (1 - x)); };
  double lo = 0, hi = p;
  for (int i = 0; i < 200; ++i) {
    const double m = 0.5 * (lo + hi);
    if (!(m > lo && m < hi)) break;
    if (kl(m) > e) lo = m;
    else hi = m;
  }
  // The certificate: x_c < p̂ and kl(p̂ ‖ x_c) > eps, both certainly; x_c = lo·(1 − f) with f
  // growing from 1e-12 until they hold (rounding may undo the proposal's last digits).
  for (double f = 1e-12; f < 1; f *= 4) {
    const double x = lo * (1 - f);
    if (!(x > 0)) break;
    const IntervalD xs(x);
    if (num::certainly_lt(xs, p_hat) && num::certainly_gt(binary_kl(p_hat, xs), eps)) return x;
  }
  return 0;
}

// Guarantee: κ with ‖∇L(x)‖² ≥ κ (L(x) − L*) at every state x whose gap L(x) − L* is at most
// upper(eps)·S (S = Σ p_r; the lemma at the top, with m the certified floor of min_r q_r over
// KL(p̂ ‖ q) ≤ upper(eps), below every p̂_r too), for T scores; 0 when no floor is certified (some p_r not certainly
// positive, or eps too large). p: enclosures of the exact p_r.
inline double cross_entropy_rate(const std::vector<IntervalD>& p, std::size_t T, const IntervalD& eps) {
  if (p.empty() || T == 0) return 0;
  IntervalD sum(0.0);
  for (const auto& v : p) {
    if (!(v.lower() > 0)) return 0;  // a class with p_r = 0 (or undecided) has no floor
    sum += v;
  }
  double m = 1;
  for (const auto& v : p) m = std::min(m, softmax_floor(IntervalD(v / sum), eps));
  if (!(m > 0)) return 0;
  // κ = 2 S m / T through its lower end.
  const double kappa = (IntervalD(2.0) * sum * IntervalD(m) / IntervalD(static_cast<double>(T))).lower();
  return kappa > 0 ? kappa : 0;
}

// What the staged lemma gave.
struct CrossEntropyTail {
  double gap_bound = 0;    // L(x(H)) − L* ≤ gap_bound
  double rate = 0;         // the last stage's κ = 2 S m / T (a lower bound)
  std::size_t stages = 0;  // stages applied
};

// Guarantee: if L(x(s)) − L* ≤ gap_s, p holds enclosures of the exact p_r (each certainly > 0,
// else no decay is used), T is the number of scores and the solution exists on [s, ∞) (see the
// top), then L(x(H)) − L* ≤ result.gap_bound for every H with H − s ≥ remaining (a lower bound of
// the time left; ≤ 0: no decay is used). Stops early once gap_bound ≤ target.
inline CrossEntropyTail cross_entropy_tail_bound(const std::vector<IntervalD>& p, std::size_t T, double gap_s,
                                                 double remaining, double target, std::size_t max_stages = 100000) {
  CrossEntropyTail out;
  out.gap_bound = gap_s;
  if (p.empty() || T == 0 || !(gap_s >= 0)) return out;
  IntervalD sum(0.0);
  for (const auto& v : p) sum += v;
  const IntervalD ln2 = num::log(IntervalD(2.0));
  double G = gap_s;         // an upper bound of the gap at the stage's start
  double left = remaining;  // a lower bound of the time still to cover
  while (out.stages < max_stages && left > 0 && G > target) {
    // κ for every state with gap ≤ G: the gap stays ≤ G from the stage's start on.
    const double kappa = cross_entropy_rate(p, T, IntervalD(G) / sum);
    if (!(kappa > 0)) break;
    // Δ: until G halves at this rate, at most the time left.
    const double dt = std::min((ln2 / IntervalD(kappa)).lower(), left);
    if (!(dt > 0)) break;
    // exp(−κΔ) with κ, Δ exact doubles: the gap at the stage's end is at most G e^{−κΔ}.
    G = (IntervalD(G) * num::exp(IntervalD(-kappa) * IntervalD(dt))).upper();
    left = (IntervalD(left) - IntervalD(dt)).lower();
    out.rate = kappa;
    ++out.stages;
  }
  out.gap_bound = G;
  return out;
}

// Guarantee: contains L(x) − L* for every x in the box X, for a model whose field is −∇L exactly
// (ValueSoftmax, tests/models/model_gradient_test.cpp) and L* enclosed by l_star. Two
// enclosures, intersected: L over X, and the mean value form L(m) + ∇L(ξ)·(x − m) with m = mid X
// and ξ ∈ X (X is convex), where ∇L(ξ) = −rhs(ξ) ∈ −rhs(X). Near the infimum ∇L is small, so the
// second is far tighter than the first (width ~‖∇L(X)‖·w(X) instead of ~w(X)).
template <class Model, class S>
S loss_gap_enclosure(const Model& model, const std::vector<S>& X, const S& l_star) {
  std::vector<S> m(X.size()), f(X.size(), S(0));
  for (std::size_t i = 0; i < X.size(); ++i) m[i] = num::mid_scalar(X[i]);
  model.rhs(X, f);
  S mv = model.loss_value(m);
  for (std::size_t i = 0; i < X.size(); ++i) mv = mv - f[i] * (X[i] - m[i]);
  const S naive = model.loss_value(X);
  const auto lo = std::max(num::lower(naive), num::lower(mv)), hi = std::min(num::upper(naive), num::upper(mv));
  return S(num::hull_of_bounds<S>(lo, hi) - l_star);
}

}  // namespace softcert::integrate
