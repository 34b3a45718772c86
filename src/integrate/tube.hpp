#pragma once
// integrate::TubeSegment<S>: one validated step's time range and boxes, and
// integrate::TubeStep<S>: one validated step, asked about the solutions it covers (the
// trajectory API; docs/method.md "Trajectory queries"). The whole run is a SolutionCurve
// (integrate/solution_curve.hpp).
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "integrate/step_record.hpp"
#include "support/failures.hpp"
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
  if (hi < lo) throw support::ValidationFailure("empty intersection of two enclosures (internal error)");
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
  // The step's record (StepRecord: its Taylor–mean-value form over [0, h̄]); a copy outlives the
  // TubeStep (an observer that needs the step after its call copies it: kink_crossing.hpp).
  const StepRecord<S>& record() const { return *rec_; }

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

}  // namespace softcert::integrate
