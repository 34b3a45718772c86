// Bench (not a test): the ball step's pieces along one t-time full-state run (docs/performance.md,
// "The ball step's pieces, chosen per step"). Steps the value-softmax model of INSTANCE (t-time,
// intervals over double, order 30) with the ball step (ValidatedOptions::log_norm_ball) to END,
// with K pieces a step (K = 0: chosen per step by integrate::BallPieceRule), and prints a line
// every EVERY steps and at the end:
//   step,t,h,pieces,mu,mid,radius,ball,cpu_s
// (mu, mid = λ_max(mid Df), radius = ρ(rad Df): the largest over the last step's pieces; ball: the
// set's radius; cpu_s: thread CPU seconds so far), then "# done" with steps, CPU, the steps that
// used more than one piece, and the largest width of the end box.
// A tied instance (model "tied_value_softmax") is stepped in τ-time, with t weighted in the
// ball's norm as the full-state runs weight it (integrate/rigorous_full.hpp, tau_time_weight);
// t is read from the state and the run stops at the first step whose t passes END (this bench
// does not bracket the crossing, as `check` does): a step's cost and length at that size.
// Usage: ball_pieces_trace INSTANCE END K [EVERY]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "instances/instance.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/validated_flow.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"

using namespace softcert;

// t at the end of the last step: τ-time models carry it as a state component.
template <class Model>
double time_of(const Model& model, const std::vector<IntervalD>& box, const IntervalD& t, bool tau) {
  if constexpr (requires { model.time_index(); })
    if (tau) return box[model.time_index()].upper();
  return t.upper();
}

template <class Model>
int run(const Model& model, const IntervalD& t_end, unsigned k, std::size_t every, bool tau) {
  integrate::ValidatedOptions o;
  o.order = 30;
  o.jacobian_order = 20;
  o.keep_segments = false;
  o.log_norm_ball = true;
  o.ball_pieces = k;
  if constexpr (requires { model.time_index(); })
    if (tau) o.ball_weights = integrate::detail::tau_time_ball_weights(model.dimension(), model.time_index(), t_end.upper());
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  integrate::BallStepper<IntervalD, decltype(field)> vt(field, model.dimension(), o.ball_options());
  auto set = integrate::BallSet<IntervalD>::from_box(model.initial_state());
  std::size_t steps = 0;
  const double start = integrate::StepProfile::now();
  std::printf("step,t,h,pieces,mu,mid,radius,ball,cpu_s\n");
  // One line every `every` steps and at the end; in τ-time the run ends at the first step whose
  // t (a state component) passes END (no crossing is bracketed here).
  auto line = [&](const integrate::TubeSegment<IntervalD>& seg, bool last) {
    const auto& r = vt.ball_rule();
    if (steps % every == 0 || last)
      std::printf("%zu,%.6g,%.4g,%u,%.4g,%.4g,%.4g,%.4g,%.2f\n", steps, time_of(model, vt.last_box(), seg.t1, tau), r.last_h,
                  r.last_pieces, r.last_mu, r.last_mid, r.last_radius, set.ball, integrate::StepProfile::now() - start);
    std::fflush(stdout);
  };
  integrate::FlowControl control;
  control.max_steps = 100000000;
  const auto curve = integrate::run_flow<IntervalD>(
      vt, set, model.initial_state(), IntervalD(0), integrate::until_time(tau ? IntervalD(1e300) : t_end), control,
      integrate::no_finisher, integrate::on_segment([&](const integrate::TubeSegment<IntervalD>& seg) {
        ++steps;
        bool last = !tau && !(seg.t1.upper() < t_end.lower());
        if constexpr (requires { model.time_index(); })
          if (tau && vt.last_box()[model.time_index()].lower() >= t_end.upper()) last = true;
        line(seg, last);
        return last && tau ? integrate::FlowAction::complete : integrate::FlowAction::proceed;
      }));
  if (curve.end() == integrate::FlowEnd::failure)
    std::printf("# failed at t = %.6g after %zu steps: %s\n", curve.t_reached().upper(), steps, curve.message().c_str());
  double w = 0;
  for (const auto& x : vt.last_box()) w = std::max(w, x.upper() - x.lower());
  std::printf("# done steps %zu cpu %.2f many %zu width %.3g\n", steps, integrate::StepProfile::now() - start,
              vt.ball_rule().steps_with_many, w);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: ball_pieces_trace INSTANCE END K [EVERY]\n");
    return 2;
  }
  const instances::Instance inst = instances::load_instance(argv[1]);
  const IntervalD t_end(std::atof(argv[2]));
  const unsigned k = static_cast<unsigned>(std::atoi(argv[3]));
  const std::size_t every = argc > 4 ? static_cast<std::size_t>(std::atoi(argv[4])) : 50;
  if (inst.tied()) return run(models::TiedValueSoftmax<IntervalD>(inst, true), t_end, k, every, true);
  return run(models::ValueSoftmax<IntervalD>(inst, false), t_end, k, every, false);
}
