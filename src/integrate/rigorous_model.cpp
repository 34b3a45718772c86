#include "integrate/rigorous_model.hpp"

#include <cmath>
#include <limits>

#include "integrate/enclosed_value.hpp"
#include "integrate/planned_full_state.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"

namespace softcert::integrate {

namespace {

template <class S>
std::vector<EnclosedValue> enclosures(const std::vector<S>& v) {
  std::vector<EnclosedValue> out;
  for (const auto& x : v) out.push_back(enclosed_value(x));
  return out;
}

template <class S>
RigorousIntegrateResult full_state_result(const instances::Instance& inst, const FullStateEnclosure<S>& e,
                                          const std::string& t_text, PlanStepper set, unsigned ball_pieces, unsigned order);

template <class S>
RigorousIntegrateResult run_full_state(const instances::Instance& inst, const std::string& t_text, const RigorousIntegrateOptions& o,
                                       const RunPlan& plan) {
  const S t_end = num::parse_decimal<S>(t_text);
  if (!num::certainly_nonnegative(t_end)) throw std::invalid_argument("t: must be ≥ 0");
  ValidatedOptions vo = validated_options(plan);
  // enclose_model_state passes t (in τ-time read from the state) as on_step's second argument.
  if (o.progress) vo.on_step = [&o](std::size_t n, double t, const std::vector<double>&) { o.progress(n, t); };
  // Square and regression loss (t-time): validated steps until the flow has settled, then the PL tail.
  const bool pl = plan.tail == PlanTail::pl && num::certainly_positive(t_end);
  PlTail<S> tail;
  const FullStateEnclosure<S> e = enclose_planned_full_state<S>(inst, t_end, plan, vo, &tail);
  RigorousIntegrateResult r = full_state_result<S>(inst, e, t_text, plan.stepper, plan.ball_pieces, vo.order);
  r.form = plan.form;
  r.plan_why = plan.why;
  if (pl) {
    r.tail.attempted = true;
    r.tail.width_target = plan.tail_width;
    r.tail.used = tail.used;
    if (tail.used) {
      r.tail.from = num::Enclosure(tail.from);
      // R rounded up, μ rounded down, to doubles.
      r.tail.radius = std::nextafter(num::to_double(tail.radius), std::numeric_limits<double>::infinity());
      r.tail.mu = std::nextafter(num::to_double(tail.mu), -std::numeric_limits<double>::infinity());
      r.tail.regression = inst.loss == instances::Loss::regression;
      // λ is a double (thin): exact
      if (r.tail.regression) r.tail.lambda = num::to_double(tail.lambda);
      r.tail.steps_to_from = tail.steps;
    }
  }
  return r;
}

// The state enclosure e at t_text as a result (a, α, V, u, loss, widths).
template <class S>
RigorousIntegrateResult full_state_result(const instances::Instance& inst, const FullStateEnclosure<S>& e,
                                          const std::string& t_text, PlanStepper set, unsigned ball_pieces, unsigned order) {
  const std::size_t T = inst.T, d = inst.d;
  RigorousIntegrateResult r;
  r.t = t_text;
  r.precision_bits = working_bits<S>();  // what MPFR runs at: the request rounded up to whole decimal digits
  r.order = order;
  r.time_variable = e.tau_time ? PlanTime::tau : PlanTime::t;
  r.set = set;
  r.ball_pieces = ball_pieces;
  r.steps = e.steps;
  const std::vector<S> x(e.x.begin(), e.x.begin() + static_cast<std::ptrdiff_t>(d * T + T));  // (V, a): without τ's t
  const std::vector<S> a(x.begin() + static_cast<std::ptrdiff_t>(d * T), x.end());
  r.a = enclosures(a);
  r.softmax = enclosures(e.alpha);
  std::vector<std::vector<S>> V(d);
  for (std::size_t i = 0; i < d; ++i) {
    V[i].assign(x.begin() + static_cast<std::ptrdiff_t>(i * T), x.begin() + static_cast<std::ptrdiff_t>(i * T + T));
    r.V.push_back(enclosures(V[i]));
  }
  if (!inst.beta.empty()) r.u = enclosures(models::transpose_times(V, models::parse_vector<S>(inst.beta)));
  if (inst.tied()) r.loss = enclosed_value(models::TiedValueSoftmax<S>(inst).loss_value(x));
  else r.loss = enclosed_value(models::ValueSoftmax<S>(inst).loss_value(x));
  for (const auto& v : {&r.a, &r.u})
    for (const auto& q : *v) r.max_width = std::max(r.max_width, q.width);
  r.max_width = std::max(r.max_width, r.loss.width);
  return r;
}

template <class S>
std::vector<RigorousIntegrateResult> run_full_state_at(const instances::Instance& inst, const std::vector<std::string>& times,
                                                       const RigorousIntegrateOptions& o) {
  std::vector<S> ts;
  for (const auto& t : times) ts.push_back(num::parse_decimal<S>(t));
  // One pass with the Lohner set and no tail (documented in rigorous_model.hpp); the plan's order.
  const RunPlan plan = plan_entry(inst, rigorous_request(o, times.empty() ? std::string("0") : times.back()),
                                  RunEntry::full_state_grid);
  ValidatedOptions vo = validated_options(plan);
  if (o.progress) vo.on_step = [&o](std::size_t n, double t, const std::vector<double>&) { o.progress(n, t); };
  std::vector<FullStateEnclosure<S>> es;
  if (inst.tied()) es = enclose_model_states_at<S>(models::TiedValueSoftmax<S>(inst, true), ts, vo);
  else es = enclose_model_states_at<S>(models::ValueSoftmax<S>(inst, inst.loss == instances::Loss::logistic), ts, vo);
  std::vector<RigorousIntegrateResult> out;
  for (std::size_t k = 0; k < es.size(); ++k) {
    out.push_back(full_state_result<S>(inst, es[k], times[k], PlanStepper::lohner, 1, vo.order));
    out.back().form = plan.form;
    out.back().plan_why = plan.why;
  }
  return out;
}

// run(S{}) with S = IntervalD at ≤ 53 bits, IntervalMp at `bits` above. Interval arithmetic
// refusing an operation (e.g. Boost's "empty interval created" when the sum normalization divides
// by an enclosure of Σa_j = 0) means no enclosure: RigorousFailure (inconclusive), not an error.
template <class Run>
auto at_interval_kind(unsigned bits, Run&& run) {
  try {
    if (bits <= 53) return run(IntervalD(0));
    num::PrecisionGuard guard(bits);
    return run(IntervalMp(0));
  } catch (const support::RigorousFailure&) {
    throw;
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw support::RigorousFailure(std::string("the interval arithmetic could not evaluate the model: ") + e.what());
  }
}

}  // namespace

std::vector<RigorousIntegrateResult> rigorous_integrate_model_at(const instances::Instance& inst,
                                                                 const std::vector<std::string>& times,
                                                                 const RigorousIntegrateOptions& o) {
  for (std::size_t k = 0; k < times.size(); ++k)
    if (!num::is_decimal_syntax(times[k]))
      throw std::invalid_argument("times[" + std::to_string(k) + "]: not a decimal number: \"" + times[k] + "\"");
  return at_interval_kind(o.precision_bits, [&](auto kind) {
    return run_full_state_at<decltype(kind)>(inst, times, o);
  });
}

bool reduced_logistic_applies(const instances::Instance& inst) {
  return !inst.tied() && inst.loss == instances::Loss::logistic && inst.normalization == instances::Normalization::softmax;
}

RigorousIntegrateResult rigorous_integrate_model(const instances::Instance& inst, const std::string& t_end,
                                                 const RigorousIntegrateOptions& o) {
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: \"" + t_end + "\"");
  const RunPlan plan = plan_entry(inst, rigorous_request(o, t_end), RunEntry::full_state);  // refuses what no method serves (e.g. the ball step for relu in τ-time)
  return at_interval_kind(o.precision_bits, [&](auto kind) { return run_full_state<decltype(kind)>(inst, t_end, o, plan); });
}

RigorousIntegrateResult rigorous_integrate_planned(const instances::Instance& inst, const std::string& t_end,
                                                   const RigorousIntegrateOptions& o) {
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: \"" + t_end + "\"");
  const RunPlan plan = plan_entry(inst, rigorous_request(o, t_end), RunEntry::planned);  // the one plan of this run
  if (plan.form == PlanForm::reduced_logistic) return rigorous_integrate_with_plan(inst, t_end, o, plan);
  return at_interval_kind(o.precision_bits, [&](auto kind) { return run_full_state<decltype(kind)>(inst, t_end, o, plan); });
}

}  // namespace softcert::integrate
