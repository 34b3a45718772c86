// softcert integrate --tier rigorous: the logistic reduced value-softmax flow, enclosed by the
// validated Taylor–Lohner integrator, in t-time or in τ-time (dτ = γ dt, t carried as a state).
// Guarantees: see rigorous_integrate.hpp and docs/method.md.
#include "integrate/rigorous_integrate.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "integrate/enclosed_value.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "instances/instance.hpp"
#include "models/logistic_reduced.hpp"
#include "models/model_parameters.hpp"
#include "numerics/decimal.hpp"
#include "integrate/derived_enclosures.hpp"
#include "integrate/run_plan.hpp"
#include "numerics/precision.hpp"
#include "numerics/stable.hpp"
#include "numerics/quote.hpp"

namespace softcert::integrate {

namespace {

// The Lohner Jacobian (the derivative pass, most of a step) from the same model built at
// IntervalD from the same decimals, with softmax in the O(T) quotient form
// (ValidatedTaylor::set_double_jacobian_field; models::SoftmaxForm): T exponentials on its tape
// instead of T(T − 1). At MPFI precisions it also runs in IntervalD instead of MPFI (unless
// options.double_jacobian is false: the all-MPFI path, for comparison). The coefficients and the
// remainder keep the pairwise form, so the steps and widths stay those of the pairwise pass, at a
// fraction of its cost from T ≈ 16 on (docs/performance.md, "The reduced form's derivative pass").
template <class S, class Model, class VT>
void use_quotient_jacobian(VT& vt, const instances::Instance& inst, const RigorousIntegrateOptions& opt,
                           std::shared_ptr<const Model>& holder) {
  if (!std::is_same_v<S, IntervalD> && !opt.double_jacobian) return;
  holder = std::make_shared<const Model>(Model::from_instance(inst).with_softmax_form(models::SoftmaxForm::quotient));
  vt.set_double_jacobian_field([m = holder](const auto& y, auto& dy) { m->rhs(y, dy); });
}

template <class S>
S parse_time(const std::string& t_text) {
  const S t_end = num::parse_decimal<S>(t_text);
  if (num::certainly_negative(t_end) || !num::certainly_nonnegative(t_end)) throw std::invalid_argument("t: must be ≥ 0");
  return t_end;
}

// Fills a, u, σ(a), the loss and V of `res` from an enclosure x of (a, u[, t]) at its time: σ(a)
// and the loss from the model (the same functions as the fast tier's), V(t) = V(0) + β*(u(t) − u(0))ᵀ/c
// from the instance's parameters (the reduced form is exact: docs/models.md).
template <class S, class Model>
void fill_state(RigorousIntegrateResult& res, const Model& model, const models::ReducedParameters<S>& p,
                const std::vector<S>& x) {
  const std::size_t T = p.a0.size(), d = p.beta.size();
  const std::vector<S> s = model.attention(x);
  const S loss = model.loss_value(x);
  for (std::size_t i = 0; i < T; ++i) {
    res.a.push_back(enclosed_value(x[i]));
    res.u.push_back(enclosed_value(x[T + i]));
    res.softmax.push_back(enclosed_value(s[i]));
    res.max_width = std::max({res.max_width, res.a.back().width, res.u.back().width});
  }
  res.loss = enclosed_value(loss);
  res.max_width = std::max(res.max_width, res.loss.width);
  res.V.assign(d, {});
  for (std::size_t r = 0; r < d; ++r)
    for (std::size_t i = 0; i < T; ++i)
      res.V[r].push_back(enclosed_value(S(p.V[r][i] + p.beta[r] * (x[T + i] - p.u0[i]) / p.c)));
}

// The instance's reduced parameters at S; β* must be nonzero (c > 0).
template <class S>
models::ReducedParameters<S> parameters(const instances::Instance& inst) {
  models::ReducedParameters<S> p = models::reduced_parameters<S>(inst);
  if (!num::certainly_positive(p.c)) throw std::invalid_argument("beta: must be nonzero");
  return p;
}

template <class S>
RigorousIntegrateResult run_reduced(const instances::Instance& inst, const std::string& t_text, const RigorousIntegrateOptions& opt,
                                    const RunPlan& plan) {
  const models::ReducedParameters<S> p = parameters<S>(inst);
  const S t_end = parse_time<S>(t_text);

  RigorousIntegrateResult res;
  res.t = t_text;
  res.precision_bits = working_bits<S>();
  res.order = plan.order;
  res.form = plan.form;
  res.plan_why = plan.why;
  ValidatedOptions vo = validated_options(plan);
  vo.keep_segments = false;
  res.time_variable = plan.time;

  const models::LogisticReducedTau<S> tau_model = models::LogisticReducedTau<S>::from_instance(inst);
  std::vector<S> x;  // (a, u[, t]) at t_end
  if (!num::certainly_positive(t_end)) {
    x = tau_model.initial_state();
  } else if (plan.time == PlanTime::t) {
    if (opt.progress) vo.on_step = [&opt](std::size_t n, double s, const std::vector<double>&) { opt.progress(n, s); };
    const auto model = models::LogisticReduced<S>::from_instance(inst);
    auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
    ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
    std::shared_ptr<const models::LogisticReduced<IntervalD>> double_model;
    use_quotient_jacobian<S>(vt, inst, opt, double_model);
    try {
      const auto tube = vt.integrate(model.initial_state(), S(0), t_end);
      x = tube.final_box();
      res.steps = vt.steps_taken();
    } catch (const support::ValidationFailure& e) {
      throw support::RigorousFailure(e.what());
    }
  } else {
    const auto& model = tau_model;
    if (opt.progress)
      vo.on_step = [&opt, ti = model.time_index()](std::size_t n, double, const std::vector<double>& x) { opt.progress(n, x[ti]); };
    auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
    ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
    std::shared_ptr<const models::LogisticReducedTau<IntervalD>> double_model;
    use_quotient_jacobian<S>(vt, inst, opt, double_model);
    try {
      // τ ≤ t always (dt/dτ ≥ 1), so τ* ≤ t_end: cap the τ-integration there.
      const auto hit = integrate_to_component_value(vt, model.initial_state(), model.time_index(), t_end,
                                                    S(t_end + S(1)), opt.max_steps);
      x = hit.box;
      res.steps = hit.steps;
      res.tau = num::Enclosure(hit.tau);
    } catch (const support::ValidationFailure& e) {
      throw support::RigorousFailure(e.what());
    }
  }
  fill_state(res, tau_model, p, x);
  return res;
}

template <class S>
std::vector<RigorousIntegrateResult> run_grid(const instances::Instance& inst, const std::vector<std::string>& times,
                                              const RigorousIntegrateOptions& opt) {
  const models::ReducedParameters<S> p = parameters<S>(inst);
  std::vector<S> targets;
  for (const auto& t : times) {
    targets.push_back(parse_time<S>(t));
    if (!num::certainly_positive(targets.back())) throw std::invalid_argument("times: must be > 0, got " + t);
    if (targets.size() > 1 && !num::certainly_lt(targets[targets.size() - 2], targets.back()))
      throw std::invalid_argument("times: must be strictly increasing, got " + t + " after " + times[targets.size() - 2]);
  }
  std::vector<RigorousIntegrateResult> out;
  if (targets.empty()) return out;
  // One τ-time pass (the grid's crossings need it): the plan's order and budget.
  const RunPlan plan = plan_entry(inst, rigorous_request(opt, times.back()), RunEntry::reduced_grid);
  ValidatedOptions vo = validated_options(plan);
  vo.keep_segments = false;
  const auto model = models::LogisticReducedTau<S>::from_instance(inst);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
  std::shared_ptr<const models::LogisticReducedTau<IntervalD>> double_model;
  use_quotient_jacobian<S>(vt, inst, opt, double_model);
  std::vector<ComponentHit<S>> hits;
  try {
    hits = integrate_to_component_values(vt, model.initial_state(), model.time_index(), targets,
                                         S(targets.back() + S(1)), opt.max_steps);
  } catch (const support::ValidationFailure& e) {
    throw support::RigorousFailure(e.what());
  }
  for (std::size_t k = 0; k < hits.size(); ++k) {
    RigorousIntegrateResult res;
    res.t = times[k];
    res.precision_bits = working_bits<S>();
    res.order = vo.order;
    res.time_variable = PlanTime::tau;
    res.form = plan.form;
    res.plan_why = plan.why;
    res.steps = hits[k].steps;
    res.tau = num::Enclosure(hits[k].tau);
    fill_state(res, model, p, hits[k].box);
    out.push_back(std::move(res));
  }
  return out;
}

// One segment of the curve from a validated step's box over the times `t` (intervals over
// double, outward from S); σ(a) and the loss evaluated on the box by the model.
template <class S, class Model>
CurveSegment curve_segment(const Model& model, std::size_t T, const std::vector<S>& box, const S& t) {
  auto d = [](const S& x) { return num::Enclosure(x).to_interval_d(); };
  CurveSegment seg;
  seg.t = d(t);
  const std::vector<S> s = model.attention(box);
  for (std::size_t i = 0; i < T; ++i) {
    seg.a.push_back(d(box[i]));
    seg.u.push_back(d(box[T + i]));
    seg.softmax.push_back(d(s[i]));
  }
  seg.loss = d(model.loss_value(box));
  return seg;
}

// Reads how a curve's run ended into `out` (a failure outside validation is rethrown).
template <class Curve>
void curve_end(const Curve& curve, CurveEnclosure& out) {
  switch (curve.end()) {
    case FlowEnd::reached_end:
    case FlowEnd::predicate:
    case FlowEnd::finisher: out.complete = true; return;
    case FlowEnd::observer_stop: out.stopped = "interrupted"; return;
    case FlowEnd::budget: out.stopped = "step budget exhausted"; return;
    case FlowEnd::failure:
      if (!curve.failed_in_validation()) curve.rethrow();
      out.stopped = "a step could not be validated: " + curve.message();
      return;
  }
}

template <class S>
CurveEnclosure run_curve(const instances::Instance& inst, const std::string& t_text, const RigorousIntegrateOptions& opt,
                         const RunPlan& plan, const std::atomic<bool>* cancel) {
  const S t_end = parse_time<S>(t_text);
  if (!num::certainly_positive(t_end)) throw std::invalid_argument("t: must be > 0, got " + t_text);
  CurveEnclosure out;
  out.precision_bits = working_bits<S>();
  out.order = plan.order;
  out.time_variable = plan.time;
  ValidatedOptions vo = validated_options(plan);
  vo.keep_segments = false;  // the observer below takes each segment
  const auto tau_model = models::LogisticReducedTau<S>::from_instance(inst);
  const std::size_t T = inst.T;
  auto go_on = [cancel] { return cancel && cancel->load() ? FlowAction::stop : FlowAction::proceed; };
  FlowControl control;
  control.max_steps = opt.max_steps;
  if (plan.time == PlanTime::t) {
    if (opt.progress) vo.on_step = [&opt](std::size_t n, double s, const std::vector<double>&) { opt.progress(n, s); };
    const auto model = models::LogisticReduced<S>::from_instance(inst);
    auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
    ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
    DoubletonSet<S> set = DoubletonSet<S>::from_box(model.initial_state());
    const auto curve = run_flow<S>(vt, set, model.initial_state(), S(0), until_time(t_end), control, no_finisher,
                                   on_segment([&](const TubeSegment<S>& seg) {
                                     out.segments.push_back(curve_segment(tau_model, T, seg.box, num::hull(seg.t0, seg.t1)));
                                     return go_on();
                                   }));
    curve_end(curve, out);
    out.t_reached = out.complete ? num::Enclosure(t_end).lower_down() : num::Enclosure(curve.t_reached()).lower_down();
  } else {
    const std::size_t ti = tau_model.time_index();
    if (opt.progress)
      vo.on_step = [&opt, ti](std::size_t n, double, const std::vector<double>& x) { opt.progress(n, x[ti]); };
    auto field = [&tau_model](const auto& y, auto& dy) { tau_model.rhs(y, dy); };
    ValidatedTaylor<S, decltype(field)> vt(field, tau_model.dimension(), vo);
    DoubletonSet<S> set = DoubletonSet<S>::from_box(tau_model.initial_state());
    // τ ≤ t always (dt/dτ ≥ 1): the τ-integration is capped at t_end + 1.
    const auto curve = run_flow<S>(vt, set, tau_model.initial_state(), S(0), until_component(ti, {t_end}, S(t_end + S(1))),
                                   control, no_finisher, on_segment([&](const TubeSegment<S>& seg) {
                                     out.segments.push_back(curve_segment(tau_model, T, seg.box, seg.box[ti]));
                                     return go_on();
                                   }));
    curve_end(curve, out);
    out.t_reached = out.complete ? num::Enclosure(t_end).lower_down() : num::Enclosure(curve.last_box()[ti]).lower_down();
  }
  return out;
}

// The reduced form applies (else invalid_argument naming the field and the entry point that does).
void require_reduced(const instances::Instance& inst) {
  if (inst.tied())
    throw std::invalid_argument("model: the reduced rigorous form is for \"value_softmax\" (integrate::rigorous_integrate_model takes the tied model)");
  if (inst.loss != instances::Loss::logistic)
    throw std::invalid_argument("loss: the reduced rigorous form needs \"logistic\" (integrate::rigorous_integrate_model takes every loss)");
  if (inst.normalization != instances::Normalization::softmax)
    throw std::invalid_argument("normalization: the reduced rigorous form needs \"softmax\" (integrate::rigorous_integrate_model takes the others)");
}

}  // namespace

RigorousIntegrateResult rigorous_integrate(const instances::Instance& inst, const std::string& t_end,
                                           const RigorousIntegrateOptions& options) {
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: " + num::quoted(t_end));
  require_reduced(inst);
  if (options.tail_width != 0)
    throw std::invalid_argument("tail_width: only with the PL tail of square and regression loss (integrate::rigorous_integrate_model)");
  return rigorous_integrate_with_plan(inst, t_end, options, plan_entry(inst, rigorous_request(options, t_end), RunEntry::reduced));
}

RigorousIntegrateResult rigorous_integrate_with_plan(const instances::Instance& inst, const std::string& t_end,
                                                     const RigorousIntegrateOptions& options, const RunPlan& plan) {
  if (plan.form != PlanForm::reduced_logistic) throw std::logic_error("rigorous_integrate_with_plan: not a reduced-form plan");
  if (options.precision_bits <= 53) return run_reduced<IntervalD>(inst, t_end, options, plan);
  num::PrecisionGuard guard(options.precision_bits);
  return run_reduced<IntervalMp>(inst, t_end, options, plan);
}

std::vector<RigorousIntegrateResult> rigorous_integrate_at(const instances::Instance& inst,
                                                          const std::vector<std::string>& times,
                                                          const RigorousIntegrateOptions& options) {
  for (const auto& t : times)
    if (!num::is_decimal_syntax(t)) throw std::invalid_argument("times: not a decimal number: " + num::quoted(t));
  require_reduced(inst);
  if (options.precision_bits <= 53) return run_grid<IntervalD>(inst, times, options);
  num::PrecisionGuard guard(options.precision_bits);
  return run_grid<IntervalMp>(inst, times, options);
}

CurveEnclosure rigorous_curve(const instances::Instance& inst, const std::string& t_end,
                              const RigorousIntegrateOptions& options, const std::atomic<bool>* cancel) {
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: " + num::quoted(t_end));
  require_reduced(inst);
  const RunPlan plan = plan_entry(inst, rigorous_request(options, t_end), RunEntry::reduced);
  if (options.precision_bits <= 53) return run_curve<IntervalD>(inst, t_end, options, plan, cancel);
  num::PrecisionGuard guard(options.precision_bits);
  return run_curve<IntervalMp>(inst, t_end, options, plan, cancel);
}

RigorousIntegrateResult rigorous_integrate(const nlohmann::json& instance, const std::string& t_end,
                                           const RigorousIntegrateOptions& options) {
  return rigorous_integrate(instances::parse_instance(instance), t_end, options);
}

nlohmann::json to_json(const RigorousIntegrateResult& r) {
  // the edge: decimal text, rounded outward, only here
  auto pair = [](const EnclosedValue& e) { return nlohmann::json::array({e.lower_text(), e.upper_text()}); };
  auto vec = [&](const std::vector<EnclosedValue>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : v) a.push_back(pair(e));
    return a;
  };
  auto widths = [](const std::vector<EnclosedValue>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : v) a.push_back(e.width);
    return a;
  };
  nlohmann::json j;
  j["t"] = r.t;
  j["tier"] = "rigorous";
  j["precision_bits"] = r.precision_bits;
  j["a"] = vec(r.a);
  j["u"] = vec(r.u);
  j["softmax"] = vec(r.softmax);
  j["loss"] = pair(r.loss);
  j["V"] = nlohmann::json::array();
  for (const auto& row : r.V) j["V"].push_back(vec(row));
  j["derived"] = to_json(derive_enclosures(r));
  j["widths"] = {{"a", widths(r.a)}, {"u", widths(r.u)}, {"softmax", widths(r.softmax)}, {"loss", r.loss.width}, {"max", r.max_width}};
  j["steps"] = r.steps;
  j["order"] = r.order;
  j["time_variable"] = to_string(r.time_variable);
  j["form"] = to_string(r.form);
  if (!r.plan_why.empty()) j["plan"] = r.plan_why;
  j["set"] = to_string(r.set);
  if (r.set == PlanStepper::ball) {
    if (r.ball_pieces == 0) j["ball_pieces"] = "per step";
    else j["ball_pieces"] = r.ball_pieces;
  }
  if (!r.tau.empty()) j["tau"] = nlohmann::json::array({r.tau.lower_text(), r.tau.upper_text()});
  if (r.tail.attempted) {
    nlohmann::json t = {{"lemma", "polyak_lojasiewicz"}, {"used", r.tail.used}};
    if (r.tail.width_target > 0) t["width_target"] = r.tail.width_target;
    if (r.tail.used) {
      t["from_t"] = nlohmann::json::array({r.tail.from.lower_text(), r.tail.from.upper_text()});
      t["radius"] = r.tail.radius;
      t["mu"] = r.tail.mu;
      if (r.tail.regression) t["lambda"] = r.tail.lambda;
      t["steps_to_from"] = r.tail.steps_to_from;
    }
    j["tail"] = t;
  }
  return j;
}

}  // namespace softcert::integrate
