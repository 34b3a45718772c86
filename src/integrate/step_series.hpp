#pragma once
// integrate::StepSeries<S>: the Taylor form, with its Lagrange remainder, of one scalar
// quantity g(s) along one validated step (s ∈ [0, h̄] from the step's start), valid for every
// solution from the step's initial set. Built by StepRecord::linear_series (a linear functional
// of the state: a coordinate, a difference of two coordinates, ...).
//
// Representation: coefficients C_0..C_p and a remainder coefficient R such that, for every
// solution x from the initial set and every s ∈ [0, h̄],
//     g(s) ∈ Σ_{k≤p} C_k s^k + R s^{p+1},
// with C_k ∋ g_k(x(0)) (the k-th Taylor coefficient of g along the solution through x(0);
// docs/method.md "Trajectory queries") and R ∋ g_{p+1}(x(ξ)) for an x(ξ) in the a priori box.
// Note that C_k does not depend on s, so each of value/slope/derivative below is a single
// polynomial in s whose coefficients already enclose the spread over the initial set.
#include <cstddef>
#include <vector>

namespace softcert::integrate {

template <class S>
class StepSeries {
 public:
  StepSeries() = default;
  StepSeries(std::vector<S> coefficients, S remainder) : C_(std::move(coefficients)), R_(std::move(remainder)) {}

  std::size_t order() const { return C_.size() - 1; }

  // Guarantee: contains g(0) for every solution from the step's initial set (C_0).
  const S& at_start() const { return C_.front(); }

  // Guarantee: contains g(s) for every exact s ∈ `s` ∩ [0, h̄] and every solution from the
  // step's initial set (Taylor's theorem with the Lagrange remainder, componentwise).
  S value(const S& s) const {
    S acc = R_;
    for (std::size_t k = C_.size(); k-- > 0;) acc = acc * s + C_[k];
    return acc;
  }
  // Guarantee: contains (g(s) − g(0))/s for every exact s ∈ `s` ∩ (0, h̄] (the slope from the
  // step's start: g(s) = g(0) + s·Q(s) with Q the same polynomial shifted down by one degree).
  S slope(const S& s) const {
    S acc = R_;
    for (std::size_t k = C_.size(); k-- > 1;) acc = acc * s + C_[k];
    return acc;
  }
  // Guarantee: contains g'(s) (the derivative along the flow, in the step's time variable) for
  // every exact s ∈ `s` ∩ [0, h̄]: the Taylor coefficients of g' are (k+1)·g_{k+1}, and its
  // Lagrange remainder of order p−1 is (p+1)·g_{p+1}(x(ξ))·s^p with x(ξ) in the a priori box.
  S derivative(const S& s) const {
    const std::size_t P = C_.size() - 1;
    S acc = R_ * S(static_cast<int>(P + 1));
    for (std::size_t k = P + 1; k-- > 1;) acc = acc * s + C_[k] * S(static_cast<int>(k));
    return acc;
  }

 private:
  std::vector<S> C_;
  S R_;
};

}  // namespace softcert::integrate
