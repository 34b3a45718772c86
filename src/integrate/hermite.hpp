#pragma once
// Cubic Hermite interpolation of one step of a fast (non-rigorous) integration: the dense output
// used to locate events and to sample a run between its steps. An estimate, no enclosure.
#include <cstddef>
#include <vector>

namespace softcert::integrate {

// The state at x0 + θ·h (θ in [0, 1]) of the step from x0 (derivative f0) to x1 (derivative f1)
// of length h, by the cubic Hermite interpolant, written into out (resized to x0's size).
// Exact for a cubic solution; O(h⁴) error otherwise.
template <class K>
void hermite_interpolate(const std::vector<K>& x0, const std::vector<K>& f0, const std::vector<K>& x1,
                         const std::vector<K>& f1, const K& h, const K& theta, std::vector<K>& out) {
  const K t2 = theta * theta, t3 = t2 * theta;
  const K h00 = K(2) * t3 - K(3) * t2 + K(1), h10 = t3 - K(2) * t2 + theta;
  const K h01 = K(3) * t2 - K(2) * t3, h11 = t3 - t2;
  out.resize(x0.size());
  for (std::size_t k = 0; k < x0.size(); ++k) out[k] = h00 * x0[k] + h10 * h * f0[k] + h01 * x1[k] + h11 * h * f1[k];
}

}  // namespace softcert::integrate
