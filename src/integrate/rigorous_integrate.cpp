// softcert integrate --tier rigorous: the logistic reduced value-softmax flow, enclosed by the
// validated Taylor–Lohner integrator, in t-time or in τ-time (dτ = γ dt, t carried as a state).
// Guarantees: see rigorous_integrate.hpp and docs/method.md.
#include "integrate/rigorous_integrate.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/logistic_reduced.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "numerics/stable.hpp"
#include "numerics/quote.hpp"

namespace softcert::integrate {

namespace {

std::string field_string(const nlohmann::json& j, const std::string& name) {
  if (!j.is_string()) throw std::invalid_argument(name + ": expected a decimal string");
  const std::string s = j.get<std::string>();
  if (!num::is_decimal_syntax(s)) throw std::invalid_argument(name + ": not a decimal number: " + num::quoted(s));
  return s;
}

std::vector<std::string> string_vector(const nlohmann::json& inst, const std::string& name, std::size_t n) {
  if (!inst.contains(name) || !inst[name].is_array()) throw std::invalid_argument(name + ": missing or not an array");
  if (inst[name].size() != n) throw std::invalid_argument(name + ": expected " + std::to_string(n) + " entries");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(field_string(inst[name][i], name + "[" + std::to_string(i) + "]"));
  return out;
}

template <class S>
double width_up(const S& x) {
  const double w = num::to_double(num::hull_of_bounds<S>(num::width(x), num::width(x)));
  return std::nextafter(w, std::numeric_limits<double>::infinity());
}

template <class S>
DecimalEnclosure decimal(const S& x) {
  return DecimalEnclosure{num::lower_decimal(x), num::upper_decimal(x), width_up(x)};
}

unsigned default_order(unsigned bits) { return bits <= 53 ? 20 : std::max(20u, bits / 4); }

// a(0), u(0) = V(0)ᵀβ* and c = ‖β*‖² of the problem, each enclosed in K (interval kinds:
// parse_decimal encloses every decimal, the operations enclose their exact results).
template <class K>
struct ReducedStart {
  std::vector<K> a0, u0;
  K c{0};
};
template <class K>
ReducedStart<K> reduced_start(const RigorousLogisticProblem& pb) {
  ReducedStart<K> r;
  r.u0.assign(pb.T, K(0));
  for (std::size_t i = 0; i < pb.T; ++i) r.a0.push_back(num::parse_decimal<K>(pb.a[i]));
  for (std::size_t k = 0; k < pb.d; ++k) {
    const K b = num::parse_decimal<K>(pb.beta[k]);
    r.c += num::sqr(b);
    for (std::size_t i = 0; i < pb.T; ++i) r.u0[i] += num::parse_decimal<K>(pb.V[k][i]) * b;
  }
  return r;
}

// At MPFI precisions the Lohner Jacobian is computed in IntervalD on the same model built from
// the same decimals (ValidatedTaylor::set_double_jacobian_field; why: docs/performance.md).
template <class S, class Model, class VT>
void use_double_jacobian(VT& vt, const RigorousLogisticProblem& pb, std::shared_ptr<const Model>& holder) {
  if constexpr (!std::is_same_v<S, IntervalD>) {
    const ReducedStart<IntervalD> d = reduced_start<IntervalD>(pb);
    holder = std::make_shared<const Model>(d.a0, d.u0, d.c);
    vt.set_double_jacobian_field([m = holder](const auto& y, auto& dy) { m->rhs(y, dy); });
  }
}

// The instance's data enclosed at kind S (every decimal enclosed, never rounded).
template <class S>
struct Parsed {
  std::vector<std::vector<S>> V;
  std::vector<S> a0, u0, beta;
  S c;
};

template <class S>
Parsed<S> parse_problem(const RigorousLogisticProblem& pb) {
  const std::size_t T = pb.T, d = pb.d;
  Parsed<S> p;
  p.V.assign(d, std::vector<S>(T));
  for (std::size_t r = 0; r < d; ++r)
    for (std::size_t i = 0; i < T; ++i) p.V[r][i] = num::parse_decimal<S>(pb.V[r][i]);
  p.a0.assign(T, S(0));
  p.u0.assign(T, S(0));
  p.beta.assign(d, S(0));
  for (std::size_t i = 0; i < T; ++i) p.a0[i] = num::parse_decimal<S>(pb.a[i]);
  p.c = S(0);
  for (std::size_t r = 0; r < d; ++r) {
    p.beta[r] = num::parse_decimal<S>(pb.beta[r]);
    p.c += num::sqr(p.beta[r]);
  }
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t r = 0; r < d; ++r) p.u0[i] += p.V[r][i] * p.beta[r];
  if (!num::certainly_positive(p.c)) throw std::invalid_argument("beta: must be nonzero");
  return p;
}

template <class S>
S parse_time(const std::string& t_text) {
  const S t_end = num::parse_decimal<S>(t_text);
  if (num::certainly_negative(t_end) || !num::certainly_nonnegative(t_end)) throw std::invalid_argument("t: must be ≥ 0");
  return t_end;
}

// Fills a, u, σ(a), the loss and V of `res` from an enclosure x of (a, u) at its time.
template <class S>
void fill_state(RigorousIntegrateResult& res, const Parsed<S>& p, const std::vector<S>& x) {
  const std::size_t T = p.a0.size(), d = p.beta.size();
  const std::vector<S> a(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(T));
  const std::vector<S> u(x.begin() + static_cast<std::ptrdiff_t>(T), x.begin() + static_cast<std::ptrdiff_t>(2 * T));
  const std::vector<S> s = num::softmax(a);
  S us(0);
  for (std::size_t i = 0; i < T; ++i) us += u[i] * s[i];
  const S loss = num::softplus(S(-us));
  for (std::size_t i = 0; i < T; ++i) {
    res.a.push_back(decimal(a[i]));
    res.u.push_back(decimal(u[i]));
    res.softmax.push_back(decimal(s[i]));
    res.max_width = std::max({res.max_width, res.a.back().width, res.u.back().width});
  }
  res.loss = decimal(loss);
  res.V.assign(d, {});
  for (std::size_t r = 0; r < d; ++r)
    for (std::size_t i = 0; i < T; ++i)
      res.V[r].push_back(decimal(S(p.V[r][i] + p.beta[r] * (u[i] - p.u0[i]) / p.c)));
}

template <class S>
RigorousIntegrateResult run(const RigorousLogisticProblem& pb, const std::string& t_text, const RigorousIntegrateOptions& opt) {
  const std::size_t T = pb.T;
  const Parsed<S> p = parse_problem<S>(pb);
  const S t_end = parse_time<S>(t_text);

  RigorousIntegrateResult res;
  res.t = t_text;
  res.precision_bits = working_bits<S>();
  res.order = opt.order ? opt.order : default_order(res.precision_bits);
  ValidatedOptions vo;
  vo.order = res.order;
  vo.max_steps = opt.max_steps;
  vo.keep_segments = false;
  std::string tv = opt.time_variable;
  if (tv == "auto") tv = num::upper(t_end) > 100 ? "tau" : "t";
  if (tv != "t" && tv != "tau") throw std::invalid_argument("time_variable: expected auto, t or tau");
  res.time_variable = tv;

  std::vector<S> x;  // (a, u) at t_end
  if (!num::certainly_positive(t_end)) {
    x = p.a0;
    x.insert(x.end(), p.u0.begin(), p.u0.end());
  } else if (tv == "t") {
    const models::LogisticReduced<S> model(p.a0, p.u0, p.c);
    auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
    ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
    std::shared_ptr<const models::LogisticReduced<IntervalD>> double_model;
    if (opt.double_jacobian) use_double_jacobian<S>(vt, pb, double_model);
    try {
      const auto tube = vt.integrate(model.initial_state(), S(0), t_end);
      x = tube.final_box();
      res.steps = vt.steps_taken();
    } catch (const ValidationFailure& e) {
      throw RigorousFailure(e.what());
    }
  } else {
    const models::LogisticReducedTau<S> model(p.a0, p.u0, p.c);
    auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
    ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
    std::shared_ptr<const models::LogisticReducedTau<IntervalD>> double_model;
    if (opt.double_jacobian) use_double_jacobian<S>(vt, pb, double_model);
    try {
      // τ ≤ t always (dt/dτ ≥ 1), so τ* ≤ t_end: cap the τ-integration there.
      const auto hit = integrate_to_component_value(vt, model.initial_state(), model.time_index(), t_end,
                                                    S(t_end + S(1)), opt.max_steps);
      x.assign(hit.box.begin(), hit.box.begin() + static_cast<std::ptrdiff_t>(2 * T));
      res.steps = hit.steps;
      res.tau_lower = num::lower_decimal(hit.tau);
      res.tau_upper = num::upper_decimal(hit.tau);
    } catch (const ValidationFailure& e) {
      throw RigorousFailure(e.what());
    }
  }
  fill_state(res, p, x);
  return res;
}

template <class S>
std::vector<RigorousIntegrateResult> run_grid(const RigorousLogisticProblem& pb, const std::vector<std::string>& times,
                                              const RigorousIntegrateOptions& opt) {
  const std::size_t T = pb.T;
  const Parsed<S> p = parse_problem<S>(pb);
  std::vector<S> targets;
  for (const auto& t : times) {
    targets.push_back(parse_time<S>(t));
    if (!num::certainly_positive(targets.back())) throw std::invalid_argument("times: must be > 0, got " + t);
    if (targets.size() > 1 && !num::certainly_lt(targets[targets.size() - 2], targets.back()))
      throw std::invalid_argument("times: must be strictly increasing, got " + t + " after " + times[targets.size() - 2]);
  }
  std::vector<RigorousIntegrateResult> out;
  if (targets.empty()) return out;
  ValidatedOptions vo;
  vo.order = opt.order ? opt.order : default_order(working_bits<S>());
  vo.max_steps = opt.max_steps;
  vo.keep_segments = false;
  const models::LogisticReducedTau<S> model(p.a0, p.u0, p.c);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
  std::shared_ptr<const models::LogisticReducedTau<IntervalD>> double_model;
  if (opt.double_jacobian) use_double_jacobian<S>(vt, pb, double_model);
  std::vector<ComponentHit<S>> hits;
  try {
    hits = integrate_to_component_values(vt, model.initial_state(), model.time_index(), targets,
                                         S(targets.back() + S(1)), opt.max_steps);
  } catch (const ValidationFailure& e) {
    throw RigorousFailure(e.what());
  }
  for (std::size_t k = 0; k < hits.size(); ++k) {
    RigorousIntegrateResult res;
    res.t = times[k];
    res.precision_bits = working_bits<S>();
    res.order = vo.order;
    res.time_variable = "tau";
    res.steps = hits[k].steps;
    res.tau_lower = num::lower_decimal(hits[k].tau);
    res.tau_upper = num::upper_decimal(hits[k].tau);
    fill_state(res, p, std::vector<S>(hits[k].box.begin(), hits[k].box.begin() + static_cast<std::ptrdiff_t>(2 * T)));
    out.push_back(std::move(res));
  }
  return out;
}

}  // namespace

RigorousLogisticProblem rigorous_problem_from_json(const nlohmann::json& inst) {
  if (!inst.is_object()) throw std::invalid_argument("instance: expected a JSON object");
  auto text = [&](const char* k) -> std::string {
    if (!inst.contains(k) || !inst[k].is_string()) throw std::invalid_argument(std::string(k) + ": missing or not a string");
    return inst[k].get<std::string>();
  };
  if (inst.contains("model") && text("model") != "value_softmax") throw std::invalid_argument("model: the rigorous tier supports \"value_softmax\"");
  if (text("loss") != "logistic") throw std::invalid_argument("loss: the reduced rigorous form needs \"logistic\" (integrate::rigorous_integrate_model takes every loss)");
  if (text("normalization") != "softmax") throw std::invalid_argument("normalization: the reduced rigorous form needs \"softmax\" (integrate::rigorous_integrate_model takes the others)");
  auto count = [&](const char* k) -> std::size_t {
    if (!inst.contains(k) || !inst[k].is_number_integer() || inst[k].get<long long>() < 1)
      throw std::invalid_argument(std::string(k) + ": missing or not a positive integer");
    return static_cast<std::size_t>(inst[k].get<long long>());
  };
  RigorousLogisticProblem pb;
  pb.T = count("T");
  pb.d = count("d");
  if (!inst.contains("V") || !inst["V"].is_array() || inst["V"].size() != pb.d)
    throw std::invalid_argument("V: expected d = " + std::to_string(pb.d) + " rows");
  for (std::size_t r = 0; r < pb.d; ++r) {
    const auto& row = inst["V"][r];
    if (!row.is_array() || row.size() != pb.T) throw std::invalid_argument("V[" + std::to_string(r) + "]: expected T entries");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < pb.T; ++i) out.push_back(field_string(row[i], "V[" + std::to_string(r) + "][" + std::to_string(i) + "]"));
    pb.V.push_back(out);
  }
  pb.a = string_vector(inst, "a", pb.T);
  pb.beta = string_vector(inst, "beta", pb.d);
  return pb;
}

RigorousIntegrateResult rigorous_integrate(const RigorousLogisticProblem& problem, const std::string& t_end,
                                           const RigorousIntegrateOptions& options) {
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: " + num::quoted(t_end));
  if (problem.T == 0 || problem.a.size() != problem.T || problem.V.size() != problem.d || problem.beta.size() != problem.d)
    throw std::invalid_argument("instance: inconsistent dimensions");
  if (options.precision_bits <= 53) return run<IntervalD>(problem, t_end, options);
  num::PrecisionGuard guard(options.precision_bits);
  return run<IntervalMp>(problem, t_end, options);
}

std::vector<RigorousIntegrateResult> rigorous_integrate_at(const RigorousLogisticProblem& problem,
                                                          const std::vector<std::string>& times,
                                                          const RigorousIntegrateOptions& options) {
  for (const auto& t : times)
    if (!num::is_decimal_syntax(t)) throw std::invalid_argument("times: not a decimal number: " + num::quoted(t));
  if (problem.T == 0 || problem.a.size() != problem.T || problem.V.size() != problem.d || problem.beta.size() != problem.d)
    throw std::invalid_argument("instance: inconsistent dimensions");
  if (options.precision_bits <= 53) return run_grid<IntervalD>(problem, times, options);
  num::PrecisionGuard guard(options.precision_bits);
  return run_grid<IntervalMp>(problem, times, options);
}

RigorousIntegrateResult rigorous_integrate(const nlohmann::json& instance, const std::string& t_end,
                                           const RigorousIntegrateOptions& options) {
  return rigorous_integrate(rigorous_problem_from_json(instance), t_end, options);
}

nlohmann::json to_json(const RigorousIntegrateResult& r) {
  auto pair = [](const DecimalEnclosure& e) { return nlohmann::json::array({e.lower, e.upper}); };
  auto vec = [&](const std::vector<DecimalEnclosure>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : v) a.push_back(pair(e));
    return a;
  };
  auto widths = [](const std::vector<DecimalEnclosure>& v) {
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
  j["widths"] = {{"a", widths(r.a)}, {"u", widths(r.u)}, {"softmax", widths(r.softmax)}, {"loss", r.loss.width}, {"max", r.max_width}};
  j["steps"] = r.steps;
  j["order"] = r.order;
  j["time_variable"] = r.time_variable;
  if (!r.tau_lower.empty()) j["tau"] = nlohmann::json::array({r.tau_lower, r.tau_upper});
  return j;
}

}  // namespace softcert::integrate
