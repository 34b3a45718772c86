#pragma once
// integrate::Tube<S>: the result of a validated integration, and integrate::TubeStep<S>: one
// validated step, asked about the solutions it covers (the trajectory API; docs/method.md
// "Trajectory queries").
//
// Guarantee of a Tube: for every segment k, every exact solution starting in the initial set
// satisfies x(t) ∈ segments[k].box for ALL t ∈ [t0_k, t1_k] (t0_k, t1_k are interval kinds: the
// statement holds for every t between lower(t0_k) and the actual end of step k, which lies
// in t1_k), and x(t_final) ∈ final_box. The segments cover [t_start, t_final] without gaps.
// Hence a property P proved for every segment box proves "P(x(t)) for all t in the horizon".
// "t" is the integrator's time variable (τ for a time-changed model that carries t as a state).
//
// A tube integrated with ValidatedOptions::keep_records also keeps each step's record
// (step_record.hpp): then step(k) answers, inside step k, for any sub-interval of its time,
// enclosures of the state, of a coordinate, of a difference of two coordinates, of a linear
// functional, their Taylor forms (with the derivative along the flow), and of any function of
// the state; state_at / difference_at answer the same for any time interval of the horizon.
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "integrate/step_record.hpp"
#include "integrate/validation_failure.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

template <class S>
struct TubeSegment {
  S t0, t1;            // start and end time of the step (enclosures)
  std::vector<S> box;  // contains x(t) for every t in [t0, t1]
  std::vector<S> end;  // contains x(t1) (set by ValidatedTaylor::step)
  std::shared_ptr<const StepRecord<S>> record;  // with ValidatedOptions::keep_records only
};

// The vector field over boxes of S: dx = f(x). Contains f(y) for every y in the box x.
template <class S>
using BoxField = std::function<void(const std::vector<S>&, std::vector<S>&)>;

namespace detail {
// a ∩ b for two enclosures of the same exact value (never empty unless an enclosure is wrong).
template <class S>
S meet(const S& a, const S& b) {
  const auto lo = num::lower(a) > num::lower(b) ? num::lower(a) : num::lower(b);
  const auto hi = num::upper(a) < num::upper(b) ? num::upper(a) : num::upper(b);
  if (hi < lo) throw ValidationFailure("empty intersection of two enclosures (internal error)");
  return num::hull_of_bounds<S>(lo, hi);
}
}  // namespace detail

// One validated step seen from outside the integrator: every query is an enclosure valid for
// every solution from the step's initial set, at every exact time offset s in the query's
// interval `s` intersected with [0, h̄] (s = 0 at the step's start t0(); the step's actual end
// is at s = h(), an enclosure). A TubeStep refers to its record and field; it is valid while
// they are (during a walk's visit, or while its Tube lives).
template <class S>
class TubeStep {
 public:
  TubeStep(const StepRecord<S>& record, std::vector<S> box, std::vector<S> start, std::vector<S> end, S h,
           std::size_t index, const BoxField<S>* field)
      : rec_(&record), box_(std::move(box)), start_(std::move(start)), end_(std::move(end)), h_(std::move(h)),
        index_(index), field_(field) {}

  std::size_t index() const { return index_; }  // 0 for the first step of the run
  const S& t0() const { return rec_->t0; }      // the step's start time (thin)
  const S& h() const { return h_; }              // contains the step's length
  // Guarantee: contains x(t0 + s) for every s ∈ [0, h̄].
  const std::vector<S>& box() const { return box_; }
  // Guarantee: contains x(t0) (the previous step's end; the initial box for the first step).
  const std::vector<S>& start() const { return start_; }
  // Guarantee: contains x(t0 + h) (the step's end: direct ∩ Lohner enclosure).
  const std::vector<S>& end() const { return end_; }

  // Guarantee: contains x(t0 + s) for every s ∈ `s` ∩ [0, h̄]: the Taylor–mean-value form over
  // `s` (StepRecord::enclose) intersected with box(), which both contain it.
  std::vector<S> state(const S& s) const {
    std::vector<S> b = rec_->enclose(s);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = detail::meet(b[i], box_[i]);
    return b;
  }
  // Guarantee: contains x_i(t0 + s) for every s ∈ `s` ∩ [0, h̄] (the Taylor–mean-value form alone,
  // not intersected with box()).
  S component(std::size_t i, const S& s) const { return rec_->component(i, s); }
  // Guarantee: contains x_i(t0 + s) − x_j(t0 + s) for every s ∈ `s` ∩ [0, h̄], the difference
  // taken inside the Taylor and mean value forms (StepRecord::difference).
  S difference(std::size_t i, std::size_t j, const S& s) const { return rec_->difference(i, j, s); }
  // Guarantee: contains Σ w_i x_i(t0 + s) for every s ∈ `s` ∩ [0, h̄] (StepRecord::linear).
  S linear(const std::vector<std::pair<std::size_t, S>>& w, const S& s) const { return rec_->linear(w, s); }
  // The Taylor forms with remainder of the same quantities over the whole step (value, slope
  // from the start and derivative along the flow at any s: step_series.hpp).
  StepSeries<S> difference_series(std::size_t i, std::size_t j) const { return rec_->difference_series(i, j); }
  StepSeries<S> linear_series(const std::vector<std::pair<std::size_t, S>>& w) const { return rec_->linear_series(w); }

  // Guarantee: contains ẋ(t0 + s) = f(x(t0 + s)) for every s ∈ `s` ∩ [0, h̄]: the field over
  // state(s), which contains x(t0 + s). Throws std::logic_error when the run kept no field.
  std::vector<S> derivative(const S& s) const {
    if (!field_ || !*field_) throw std::logic_error("TubeStep::derivative: no vector field over boxes was kept");
    std::vector<S> dx(box_.size(), S(0));  // sized: some fields write dx[i] without resizing
    (*field_)(state(s), dx);
    return dx;
  }
  // Guarantee: contains F(x(t0 + s)) for every s ∈ `s` ∩ [0, h̄], provided F maps a box to an
  // enclosure of F over it (an interval extension, as every model function over S does).
  template <class F>
  auto function(F&& f, const S& s) const {
    return f(state(s));
  }

 private:
  const StepRecord<S>* rec_;
  std::vector<S> box_, start_, end_;
  S h_;
  std::size_t index_;
  const BoxField<S>* field_;
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

  // The initial box (x at the start time) and the vector field over boxes, kept by
  // ValidatedTaylor::integrate for step() and the queries below.
  void set_start(std::vector<S> box, BoxField<S> field) {
    start_ = std::move(box);
    field_ = std::make_shared<const BoxField<S>>(std::move(field));
  }
  bool has_records() const { return !segments_.empty() && segments_.front().record != nullptr; }

  // Step k asked about the solutions it covers (tube.hpp, TubeStep). Throws std::logic_error
  // when the run kept no step records (ValidatedOptions::keep_records).
  TubeStep<S> step(std::size_t k) const {
    const TubeSegment<S>& seg = segments_.at(k);
    if (!seg.record) throw std::logic_error("Tube::step: integrate with ValidatedOptions::keep_records");
    return TubeStep<S>(*seg.record, seg.box, k == 0 ? start_ : segments_[k - 1].end, seg.end, S(seg.t1 - seg.t0), k,
                       field_.get());
  }

  // Guarantee: contains x(t) for every t inside `t` that lies in the covered horizon: the hull,
  // over the steps whose time range meets t, of the step's state() over the part of t inside
  // it (s = (t ∩ [t0, t1]) − t0). Needs keep_records; throws std::out_of_range if no step meets t.
  std::vector<S> state_at(const S& t) const {
    return hull_over_steps<std::vector<S>>(t, [](const TubeStep<S>& st, const S& s) { return st.state(s); });
  }
  // Guarantee: contains x_i(t) − x_j(t) for every t inside `t` in the covered horizon (as state_at,
  // with TubeStep::difference).
  S difference_at(std::size_t i, std::size_t j, const S& t) const {
    return hull_over_steps<S>(t, [i, j](const TubeStep<S>& st, const S& s) { return st.difference(i, j, s); });
  }

  // Componentwise hull of all segment boxes: contains x(t) for every t in the horizon.
  std::vector<S> hull() const {
    std::vector<S> out = segments_.empty() ? final_ : segments_.front().box;
    for (const auto& s : segments_)
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = num::hull(out[i], s.box[i]);
    return out;
  }

 private:
  static S hull_one(const S& a, const S& b) { return num::hull(a, b); }
  static std::vector<S> hull_one(const std::vector<S>& a, const std::vector<S>& b) {
    std::vector<S> out = a;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = num::hull(a[i], b[i]);
    return out;
  }
  // Hull of query(step, s) over the steps meeting t, with s the offsets of t inside the step.
  template <class R, class Q>
  R hull_over_steps(const S& t, const Q& query) const {
    using Bd = num::BoundOf<S>;
    R out{};
    bool any = false;
    for (std::size_t k = 0; k < segments_.size(); ++k) {
      const TubeSegment<S>& seg = segments_[k];
      if (num::upper(t) < num::lower(seg.t0) || num::lower(t) > num::upper(seg.t1)) continue;
      // the part of t in [lower(t0), upper(t1)], as offsets from t0 (t0 is thin), clipped at 0
      const Bd lo = num::lower(t) > num::lower(seg.t0) ? num::lower(t) : num::lower(seg.t0);
      const Bd hi = num::upper(t) < num::upper(seg.t1) ? num::upper(t) : num::upper(seg.t1);
      S s = num::hull_of_bounds<S>(lo, hi) - seg.t0;
      if (num::lower(s) < Bd(0)) s = num::hull_of_bounds<S>(Bd(0), num::upper(s) < Bd(0) ? Bd(0) : num::upper(s));
      const R v = query(step(k), s);
      out = any ? hull_one(out, v) : v;
      any = true;
    }
    if (!any) throw std::out_of_range("Tube: time outside the integrated horizon");
    return out;
  }

  std::vector<TubeSegment<S>> segments_;
  std::vector<S> final_, start_;
  std::shared_ptr<const BoxField<S>> field_;
  S t_final_{};
};

}  // namespace softcert::integrate
