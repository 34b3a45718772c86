#pragma once
// integrate::SolutionCurve<S>: what one validated run (integrate/validated_flow.hpp, run_flow)
// knows about the solutions from its initial set — CAPD's SolutionCurve in this codebase. Tube<S>
// is its older name.
//
// Guarantee (every run that returns a curve, whatever made it stop): for every segment k, every
// exact solution starting in the initial set satisfies x(t) ∈ segments[k].box for ALL
// t ∈ [t0_k, t1_k] (t0_k, t1_k are interval kinds: the statement holds for every t between
// lower(t0_k) and the actual end of step k, which lies in t1_k). The segments cover
// [t_start, end of the last validated step] without gaps. Hence a property P proved for every
// segment box proves "P(x(t)) for all t in the covered horizon". "t" is the integrator's time
// variable (τ for a time-changed model that carries t as a state).
// When the run completed its stop rule (completed()): end_box() contains x(final_time()), or,
// when a finisher (a tail lemma) ended it, x(END) for the finisher's END (tail() says which and
// from where). Every crossing k contains the state where the component crossed its target
// (crossings()[k].box) and the time of that crossing (crossings()[k].time). When the run stopped
// (a step not validated, the budget, an observer's stop): last_box() contains x at the end of
// the last validated step, t_reached() its time; nothing is claimed beyond it.
//
// Segments are kept only when the run asked for them (keep_segments); with the Lohner stepper
// and LohnerSettings::keep_records each also keeps its step's record (step_record.hpp). Records
// is false for a curve of the ball stepper (it has none): its record queries (step, state_at,
// difference_at) do not compile. With records kept,
// step(k) answers, inside step k, for any sub-interval of its time, enclosures of the state, of a
// coordinate, of a difference of two coordinates, of a linear functional, their Taylor forms
// (with the derivative along the flow), and of any function of the state; state_at /
// difference_at answer the same for any time interval of the horizon.
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "integrate/tube.hpp"
#include "support/failures.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// Why a run ended.
enum class FlowEnd {
  reached_end,   // the stop rule is met: the end time, or every crossing complete
  predicate,     // an observer's predicate said the run is complete (FlowAction::complete)
  finisher,      // a finisher (a tail lemma) enclosed x(END)
  observer_stop, // an observer asked to stop early (FlowAction::stop)
  budget,        // the step budget was exhausted
  failure,       // a step (or an observer or finisher on it) could not be validated
};

// A crossing of the stop rule's targets: a time t* (time rule) or the τ where a component took
// its target value (component rule). Guarantee: box ∋ x at the crossing, time ∋ its time.
template <class S>
struct Crossing {
  std::vector<S> box;
  S time;
  std::size_t steps = 0;  // validated steps taken when the crossing was complete
};

// The finisher (tail lemma) that ended a run, if one did.
template <class S>
struct TailUse {
  S from{0};              // the time s the tail starts from (the end of a validated step)
  std::size_t steps = 0;  // validated steps up to s
};

template <class S, bool Records = true>
class SolutionCurve;

template <class S, bool Records>
class SolutionCurve {
 public:
  static constexpr bool may_have_records = Records;
  std::vector<TubeSegment<S>>& segments() { return segments_; }
  const std::vector<TubeSegment<S>>& segments() const { return segments_; }
  // Validated steps taken.
  std::size_t steps() const { return steps_; }

  // The enclosure of x(final_time()) (tighter than the last segment's box); after a finisher,
  // of x(END) (the guarantee at the top).
  const std::vector<S>& final_box() const { return final_; }
  const std::vector<S>& end_box() const { return final_; }
  const S& final_time() const { return t_final_; }
  const std::vector<Crossing<S>>& crossings() const { return crossings_; }
  const std::optional<TailUse<S>>& tail() const { return tail_; }

  // How the run ended; completed() when its stop rule (or a predicate, or a finisher) ended it.
  FlowEnd end() const { return end_; }
  bool completed() const { return end_ == FlowEnd::reached_end || end_ == FlowEnd::predicate || end_ == FlowEnd::finisher; }
  // Why it did not complete (the exception's message, or the budget's); in every case the box of
  // the last validated step's end (empty before the first step) and its time.
  const std::string& message() const { return message_; }
  const std::vector<S>& last_box() const { return last_box_; }
  const S& t_reached() const { return t_reached_; }
  // Whether the last validated step ended exactly on the time the stepper was asked to reach
  // (until_time: the current target; until_component: the cap), whatever ended the run after it
  // (an observer may stop the run on that very step).
  bool last_step_reached_end() const { return last_reached_; }
  // The exception that stopped the run (FlowEnd::failure, FlowEnd::budget), to rethrow as it was.
  [[noreturn]] void rethrow() const {
    if (error_) std::rethrow_exception(error_);
    throw support::ValidationFailure(message_);
  }
  // Throws the stopping exception unless the run completed.
  void throw_unless_completed() const {
    if (!completed()) rethrow();
  }
  // Whether the exception that stopped the run was a ValidationFailure (else a std::domain_error).
  bool failed_in_validation() const { return validation_; }

  // True when pred(segment box) is true for every kept segment. With a pred that is true only
  // when the property certainly holds on the whole box (certainly_* predicates), a true answer
  // proves the property for all t in the covered horizon.
  template <class Pred>
  bool all_segments(Pred pred) const {
    for (const auto& s : segments_)
      if (!pred(s.box)) return false;
    return true;
  }
  // Index of the first segment where pred fails, or segments().size() if none.
  template <class Pred>
  std::size_t first_failure(Pred pred) const {
    for (std::size_t k = 0; k < segments_.size(); ++k)
      if (!pred(segments_[k].box)) return k;
    return segments_.size();
  }
  // Guarantee: pred(x(t)) certainly holds (pred true on the box) for every t of the covered
  // horizon before the returned time range, which contains the first time it may fail; nullopt
  // when it holds on every kept segment.
  template <class Pred>
  std::optional<S> first_time_may_fail(Pred pred) const {
    const std::size_t k = first_failure(pred);
    if (k == segments_.size()) return std::nullopt;
    return num::hull(segments_[k].t0, segments_[k].t1);
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
    if (out.empty()) throw std::out_of_range("SolutionCurve::enclosure_at: time outside the integrated horizon");
    return out;
  }
  // Guarantee: contains x(t) for every t inside `t` in the covered horizon: state_at with step
  // records, else enclosure_at.
  std::vector<S> state_over(const S& t) const {
    if constexpr (Records) return has_records() ? state_at(t) : enclosure_at(t);
    else return enclosure_at(t);
  }
  // Guarantee: contains F(x(t)) for every t inside `t` in the covered horizon, provided F maps a
  // box to an enclosure of F over it (an interval extension, as every model function over S does).
  template <class F>
  auto function_over(F&& f, const S& t) const {
    return f(state_over(t));
  }

  // The initial box (x at the start time) and the vector field over boxes, kept for step() and
  // the queries below.
  void set_start(std::vector<S> box, BoxField<S> field) {
    start_ = std::move(box);
    field_ = std::make_shared<const BoxField<S>>(std::move(field));
  }
  bool has_records() const { return Records && !segments_.empty() && segments_.front().record != nullptr; }

  // Step k asked about the solutions it covers (tube.hpp, TubeStep). Throws std::logic_error
  // when the run kept no step records (LohnerSettings::keep_records).
  TubeStep<S> step(std::size_t k) const
    requires Records
  {
    const TubeSegment<S>& seg = segments_.at(k);
    if (!seg.record) throw std::logic_error("Tube::step: integrate with ValidatedOptions::keep_records");
    return TubeStep<S>(*seg.record, seg.box, k == 0 ? start_ : segments_[k - 1].end, seg.end, S(seg.t1 - seg.t0), k,
                       field_.get());
  }

  // Guarantee: contains x(t) for every t inside `t` that lies in the covered horizon: the hull,
  // over the steps whose time range meets t, of the step's state() over the part of t inside
  // it (s = (t ∩ [t0, t1]) − t0). Needs keep_records; throws std::out_of_range if no step meets t.
  std::vector<S> state_at(const S& t) const
    requires Records
  {
    return hull_over_steps<std::vector<S>>(t, [](const TubeStep<S>& st, const S& s) { return st.state(s); });
  }
  // Guarantee: contains x_i(t) − x_j(t) for every t inside `t` in the covered horizon (as state_at,
  // with TubeStep::difference).
  S difference_at(std::size_t i, std::size_t j, const S& t) const
    requires Records
  {
    return hull_over_steps<S>(t, [i, j](const TubeStep<S>& st, const S& s) { return st.difference(i, j, s); });
  }

  // Componentwise hull of all segment boxes: contains x(t) for every t in the horizon.
  std::vector<S> hull() const {
    std::vector<S> out = segments_.empty() ? final_ : segments_.front().box;
    for (const auto& s : segments_)
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = num::hull(out[i], s.box[i]);
    return out;
  }

  // Written by run_flow (integrate/validated_flow.hpp) only.
  void set_final(std::vector<S> box, S t) {
    final_ = std::move(box);
    t_final_ = std::move(t);
  }
  void count_step(bool reached) {
    ++steps_;
    last_reached_ = reached;
  }
  void add_crossing(Crossing<S> c) { crossings_.push_back(std::move(c)); }
  std::vector<Crossing<S>>& crossings_mut() { return crossings_; }
  void set_tail(TailUse<S> t) { tail_ = std::move(t); }
  void set_end(FlowEnd e) { end_ = e; }
  void set_stopped(FlowEnd e, std::string message, std::exception_ptr error, bool validation) {
    end_ = e;
    message_ = std::move(message);
    error_ = std::move(error);
    validation_ = validation;
  }
  void set_last(std::vector<S> last, S t) {
    last_box_ = std::move(last);
    t_reached_ = std::move(t);
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
    requires Records
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
  std::vector<S> final_, start_, last_box_;
  std::shared_ptr<const BoxField<S>> field_;
  S t_final_{}, t_reached_{};
  std::size_t steps_ = 0;
  std::vector<Crossing<S>> crossings_;
  std::optional<TailUse<S>> tail_;
  FlowEnd end_ = FlowEnd::reached_end;
  std::string message_;
  std::exception_ptr error_;
  bool validation_ = true;
  bool last_reached_ = false;
};

// The older name (a validated tube of the Lohner stepper).
template <class S>
using Tube = SolutionCurve<S, true>;

}  // namespace softcert::integrate
