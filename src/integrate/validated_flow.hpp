#pragma once
// The one validated flow: run_flow advances a set with a stepper (LohnerStepper or BallStepper,
// validated_taylor.hpp) under a stop rule, calls observers after every step, may let a finisher
// (a tail lemma) end the run, and returns a SolutionCurve (solution_curve.hpp). It is the only
// loop over validated steps (CAPD's TimeMap with Odeint's stepper/observer split): every
// rigorous integration goes through it (ValidatedTaylor::integrate, walk.hpp,
// validated_time_change.hpp, rigorous_full.hpp, pl_tail.hpp, gradient_flow_tail.hpp,
// kink_crossing.hpp). The steppers' step is private; run_flow reaches it through
// detail::FlowStepAccess.
//
// Stop rules:
//   until_time(t_end) / until_times({t_1 < … < t_m}) — the stepper shortens the step that would
//     pass t_k to end on it exactly; crossing k is the state at t_k (box = the step's end box).
//   until_component(i, {c_1 < … < c_m}, cap) — τ-time: the old time (or any component that
//     increases along every solution) is carried as component i; every crossing x_i = c_k is
//     bracketed inside the step that holds it (detail::add_crossing_piece, below), with the
//     step's crossing_record(): the Lohner step's StepRecord or the ball step's BoxSeriesRecord.
// Observers (after every validated step, in order): on_segment(f) gets the TubeSegment;
// on_tube_step(f) gets the TubeStep (needs records: Lohner only, a compile error otherwise);
// either may return a FlowAction: stop (end the run early, not completed) or complete (a
// predicate on the step ended the run: completed). stop_when(pred) is the predicate on a segment.
// Finisher: called after every step that did not reach the end, with the set, its time, its box
// and the steps so far; returning a TailEnd ends the run with that enclosure of x(END).
// Failure rule (one for every run): a ValidationFailure or std::domain_error thrown by a step, an
// observer or the finisher, or an exhausted budget, ends the run with a typed reason
// (SolutionCurve::end(), message(), last_box(), t_reached(), rethrow()); callers turn it into
// their exception in one place (RigorousFailure, KinkPossible via rethrow_stopped).
//
// Guarantee: the returned curve's (solution_curve.hpp), given the steppers' step guarantee and,
// for a finisher, its lemma's: every TailEnd a finisher returns must contain x(END) for every
// solution from the set it was given, at the time it was given.
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "integrate/solution_curve.hpp"
#include "integrate/validated_taylor.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// ----- stop rules ----------------------------------------------------------------------------
template <class S>
struct UntilTime {
  std::vector<S> times;  // certainly increasing, after the start
  static constexpr bool needs_records = false;
  static constexpr bool crosses_component = false;
};
template <class S>
struct UntilComponent {
  std::size_t index = 0;
  std::vector<S> targets;  // certainly increasing, certainly after x0[index]
  S cap;                   // the stepper's end time: reaching it before the last crossing fails
  static constexpr bool needs_records = false;  // both steppers keep what it reads (crossing_record)
  static constexpr bool crosses_component = true;
};
template <class S>
UntilTime<S> until_time(const S& t_end) {
  return UntilTime<S>{{t_end}};
}
template <class S>
UntilTime<S> until_times(std::vector<S> times) {
  return UntilTime<S>{std::move(times)};
}
template <class S>
UntilComponent<S> until_component(std::size_t index, std::vector<S> targets, const S& cap) {
  return UntilComponent<S>{index, std::move(targets), cap};
}

// ----- observers -----------------------------------------------------------------------------
enum class FlowAction { proceed, stop, complete };

template <class F>
struct OnSegment {
  F f;
  static constexpr bool needs_records = false;
};
template <class F>
struct OnTubeStep {
  F f;
  static constexpr bool needs_records = true;
};
// f(const TubeSegment<S>&) → void or FlowAction.
template <class F>
OnSegment<std::decay_t<F>> on_segment(F&& f) {
  return {std::forward<F>(f)};
}
// f(const TubeStep<S>&) → void or FlowAction. The TubeStep refers to the stepper's record: valid
// during the call only.
template <class F>
OnTubeStep<std::decay_t<F>> on_tube_step(F&& f) {
  return {std::forward<F>(f)};
}
// The run is complete after the first step whose segment satisfies pred.
template <class Pred>
auto stop_when(Pred pred) {
  return on_segment([pred = std::move(pred)](const auto& seg) { return pred(seg) ? FlowAction::complete : FlowAction::proceed; });
}

// ----- finishers -----------------------------------------------------------------------------
// What a finisher sees after a validated step (the step did not reach the end).
template <class S, class Set>
struct FlowState {
  const Set& set;            // the set at time t (the stepper's: flow_sets.hpp)
  const S& t;                // the end of the step (thin)
  const std::vector<S>& box; // contains x(t)
  std::size_t steps;         // validated steps so far
};
// A finisher's result. Guarantee (the finisher's lemma): box ∋ x(END) for every solution from
// the initial set; `from`, `steps`: the time and step count of the set the lemma was applied to.
template <class S>
struct TailEnd {
  std::vector<S> box;
  S from{0};
  std::size_t steps = 0;
};
struct NoFinisher {};
inline constexpr NoFinisher no_finisher{};

// ----- the run -------------------------------------------------------------------------------
struct FlowControl {
  std::size_t max_steps = 1000000;                            // the step budget
  std::string budget_message = "integrate: step budget exhausted";
  bool keep_segments = false;                                 // keep every segment in the curve
};

// Whether a stepper can serve a stop rule and observers: what needs records needs a stepper that
// has them (a compile-time property, validated_taylor.hpp).
template <class Stepper, class Rule, class... Observers>
concept FlowAllowed = (!std::remove_cvref_t<Rule>::needs_records || std::remove_cvref_t<Stepper>::has_records) &&
                      ((!std::remove_cvref_t<Observers>::needs_records || std::remove_cvref_t<Stepper>::has_records) && ...);

namespace detail {

// A budget ran out (a ValidationFailure to every caller that catches one).
class BudgetExhausted : public support::ValidationFailure {
 public:
  using support::ValidationFailure::ValidationFailure;
};

// The part of one validated step (its crossing record `rec`: a StepRecord or a BoxSeriesRecord,
// whose component(i, s) and enclose(s) hold every solution from the step's set; segment box
// `seg_box`) where component `index`
// may equal `target`, hulled into `hit`. Returns true when the step certainly ends above target
// (no later step can cross it). Precondition: seg_box[index] is not certainly below target.
// `increasing`: certified that x_index increases on the whole step, for every solution.
// Argument: within a step, s ∉ [0, s_lo] when the component's enclosure over [0, s_lo] lies
// below target and s ∉ [s_hi, h̄] when its enclosure over [s_hi, h̄] lies above; x(τ_k + s) is
// then enclosed by the step's expansion over [s_lo, s_hi]. Where the step certifies that the
// component increases, the enclosure at the single time s_lo (s_hi) decides the whole of
// [0, s_lo] ([s_hi, h̄]); otherwise the enclosures over those intervals are used.
template <class S, class Record>
bool add_crossing_piece(const Record& rec, const std::vector<S>& seg_box, std::size_t index, const S& target,
                        bool increasing, Crossing<S>& hit, bool& have) {
  using B = num::BoundOf<S>;
  const int iters = static_cast<int>(working_bits<S>()) + 8;
  const B hbar = num::upper(rec.h);
  // Increasing: a bound at the time s holds on a whole side of it.
  auto below = [&](const B& s) {  // x_index < target on all of [0, s]
    return num::certainly_lt(rec.component(index, num::hull_of_bounds<S>(increasing ? s : B(0), s)), target);
  };
  auto above = [&](const B& s) {  // x_index > target on all of [s, h̄]
    return num::certainly_gt(rec.component(index, num::hull_of_bounds<S>(s, increasing ? s : hbar)), target);
  };
  B s_lo(0);
  if (below(B(0))) {
    B lo(0), hi = hbar;
    for (int i = 0; i < iters; ++i) {
      const B m = (lo + hi) / 2;
      if (below(m)) lo = m;
      else hi = m;
    }
    s_lo = lo;
  }
  const bool done = above(hbar);
  B s_hi = hbar;
  if (done) {
    B lo = s_lo, hi = hbar;
    for (int i = 0; i < iters; ++i) {
      const B m = (lo + hi) / 2;
      if (above(m)) hi = m;
      else lo = m;
    }
    s_hi = hi;
  }
  const S range = num::hull_of_bounds<S>(s_lo, s_hi);
  std::vector<S> piece = rec.enclose(range);
  // The segment box also contains x on [s_lo, s_hi] ⊂ [0, h̄]: intersect.
  for (std::size_t i = 0; i < piece.size(); ++i) piece[i] = ValidatedStepper<S>::intersect(piece[i], seg_box[i]);
  const S tau_piece = rec.t0 + range;
  if (!have) {
    hit.box = piece;
    hit.time = tau_piece;
    have = true;
  } else {
    for (std::size_t i = 0; i < piece.size(); ++i) hit.box[i] = num::hull(hit.box[i], piece[i]);
    hit.time = num::hull(hit.time, tau_piece);
  }
  return done;
}

// The steppers' step is private (validated_taylor.hpp): run_flow is its only caller.
struct FlowStepAccess {
  template <class Stepper, class S>
  static TubeSegment<S> step(Stepper& stepper, typename Stepper::Set& set, S& t, const S& t_end, bool& reached) {
    return stepper.step(set, t, t_end, reached);
  }
};

// An observer's answer (void counts as proceed).
template <class Obs, class Arg>
FlowAction call_observer(Obs& obs, const Arg& arg) {
  if constexpr (std::is_void_v<decltype(obs.f(arg))>) {
    obs.f(arg);
    return FlowAction::proceed;
  } else {
    return obs.f(arg);
  }
}

}  // namespace detail

// The loop. `set` is the initial set (and, on return, the set at the end of the last step);
// `start` contains x(t0) (the first TubeStep's start and the curve's initial box). Guarantee:
// see the top of this file and solution_curve.hpp.
template <class S, class Stepper, class Rule, class Finisher, class... Observers>
  requires FlowAllowed<Stepper, Rule, Observers...>
SolutionCurve<S, std::remove_cvref_t<Stepper>::has_records> run_flow(Stepper& stepper, typename Stepper::Set& set, std::vector<S> start, const S& t0, const Rule& rule,
                          const FlowControl& control, Finisher&& finisher, Observers&&... observers) {
  constexpr bool component = std::remove_cvref_t<Rule>::crosses_component;
  constexpr bool record_observers = (std::remove_cvref_t<Observers>::needs_records || ...);
  constexpr bool has_finisher = !std::is_same_v<std::remove_cvref_t<Finisher>, NoFinisher>;
  const std::vector<S>& targets = [&]() -> const std::vector<S>& {
    if constexpr (component) return rule.targets;
    else return rule.times;
  }();
  SolutionCurve<S, std::remove_cvref_t<Stepper>::has_records> curve;
  const BoxField<S> field = stepper.box_field();  // empty when the field only records on Taylor variables
  curve.set_start(start, field);
  std::vector<Crossing<S>> hits(targets.size());
  std::vector<char> have(targets.size(), 0);
  std::size_t next = 0;  // crossings before `next` are complete
  std::vector<S> dx(start.size());
  std::vector<S> prev_end = std::move(start);  // contains x at the start of the next step
  S t = t0;
  bool reached = false;
  auto stopped = [&](FlowEnd why, const std::exception& e, bool validation) {
    curve.set_stopped(why, e.what(), std::current_exception(), validation);
  };
  try {
    if constexpr (component) {
      if (!targets.empty()) {
        if (!num::certainly_lt(prev_end[rule.index], targets.front()))
          throw support::ValidationFailure("time change: the target is not after the start");
        for (std::size_t k = 1; k < targets.size(); ++k)
          if (!num::certainly_lt(targets[k - 1], targets[k])) throw support::ValidationFailure("time change: the targets are not increasing");
      }
    }
    for (;;) {
      if (next >= targets.size()) {
        curve.set_end(FlowEnd::reached_end);
        break;
      }
      if (curve.steps() >= control.max_steps) throw detail::BudgetExhausted(control.budget_message);
      if constexpr (component)
        if (reached) throw support::ValidationFailure("time change: τ cap reached before the target");
      const S& t_end = [&]() -> const S& {
        if constexpr (component) return rule.cap;
        else return targets[next];
      }();
      TubeSegment<S> seg = detail::FlowStepAccess::step(stepper, set, t, t_end, reached);
      curve.count_step(reached);
      // observers, in order, until one stops or completes the run
      FlowAction act = FlowAction::proceed;
      auto notify = [&](auto& obs, const auto& arg) {
        if (act == FlowAction::proceed) act = detail::call_observer(obs, arg);
      };
      if constexpr (record_observers) {
        const TubeStep<S> st(stepper.last_step(), seg.box, prev_end, stepper.last_box(), S(seg.t1 - seg.t0),
                             curve.steps() - 1, &field);
        auto each = [&](auto& obs) {
          if constexpr (std::remove_cvref_t<decltype(obs)>::needs_records) notify(obs, st);
          else notify(obs, seg);
        };
        (each(observers), ...);
        prev_end = st.end();
      } else {
        (notify(observers, seg), ...);
      }
      if (act == FlowAction::stop) {
        if (control.keep_segments) curve.segments().push_back(std::move(seg));
        curve.set_stopped(FlowEnd::observer_stop, "stopped by an observer", nullptr, true);
        break;
      }
      if constexpr (component) {
        // x_index increases on this step if its rate is certainly positive over the segment box (the
        // box holds x(s) for every s of the step); evaluated only on steps that may hold a crossing.
        const std::size_t index = rule.index;
        bool increasing = false, rate_known = false;
        // Targets are increasing: once one is certainly beyond this step, so are all later ones.
        for (std::size_t k = next; k < targets.size(); ++k) {
          if (num::certainly_lt(seg.box[index], targets[k])) break;
          if (!rate_known && field) {
            try {
              field(seg.box, dx);
              increasing = num::certainly_positive(dx[index]);
            } catch (const std::exception&) {
              increasing = false;  // the field refused the box (e.g. a kink's sign undecided): interval tests
            }
          }
          rate_known = true;
          bool have_k = have[k] != 0;
          const bool done = detail::add_crossing_piece<S>(stepper.crossing_record(), seg.box, index, targets[k], increasing,
                                                          hits[k], have_k);
          have[k] = have_k ? 1 : 0;
          // done for targets[k] implies done for every earlier target (they are smaller), all of
          // which this loop has just completed: so done targets stay a prefix.
          if (done) {
            hits[k].steps = curve.steps();
            next = k + 1;
          }
        }
      } else {
        if (reached) {  // the step ended on targets[next] exactly
          hits[next].box = stepper.last_box();
          hits[next].time = targets[next];
          hits[next].steps = curve.steps();
          ++next;
          reached = false;
        }
      }
      if (control.keep_segments) curve.segments().push_back(std::move(seg));
      if (act == FlowAction::complete) {
        curve.set_end(FlowEnd::predicate);
        break;
      }
      if (next >= targets.size()) continue;  // the stop rule is met (next iteration ends the run)
      if constexpr (has_finisher) {
        std::optional<TailEnd<S>> tail = finisher(FlowState<S, typename Stepper::Set>{set, t, stepper.last_box(), curve.steps()});
        if (tail) {
          curve.set_tail(TailUse<S>{tail->from, tail->steps});
          curve.set_final(std::move(tail->box), targets.back());
          curve.set_end(FlowEnd::finisher);
          for (std::size_t k = 0; k < next; ++k) curve.add_crossing(hits[k]);
          curve.set_last(stepper.last_box(), t);
          return curve;
        }
      }
    }
  } catch (const detail::BudgetExhausted& e) {
    stopped(FlowEnd::budget, e, true);
  } catch (const support::ValidationFailure& e) {
    stopped(FlowEnd::failure, e, true);
  } catch (const std::domain_error& e) {  // a kink or a singular normalization met on a box
    stopped(FlowEnd::failure, e, false);
  }
  for (std::size_t k = 0; k < next; ++k) curve.add_crossing(std::move(hits[k]));
  if (curve.completed()) curve.set_final(stepper.last_box(), t);
  curve.set_last(stepper.last_box(), t);
  return curve;
}

// TypedStepper::integrate (validated_taylor.hpp): the curve to t_end, or the step's exception
// (ValidationFailure "integrate: step budget exhausted" after options().max_steps steps).
template <class S, class Field, class Kind>
auto TypedStepper<S, Field, Kind>::integrate(Set& set, const S& t0, const S& t_end) -> SolutionCurve<S, has_records> {
  FlowControl control;
  control.max_steps = this->options().max_steps;
  control.keep_segments = this->options().keep_segments;
  auto curve = run_flow<S>(*this, set, set.box(), t0, until_time(t_end), control, no_finisher);
  curve.throw_unless_completed();
  this->steps_ = curve.steps();
  return curve;
}

// The set a stepper's run starts from: the one its step moves (TypedStepper::Set), holding `box`.
template <class Stepper, class S>
typename std::remove_cvref_t<Stepper>::Set start_set(const Stepper&, const std::vector<S>& box) {
  return std::remove_cvref_t<Stepper>::Set::from_box(box);
}

// The one point where a run-time choice of step (ValidatedOptions::log_norm_ball, from `--set
// ball` or a check's parameter) becomes a stepper type: calls f(stepper) with a BallStepper or a
// LohnerStepper for `field` of dimension n. f is generic; what it does with records must be
// under `if constexpr (Stepper::has_records)`.
template <class S, class Field, class F>
decltype(auto) with_stepper(const ValidatedOptions& options, Field field, std::size_t n, F&& f) {
  if (options.log_norm_ball) {
    BallStepper<S, Field> stepper(field, n, options.ball_options());
    return f(stepper);
  }
  LohnerStepper<S, Field> stepper(std::move(field), n, options.lohner_options());
  return f(stepper);
}

}  // namespace softcert::integrate
