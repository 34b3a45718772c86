#pragma once
// The rigorous tier's entry point for `softcert integrate INSTANCE.json --t END --tier rigorous`.
//
// Guarantee: every [lower, upper] pair in the result encloses the exact value of that quantity
// of the exact solution of the logistic reduced value-softmax flow (docs/models.md) at time
// t = END, started from the instance's exact decimal data (each decimal is enclosed, never
// rounded). The enclosure comes from the validated Taylor–Lohner integrator
// (integrate/validated_*.hpp); the argument is in docs/method.md. If the integrator cannot
// validate a step (blow-up, budget exhausted) the function throws RigorousFailure — it never
// returns an unproved result.
//
// Supported instances: model "value_softmax", loss "logistic", normalization "softmax"
// (others throw std::invalid_argument naming the field). The input path is the same as the
// fast tier's: instances::Instance → models::LogisticReduced(Tau)::from_instance (u(0) and c from
// models::reduced_parameters), and the outputs σ(a) and the loss come from the model.
#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instances/instance.hpp"
#include "integrate/plan_choices.hpp"
#include "support/failures.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/kinds.hpp"

namespace softcert::integrate {

// An enclosure of one real number as the rigorous tier computed it: `value` holds the binary ends
// (doubles at 53 bits, MPFR at the working precision above; num::Enclosure), lower ≤ exact ≤
// upper, and `width` ≥ upper − lower (rounded up, as a double). Callers take the ends as types
// (value.to_interval_d(), to_interval_mp(), lower_rational(), lower_down(), ...); decimal text
// exists only where a result is written (to_json, the CLI, Python's decimals), rounded outward.
struct EnclosedValue {
  num::Enclosure value;
  double width = 0.0;
  std::string lower_text() const { return value.lower_text(); }
  std::string upper_text() const { return value.upper_text(); }
};

struct RigorousIntegrateOptions {
  // ≤ 53: intervals over double (IntervalD); > 53: MPFI intervals at this many bits.
  unsigned precision_bits = 53;
  // Taylor order p; 0: the plan's (integrate/run_plan.hpp): at 53 bits 20 for the reduced logistic
  // form, 30 for full-state runs (integrate/full_state_orders.hpp), max(20, bits/4) above.
  unsigned order = 0;
  // Empty: the plan's (integrate/run_plan.hpp: τ-time, dτ = γ dt, from END ≥ 100 in the reduced
  // form, always for the full state of logistic loss), or t / τ.
  std::optional<PlanTime> time_variable;
  std::size_t max_steps = 1000000;  // budget: more steps throw RigorousFailure
  // > 53 bits: compute the Lohner Jacobian in intervals over double (same guarantee, ~1e-16
  // relative width where only the set's own width multiplies it; integrate/validated_taylor.hpp).
  // false: in MPFI like the rest of the step (slower; for comparison).
  bool double_jacobian = true;
  // Full-state square and regression loss only (rigorous_integrate_model): automatic ends the run with the PL tail
  // of integrate/pl_tail.hpp once the flow has settled (x(END) ∈ [x(s)] + [−R, R] for every
  // END ≥ s); off: validated steps all the way to END.
  TailPolicy tail = TailPolicy::automatic;
  // With tail automatic: > 0 also ends the run with the PL tail as soon as the ball's box is at most
  // this wide in every component (PlTailOptions::width) — for a caller who needs only that width
  // (e.g. an entropy to 1e-6) and not the narrowest enclosure the steps would reach. 0: not used.
  double tail_width = 0;
  // Full-state runs only (rigorous_integrate_model; not |x| or relu in τ-time): empty, what the
  // plan chooses (integrate/run_plan.hpp: the ball step from 200 states on, else Lohner);
  // lohner, the Taylor–Lohner set; ball, a (weighted) ball carried by the
  // logarithmic norm of the field (ValidatedOptions::log_norm_ball, docs/method.md §2b) — no
  // derivative pass, so much cheaper a step at the papers' sizes and as tight on gradient flows
  // (docs/performance.md, "The ball step"). Same guarantee either way.
  std::optional<PlanStepper> set;
  // The ball step's pieces a step (ValidatedOptions::ball_pieces, 1 … 64; implies set ball
  // when set is empty); 0: chosen per step (integrate/ball_pieces.hpp, BallPieceRule).
  unsigned ball_pieces = 0;
  // If set: called after every validated step with the steps so far and the time t reached
  // (a double near the enclosure's midpoint; in τ-time read from the state's t component).
  // For progress reports only (softcert integrate prints them): no role in any guarantee.
  std::function<void(std::size_t steps, double t)> progress;
};

// How the end state was obtained when the PL tail was tried (integrate/pl_tail.hpp).
struct RigorousTailInfo {
  bool attempted = false;     // the tail applied to this instance and was not switched off
  bool used = false;          // the result is the PL ball, not a validated step onto END
  num::Enclosure from;        // s: the time of the validated set the ball is built on
  double radius = 0;          // R (an upper bound), the same for every END ≥ s
  double mu = 0;              // the lower bound of ‖α(a)‖² used (μ of the PL inequality)
  bool regression = false;    // regression loss: lambda below is the λ of its PL inequality
  double lambda = 1;          // regression: the certified lower bound of λ_min(2XᵀX) used; square: 1
  double width_target = 0;    // RigorousIntegrateOptions::tail_width (0: none)
  std::size_t steps_to_from = 0;  // validated steps up to s
};

struct RigorousIntegrateResult {
  std::string t;  // the end time, exactly as requested
  // The working precision: 53 (IntervalD) or MPFR's bits, which can exceed the request by a few
  // bits (Boost sets MPFR precisions in whole decimal digits: 256 requested → 257 bits).
  unsigned precision_bits = 0;
  unsigned order = 0;
  PlanTime time_variable = PlanTime::t;       // what was used
  PlanStepper set = PlanStepper::lohner;     // what was used
  unsigned ball_pieces = 1;                  // set ball: the pieces per step; 0: chosen per step
  std::vector<EnclosedValue> a, u, softmax;  // T entries each, at time t
  EnclosedValue loss;                         // log(1 + exp(−uᵀσ(a)))
  std::vector<std::vector<EnclosedValue>> V;  // d × T: V(t) = V(0) + β*(u(t) − u(0))ᵀ/‖β*‖²
  std::size_t steps = 0;     // validated steps taken
  double max_width = 0.0;    // largest width over a, u and the loss
  num::Enclosure tau;        // τ-time only: an enclosure of τ(t); empty otherwise
  RigorousTailInfo tail;
  // The run's plan (integrate/run_plan.hpp): the form integrated and why each choice was made.
  PlanForm form = PlanForm::full_state;
  std::string plan_why;
};


// One validated step of the reduced logistic flow as a segment of its curve (rigorous_curve).
// Guarantee: for every time t the step covers, t ∈ `t` and (a(t), u(t)) ∈ a × u, σ(a(t)) ∈
// softmax, the loss at t ∈ loss — intervals over double, rounded outward from the working
// precision. `t` may reach past the step's own times (into the next segment's).
struct CurveSegment {
  IntervalD t;  // t-time: [t0, t1] of the step; τ-time: the enclosure of the t component over the step
  std::vector<IntervalD> a, u, softmax;
  IntervalD loss;
};

// The validated curve from 0 towards an end time. Guarantee: for every t in [0, t_reached] some
// segment k has t ∈ segments[k].t and holds the state at t as CurveSegment states; a property
// proved on every segment therefore holds for all t ∈ [0, t_reached]. complete: the run reached
// the end time (t_reached is it). Otherwise `stopped` says why (interrupted, a step not
// validated, the budget) and nothing is claimed beyond t_reached.
struct CurveEnclosure {
  std::vector<CurveSegment> segments;
  bool complete = false;
  double t_reached = 0;  // a lower bound of the time the segments certainly cover
  std::string stopped;   // empty when complete
  unsigned precision_bits = 0, order = 0;
  PlanTime time_variable = PlanTime::t;
};

// Where a full-state run with an |x| or relu normalization stopped (integrate/kink_report.hpp
// states and argues the guarantee): no score with a_k(0) ≠ 0 reaches its kink a_k = 0 for
// t ≤ stopped_at.lower, and the last validated step ended at a t in stopped_at.
// A score certified to reach its kink a_k = 0 and stay on it (integrate/kink_crossing.hpp).
struct KinkArrival {
  std::size_t score = 0;  // 0-based
  EnclosedValue t;        // contains the time t at which a_k reaches 0
  std::string motion;     // "stays" (relu: the zero branch) or "slides" (|x|: Filippov sliding)
};

struct KinkInfo {
  std::string normalization;               // "abs" or "relu"
  EnclosedValue stopped_at;                // t at the end of the last validated step
  std::size_t steps = 0;                   // validated steps
  bool has_nearest = false;                // false when every score starts at 0
  std::size_t nearest_score = 0;           // 0-based index of the score closest to 0 there (a hint)
  EnclosedValue nearest_score_value;       // its enclosure there
  std::vector<std::size_t> zero_from_start;  // scores with a_k(0) = 0 exactly (on the kink from the start)
  std::string cause;                       // why the next step could not be validated
  std::vector<KinkArrival> arrivals;       // scores certified to reach the kink before the stop
};

// A RigorousFailure that also says how far the kink is certainly not reached; what() begins
// "kink possible at t ∈ [lower, upper]".
class KinkPossible : public support::RigorousFailure {
 public:
  explicit KinkPossible(KinkInfo info);
  const KinkInfo& info() const { return info_; }

 private:
  KinkInfo info_;
};

// {"normalization", "kink_free_until" (lower end), "stopped_at": [lower, upper], "steps",
// "nearest_score", "nearest_score_value": [lower, upper], "zero_from_start", "cause"}.
nlohmann::json to_json(const KinkInfo& info);

// Guarantee: see the top of this file. `t_end` is a nonnegative decimal string.
RigorousIntegrateResult rigorous_integrate(const instances::Instance& instance, const std::string& t_end,
                                           const RigorousIntegrateOptions& options = {});

// rigorous_integrate with its plan made by the caller (integrate/run_plan.hpp: a plan of the reduced
// logistic form for this instance and request): the run asks for no plan of its own.
struct RunPlan;
RigorousIntegrateResult rigorous_integrate_with_plan(const instances::Instance& instance, const std::string& t_end,
                                                     const RigorousIntegrateOptions& options, const RunPlan& plan);

// The state at several times in one τ-time pass (validated_time_change.hpp:
// integrate_to_component_values). Guarantee: element k is a result for t = times[k] with the
// guarantee at the top of this file (time_variable τ, `steps` = steps taken until that
// time was passed). `times` are decimal strings, > 0 and strictly increasing (else
// std::invalid_argument naming the offending time); options.time_variable is ignored.
std::vector<RigorousIntegrateResult> rigorous_integrate_at(const instances::Instance& instance,
                                                          const std::vector<std::string>& times,
                                                          const RigorousIntegrateOptions& options = {});

// The validated curve from 0 to t_end > 0 (a decimal string) with the plan's time variable, order
// and budget (options.progress is called after every step). The run stops after the step in
// which *cancel becomes true (if given) and returns what it validated, as when a step cannot be
// validated or the budget runs out: CurveEnclosure says which. Guarantee: CurveEnclosure's.
CurveEnclosure rigorous_curve(const instances::Instance& instance, const std::string& t_end,
                              const RigorousIntegrateOptions& options = {}, const std::atomic<bool>* cancel = nullptr);

// Convenience for tests and benchmarks: instances::parse_instance (which names a bad field) then
// rigorous_integrate. A caller that has parsed the instance passes the Instance (parsed once).
RigorousIntegrateResult rigorous_integrate(const nlohmann::json& instance, const std::string& t_end,
                                           const RigorousIntegrateOptions& options = {});

// The result as the rigorous-tier JSON of docs/fast_tier.md (Output): {"t", "tier": "rigorous",
// "precision_bits", "a", "u", "softmax", "loss", "V"} with each value a [lower, upper] pair of
// decimal strings, plus "derived" (integrate/derived_enclosures.hpp: entropy, max_weight, argmax,
// score_gap, gaps_to_max), "widths", "steps", "order", "time_variable", "set" ("ball_pieces" with "ball"), and "tail" (an object with
// "lemma", "used", "from_t", "radius", "mu", "steps_to_from", "lambda" for regression loss, and
// "width_target" when one was given) when the PL tail was tried.
nlohmann::json to_json(const RigorousIntegrateResult& result);

}  // namespace softcert::integrate
