#include "integrate/rigorous_model.hpp"

#include <cmath>
#include <limits>

#include "integrate/enclosed_value.hpp"
#include "integrate/pl_tail.hpp"
#include "integrate/rigorous_full.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
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
                                          const std::string& t_text, const RigorousIntegrateOptions& o, unsigned order);

template <class S>
RigorousIntegrateResult run_full_state(const instances::Instance& inst, const std::string& t_text, const RigorousIntegrateOptions& o) {
  const S t_end = num::parse_decimal<S>(t_text);
  if (!num::certainly_nonnegative(t_end)) throw std::invalid_argument("t: must be ≥ 0");
  ValidatedOptions vo;
  vo.order = o.order != 0 ? o.order : default_full_state_order(o.precision_bits);
  vo.max_steps = o.max_steps;
  vo.log_norm_ball = o.set == "ball";
  vo.ball_pieces = o.ball_pieces;
  // enclose_model_state passes t (in τ-time read from the state) as on_step's second argument.
  if (o.progress) vo.on_step = [&o](std::size_t n, double t, const std::vector<double>&) { o.progress(n, t); };
  // Square and regression loss (t-time): validated steps until the flow has settled, then the PL tail.
  const bool pl = !inst.tied() && has_pl_tail(inst.loss) && o.tail != "off" &&
                  num::certainly_positive(t_end);
  if (o.tail_width < 0 || !std::isfinite(o.tail_width)) throw std::invalid_argument("tail_width: must be finite and ≥ 0");
  if (o.tail_width > 0 && !pl)
    throw std::invalid_argument("tail_width: only with the PL tail (square or regression loss, tail \"auto\", END > 0)");
  PlTailOptions tail_options;
  tail_options.width = o.tail_width;
  PlTail<S> tail;
  const FullStateEnclosure<S> e = pl ? enclose_with_pl_tail<S>(models::ValueSoftmax<S>(inst), t_end, vo, tail_options, &tail)
                                     : enclose_full_state<S>(inst, t_end, vo);
  RigorousIntegrateResult r = full_state_result<S>(inst, e, t_text, o, vo.order);
  if (pl) {
    r.tail.attempted = true;
    r.tail.width_target = o.tail_width;
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
                                          const std::string& t_text, const RigorousIntegrateOptions& o, unsigned order) {
  const std::size_t T = inst.T, d = inst.d;
  RigorousIntegrateResult r;
  r.t = t_text;
  r.precision_bits = working_bits<S>();  // what MPFR runs at: the request rounded up to whole decimal digits
  r.order = order;
  r.time_variable = e.tau_time ? "tau" : "t";
  r.set = o.set;
  r.ball_pieces = o.ball_pieces;
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
  ValidatedOptions vo;
  vo.order = o.order != 0 ? o.order : default_full_state_order(o.precision_bits);
  vo.max_steps = o.max_steps;
  if (o.progress) vo.on_step = [&o](std::size_t n, double t, const std::vector<double>&) { o.progress(n, t); };
  std::vector<FullStateEnclosure<S>> es;
  if (inst.tied()) es = enclose_model_states_at<S>(models::TiedValueSoftmax<S>(inst, true), ts, vo);
  else es = enclose_model_states_at<S>(models::ValueSoftmax<S>(inst, inst.loss == instances::Loss::logistic), ts, vo);
  RigorousIntegrateOptions lohner = o;
  lohner.set = "lohner";
  lohner.ball_pieces = 1;
  std::vector<RigorousIntegrateResult> out;
  for (std::size_t k = 0; k < es.size(); ++k) out.push_back(full_state_result<S>(inst, es[k], times[k], lohner, vo.order));
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
  } catch (const RigorousFailure&) {
    throw;
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw RigorousFailure(std::string("the interval arithmetic could not evaluate the model: ") + e.what());
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
  if (o.tail != "auto" && o.tail != "off") throw std::invalid_argument("tail: \"auto\" or \"off\", got \"" + o.tail + "\"");
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: \"" + t_end + "\"");
  if (o.set != "lohner" && o.set != "ball") throw std::invalid_argument("set: \"lohner\" or \"ball\", got \"" + o.set + "\"");
  if (o.ball_pieces < 1 || o.ball_pieces > 64) throw std::invalid_argument("ball_pieces: must be in [1, 64]");
  if (o.ball_pieces != 1 && o.set != "ball") throw std::invalid_argument("ball_pieces: only with set \"ball\"");
  // The ball step keeps no step records, which the τ-time crossing of END reads
  // (validated_time_change.hpp): t-time models only.
  if (o.set == "ball" && (inst.tied() || inst.loss == instances::Loss::logistic))
    throw std::invalid_argument("set: \"ball\" is for t-time runs (every loss but logistic; not the tied model)");
  return at_interval_kind(o.precision_bits, [&](auto kind) { return run_full_state<decltype(kind)>(inst, t_end, o); });
}

}  // namespace softcert::integrate
