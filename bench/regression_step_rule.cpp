// Bench (not a test): what sets the ball step's step sizes along one t-time full-state run
// (docs/performance.md, "What sets the regression steps"). Steps the value-softmax model of
// INSTANCE with the ball step (order 30, pieces chosen per step, as the plan's default) to END
// with the local error target TOL (0: the default 2^-53), at most MAX steps, and prints a line
// every EVERY steps:
//   step,t,h,estimate,trial,apriori_failures,remainder_shrinks,pieces,mu,radius,ball,cpu_s,
//   centre_s,box_s,apriori_s,df_s,lognorm_s,rest_s,helper_s,wall_s
// (estimate: the Jorba–Zou step from the centre's coefficients; trial: the first h tried;
// apriori_failures / remainder_shrinks: totals so far of a priori failures, each halving h,
// and of shrinks by the remainder test; cpu_s: thread CPU seconds so far; the *_s columns split
// it by phase of the step, totals so far (StepProfile): the centre's series, the box's series,
// the step size with the a priori box and its remainder series (retries included), Df over the
// pieces' boxes, the certificate of μ, and the rest (y_c, the new ball, the state box); helper_s:
// CPU seconds of the pieces run on the helper thread (BallSettings::piece_threads; set
// SOFTCERT_BENCH_ONE_THREAD=1 to run every piece on this thread); wall_s: wall seconds so far).
// With T0 > 0 the run starts instead at t = T0 from the fast tier's state there (integrate_fast,
// no guarantee: only the step sizes from that point are of interest), inflated by ±W per
// component — a stand-in for the validated set there, to measure late steps without the run up.
// SOFTCERT_BENCH_ORDER=p sets the Taylor order (default 30, the plan's). Df over the pieces' boxes
// comes from the model's closed form, as in the checks (integrate/closed_form_jacobian.hpp);
// SOFTCERT_BENCH_TAPE_DF=1 takes it from the tape's derivative pass instead.
// Usage: regression_step_rule INSTANCE END TOL [MAX [EVERY [T0 W]]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "instances/instance.hpp"
#include "integrate/closed_form_jacobian.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/validated_taylor.hpp"
#include "models/value_softmax.hpp"

using namespace softcert;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: regression_step_rule INSTANCE END TOL [MAX [EVERY]]\n");
    return 2;
  }
  instances::Instance inst = instances::load_instance(argv[1]);
  const double t0 = argc > 7 ? std::atof(argv[6]) : 0, w = argc > 7 ? std::atof(argv[7]) : 0;
  if (t0 > 0) {
    integrate::FastOptions fo;
    fo.escalate = false;
    const integrate::FastReport fr = integrate::integrate_fast(inst, argv[6], fo);
    const integrate::FastDecimals d = integrate::decimals(fr.run);  // an instance holds decimal text
    inst.V = d.V;
    inst.a = d.a;
  }
  const IntervalD t_end(std::atof(argv[2]));
  const double tol = std::atof(argv[3]);
  const std::size_t max_steps = argc > 4 ? static_cast<std::size_t>(std::atol(argv[4])) : 1000000;
  const std::size_t every = argc > 5 ? static_cast<std::size_t>(std::atol(argv[5])) : 50;
  const models::ValueSoftmax<IntervalD> model(inst, false);
  integrate::BallOptions o;
  o.order = 30;
  o.keep_segments = false;
  o.ball_pieces = 0;
  o.tolerance = tol;
  o.piece_threads = std::getenv("SOFTCERT_BENCH_ONE_THREAD") == nullptr;
  if (const char* ord = std::getenv("SOFTCERT_BENCH_ORDER")) o.order = static_cast<unsigned>(std::atoi(ord));
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  integrate::BallStepper<IntervalD, decltype(field)> vt(field, model.dimension(), o);
  if (std::getenv("SOFTCERT_BENCH_TAPE_DF") == nullptr) integrate::use_closed_form_jacobian(vt, model);
  std::vector<IntervalD> x0 = model.initial_state();
  for (auto& v : x0) v += IntervalD(-w, w);
  auto set = integrate::BallSet<IntervalD>::from_box(x0);
  IntervalD t(t0);
  bool reached = false;
  std::size_t steps = 0;
  const double start = integrate::StepProfile::now();
  auto wall = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  const double wall0 = wall();
  std::printf("step,t,h,estimate,trial,apriori_failures,remainder_shrinks,pieces,mu,radius,ball,cpu_s,centre_s,box_s,apriori_s,df_s,lognorm_s,rest_s,helper_s,wall_s\n");
  try {
    while (!reached && steps < max_steps) {
      integrate::detail::FlowStepAccess::step(vt, set, t, t_end, reached);
      ++steps;
      const auto& r = vt.ball_rule();
      const auto& pr = vt.profile();
      if (steps % every == 0 || reached || steps == max_steps)
        std::printf("%zu,%.6g,%.4g,%.4g,%.4g,%zu,%zu,%u,%.4g,%.4g,%.4g,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f\n", steps, t.upper(), r.last_h,
                    pr.last_estimate, pr.last_trial, pr.apriori_failures, pr.remainder_shrinks, r.last_pieces, r.last_mu, r.last_radius,
                    set.ball, integrate::StepProfile::now() - start, pr.centre, pr.box_record, pr.apriori, pr.derivative, pr.log_norm,
                    pr.rest, vt.helper_cpu_seconds(), wall() - wall0);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::printf("# failed at t = %.6g after %zu steps: %s\n", t.upper(), steps, e.what());
  }
  double width = 0;
  for (const auto& x : vt.last_box()) width = std::max(width, x.upper() - x.lower());
  std::printf("# done steps %zu t %.6g cpu %.2f helper %.2f wall %.2f width %.3g\n", steps, t.upper(), integrate::StepProfile::now() - start,
              vt.helper_cpu_seconds(), wall() - wall0, width);
  return 0;
}
