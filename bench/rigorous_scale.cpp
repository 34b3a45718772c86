// Bench (not a test): the rigorous tier at the papers' sizes (the section "Scale to the papers'
// sizes" of docs/performance.md). One core, intervals over double, order 20.
// Writes CSV on stdout:
//   sweep,variant,case,n,steps,reached,cpu_s,ms_per_step,centre,box_record,derivative,apriori,assemble,products,qr,rest,log_norm,mean_h,width
// (the phase columns are CPU ms per step, from ValidatedTaylor::profile()), then "# fit" lines
// with the least-squares growth exponent of ms/step vs n per variant.
// sweep "scale": the full value-softmax model in τ-time (logistic loss, as the notebook's
//   normalization runs) on generated instances d = T (seed 9, V = 0.1·N(0,1), a = 0),
//   n = dT + T + 1 for T = 5, 8, 10, 14, 20 (n = 31 … 421), a few steps each from t = 0;
// sweep "paper": the authors' instances (proofs_checks/instances/authors/):
//   normalization-logistic-softmax (n = 111, τ-time) to t = 5e4 — run to the end;
//   regression-kappa1 (n = 420, t-time) to t = 300 and tied-D20 (n = 421, τ-time) to t = 500 —
//   a few steps, and the case "extrapolated" gives ms/step × (horizon / mean h) — an
//   extrapolation (marked in the case column), not a measurement.
// Variants: "base" = ValidatedOptions{midrad_products = false, jacobian_order = p}: inf–sup
// products, plain Householder loops and the tube segment row by row, derivatives to order p (the
// SSE2 tape rows and the fast-arithmetic box()/Q⁻¹ loops stay on — they give the same doubles;
// compile with -DSOFTCERT_NO_SIMD_TAPE for the scalar tape); "midrad" = Rump's midpoint–radius
// products and Eigen's blocked QR (lohner_linalg.hpp); "midrad+q<Q>" = also the Jacobian
// differentiated to order Q only (ValidatedOptions::jacobian_order, docs/method.md §2);
// "base+q<Q>" likewise on the base products; "+p<P>" after any of them sets the Taylor order
// (default 20). "default" = what enclose_model_state runs when the caller chooses nothing
// (integrate/full_state_orders.hpp: p = 30, q = 10 in τ-time and 20 in t-time, midrad);
// "default-p20" = the same q rule at p = 20 (the reduced form's order). "ball" = the ball
// step at p = 30 (BallStepper, docs/method.md §2b: no derivative pass; its
// "derivative" column is the first-order pass for Df over E, "log_norm" the certificate of μ);
// in τ-time it weights t in its norm as the full-state runs do (integrate/rigorous_full.hpp,
// tau_time_weight, for END = the case's t goal, else 500); the normalization run (a τ-time
// crossing through integrate_to_component_value, Lohner only) is skipped for it.
// "ball+factors" = the ball step with Df from the model's closed form where it has one
// (integrate/closed_form_jacobian.hpp), as the full-state runs use it: for the tied model μ from
// the two thin factors of Df (numerics/product_log_norm.hpp); "ball+closed" the same with the
// dense closed form only (μ from Df's n² entries); "ball" keeps the tape's.
// Besides the first steps, the paper sweep runs regression-kappa1 to t = 10 to the end (a
// measured step count, not an extrapolation), and for "ball" also to t = 300.
// "--tied D" runs only the authors' tied-D<D>.json (τ-time, n = D² + D + 1) for
// --paper-steps steps (default 3) per variant, printing besides the row the peak resident memory
// (getrusage); the paper sweep's tied-D20 rows are unchanged.
// Usage: rigorous_scale [--quick] [--no-paper] [--variants base,midrad,midrad+q10,default,ball,ball+closed,ball+factors] [--paper-steps N] [--tied D]
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "instances/generator.hpp"
#include "instances/instance.hpp"
#include "integrate/closed_form_jacobian.hpp"
#include "integrate/full_state_orders.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"

using namespace softcert;

namespace {

struct Variant {
  std::string name;
  bool midrad = true;
  unsigned q = 0;       // 0: q = p (unless default_q)
  unsigned p = 20;
  bool default_q = false;  // q from integrate/full_state_orders.hpp for the case's time variable
  bool ball = false;       // the ball step (BallStepper, chosen by with_stepper)
  bool closed_form = false;  // the ball step's Df from the model's closed form where it has one
  bool factors = false;      // ... and as two thin factors where the model has them
};

Variant parse_variant(const std::string& s) {
  Variant v;
  v.name = s;
  if (s == "ball" || s == "ball+closed" || s == "ball+factors") {
    v.p = integrate::default_full_state_order(53);
    v.ball = true;
    v.closed_form = s != "ball";
    v.factors = s == "ball+factors";
    return v;
  }
  if (s == "default" || s == "default-p20") {
    v.p = s == "default" ? integrate::default_full_state_order(53) : 20;
    v.default_q = true;
    return v;
  }
  std::stringstream parts(s);
  std::string part;
  std::getline(parts, part, '+');
  if (part == "base") v.midrad = false;
  else if (part != "midrad") throw std::invalid_argument("unknown variant " + s);
  while (std::getline(parts, part, '+')) {
    if (part.size() > 1 && part[0] == 'q') v.q = static_cast<unsigned>(std::stoul(part.substr(1)));
    else if (part.size() > 1 && part[0] == 'p') v.p = static_cast<unsigned>(std::stoul(part.substr(1)));
    else throw std::invalid_argument("unknown variant " + s);
  }
  return v;
}

integrate::ValidatedOptions options(const Variant& v, bool tau_time) {
  integrate::ValidatedOptions o;
  o.order = v.p;
  o.keep_segments = false;
  o.midrad_products = v.midrad;
  o.jacobian_order = v.default_q ? integrate::full_state_jacobian_order<IntervalD>(tau_time, v.p) : v.q;
  o.log_norm_ball = v.ball;
  return o;
}

void row(const char* sweep, const Variant& v, const std::string& label, std::size_t n, std::size_t steps, bool reached,
         double cpu, const integrate::StepProfile& pr, double mean_h, double width) {
  const double k = steps ? 1e3 / static_cast<double>(steps) : 0;
  std::printf("%s,%s,%s,%zu,%zu,%d,%.4g,%.5g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.5g,", sweep, v.name.c_str(),
              label.c_str(), n, steps, reached ? 1 : 0, cpu, cpu * k, pr.centre * k, pr.box_record * k,
              pr.derivative * k, pr.apriori * k, pr.assemble * k, pr.products * k, pr.qr * k, pr.rest * k,
              pr.log_norm * k, mean_h);
  if (width > 0) std::printf("%.3g\n", width);
  else std::printf("\n");
  std::fflush(stdout);
}

double max_width(const std::vector<IntervalD>& x) {
  double w = 0;
  for (const auto& v : x) w = std::max(w, v.upper() - v.lower());
  return w;
}

// A fixed number of steps (or until `horizon` in the model's own time variable). With
// `t_goal` > 0 also a row "extrapolated": ms/step × the steps to reach t_goal if the steps went
// on covering t at the rate of these ones (t is the state's time component in τ-time) — an
// extrapolation, not a measurement.
template <class Model>
double steps_of(const char* sweep, const Variant& v, const std::string& label, const Model& m, std::size_t max_steps,
                double horizon, double t_goal = 0) {
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  bool tau = false;
  if constexpr (requires { m.tau_time(); }) tau = m.tau_time();
  integrate::ValidatedOptions o = options(v, tau);
  if constexpr (requires { m.time_index(); })
    if (tau && o.log_norm_ball)
      o.ball_weights = integrate::detail::tau_time_ball_weights(m.dimension(), m.time_index(), t_goal > 0 ? t_goal : 500);
  return integrate::with_stepper<IntervalD>(o, field, m.dimension(), [&](auto& vt) {
    if (v.closed_form) integrate::use_closed_form_jacobian(vt, m);
    if (!v.factors) vt.set_box_jacobian_factors({});
    auto set = integrate::start_set(vt, m.initial_state());
    double hsum = 0;
    integrate::FlowControl control;
    control.max_steps = max_steps;
    const double c0 = integrate::StepProfile::now();
    const auto curve = integrate::run_flow<IntervalD>(
        vt, set, m.initial_state(), IntervalD(0), integrate::until_time(IntervalD(horizon)), control, integrate::no_finisher,
        integrate::on_segment([&](const integrate::TubeSegment<IntervalD>& seg) { hsum += (seg.t1 - seg.t0).upper(); }));
    if (curve.end() == integrate::FlowEnd::failure)
      std::fprintf(stderr, "%s %s %s: %s\n", sweep, v.name.c_str(), label.c_str(), curve.message().c_str());
    const double cpu = integrate::StepProfile::now() - c0;
    const std::size_t k = curve.steps();
    const bool reached = curve.completed();
    row(sweep, v, label, m.dimension(), k, reached, cpu, vt.profile(), k ? hsum / static_cast<double>(k) : 0,
        reached ? max_width(vt.last_box()) : 0);
    if (t_goal > 0 && k > 0) {
      double t_reached = curve.t_reached().upper();
      if constexpr (requires { m.time_index(); })
        if (m.tau_time()) t_reached = set.c[m.time_index()].upper();
      const double steps_needed = static_cast<double>(k) * t_goal / t_reached;
      std::printf("%s,%s,%s: EXTRAPOLATED to t=%g (%zu steps reached t=%.4g),%zu,%.0f,0,%.4g,%.5g,,,,,,,,,,,\n", sweep,
                  v.name.c_str(), label.c_str(), t_goal, k, t_reached, m.dimension(), steps_needed,
                  cpu / static_cast<double>(k) * steps_needed, 1e3 * cpu / static_cast<double>(k));
    }
    return k ? cpu / static_cast<double>(k) : 0.0;
  });
}

// The notebook's normalization instance to t = 5e4 in τ-time (as enclose_full_state does).
void normalization_run(const Variant& v) {
  const auto inst = instances::load_instance(std::string(SOFTCERT_SOURCE_DIR) +
                                             "/proofs_checks/instances/authors/normalization-logistic-softmax.json");
  const models::ValueSoftmax<IntervalD> m(inst, true);
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  auto o = options(v, true);
  if (o.log_norm_ball) {
    std::fprintf(stderr, "paper %s normalization: time change: needs the Lohner step (not log_norm_ball)\n", v.name.c_str());
    return;
  }
  integrate::LohnerStepper<IntervalD, decltype(field)> vt(field, m.dimension(), o.lohner_options());
  const IntervalD target(5e4);
  const double c0 = integrate::StepProfile::now();
  double width = 0;
  bool ok = true;
  try {
    const auto hit = integrate::integrate_to_component_value(vt, m.initial_state(), m.time_index(), target,
                                                             IntervalD(target + IntervalD(1)), o.max_steps);
    std::vector<IntervalD> x(hit.box.begin(), hit.box.begin() + static_cast<std::ptrdiff_t>(m.time_index()));
    width = max_width(x);
  } catch (const std::exception& e) {
    ok = false;
    std::fprintf(stderr, "paper %s normalization: %s\n", v.name.c_str(), e.what());
  }
  const double cpu = integrate::StepProfile::now() - c0;
  row("paper", v, "normalization-logistic-softmax t=5e4", m.dimension(), vt.profile().steps, ok, cpu, vt.profile(),
      0, width);
}

double fit(const std::vector<std::pair<double, double>>& pts) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double N = static_cast<double>(pts.size());
  for (const auto& [x, y] : pts) {
    const double lx = std::log(x), ly = std::log(y);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (N * sxy - sx * sy) / (N * sxx - sx * sx);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, paper = true;
  std::size_t paper_steps = 0, tied_D = 0;
  std::string variants = "base,midrad,midrad+q10,default-p20,default,ball";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--no-paper") == 0) paper = false;
    else if (std::strcmp(argv[i], "--variants") == 0 && i + 1 < argc) variants = argv[++i];
    else if (std::strcmp(argv[i], "--paper-steps") == 0 && i + 1 < argc) paper_steps = std::stoul(argv[++i]);
    else if (std::strcmp(argv[i], "--tied") == 0 && i + 1 < argc) tied_D = std::stoul(argv[++i]);
  }
  std::vector<Variant> vs;
  std::stringstream ss(variants);
  for (std::string s; std::getline(ss, s, ',');) vs.push_back(parse_variant(s));
  std::printf("sweep,variant,case,n,steps,reached,cpu_s,ms_per_step,centre,box_record,derivative,apriori,assemble,"
              "products,qr,rest,log_norm,mean_h,width\n");
  if (tied_D > 0) {
    const auto inst = instances::load_instance(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/tied-D" +
                                               std::to_string(tied_D) + ".json");
    const models::TiedValueSoftmax<IntervalD> m(inst, true);
    for (const auto& v : vs) {
      steps_of("tied", v, "tied-D" + std::to_string(tied_D) + " (τ-time) first steps", m, paper_steps ? paper_steps : 3, 1e9, 500);
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      std::printf("# tied-D%zu,%s,peak resident %.2f GiB (the process so far)\n", tied_D, v.name.c_str(),
                  static_cast<double>(ru.ru_maxrss) / (1024.0 * 1024.0));
    }
    return 0;
  }
  std::map<std::string, std::vector<std::pair<double, double>>> pts;
  for (const auto& v : vs)
    for (std::size_t T : {5, 8, 10, 14, 20}) {
      if (quick && T > 10) break;
      instances::GeneratorOptions g;
      g.T = T;
      g.d = T;
      const auto inst = instances::generate_instance(9, g);
      const models::ValueSoftmax<IntervalD> m(inst, true);
      const std::size_t steps = T >= 14 ? 2 : 4;
      const double s = steps_of("scale", v, "T=d=" + std::to_string(T), m, steps, 1e9);
      if (s > 0) pts[v.name].emplace_back(static_cast<double>(m.dimension()), 1e3 * s);
    }
  for (const auto& [name, p] : pts)
    if (p.size() >= 2) std::printf("# fit,%s,ms_per_step ~ n^%.2f (n = %g … %g)\n", name.c_str(), fit(p), p.front().first, p.back().first);
  if (!paper) return 0;
  const std::string dir = std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/";
  for (const auto& v : vs) {
    if (!quick && !v.ball) normalization_run(v);
    {
      const auto inst = instances::load_instance(dir + "regression-kappa1.json");
      const models::ValueSoftmax<IntervalD> m(inst, false);
      steps_of("paper", v, "regression-kappa1 (t-time) first steps", m, paper_steps ? paper_steps : quick ? 2 : 5, 300, 300);
      if (!quick) steps_of("paper", v, "regression-kappa1 (t-time) to t=10", m, 100000, 10);
      if (!quick && v.ball) steps_of("paper", v, "regression-kappa1 (t-time) to t=300", m, 100000, 300);
    }
    {
      const auto inst = instances::load_instance(dir + "tied-D20.json");
      const models::TiedValueSoftmax<IntervalD> m(inst, true);
      steps_of("paper", v, "tied-D20 (τ-time) first steps", m, paper_steps ? paper_steps : quick ? 2 : 5, 1e9, 500);
    }
  }
}
