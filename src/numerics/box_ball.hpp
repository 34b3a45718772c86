#pragma once
// A box of centres with a Euclidean radius: the set {x0 + Δ : x0 ∈ centre, ‖Δ‖₂ ≤ radius}.
// It is what the PL tail (integrate/pl_tail.hpp) knows of the state at END — within Euclidean
// distance R of a point of the validated box it started from — and it says more than its
// bounding box: a function with a small gradient moves little over the ball even where interval
// evaluation over the whole box would not show it (numerics/entropy_enclosure.hpp,
// softmax_entropy_over_ball).
#include <cstddef>
#include <vector>

#include "numerics/traits.hpp"

namespace softcert::num {

template <class S>
struct BoxBall {
  std::vector<S> centre;  // a box containing every centre x0
  S radius{0};            // upper(radius) ≥ the Euclidean radius R (only the upper end is used)

  // A box containing the set: centre + [−R, R]ⁿ (‖Δ‖∞ ≤ ‖Δ‖₂ ≤ R), rounded outward.
  std::vector<S> box() const {
    const S r = hull_of_bounds<S>(-upper(radius), upper(radius));
    std::vector<S> out;
    out.reserve(centre.size());
    for (const auto& c : centre) out.push_back(c + r);
    return out;
  }

  // The components [first, first + count) (the ball projects onto a ball of the same radius).
  BoxBall part(std::size_t first, std::size_t count) const {
    return {std::vector<S>(centre.begin() + static_cast<std::ptrdiff_t>(first),
                           centre.begin() + static_cast<std::ptrdiff_t>(first + count)),
            radius};
  }
};

}  // namespace softcert::num
