#include "integrate/fast_integrate.hpp"
#include "integrate/run_plan.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <variant>

#include "integrate/fast_run.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"
#include "numerics/stable.hpp"
#include "numerics/quote.hpp"

namespace softcert::integrate {
namespace {

template <class K>
std::vector<K> slice(const std::vector<K>& x, std::size_t from, std::size_t n) {
  return std::vector<K>(x.begin() + static_cast<std::ptrdiff_t>(from), x.begin() + static_cast<std::ptrdiff_t>(from + n));
}

// a, u, σ(a) (the normalization's weights), loss and V of a state, per model.
template <class K>
void observe(const models::ValueSoftmax<K>& m, const std::vector<K>& x, FastValues<K>& out) {
  const std::size_t T = m.tokens(), d = m.dim();
  out.a = slice(x, m.a_offset(), T);
  std::vector<K> w;
  m.normalize(out.a, out.alpha, w);
  out.V.clear();
  for (std::size_t i = 0; i < d; ++i) out.V.push_back(slice(x, i * T, T));
  if (!m.beta().empty()) out.u = models::transpose_times(out.V, m.beta());
  out.loss = m.loss_value(x);
}

// The reduced forms: the model computes σ(a) and the loss (the same functions as the rigorous tier).
template <class K, class M>
void observe_reduced(const M& m, const std::vector<K>& x, FastValues<K>& out) {
  const std::size_t T = m.tokens();
  out.a = slice(x, 0, T);
  out.u = slice(x, T, T);
  out.alpha = m.attention(x);
  out.loss = m.loss_value(x);
}

template <class K> void observe(const models::LogisticReduced<K>& m, const std::vector<K>& x, FastValues<K>& o) { observe_reduced<K>(m, x, o); }
template <class K> void observe(const models::LogisticReducedTau<K>& m, const std::vector<K>& x, FastValues<K>& o) { observe_reduced<K>(m, x, o); }
template <class K> void observe(const models::RankOneSquare<K>& m, const std::vector<K>& x, FastValues<K>& o) { observe_reduced<K>(m, x, o); }

// The tied model: a, α = softmax(U a), loss, U (in the V field), u = Uᵀβ*.
template <class K>
void observe(const models::TiedValueSoftmax<K>& m, const std::vector<K>& x, FastValues<K>& out) {
  const std::size_t D = m.dim();
  out.a = slice(x, m.a_offset(), D);
  out.alpha = m.attention(x);
  out.V.clear();
  for (std::size_t i = 0; i < D; ++i) out.V.push_back(slice(x, i * D, D));
  out.u = models::transpose_times(out.V, m.beta());
  out.loss = m.loss_value(x);
}

double nearest_double(const MpReal& x) { return x.convert_to<double>(); }  // mpfr_get_d, to nearest

template <class K>
std::vector<double> nearest_doubles(const std::vector<K>& v) {
  std::vector<double> out;
  out.reserve(v.size());
  for (const auto& x : v) out.push_back(nearest_double(x));
  return out;
}

template <class K>
FastValues<double> nearest_doubles(const FastValues<K>& v) {
  FastValues<double> out;
  out.a = nearest_doubles(v.a);
  out.u = nearest_doubles(v.u);
  out.alpha = nearest_doubles(v.alpha);
  out.loss = nearest_double(v.loss);
  for (const auto& row : v.V) out.V.push_back(nearest_doubles(row));
  if (v.tau) out.tau = nearest_double(*v.tau);
  return out;
}

// Stores a run's state in s: a double run's as it is; an MPFR run's as it is and as nearest doubles.
void store(FastState& s, FastValues<double>&& v) { s.values = std::move(v); }
void store(FastState& s, FastValues<MpReal>&& v) {
  s.values = nearest_doubles(v);
  s.mp = std::move(v);
}

template <class K>
FastState run_at(const instances::Instance& inst, models::Form form, const std::string& t_end, Stepper stepper,
                 double tol_log2, unsigned bits, std::size_t max_steps) {
  FastState out;
  out.precision_bits = bits;
  out.stepper = to_string(stepper);
  out.form = models::to_string(form);
  out.tolerance = std::ldexp(1.0, static_cast<int>(std::floor(tol_log2)));
  const K tol = [&] {
    if constexpr (std::is_same_v<K, double>) return std::exp2(tol_log2);
    else return K(boost::multiprecision::pow(K(2), K(tol_log2)));
  }();
  const K end = num::parse_decimal<K>(t_end);
  const auto model = models::make_model<K>(inst, form);
  std::visit([&](const auto& m) {
    const FastRun<K> run = run_to_time<K>(m, end, stepper, tol, max_steps);
    out.steps = run.steps.accepted;
    out.rejected_steps = run.steps.rejected;
    out.seconds = run.seconds;
    out.t = t_end;  // exactly as requested (the run lands on it exactly)
    FastValues<K> v;
    if (models::carries_time(m)) v.tau = run.tau;
    observe(m, run.x, v);
    store(out, std::move(v));
  }, model);
  return out;
}

// The state at every time of `times` (increasing, > 0) in ONE t-time run: the controlled stepper
// lands exactly on each time in turn (advance_to shortens the step that would pass it) and the
// state is observed there; the run then continues from it.
template <class K>
std::vector<FastState> run_at_times(const instances::Instance& inst, models::Form form, const std::vector<std::string>& times,
                                    Stepper stepper, double tol_log2, unsigned bits, std::size_t max_steps) {
  const K tol = [&] {
    if constexpr (std::is_same_v<K, double>) return std::exp2(tol_log2);
    else return K(boost::multiprecision::pow(K(2), K(tol_log2)));
  }();
  const auto model = models::make_model<K>(inst, form);
  std::vector<FastState> out;
  std::visit([&](const auto& m) {
    if (models::carries_time(m)) throw std::invalid_argument("time: the fast trajectory runs in t-time");
    const auto start = std::chrono::steady_clock::now();
    std::vector<K> x = m.initial_state();
    ControlledStepper<K> st(stepper, tol);
    const auto sys = odeint_system(m);
    StepCount steps;
    steps.limit = max_steps;
    K t(0), dt = stepper == Stepper::taylor ? num::parse_decimal<K>(times.front()) : K(1) / K(64);
    for (const auto& text : times) {
      const K target = num::parse_decimal<K>(text);
      if (target > t) advance_to(st, sys, x, t, target, dt, steps);
      FastState s;
      s.precision_bits = bits;
      s.stepper = to_string(stepper);
      s.form = models::to_string(form);
      s.tolerance = std::ldexp(1.0, static_cast<int>(std::floor(tol_log2)));
      s.steps = steps.accepted;
      s.rejected_steps = steps.rejected;
      s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      s.t = text;
      FastValues<K> v;
      observe(m, x, v);
      store(s, std::move(v));
      out.push_back(std::move(s));
    }
  }, model);
  return out;
}

bool finite(double x) { return std::isfinite(x); }
bool finite(const MpReal& x) { return boost::multiprecision::isfinite(x); }

template <class K>
bool all_finite(const FastValues<K>& v) {
  bool ok = finite(v.loss) && (!v.tau || finite(*v.tau));
  for (const auto* w : {&v.a, &v.u, &v.alpha})
    for (const auto& x : *w) ok = ok && finite(x);
  for (const auto& row : v.V)
    for (const auto& x : row) ok = ok && finite(x);
  return ok;
}

// Throws FastOverflow when a number of the run is not finite (inf or nan). Above 53 bits the MPFR
// numbers decide (MPFR's exponent range is far wider than a double's).
void require_finite(const FastState& s, const std::string& t_end) {
  if (!(s.mp ? all_finite(*s.mp) : all_finite(s.values)))
    throw FastOverflow("the fast tier overflowed: its " + std::to_string(s.precision_bits) + "-bit " + s.stepper +
                       " run reached an infinite or undefined value (inf, nan) by t = " + t_end +
                       ". This is not bad input: the instance's values are too large for floating point "
                       "(an exponential overflows); try --tier rigorous, or smaller values");
}

FastState run_at_bits(const instances::Instance& inst, models::Form form, const std::string& t_end, Stepper stepper,
                      double tol_log2, unsigned bits, std::size_t max_steps) {
  FastState s;
  if (bits == 53) {
    s = run_at<double>(inst, form, t_end, stepper, tol_log2, bits, max_steps);
  } else {
    num::PrecisionGuard guard(bits);
    s = run_at<MpReal>(inst, form, t_end, stepper, tol_log2, bits, max_steps);
  }
  require_finite(s, t_end);
  return s;
}

std::vector<FastState> run_at_times_bits(const instances::Instance& inst, models::Form form,
                                         const std::vector<std::string>& times, Stepper stepper, double tol_log2,
                                         unsigned bits, std::size_t max_steps) {
  std::vector<FastState> s;
  if (bits == 53) {
    s = run_at_times<double>(inst, form, times, stepper, tol_log2, bits, max_steps);
  } else {
    num::PrecisionGuard guard(bits);
    s = run_at_times<MpReal>(inst, form, times, stepper, tol_log2, bits, max_steps);
  }
  for (const auto& x : s) require_finite(x, x.t);
  return s;
}

// Digits of agreement of two lists of numbers (call inside the reference's PrecisionGuard: the
// differences are taken at its precision).
double agreement(const std::vector<MpReal>& x, const std::vector<MpReal>& ref, double cap) {
  double digits = cap;
  for (std::size_t i = 0; i < x.size() && i < ref.size(); ++i) {
    const MpReal diff = boost::multiprecision::abs(x[i] - ref[i]);
    if (diff == 0) continue;
    MpReal scale = boost::multiprecision::abs(ref[i]);
    if (scale < MpReal("1e-30")) scale = MpReal("1e-30");
    const double dg = -boost::multiprecision::log10(diff / scale).convert_to<double>();
    if (dg < digits) digits = dg;
  }
  return digits < 0 ? 0 : digits;
}

// The numbers of a list as MPFR numbers, exactly (doubles converted inside a guard of ≥ 53 bits;
// MPFR numbers as they are, at their own precision).
std::vector<MpReal> as_mp(const std::vector<double>& v) { return std::vector<MpReal>(v.begin(), v.end()); }
const std::vector<MpReal>& as_mp(const std::vector<MpReal>& v) { return v; }

template <class K>
std::vector<K> flattened(const std::vector<std::vector<K>>& rows) {
  std::vector<K> out;
  for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
  return out;
}

template <class K>
std::vector<std::string> decimal_list(const std::vector<K>& v) {
  std::vector<std::string> out;
  out.reserve(v.size());
  for (const auto& x : v) out.push_back(num::to_decimal(x));
  return out;
}

template <class K>
FastDecimals decimals_of(const FastValues<K>& v) {
  FastDecimals d;
  d.a = decimal_list(v.a);
  d.u = decimal_list(v.u);
  d.alpha = decimal_list(v.alpha);
  d.loss = num::to_decimal(v.loss);
  if (v.tau) d.tau = num::to_decimal(*v.tau);
  for (const auto& row : v.V) d.V.push_back(decimal_list(row));
  return d;
}

}  // namespace

// Fills report.digits and digits_by_field from the numbers of report.run and report.reference
// (p: the run's bits; the reference has 2p).
void compare_with_reference(FastReport& report, unsigned p);

models::Form resolve_form(const instances::Instance& inst, const FastOptions& o, double t_end) {
  using models::Form;
  // The choice is the plan's (run_plan.hpp); a τ form asks for τ-time whatever o.time says.
  RunRequest q;
  q.tier = PlanTier::fast;
  q.horizon = t_end;
  q.form = o.form == Form::reduced || o.form == Form::reduced_tau ? PlanForm::reduced_logistic : PlanForm::full_state;
  q.time = o.form == Form::full_tau || o.form == Form::reduced_tau ? std::optional<PlanTime>(PlanTime::tau) : o.time;
  const RunPlan plan = plan_run(inst, q);
  const bool tau = plan.time == PlanTime::tau;
  if (plan.form == PlanForm::full_state) return tau ? Form::full_tau : Form::full;
  return tau ? Form::reduced_tau : Form::reduced;
}

FastReport integrate_fast(const instances::Instance& inst, const std::string& t_end, const FastOptions& o) {
  double end = 0;
  try {
    end = num::parse_decimal<double>(t_end);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("t: not a finite decimal number: " + num::quoted(t_end));
  }
  if (!(end > 0)) throw std::invalid_argument("t: the horizon must be positive, got " + t_end);
  if (o.precision_bits < 53) throw std::invalid_argument("precision: must be ≥ 53 bits, got " + std::to_string(o.precision_bits));
  if (o.precision_bits > 65536) throw std::invalid_argument("precision: at most 65536 bits");
  if (o.tolerance && !(*o.tolerance > 0 && *o.tolerance < 1))
    throw std::invalid_argument("tolerance: must be in (0, 1)");
  // Below 2^-(p-4) the step-size control asks for less error than p-bit rounding leaves: the
  // steps shrink without end instead of the run failing.
  if (o.tolerance && *o.tolerance < std::ldexp(1.0, 4 - static_cast<int>(o.precision_bits)))
    throw std::invalid_argument("tolerance: below 2^-(BITS - 4) = " + num::decimal_down(std::ldexp(1.0, 4 - static_cast<int>(o.precision_bits)), 3) +
                                " at " + std::to_string(o.precision_bits) + " bits, which no run can meet; raise the precision");
  const models::Form form = resolve_form(inst, o, end);
  const unsigned p = o.precision_bits;
  const double tol_log2 = o.tolerance ? std::log2(*o.tolerance) : default_tolerance_log2(p);

  FastReport report;
  report.run = run_at_bits(inst, form, t_end, resolve_stepper(o.stepper, p), tol_log2, p, o.max_steps);
  if (o.escalate) {
    const unsigned p2 = 2 * p;
    // The reference only has to be clearly better than the run to measure it: 2p bits (so
    // rounding never limits it) and a tolerance 2⁻¹⁶ of the run's (≈ 5 more digits). Asking it
    // for 2p-bit accuracy would cost far more than the run itself.
    const double ref_log2 = std::max(tol_log2 - 16, default_tolerance_log2(p2));
    report.reference = run_at_bits(inst, form, t_end, resolve_stepper(Stepper::automatic, p2), ref_log2, p2, o.max_steps);
    compare_with_reference(report, p);
  }
  return report;
}

std::vector<FastReport> integrate_fast_at(const instances::Instance& inst, const std::vector<std::string>& times,
                                          const FastOptions& o) {
  if (times.empty()) throw std::invalid_argument("times: expected at least one time");
  double prev = 0;
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::string field = "times[" + std::to_string(k) + "]";
    double v = 0;
    try {
      v = num::parse_decimal<double>(times[k]);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(field + ": not a finite decimal number: " + num::quoted(times[k]));
    }
    if (!(v > 0)) throw std::invalid_argument(field + ": must be positive, got " + times[k]);
    if (k > 0 && !(num::parse_decimal<Rational>(times[k]) > num::parse_decimal<Rational>(times[k - 1])))
      throw std::invalid_argument(field + ": times must be strictly increasing (" + times[k - 1] + " then " + times[k] + ")");
    prev = v;
  }
  if (o.precision_bits < 53) throw std::invalid_argument("precision: must be ≥ 53 bits, got " + std::to_string(o.precision_bits));
  if (o.precision_bits > 65536) throw std::invalid_argument("precision: at most 65536 bits");
  if (o.tolerance && !(*o.tolerance > 0 && *o.tolerance < 1))
    throw std::invalid_argument("tolerance: must be in (0, 1)");
  // Below 2^-(p-4) the step-size control asks for less error than p-bit rounding leaves: the
  // steps shrink without end instead of the run failing.
  if (o.tolerance && *o.tolerance < std::ldexp(1.0, 4 - static_cast<int>(o.precision_bits)))
    throw std::invalid_argument("tolerance: below 2^-(BITS - 4) = " + num::decimal_down(std::ldexp(1.0, 4 - static_cast<int>(o.precision_bits)), 3) +
                                " at " + std::to_string(o.precision_bits) + " bits, which no run can meet; raise the precision");
  if (o.time == PlanTime::tau || o.form == models::Form::full_tau || o.form == models::Form::reduced_tau)
    throw std::invalid_argument("time: the fast trajectory runs in t-time (one pass landing on every time); leave time at auto or t");
  FastOptions ot = o;
  ot.time = PlanTime::t;
  const models::Form form = resolve_form(inst, ot, prev);
  const unsigned p = o.precision_bits;
  const double tol_log2 = o.tolerance ? std::log2(*o.tolerance) : default_tolerance_log2(p);
  const std::vector<FastState> runs = run_at_times_bits(inst, form, times, resolve_stepper(o.stepper, p), tol_log2, p, o.max_steps);
  std::vector<FastState> refs;
  if (o.escalate) {
    const unsigned p2 = 2 * p;
    const double ref_log2 = std::max(tol_log2 - 16, default_tolerance_log2(p2));
    refs = run_at_times_bits(inst, form, times, resolve_stepper(Stepper::automatic, p2), ref_log2, p2, o.max_steps);
  }
  std::vector<FastReport> out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    FastReport rep;
    rep.run = runs[k];
    if (o.escalate) {
      rep.reference = refs[k];
      compare_with_reference(rep, p);
    }
    out.push_back(std::move(rep));
  }
  return out;
}

void compare_with_reference(FastReport& report, unsigned p) {
  num::PrecisionGuard guard(2 * p);
  const double cap = p * std::log10(2.0);
  double all = cap;
  auto field = [&](const char* name, const std::vector<MpReal>& x, const std::vector<MpReal>& y) {
    if (x.empty()) return;
    const double dg = agreement(x, y, cap);
    report.digits_by_field[name] = std::round(dg * 10) / 10;
    all = std::min(all, dg);
  };
  const FastValues<MpReal>& q = *report.reference->mp;  // 2p > 53 bits: MPFR
  auto compare = [&](const auto& r) {
    field("a", as_mp(r.a), q.a);
    field("u", as_mp(r.u), q.u);
    field("softmax", as_mp(r.alpha), q.alpha);
    field("loss", as_mp(std::vector{r.loss}), {q.loss});
    field("V", as_mp(flattened(r.V)), flattened(q.V));
  };
  if (report.run.mp) compare(*report.run.mp);
  else compare(report.run.values);
  report.digits = std::round(all * 10) / 10;
}

FastDecimals decimals(const FastState& s) { return s.mp ? decimals_of(*s.mp) : decimals_of(s.values); }

nlohmann::json to_json(const FastReport& rep) {
  const FastState& r = rep.run;
  const FastDecimals d = decimals(r);
  nlohmann::json j;
  j["t"] = r.t;
  j["tier"] = "fast";
  j["precision_bits"] = r.precision_bits;
  j["a"] = d.a;
  j["u"] = d.u;
  j["softmax"] = d.alpha;
  j["loss"] = d.loss;
  if (!d.V.empty()) j["V"] = d.V;
  j["form"] = r.form;
  if (!d.tau.empty()) j["tau"] = d.tau;
  j["stepper"] = r.stepper;
  j["tolerance"] = r.tolerance;
  j["steps"] = r.steps;
  j["rejected_steps"] = r.rejected_steps;
  j["seconds"] = r.seconds;
  if (rep.reference) {
    j["digits_of_agreement"] = *rep.digits;
    j["digits_by_field"] = rep.digits_by_field;
    j["reference"] = {{"precision_bits", rep.reference->precision_bits},
                      {"stepper", rep.reference->stepper},
                      {"tolerance", rep.reference->tolerance},
                      {"steps", rep.reference->steps},
                      {"seconds", rep.reference->seconds}};
  }
  return j;
}

}  // namespace softcert::integrate
