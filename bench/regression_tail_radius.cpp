// Bench (not a test): how the PL tail's ball evolves along the rigorous run of one regression
// member (docs/performance.md, "The regression check's tail stops when its margin is decided").
// Runs the plan's default rigorous full-state run of INSTANCE (t-time, regression loss) towards
// END and, after every EVERY-th validated step, computes the PL ball of the set there
// (integrate/pl_tail.hpp, pl_ball) and prints
//   step,t,radius,mu,g_norm,h_ball_lo,h_ball_hi,h_box_lo,h_box_hi,cpu_s
// (h_ball: the entropy of σ(a) over the ball, num::softmax_entropy_over_ball — what the
// regression check's stop test and result use; h_box: over the ball's bounding box, for
// comparison; cpu_s: thread CPU seconds so far). The run never stops at a ball: it shows the whole
// curve R(t). Usage: regression_tail_radius INSTANCE END [EVERY [MAX_STEPS]]
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "instances/instance.hpp"
#include "integrate/pl_tail.hpp"
#include "integrate/run_plan.hpp"
#include "integrate/validated_flow.hpp"
#include "models/value_softmax.hpp"
#include "numerics/entropy_enclosure.hpp"

using namespace softcert;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: regression_tail_radius INSTANCE END [EVERY [MAX_STEPS]]\n");
    return 2;
  }
  const instances::Instance inst = instances::load_instance(argv[1]);
  const double end = std::atof(argv[2]);
  const std::size_t every = argc > 3 ? static_cast<std::size_t>(std::atol(argv[3])) : 25;
  const std::size_t max_steps = argc > 4 ? static_cast<std::size_t>(std::atol(argv[4])) : 1000000;
  integrate::RunRequest q;
  q.tier = integrate::PlanTier::rigorous;
  q.form = integrate::PlanForm::full_state;
  q.horizon = end;
  const integrate::RunPlan plan = integrate::plan_run(inst, q);
  integrate::ValidatedOptions vo = integrate::validated_options(plan);
  vo.keep_segments = false;
  const models::ValueSoftmax<IntervalD> model(inst);
  const double lambda = integrate::pl_lambda(model);
  const std::size_t a0 = model.a_offset(), T = model.tokens();
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  const double start = integrate::StepProfile::now();
  std::printf("# stepper %s, lambda %.6g\nstep,t,radius,mu,g_norm,h_ball_lo,h_ball_hi,h_box_lo,h_box_hi,cpu_s\n",
              integrate::to_string(plan.stepper), lambda);
  integrate::with_stepper<IntervalD>(vo, field, model.dimension(), [&](auto& stepper) {
    auto watch = [&](const auto& st) -> std::optional<integrate::TailEnd<IntervalD>> {
      if (st.steps % every != 0) return std::nullopt;
      const auto ball = integrate::pl_ball(model, st.set, lambda);
      if (!ball.valid) {
        std::printf("%zu,%.6g,invalid,,,,,,,%.2f\n", st.steps, st.t.upper(), integrate::StepProfile::now() - start);
      } else {
        const auto part = ball.ball().part(a0, T);
        const IntervalD hb = num::softmax_entropy_over_ball(part), hx = num::softmax_entropy(part.box());
        std::printf("%zu,%.6g,%.4g,%.4g,%.4g,%.6g,%.6g,%.6g,%.6g,%.2f\n", st.steps, st.t.upper(), ball.radius.upper(),
                    ball.mu.lower(), ball.g_norm.upper(), hb.lower(), hb.upper(), hx.lower(), hx.upper(),
                    integrate::StepProfile::now() - start);
      }
      std::fflush(stdout);
      return std::nullopt;
    };
    auto set = integrate::start_set(stepper, model.initial_state());
    integrate::FlowControl control;
    control.max_steps = max_steps;
    const auto curve = integrate::run_flow<IntervalD>(stepper, set, model.initial_state(), IntervalD(0),
                                                      integrate::until_time(IntervalD(end)), control, watch);
    std::printf("# done steps %zu t %.6g cpu %.2f %s\n", curve.steps(), curve.t_reached().upper(),
                integrate::StepProfile::now() - start, curve.completed() ? "" : curve.message().c_str());
    return 0;
  });
  return 0;
}
