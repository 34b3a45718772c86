#pragma once
// Enclosures of the Shannon entropy of a weight vector given by interval enclosures, for every
// scalar kind S of numerics/traits.hpp (IntervalD, IntervalMp). Used by the checks that compare
// entropies (proofs_checks/varre2026_normalization_square_weaker.cpp, varre2026_kl.cpp) and by
// `softcert reproduce`'s certified endpoints (src/reproduce/notebook_run.cpp), and of the
// entropy of softmax(a) over a box or a box plus a Euclidean ball of scores (the regression check,
// proofs_checks/varre2026_regression.cpp, on the PL tail's ball).
#include <optional>
#include <vector>

#include "numerics/box_ball.hpp"
#include "numerics/elementary.hpp"
#include "numerics/stable.hpp"
#include "numerics/traits.hpp"

namespace softcert::num {

// Guarantee: for an enclosure p with lower(p) ≥ 0, the result contains x log x for every x in p
// (0 log 0 = 0). Why it is sound: x log x is convex on [0, ∞) with its minimum −1/e at x = 1/e,
// so over [lo, hi] its maximum is at an end and its minimum is at an end or at 1/e; the ends are
// evaluated as thin intervals (outward rounded) and −1/e is added when 1/e can lie in p.
// For a point kind (double, MpReal) it is the plain value, with no guarantee.
template <class S>
S xlogx_enclosure(const S& p) {
  if constexpr (!is_interval_v<S>) {
    return p > 0 ? S(p * num::log(p)) : S(0);
  } else {
  using B = BoundOf<S>;
  auto at = [](const B& x) { return x > 0 ? S(hull_of_bounds<S>(x, x) * num::log(hull_of_bounds<S>(x, x))) : S(0); };
  S r = hull(at(lower(p)), at(upper(p)));
  const S inv_e = S(1) / num::exp(S(1));
  if (possibly_ge(inv_e, hull_of_bounds<S>(lower(p), lower(p))) && possibly_le(inv_e, hull_of_bounds<S>(upper(p), upper(p))))
    r = hull(r, S(S(0) - inv_e));
  return r;
  }
}

// An enclosure intersected with the range [lo, hi] the quantity is known to lie in (an entropy in
// [0, log n], a largest weight in [1/n, 1]): sound, since the true value lies in both, and it
// keeps printed enclosures inside their natural range. An enclosure that misses the range
// entirely cannot happen for a sound one; it is returned unchanged rather than made empty.
template <class S>
S clipped_to(const S& x, const BoundOf<S>& lo, const BoundOf<S>& hi) {
  if constexpr (!is_interval_v<S>) {
    return x;
  } else {
    using B = BoundOf<S>;
    const B l = lower(x) < lo ? lo : lower(x), h = hi < upper(x) ? hi : upper(x);
    if (!(l <= h)) return x;
    return hull_of_bounds<S>(l, h);
  }
}

// The entropy H(α/Σα) = −Σ_k (α_k/Σα) log(α_k/Σα) of the weights normalised to sum 1.
// Guarantee: when it returns a value, every α' in the box `alpha` with every α'_k/Σα' ≥ 0 has
// H(α'/Σα') in the result. It returns nullopt when Σα is not certainly positive or some α_k/Σα
// is not certainly ≥ 0; then `undefined` says whether some entry is certainly negative (the
// entropy does not exist for those weights) or the sign is merely uncertain.
template <class S>
std::optional<S> entropy_enclosure(const std::vector<S>& alpha, bool& undefined) {
  undefined = false;
  S sum(0);
  for (const auto& a : alpha) sum = sum + a;
  if (!certainly_positive(sum)) return std::nullopt;
  S h(0);
  bool unsure = false;
  for (const auto& a : alpha) {
    const S p = a / sum;
    if (certainly_negative(p)) undefined = true;
    if (!certainly_nonnegative(p)) {
      unsure = true;
      continue;
    }
    h = h - xlogx_enclosure(p);
  }
  if (undefined || unsure) return std::nullopt;
  if constexpr (is_interval_v<S>) {
    // H ∈ [0, log n]: log n rounded upward
    return clipped_to(h, BoundOf<S>(0), upper(num::log(S(static_cast<int>(alpha.size())))));
  } else {
    return h;
  }
}

// max_k α_k/Σα. Guarantee: contains max_k α'_k/Σα' for every α' in the box `alpha`, when Σα is
// certainly positive (nullopt otherwise): each ratio is enclosed and max_of is exact on bounds.
template <class S>
std::optional<S> max_weight_enclosure(const std::vector<S>& alpha) {
  if (alpha.empty()) return std::nullopt;
  S sum(0);
  for (const auto& a : alpha) sum = sum + a;
  if (!certainly_positive(sum)) return std::nullopt;
  std::optional<S> best;
  bool nonnegative = true;
  for (const auto& a : alpha) {
    const S p = a / sum;
    nonnegative = nonnegative && certainly_nonnegative(p);
    best = best ? max_of(*best, p) : p;
  }
  if constexpr (is_interval_v<S>) {
    // The largest of n numbers summing to 1 is at least 1/n (rounded downward); at most 1 only
    // when none is negative (the sum normalization's signed weights can exceed 1).
    using B = BoundOf<S>;
    const B one_over_n = lower(S(1) / S(static_cast<int>(alpha.size())));
    return clipped_to(*best, one_over_n, nonnegative ? B(1) : upper(*best));
  } else {
    return best;
  }
}

// The entropy of softmax(a), H(a) = logsumexp(a) − Σ_i σ_i(a) a_i.
// Guarantee (interval kinds): contains H(a) for every a in the box `a` — each operation of the
// formula is evaluated in interval arithmetic, rounded outward. Point kinds: the plain value.
template <class S>
S softmax_entropy(const std::vector<S>& a) {
  const std::vector<S> s = num::softmax(a);
  S mean(0);
  for (std::size_t i = 0; i < a.size(); ++i) mean = mean + s[i] * a[i];
  return num::logsumexp(a) - mean;
}

// The entropy of softmax over a box of centres plus a Euclidean ball (numerics/box_ball.hpp).
// Guarantee: contains H(a) for every a with ‖a − a0‖₂ ≤ upper(ball.radius) for some a0 in the box
// ball.centre. Why: let K = centre + [−R, R]^T ⊇ the set (ball.box()), convex. For such a and a0
// the segment [a0, a] lies in K, and by the mean value theorem H(a) − H(a0) = ∇H(ξ)·(a − a0) for
// some ξ on it, so |H(a) − H(a0)| ≤ G·R with G ≥ sup_K ‖∇H‖₂. The gradient is
// ∂H/∂a_i = −σ_i (a_i − ā), ā = Σ_j σ_j a_j (differentiate logsumexp − Σ σ_j a_j with
// ∂σ_j/∂a_i = σ_j (δ_ij − σ_i)); G is the smaller of
//   - the interval enclosure of ‖∇H‖₂ over K, and
//   - 2·upper(H(K)): ‖∇H‖₂ ≤ ‖∇H‖₁ = Σ σ_i |log σ_i + H| ≤ Σ σ_i (−log σ_i) + H = 2H, using
//     a_i − ā = log σ_i + H and −log σ_i ≥ 0.
// So H(a) ∈ H(centre) + [−G·R, G·R]; it also lies in H(K) ∩ [0, log T] (interval evaluation over
// K; 0 ≤ H ≤ log T for T weights, upper(log T) rounded up). The result is the intersection of the
// two, each rounded outward. Without the radius
// term the result would be the entropy at the centres only; near uniform scores ∇H vanishes
// and the ball costs far less than the box (tests/numerics/entropy_enclosure_test.cpp).
template <class S>
S softmax_entropy_over_ball(const BoxBall<S>& ball) {
  static_assert(is_interval_v<S>, "softmax_entropy_over_ball needs an interval kind");
  using B = BoundOf<S>;
  const std::vector<S> K = ball.box();
  S over_box = softmax_entropy(K);
  // H ∈ [0, log T] for every a: clip the box's enclosure to it (log T rounded upward).
  if (lower(over_box) < B(0)) over_box = hull_of_bounds<S>(B(0), upper(over_box) < B(0) ? B(0) : upper(over_box));
  const B log_t = K.empty() ? B(0) : upper(num::log(S(static_cast<int>(K.size()))));
  if (!K.empty() && log_t < upper(over_box)) over_box = hull_of_bounds<S>(lower(over_box) < log_t ? lower(over_box) : log_t, log_t);
  const std::vector<S> s = num::softmax(K);
  S mean(0);
  for (std::size_t i = 0; i < K.size(); ++i) mean = mean + s[i] * K[i];
  S grad_sq(0);
  for (std::size_t i = 0; i < K.size(); ++i) grad_sq = grad_sq + num::sqr(S(s[i] * (K[i] - mean)));
  B G = upper(num::sqrt(grad_sq));
  const B twice_h = upper(S(S(2) * over_box));
  if (!(G <= twice_h)) G = twice_h;  // also when the interval norm is not finite
  const B R = upper(ball.radius) < B(0) ? B(0) : upper(ball.radius);
  if (!(G < B(1e300))) return over_box;  // no finite gradient bound: the box's enclosure only
  const S spread = hull_of_bounds<S>(G, G) * hull_of_bounds<S>(-R, R);
  const S near = softmax_entropy(ball.centre) + spread;
  const B lo = lower(near) < lower(over_box) ? lower(over_box) : lower(near);
  const B hi = upper(near) < upper(over_box) ? upper(near) : upper(over_box);
  if (!(lo <= hi)) return near;  // cannot happen (both contain H(a)); keep the centred one
  return hull_of_bounds<S>(lo, hi);
}

}  // namespace softcert::num
