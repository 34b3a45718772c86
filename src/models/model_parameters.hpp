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

// The parameters of the reduced forms (docs/models.md) of an instance, at kind S: V(0), β*,
// u(0) = V(0)ᵀβ* and c = ‖β*‖². The one place u(0) and c are computed from the decimals, for
// both tiers. Guarantee (interval kinds): every entry encloses the exact value of the exact
// decimal data (parse_decimal encloses each decimal, the operations enclose their results);
// for Rational it is exact.
template <class S>
struct ReducedParameters {
  std::vector<std::vector<S>> V;
  std::vector<S> a0, beta, u0;
  S c{0};
};

template <class S>
ReducedParameters<S> reduced_parameters(const instances::Instance& inst) {
  ReducedParameters<S> p;
  p.V = parse_matrix<S>(inst.V);
  p.beta = parse_vector<S>(inst.beta);
  p.a0 = parse_vector<S>(inst.a);
  p.u0 = transpose_times(p.V, p.beta);
  p.c = squared_norm(p.beta);
  return p;
}

}  // namespace softcert::models
