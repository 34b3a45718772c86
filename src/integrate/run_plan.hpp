#pragma once
// The plan of one integration: which form of the flow, which time variable, which validated
// stepper (and how many pieces a ball step takes), which Taylor order, which tail lemma and which
// step budget — chosen in ONE place from (instance, request), for the fast tier and the rigorous
// tier alike. The CLI (`softcert integrate`), the Python module, reproduce/ and the checks ask
// this function instead of deciding for themselves. docs/method.md ("The plan of a run") says
// what it chooses and why.
//
// No role in any guarantee: the plan only chooses among the validated methods of
// integrate/validated_taylor.hpp (Lohner step, ball step), integrate/validated_time_change.hpp
// (τ-time) and integrate/pl_tail.hpp (PL tail); each keeps its own guarantee whatever is chosen.
// A choice the methods cannot serve (the ball step for |x| or relu in τ-time, whose kink
// crossings read the Lohner records; the PL tail for logistic loss) is
// refused here with a PlanRefusal (a std::invalid_argument) naming the field.
//
// The conversion of a plan to the stepper's options (validated_options) is the one place that
// knows ValidatedOptions' flags (log_norm_ball, ball_pieces, order, max_steps); it also wires the
// run's steps to the progress sink a command may have installed (support/step_progress.hpp).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "instances/instance.hpp"
#include "integrate/plan_choices.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/validated_taylor.hpp"
#include "numerics/box_ball.hpp"

namespace softcert::integrate {

// A request no method serves: a std::invalid_argument whose message starts with the field's
// name ("set: only with the rigorous tier"), and the field as a value, so that a front end can
// say it in its own words (the CLI's --set) without reading the message.
class PlanRefusal : public std::invalid_argument {
 public:
  enum class Field { horizon, ball_pieces, tail_width, tail_decided, form, time, set };
  PlanRefusal(Field field, const std::string& why);
  Field field() const { return field_; }
  static const char* name(Field field);  // "ball_pieces", "set", ...
  // The reason without the field's name.
  const std::string& why() const { return why_; }

 private:
  Field field_;
  std::string why_;
};

// The "auto" time variable of every tier: τ-time (dτ = γ dt, t carried as a state) from this
// horizon on, when the form has a τ-time version (logistic loss). One threshold, `>=`.
inline constexpr double kTauTimeFromHorizon = 100;
bool auto_tau_time(double horizon);  // horizon >= kTauTimeFromHorizon

// From this state dimension on, a t-time full-state rigorous run takes the ball step by default:
// it has no derivative pass of nodes·q²·n and no n³ products, so its cost grows more slowly with
// n than the Lohner step's and it is several times cheaper a step from about this size on
// (docs/performance.md, "The ball step"); below it the Lohner set is kept (the quick suite's
// instances, n ≤ 80, keep their margins exactly).
inline constexpr std::size_t kBallFromDimension = 200;

// What a caller asks. Every optional field left empty is the plan's to choose; a set field is an
// expert's override and wins (validated: a choice no method serves is refused).
struct RunRequest {
  PlanTier tier = PlanTier::rigorous;
  double horizon = 0;         // END (an upper bound of it when END is not a double); > 0
  unsigned precision_bits = 53;
  // The form (empty: rigorous, the reduced logistic form where it applies, else the full state;
  // fast, the full state), the time variable and the set a full-state step carries.
  std::optional<PlanForm> form;
  std::optional<PlanTime> time;
  std::optional<PlanStepper> set;
  std::optional<unsigned> ball_pieces;  // 1 … 64 (with set ball); empty: chosen per step
  unsigned order = 0;                   // Taylor order; 0: the default for the form and precision
  // automatic: the PL tail where it applies; off: validated steps to END (also for a caller that
  // integrates the state itself and needs every segment up to END).
  TailPolicy tail = TailPolicy::automatic;
  double tail_width = 0;                // with the PL tail: also stop once this wide (0: not used)
  // With the PL tail: also stop as soon as this holds on a ball (its centre box and radius,
  // rounded outward to doubles) — the caller's test that what it asks of x(END) is already
  // settled there (integrate/pl_tail.hpp, PlTailOptions::decided). Only when to stop; empty: not used.
  std::function<bool(const num::BoxBall<IntervalD>& ball)> tail_decided;
  std::size_t max_steps = 1000000;
  // The caller reads every step's tube segment in τ-time or the step records (e.g. a predicate
  // over [0, END]): the ball step's segments are its a priori boxes, fine for segments; records
  // it has none. true refuses the ball step.
  bool needs_step_records = false;
};

struct RunPlan {
  PlanTier tier = PlanTier::rigorous;
  PlanForm form = PlanForm::full_state;
  PlanTime time = PlanTime::t;
  PlanStepper stepper = PlanStepper::lohner;
  unsigned ball_pieces = 1;  // ball step: pieces a step; 0: chosen per step (BallPieceRule)
  unsigned order = 0;        // the Taylor order (rigorous tier; fast tier: 0)
  PlanTail tail = PlanTail::none;
  double tail_width = 0;
  std::function<bool(const num::BoxBall<IntervalD>& ball)> tail_decided;  // RunRequest::tail_decided
  std::size_t max_steps = 1000000;
  double horizon = 0;  // RunRequest::horizon (END in t; for progress reports)
  std::string why;  // one sentence per choice (for reports; no role in the run)
};

// Guarantee: none needed (see the top of this file); throws std::invalid_argument naming the
// field when the request asks for something no method serves for this instance.
RunPlan plan_run(const instances::Instance& inst, const RunRequest& request);

// The rigorous tier's entry points, each with the choices it fixes itself. plan_entry sets them on
// the request and plans: with plan_run (which the fast tier asks directly) the one place a plan is
// made, so an entry point cannot plan differently from the run it starts, and each run plans once.
enum class RunEntry {
  planned,          // every choice the request leaves empty is the plan's (softcert integrate)
  reduced,          // the reduced logistic form (rigorous_integrate, rigorous_curve)
  reduced_grid,     // the reduced form at a grid of times: one τ-time pass (its crossings need τ)
  full_state,       // the full state (rigorous_integrate_model; the executor's full-state verbs)
  full_state_grid,  // the full state at a grid of times: one Lohner pass to the last time, no tail,
                    // the plan's time variable (a set, pieces or time asked for are not used)
};
RunPlan plan_entry(const instances::Instance& inst, RunRequest request, RunEntry entry);

// The request of the rigorous tier's entry points (rigorous_integrate, rigorous_integrate_model)
// for END = t_end (a decimal; its nearest double is the horizon the rules compare).
RunRequest rigorous_request(const RigorousIntegrateOptions& options, const std::string& t_end);

// The stepper's options of a rigorous plan: order, max_steps, log_norm_ball, ball_pieces. The one
// place where the plan meets ValidatedOptions' flags.
ValidatedOptions validated_options(const RunPlan& plan);

}  // namespace softcert::integrate
