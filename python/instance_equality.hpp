#pragma once
// Python's Instance ==: the same problem — model, loss, normalization, their formulas (as text)
// and every number the flow reads (V or U, a, β*, X, y, p) equal as exact reals ("0.10" and "1e-1" are 1/10). Where an
// instance came from is not compared: provenance, id, seed, authors_run and the informational
// p_logits.
#include <cstddef>

#include "instances/instance.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert::python {

inline bool same_reals(const instances::DecimalVector& x, const instances::DecimalVector& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i] && num::parse_decimal<Rational>(x[i]) != num::parse_decimal<Rational>(y[i])) return false;
  return true;
}

inline bool same_reals(const instances::DecimalMatrix& x, const instances::DecimalMatrix& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!same_reals(x[i], y[i])) return false;
  return true;
}

inline bool same_problem(const instances::Instance& x, const instances::Instance& y) {
  return x.model == y.model && x.loss == y.loss && x.normalization == y.normalization && x.T == y.T && x.d == y.d &&
         same_reals(x.V, y.V) && same_reals(x.a, y.a) && same_reals(x.beta, y.beta) && same_reals(x.X, y.X) &&
         same_reals(x.y, y.y) && same_reals(x.p, y.p) && x.loss_formula == y.loss_formula &&
         x.normalization_formula == y.normalization_formula;
}

}  // namespace softcert::python
