#pragma once
// integrate::BoxSeriesRecord<S>: what one ball step (validated_taylor.hpp, step_ball;
// docs/method.md §2b) knows about the solutions inside the step — the Taylor coefficients of the
// flow over the set's box [X] and the remainder coefficient over the a priori box E. The τ-time
// crossing (validated_flow.hpp, until_component) brackets a component's crossing with it, as it
// does with the Lohner step's StepRecord (step_record.hpp); it has no x0-derivatives, so its
// enclosures are as wide as [X] propagated coefficient by coefficient (tight while the ball is
// small, which is when the ball step is used).
#include <cstddef>
#include <vector>

#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
struct BoxSeriesRecord {
  std::size_t n = 0, p = 0;
  S t0, h;                  // the step started at t0 and advanced by h (h ⊂ [0, h̄])
  std::vector<S> box_coeff;  // n×(p+1): x_k([X]), the k-th Taylor coefficient over the box
  std::vector<S> remainder;  // n: x_{p+1}(E)

  // Guarantee: for every solution x from the box [X] at t0 and every exact s ∈ `s` ∩ [0, h̄],
  // x_i(t0 + s) lies in component(i, s) / enclose(s)[i]:
  //     x_i(t0 + s) = Σ_{k≤p} x_k(x(t0))_i s^k + x_{p+1}(x(ξ))_i s^{p+1}   (Taylor, Lagrange),
  // with x_k(x(t0)) ∈ x_k([X]) (the coefficients' inclusion property) and x(ξ) ∈ E (the a
  // priori box holds every solution from [X] on [0, h̄]). Horner over the interval s encloses the
  // polynomial for every s in it.
  S component(std::size_t i, const S& s) const {
    S acc = remainder[i];
    for (std::size_t k = p + 1; k-- > 0;) acc = acc * s + box_coeff[i * (p + 1) + k];
    return acc;
  }
  std::vector<S> enclose(const S& s) const {
    std::vector<S> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = component(i, s);
    return out;
  }
};

}  // namespace softcert::integrate
