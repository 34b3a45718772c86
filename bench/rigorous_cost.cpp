// Bench (not a test): how the rigorous tier's cost grows (table 3 of docs/performance.md).
// Writes CSV on stdout, one row per configuration:
//   sweep,form,kind,jacobian,bits,T,n,order,steps,reached,ms_per_step,mean_h,horizon,width
// sweep "dimension": reduced (a, u) for T = 2 … 64 and full (V, a) with d = 8 for T = 2 … 16,
//   intervals over double, order 20, t ∈ [0, HORIZON] (or the step cap) from generated
//   instances (seed 9, V = 0.1·N(0,1), a = 0);
// sweep "order": reduced T = 8, intervals over double, order 10 … 40;
// sweep "precision": reduced T = 8, MPFI at 64 … 1024 bits, order 20 (the arithmetic alone)
//   and order bits/4 (the default: what full accuracy at that precision costs), with the Lohner
//   Jacobian in MPFI and in IntervalD (jacobian = mpfi | double; the default of
//   `softcert integrate --tier rigorous` is double).
// width = max width of the final box (a, u or V, a) when the horizon was reached, else blank.
// Usage: rigorous_cost [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "instances/generator.hpp"
#include "integrate/validated_taylor.hpp"
#include "models/logistic_reduced.hpp"
#include "models/value_softmax.hpp"
#include "numerics/precision.hpp"

using namespace softcert;

namespace {

instances::Instance instance(std::size_t T, std::size_t d) {
  instances::GeneratorOptions g;
  g.T = T;
  g.d = d;
  return instances::generate_instance(9, g);
}

template <class S, class Model, class DoubleModel = Model>
void run(const char* sweep, const char* form, const Model& m, std::size_t T, unsigned order, int max_steps,
         double horizon, const DoubleModel* double_model = nullptr, const char* jacobian_label = nullptr) {
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  integrate::ValidatedOptions o;
  o.order = order;
  o.keep_segments = false;
  integrate::ValidatedTaylor<S, decltype(field)> vt(field, m.dimension(), o);
  if (double_model) vt.set_double_jacobian_field([double_model](const auto& y, auto& dy) { double_model->rhs(y, dy); });
  const char* jacobian = jacobian_label ? jacobian_label : double_model || std::is_same_v<S, IntervalD> ? "double" : "mpfi";
  auto set = integrate::DoubletonSet<S>::from_box(m.initial_state());
  double hsum = 0;
  integrate::FlowControl control;
  control.max_steps = static_cast<std::size_t>(std::max(max_steps, 0));
  const auto t0 = std::chrono::steady_clock::now();
  const auto curve = integrate::run_flow<S>(vt, set, m.initial_state(), S(0), integrate::until_time(S(horizon)), control,
                                            integrate::no_finisher, integrate::on_tube_step([&](const integrate::TubeStep<S>& st) {
                                              hsum += num::to_double(st.h());
                                            }));
  if (curve.end() == integrate::FlowEnd::failure)
    std::fprintf(stderr, "%s %s T=%zu order=%u: %s\n", sweep, form, T, order, curve.message().c_str());
  const int k = static_cast<int>(curve.steps());
  const bool reached = curve.completed();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double width = 0;
  if (reached)
    for (const auto& v : vt.last_box()) width = std::max(width, num::to_double(num::hull_of_bounds<S>(num::width(v), num::width(v))));
  std::printf("%s,%s,%s,%s,%u,%zu,%zu,%u,%d,%d,%.6g,%.6g,%g,", sweep, form, num::ScalarTraits<S>::name(), jacobian,
              integrate::working_bits<S>(), T, m.dimension(), order, k, reached ? 1 : 0, k ? 1e3 * s / k : 0.0,
              k ? hsum / k : 0.0, horizon);
  if (reached) std::printf("%.3g\n", width);
  else std::printf("\n");
  std::fflush(stdout);
}

// quotient: the derivative pass from the O(T) quotient softmax, as `softcert integrate --tier
// rigorous` runs the reduced form (integrate/rigorous_integrate.cpp; Jacobian column "quotient").
template <class S>
void reduced(const char* sweep, std::size_t T, unsigned order, int max_steps, double horizon, bool double_jacobian = false,
             bool quotient = false) {
  const auto inst = instance(T, 8);
  const auto dm = models::LogisticReduced<IntervalD>::from_instance(inst).with_softmax_form(
      quotient ? models::SoftmaxForm::quotient : models::SoftmaxForm::pairwise);
  run<S>(sweep, "reduced", models::LogisticReduced<S>::from_instance(inst), T, order, max_steps, horizon,
         double_jacobian || quotient ? &dm : nullptr, quotient ? "quotient" : nullptr);
}

template <class S>
void full(const char* sweep, std::size_t T, unsigned order, int max_steps, double horizon) {
  run<S>(sweep, "full", models::ValueSoftmax<S>(instance(T, 8), false), T, order, max_steps, horizon);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const double horizon = 1.0;
  std::printf("sweep,form,kind,jacobian,bits,T,n,order,steps,reached,ms_per_step,mean_h,horizon,width\n");
  for (std::size_t T : {2, 4, 8, 16, 32, 64}) {
    if (quick && T > 16) break;
    reduced<IntervalD>("dimension", T, 20, T >= 32 ? 6 : 200, horizon);
    reduced<IntervalD>("dimension", T, 20, T >= 32 ? 6 : 200, horizon, false, true);
  }
  for (std::size_t T : {2, 4, 8, 16}) {
    if (quick && T > 8) break;
    full<IntervalD>("dimension", T, 20, T >= 16 ? 3 : 200, horizon);
  }
  for (unsigned p : {10, 15, 20, 30, 40}) reduced<IntervalD>("order", 8, p, 200, horizon);
  reduced<IntervalD>("precision", 8, 20, 200, horizon);
  for (unsigned bits : {64u, 128u, 256u, 512u, 1024u}) {
    if (quick && bits > 256) break;
    num::PrecisionGuard guard(bits);
    for (bool dj : {false, true}) {
      reduced<IntervalMp>("precision", 8, 20, 8, horizon, dj);
      if (bits / 4 > 20 && bits <= 512) reduced<IntervalMp>("precision", 8, bits / 4, 4, horizon, dj);
    }
  }
}
