#pragma once
// A certified lower bound of the smallest eigenvalue of a symmetric positive definite matrix
// given by interval entries (the regression loss's G = 2XᵀX for the PL tail,
// integrate/pl_tail.hpp).
//
// Argument (docs/method.md §5b). Let A be any real symmetric matrix whose lower-triangle entries
// lie in those of the interval matrix [G], and λ a real number. The interval Cholesky
// factorisation of [G] − λI below runs the real algorithm's formulas on intervals; by inclusion
// isotonicity, as long as every interval pivot is certainly positive, the real algorithm on
// A − λI meets the same pivots inside those intervals, so its pivots are positive too and it
// completes: A − λI = L Lᵀ with L nonsingular, i.e. A − λI is positive definite and
// λ_min(A) > λ. The floating-point eigenvalue estimate only proposes λ; the factorisation is the
// certificate.
#include <cstddef>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/singular_values.hpp"
#include "numerics/traits.hpp"

namespace softcert::num {

// Guarantee: true only if every symmetric matrix whose lower-triangle entries lie in g's
// (d × d, row-major; the upper triangle is not read) minus lambda·I is positive definite, so its
// smallest eigenvalue exceeds lambda. false: nothing is claimed.
template <class S>
bool certify_positive_definite_shift(const std::vector<S>& g, std::size_t d, double lambda) {
  std::vector<S> L(d * d, S(0));
  for (std::size_t j = 0; j < d; ++j) {
    S pivot = g[j * d + j] - S(lambda);
    for (std::size_t k = 0; k < j; ++k) pivot = pivot - num::sqr(L[j * d + k]);
    if (!num::certainly_positive(pivot)) return false;
    L[j * d + j] = num::sqrt(pivot);
    for (std::size_t i = j + 1; i < d; ++i) {
      S acc = g[i * d + j];
      for (std::size_t k = 0; k < j; ++k) acc = acc - L[i * d + k] * L[j * d + k];
      L[i * d + j] = acc / L[j * d + j];
    }
  }
  return d > 0;
}

// Guarantee: a double λ with 0 < λ < λ_min(A) for every symmetric A in g (as above), or 0 when
// no such bound was certified (for instance g singular or not positive definite): nothing is
// claimed then. The proposal is the smallest singular value of mid(g) (its smallest eigenvalue
// when mid(g) is positive definite), scaled by 0.99, 0.9 and 0.5 in turn.
template <class S>
double min_eigenvalue_lower_bound(const std::vector<S>& g, std::size_t d) {
  if (d == 0 || g.size() != d * d) return 0;
  std::vector<double> mid(d * d);
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      // symmetrised from the lower triangle, which is all the certificate reads
      const S& e = i >= j ? g[i * d + j] : g[j * d + i];
      mid[i * d + j] = num::to_double(e);
    }
  const std::vector<double> sv = num::singular_values(mid, d, d);
  if (sv.empty() || !(sv.back() > 0)) return 0;
  for (double f : {0.99, 0.9, 0.5}) {
    const double lambda = sv.back() * f;
    if (lambda > 0 && certify_positive_definite_shift(g, d, lambda)) return lambda;
  }
  return 0;
}

}  // namespace softcert::num
