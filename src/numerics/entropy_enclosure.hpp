#pragma once
// Enclosures of the Shannon entropy of a weight vector given by interval enclosures, for every
// scalar kind S of numerics/traits.hpp (IntervalD, IntervalMp). Used by the checks that compare
// entropies (proofs_checks/varre2026_normalization_square_weaker.cpp, varre2026_kl.cpp) and by
// `softcert reproduce`'s certified endpoints (src/reproduce/notebook_run.cpp).
#include <optional>
#include <vector>

#include "numerics/elementary.hpp"
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
  return h;
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
  for (const auto& a : alpha) {
    const S p = a / sum;
    best = best ? max_of(*best, p) : p;
  }
  return best;
}

}  // namespace softcert::num
