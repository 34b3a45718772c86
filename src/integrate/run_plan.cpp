// The plan of one integration (run_plan.hpp; docs/method.md, "The plan of a run").
#include "integrate/run_plan.hpp"
#include "support/step_progress.hpp"

#include <stdexcept>

#include "integrate/full_state_orders.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"

namespace softcert::integrate {

namespace {

// Bits MPFR runs at for a request (Boost sets whole decimal digits: 256 → 257), 53 for IntervalD.
unsigned working_bits_for(unsigned requested) {
  if (requested <= 53) return 53;
  return boost::multiprecision::detail::digits10_2_2(num::digits10_for_bits(requested));
}

bool reduced_applies(const instances::Instance& inst) {
  return !inst.tied() && inst.loss == instances::Loss::logistic && inst.normalization == instances::Normalization::softmax;
}

// The model family has a τ-time version (dτ = γ dt needs the logistic loss's γ).
bool tau_possible(const instances::Instance& inst) { return inst.tied() || inst.loss == instances::Loss::logistic; }

std::size_t state_dimension(const instances::Instance& inst, PlanForm form, PlanTime time) {
  if (form == PlanForm::reduced_logistic) return 2 * inst.T + (time == PlanTime::tau ? 1 : 0);
  const std::size_t n = inst.tied() ? inst.d * inst.d + inst.d : inst.d * inst.T + inst.T;
  return n + (time == PlanTime::tau ? 1 : 0);
}

void add_why(RunPlan& p, const std::string& s) { p.why += (p.why.empty() ? "" : " ") + s; }

}  // namespace

PlanRefusal::PlanRefusal(Field field, const std::string& why)
    : std::invalid_argument(std::string(name(field)) + ": " + why), field_(field), why_(why) {}

const char* PlanRefusal::name(Field field) {
  switch (field) {
    case Field::horizon: return "horizon";
    case Field::ball_pieces: return "ball_pieces";
    case Field::tail_width: return "tail_width";
    case Field::tail_decided: return "tail_decided";
    case Field::form: return "form";
    case Field::time: return "time";
    case Field::set: return "set";
  }
  return "?";
}

bool auto_tau_time(double horizon) { return horizon >= kTauTimeFromHorizon; }

RunPlan plan_run(const instances::Instance& inst, const RunRequest& q) {
  if (!(q.horizon >= 0)) throw PlanRefusal(PlanRefusal::Field::horizon, "must be ≥ 0");
  if (q.ball_pieces && (*q.ball_pieces < 1 || *q.ball_pieces > 64)) throw PlanRefusal(PlanRefusal::Field::ball_pieces, "must be in [1, 64]");
  if (q.ball_pieces && q.set && *q.set != PlanStepper::ball) throw PlanRefusal(PlanRefusal::Field::ball_pieces, "only with set \"ball\"");
  if (q.tail_width < 0 || !(q.tail_width <= 1e300)) throw PlanRefusal(PlanRefusal::Field::tail_width, "must be finite and ≥ 0");

  RunPlan p;
  p.tier = q.tier;
  p.max_steps = q.max_steps;
  p.horizon = q.horizon;

  // Form. The rigorous tier takes the reduced logistic form wherever it applies: 2T states
  // instead of dT + T (docs/models.md); the fast tier integrates the full state unless asked.
  const bool reduced_ok = reduced_applies(inst);
  const bool reduced_asked = q.form == PlanForm::reduced_logistic;
  if (reduced_asked && q.tier == PlanTier::rigorous && !reduced_ok)
    throw PlanRefusal(PlanRefusal::Field::form, "the reduced rigorous form needs value_softmax, logistic loss and softmax");
  if (reduced_asked || (!q.form && q.tier == PlanTier::rigorous && reduced_ok)) {
    p.form = PlanForm::reduced_logistic;
    add_why(p, !q.form ? "Form: the reduced logistic form (2T states; it applies)." : "Form: reduced (asked).");
  } else {
    p.form = PlanForm::full_state;
    add_why(p, "Form: the full state.");
  }

  // Time variable. τ-time needs the logistic loss. "auto": the reduced form and the fast tier
  // from kTauTimeFromHorizon on (one rule for both tiers); the rigorous full state at every
  // horizon, since its t-time steps shrink with the scores' growth (docs/performance.md, "The
  // tied model at D = 50 and 100").
  // (The fast tier has no τ-time form of the tied model.)
  const bool tau_ok = tau_possible(inst) && !(q.tier == PlanTier::fast && inst.tied()) &&
                      (p.form == PlanForm::full_state || inst.normalization == instances::Normalization::softmax);
  if (q.time == PlanTime::tau) {
    if (!tau_ok) throw PlanRefusal(PlanRefusal::Field::time, "τ-time needs loss \"logistic\" (and softmax for the reduced form)");
    p.time = PlanTime::tau;
    add_why(p, "Time: τ (asked).");
  } else if (q.time == PlanTime::t) {
    p.time = PlanTime::t;
    add_why(p, "Time: t (asked).");
  } else if (!tau_ok) {
    p.time = PlanTime::t;
    add_why(p, "Time: t (τ-time needs the logistic loss).");
  } else if (q.tier == PlanTier::rigorous && p.form == PlanForm::full_state) {
    p.time = PlanTime::tau;
    add_why(p, "Time: τ (the full state's t-time steps shrink as the scores grow).");
  } else {
    p.time = auto_tau_time(q.horizon) ? PlanTime::tau : PlanTime::t;
    add_why(p, p.time == PlanTime::tau ? "Time: τ (END ≥ 100)." : "Time: t (END < 100).");
  }
  if (q.tier == PlanTier::fast) {  // the rest is the rigorous tier's
    if (q.set || q.ball_pieces) throw PlanRefusal(PlanRefusal::Field::set, "only with the rigorous tier");
    p.order = 0;
    return p;
  }

  // Stepper. The ball step keeps no step records (record readers need them; the τ-time crossing
  // reads its box series instead) and serves the full state only; from kBallFromDimension on it
  // is the default. |x| and relu in τ-time cross their kinks with the Lohner step's records
  // (kink_crossing.hpp), so they keep it.
  const bool kinked = !inst.tied() && (inst.normalization == instances::Normalization::abs ||
                                       inst.normalization == instances::Normalization::relu);
  const bool ball_ok = p.form == PlanForm::full_state && (p.time == PlanTime::t || !kinked) && !q.needs_step_records;
  const std::size_t n = state_dimension(inst, p.form, p.time);
  const bool want_ball = q.set ? *q.set == PlanStepper::ball : (q.ball_pieces.has_value() || n >= kBallFromDimension);
  if (want_ball && !ball_ok) {
    if (q.set || q.ball_pieces) {
      if (p.form != PlanForm::full_state) throw PlanRefusal(PlanRefusal::Field::set, "the reduced logistic form takes only \"lohner\"");
      throw PlanRefusal(PlanRefusal::Field::set,
                        q.needs_step_records
                            ? "\"ball\" keeps no step records, which this run reads"
                            : "\"ball\" in τ-time is not for |x| or relu (their kink crossings read the Lohner step's records)");
    }
  }
  if (want_ball && ball_ok) {
    p.stepper = PlanStepper::ball;
    p.ball_pieces = q.ball_pieces.value_or(0);
    add_why(p, q.set || q.ball_pieces ? "Stepper: ball (asked)."
                                      : "Stepper: ball (" + std::to_string(n) + " states ≥ " + std::to_string(kBallFromDimension) +
                                            ": no derivative pass).");
    add_why(p, p.ball_pieces ? "Pieces: " + std::to_string(p.ball_pieces) + " a step (asked)."
                             : "Pieces: chosen per step (integrate/ball_pieces.hpp, BallPieceRule).");
  } else {
    p.stepper = PlanStepper::lohner;
    p.ball_pieces = 1;
    add_why(p, q.set ? "Stepper: Lohner (asked)." : "Stepper: Lohner.");
  }

  // Order: the form's default at the working precision (full_state_orders.hpp; the reduced form
  // keeps p = 20: its derivative pass is small, so a longer series costs more than it saves).
  const unsigned bits = working_bits_for(q.precision_bits);
  if (q.order != 0) p.order = q.order;
  else if (p.form == PlanForm::reduced_logistic) p.order = bits <= 53 ? 20 : std::max(20u, bits / 4);
  else p.order = default_full_state_order(bits);

  // Tail: the PL tail (pl_tail.hpp) for square and regression loss in t-time.
  const bool pl_ok = p.form == PlanForm::full_state && !inst.tied() && p.time == PlanTime::t &&
                     (inst.loss == instances::Loss::square || inst.loss == instances::Loss::regression);
  if (q.tail == TailPolicy::automatic && pl_ok && q.horizon > 0) {
    p.tail = PlanTail::pl;
    p.tail_width = q.tail_width;
    p.tail_decided = q.tail_decided;
    add_why(p, q.tail_decided ? "Tail: PL once the flow has settled or the caller's question is decided on its ball."
                              : "Tail: PL once the flow has settled.");
  } else {
    if (q.tail_width > 0)
      throw PlanRefusal(PlanRefusal::Field::tail_width, "only with the PL tail (square or regression loss, tail \"auto\", END > 0)");
    if (q.tail_decided)
      throw PlanRefusal(PlanRefusal::Field::tail_decided, "only with the PL tail (square or regression loss, tail \"auto\", END > 0)");
    p.tail = PlanTail::none;
  }
  return p;
}

RunPlan plan_entry(const instances::Instance& inst, RunRequest q, RunEntry entry) {
  q.tier = PlanTier::rigorous;
  switch (entry) {
    case RunEntry::planned: break;
    case RunEntry::reduced: q.form = PlanForm::reduced_logistic; break;
    case RunEntry::reduced_grid:
      q.form = PlanForm::reduced_logistic;
      q.time = PlanTime::tau;
      break;
    case RunEntry::full_state: q.form = PlanForm::full_state; break;
    case RunEntry::full_state_grid:
      q.form = PlanForm::full_state;
      q.set = PlanStepper::lohner;
      q.ball_pieces.reset();
      q.time.reset();
      q.tail = TailPolicy::off;
      break;
  }
  return plan_run(inst, q);
}

RunRequest rigorous_request(const RigorousIntegrateOptions& o, const std::string& t_end) {
  RunRequest q;
  q.tier = PlanTier::rigorous;
  q.horizon = num::parse_decimal<double>(t_end);
  q.precision_bits = o.precision_bits;
  q.time = o.time_variable;
  q.set = o.set;
  if (o.ball_pieces != 0) q.ball_pieces = o.ball_pieces;
  q.order = o.order;
  q.tail = o.tail;
  q.tail_width = o.tail_width;
  q.max_steps = o.max_steps;
  return q;
}

ValidatedOptions validated_options(const RunPlan& plan) {
  ValidatedOptions vo;
  vo.order = plan.order;
  vo.max_steps = plan.max_steps;
  vo.log_norm_ball = plan.stepper == PlanStepper::ball;
  vo.ball_pieces = plan.stepper == PlanStepper::ball ? plan.ball_pieces : 1;
  // Progress only. A full-state run in τ-time reports t: rigorous_full.hpp and kink_crossing.hpp
  // pass on_step the state's t component; the reduced form in τ-time reports τ.
  vo.on_step = support::step_progress_reporter(plan.time == PlanTime::t || plan.form == PlanForm::full_state ? "t" : "τ",
                                      plan.horizon);
  return vo;
}

}  // namespace softcert::integrate
