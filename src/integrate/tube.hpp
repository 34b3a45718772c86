#pragma once
// integrate::Tube<S>: the result of a validated integration.
//
// Guarantee: for every segment k, every exact solution starting in the initial set satisfies
// x(t) ∈ segments[k].box for ALL t ∈ [t0_k, t1_k] (t0_k, t1_k are interval kinds: the
// statement holds for every t between lower(t0_k) and the actual end of step k, which lies
// in t1_k), and x(t_final) ∈ final_box. The segments cover [t_start, t_final] without gaps.
// Hence a property P proved for every segment box proves "P(x(t)) for all t in the horizon".
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
struct TubeSegment {
  S t0, t1;            // start and end time of the step (enclosures)
  std::vector<S> box;  // contains x(t) for every t in [t0, t1]
};

template <class S>
class Tube {
 public:
  std::vector<TubeSegment<S>>& segments() { return segments_; }
  const std::vector<TubeSegment<S>>& segments() const { return segments_; }
  std::size_t steps() const { return segments_.size(); }

  // The enclosure of x(t_final) (tighter than the last segment's box).
  const std::vector<S>& final_box() const { return final_; }
  const S& final_time() const { return t_final_; }
  void set_final(std::vector<S> box, S t) {
    final_ = std::move(box);
    t_final_ = std::move(t);
  }

  // True when pred(segment) is true for every segment. With a pred that is true only when
  // the property certainly holds on the whole box (certainly_* predicates), a true answer
  // proves the property for all t in the horizon. Guarantee: as stated at the top.
  template <class Pred>
  bool all_segments(Pred pred) const {
    for (const auto& s : segments_)
      if (!pred(s.box)) return false;
    return true;
  }
  // Index of the first segment where pred fails, or steps() if none.
  template <class Pred>
  std::size_t first_failure(Pred pred) const {
    for (std::size_t k = 0; k < segments_.size(); ++k)
      if (!pred(segments_[k].box)) return k;
    return segments_.size();
  }

  // Guarantee: contains x(t) for every t inside `t` that lies in the covered horizon: the hull
  // of the boxes of every segment whose time range meets t. Throws if no segment meets t.
  std::vector<S> enclosure_at(const S& t) const {
    std::vector<S> out;
    for (const auto& s : segments_) {
      if (num::upper(t) < num::lower(s.t0) || num::lower(t) > num::upper(s.t1)) continue;
      if (out.empty()) out = s.box;
      else
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = num::hull(out[i], s.box[i]);
    }
    if (out.empty()) throw std::out_of_range("Tube::enclosure_at: time outside the integrated horizon");
    return out;
  }

  // Componentwise hull of all segment boxes: contains x(t) for every t in the horizon.
  std::vector<S> hull() const {
    std::vector<S> out = segments_.empty() ? final_ : segments_.front().box;
    for (const auto& s : segments_)
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = num::hull(out[i], s.box[i]);
    return out;
  }

 private:
  std::vector<TubeSegment<S>> segments_;
  std::vector<S> final_;
  S t_final_{};
};

}  // namespace softcert::integrate
