#pragma once
// Numerically stable compositions the models need: sigmoid, softplus, log-sum-exp, softmax.
//
// For interval kinds each result contains the exact value for every point of the arguments.
// Scalar functions are monotone, so they are evaluated on the thin end points of the
// argument (which keeps enclosures tight) and the point formula is chosen per end point for
// stability; any formula is mathematically exact, so the choice never affects soundness.
#include <cstddef>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"

namespace softcert::num {

namespace detail {
template <class S, class F>
S monotone_increasing(const S& x, F point_formula) {
  if constexpr (is_interval_v<S>) {
    const S lo = hull_of_bounds<S>(lower(x), lower(x));
    const S hi = hull_of_bounds<S>(upper(x), upper(x));
    return hull_of_bounds<S>(lower(point_formula(lo)), upper(point_formula(hi)));
  } else {
    return point_formula(x);
  }
}
// Sign of a thin argument's end point, used only to choose between equivalent formulas.
template <class S>
bool thin_is_positive(const S& x) { return lower(x) > 0; }
}  // namespace detail

// σ(x) = 1/(1 + e^{−x}), increasing; in (0, 1).
template <class S>
S sigmoid(const S& x) {
  return detail::monotone_increasing(x, [](const S& p) {
    if (detail::thin_is_positive(p)) return S(S(1) / (S(1) + num::exp(S(-p))));
    const S e = num::exp(p);
    return S(e / (S(1) + e));
  });
}

// softplus(x) = log(1 + e^x), increasing; computed as x + log1p(e^{−x}) for x > 0.
template <class S>
S softplus(const S& x) {
  return detail::monotone_increasing(x, [](const S& p) {
    if (detail::thin_is_positive(p)) return S(p + num::log1p(num::exp(S(-p))));
    return num::log1p(num::exp(p));
  });
}

// Index whose upper bound is largest: the shift for log-sum-exp and softmax. Any index gives
// a mathematically exact formula; this one keeps every exponent ≤ about 0.
template <class S>
std::size_t shift_index(const std::vector<S>& a) {
  std::size_t k = 0;
  for (std::size_t j = 1; j < a.size(); ++j)
    if (upper(a[j]) > upper(a[k])) k = j;
  return k;
}

// log Σ_j e^{a_j}, as a_k + log Σ_j e^{a_j − a_k}.
template <class S>
S logsumexp(const std::vector<S>& a) {
  const std::size_t k = shift_index(a);
  S sum(1);
  for (std::size_t j = 0; j < a.size(); ++j)
    if (j != k) sum += num::exp(S(a[j] - a[k]));
  return a[k] + num::log(sum);
}

// softmax: s_i = e^{a_i} / Σ_j e^{a_j}.
// Interval kinds, and Taylor variables over them (the rigorous tier's tapes):
// s_i = 1 / (1 + Σ_{j≠i} e^{a_j − a_i}), O(T²), which encloses each s_i in (0, 1] far more
// tightly than dividing two enclosures that share the same errors. On Taylor series the gain
// grows with the order: the quotient e_i / Σ_j e_j re-amplifies the widths of both at every
// order of the division recursion, while this form only sees differences a_j − a_i and no
// numerator inside its denominator, so the validated steps are longer and the boxes narrower
// (docs/performance.md, "Why the regression steps are small").
// Point kinds (and Taylor variables over them): softmax_quotient, O(T).
template <class S>
std::vector<S> softmax_quotient(const std::vector<S>& a);
template <class S>
std::vector<S> softmax(const std::vector<S>& a) {
  if constexpr (is_interval_v<S> || (is_rigorous_v<S> && !ScalarTraits<S>::is_exact)) {
    const std::size_t n = a.size();
    std::vector<S> s(n);
    for (std::size_t i = 0; i < n; ++i) {
      S denom(1);
      for (std::size_t j = 0; j < n; ++j)
        if (j != i) denom += num::exp(S(a[j] - a[i]));
      s[i] = S(1) / denom;
    }
    return s;
  } else {
    return softmax_quotient(a);
  }
}

// softmax in the O(T) quotient form e^{a_i − a_k} / Σ_j e^{a_j − a_k}, shifted by the a_k with
// the largest upper bound, for every kind. Over intervals it encloses the same values as
// softmax() (both are exact formulas for the same function), only wider; its use there is the
// rigorous tier's derivative pass at large T, which needs T exponentials instead of T(T − 1)
// (models/logistic_reduced.hpp, SoftmaxForm).
template <class S>
std::vector<S> softmax_quotient(const std::vector<S>& a) {
  const std::size_t n = a.size();
  std::vector<S> s(n);
  const std::size_t k = shift_index(a);
  S sum(0);
  for (std::size_t j = 0; j < n; ++j) {
    s[j] = num::exp(S(a[j] - a[k]));
    sum += s[j];
  }
  for (auto& v : s) v /= sum;
  return s;
}

}  // namespace softcert::num
