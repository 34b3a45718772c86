#include "certify/operator_norm.hpp"

#include <cmath>

#include "numerics/elementary.hpp"
#include "numerics/singular_values.hpp"
#include "numerics/traits.hpp"

namespace softcert::certify {

bool certainly_positive_definite(const IMatrix& s) {
  const std::size_t n = s.rows;
  if (s.cols != n) return false;
  IMatrix l(n, n);
  for (std::size_t j = 0; j < n; ++j) {
    IntervalD d = s(j, j);
    for (std::size_t k = 0; k < j; ++k) d -= num::sqr(l(j, k));
    if (!num::certainly_positive(d)) return false;
    const IntervalD ljj = num::sqrt(d);
    l(j, j) = ljj;
    for (std::size_t i = j + 1; i < n; ++i) {
      IntervalD v = s(i, j);
      for (std::size_t k = 0; k < j; ++k) v -= l(i, k) * l(j, k);
      l(i, j) = v / ljj;
    }
  }
  return true;
}

std::optional<double> certified_operator_norm_upper(const IMatrix& z, double relative_slack) {
  // Gram matrix ZᵀZ (cols × cols), enclosed.
  const std::size_t n = z.cols;
  IMatrix g(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i; j < n; ++j) {
      IntervalD s(0.0);
      for (std::size_t k = 0; k < z.rows; ++k) s += z(k, i) * z(k, j);
      g(i, j) = s;
      g(j, i) = s;
    }
  std::vector<double> mid(z.rows * z.cols);
  for (std::size_t i = 0; i < z.rows; ++i)
    for (std::size_t j = 0; j < z.cols; ++j) mid[i * z.cols + j] = num::mid(z(i, j));
  // Only a proposal (certified below): the floating-point largest singular value of mid(Z).
  const std::vector<double> sv = num::singular_values(mid, z.rows, z.cols);
  double sigma = sv.empty() ? 0.0 : sv.front();
  if (!(sigma > 0)) sigma = 1e-300;
  double mu = sigma * (1 + relative_slack) + 1e-300;
  for (int attempt = 0; attempt < 40; ++attempt, mu *= 1 + relative_slack * std::pow(4.0, attempt)) {
    IMatrix s = g;
    const IntervalD mu_sq = num::sqr(IntervalD(mu));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) s(i, j) = (i == j ? mu_sq : IntervalD(0.0)) - g(i, j);
    if (certainly_positive_definite(s)) return mu;
  }
  return std::nullopt;
}

}  // namespace softcert::certify
