#pragma once
// Parameters of a model at scalar kind S, parsed from an instance's decimal strings with
// num::parse_decimal<S> (rounded once for point kinds, enclosed for interval kinds, exact for
// Rational), and the derived quantities the reduced systems need (u = Vᵀβ*, c = ‖β*‖²),
// computed in S so that interval kinds enclose them.
#include <cstddef>
#include <vector>

#include "instances/instance.hpp"
#include "numerics/decimal.hpp"

namespace softcert::models {

template <class S>
std::vector<S> parse_vector(const instances::DecimalVector& v) {
  std::vector<S> out;
  out.reserve(v.size());
  for (const auto& s : v) out.push_back(num::parse_decimal<S>(s));
  return out;
}

template <class S>
std::vector<std::vector<S>> parse_matrix(const instances::DecimalMatrix& m) {
  std::vector<std::vector<S>> out;
  out.reserve(m.size());
  for (const auto& row : m) out.push_back(parse_vector<S>(row));
  return out;
}

// u = Vᵀβ (T entries) for V with d rows of T entries.
template <class S>
std::vector<S> transpose_times(const std::vector<std::vector<S>>& V, const std::vector<S>& beta) {
  const std::size_t T = V.empty() ? 0 : V[0].size();
  std::vector<S> u(T, S(0));
  for (std::size_t i = 0; i < V.size(); ++i)
    for (std::size_t j = 0; j < T; ++j) u[j] = u[j] + V[i][j] * beta[i];
  return u;
}

template <class S>
S squared_norm(const std::vector<S>& v) {
  S c(0);
  for (const auto& x : v) c = c + x * x;
  return c;
}

}  // namespace softcert::models
