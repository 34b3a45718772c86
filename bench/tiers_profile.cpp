// Bench (not a test): where the rigorous tier's time goes on the headline instance, at the four
// cases of bench/tiers.cpp (t = 10 and 1e5, 53 and 128 bits). It builds the
// stepper exactly as `softcert integrate --tier rigorous` does (integrate/rigorous_integrate.cpp:
// the plan's order and time variable, the O(T) quotient softmax for the derivative pass, in
// IntervalD at MPFI precisions) and prints, per case, thread CPU seconds per phase from
// ValidatedStepper::profile() (integrate/validated_taylor.hpp, StepProfile), the steps, the
// tape recordings (Taylor-series passes) per step, and what lies outside the steps ("outside":
// the τ-time crossing analysis, set-up). CSV on stdout:
//   t,bits,order,time,steps,cpu_s,centre,box_record,derivative,apriori,assemble,products,qr,rest,outside,width,apriori_tapes,trials
// (the phase columns in CPU ms per step; outside in ms for the whole run).
// Usage: tiers_profile [REPEAT [CASE [ORDER]]]   (best of REPEAT runs by total CPU, default 3; CASE
// 1–4: only that row, e.g. under perf record, 0: all; ORDER: the Taylor order instead of the plan's)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "instances/instance.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "integrate/run_plan.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "models/logistic_reduced.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"

using namespace softcert;
using integrate::StepProfile;

namespace {

struct Row {
  std::size_t steps = 0;
  double cpu = 0, width = 0;
  StepProfile prof;
};

// Largest width over a and u (the first 2T components; not τ-time's t), as bench/tiers.cpp.
template <class S>
double max_width(const std::vector<S>& x, std::size_t count) {
  double w = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const S& v = x[i];
    w = std::max(w, num::to_double(num::hull_of_bounds<S>(num::width(v), num::width(v))));
  }
  return w;
}

// As integrate/rigorous_integrate.cpp, run_reduced (its anonymous use_quotient_jacobian too).
template <class S, template <class> class M>
Row run(const instances::Instance& inst, const std::string& t_text, const integrate::RunPlan& plan) {
  integrate::ValidatedOptions vo = integrate::validated_options(plan);
  vo.keep_segments = false;
  const S t_end = num::parse_decimal<S>(t_text);
  using Model = M<S>;
  const Model model = Model::from_instance(inst);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  integrate::ValidatedTaylor<S, decltype(field)> vt(field, model.dimension(), vo);
  using DModel = M<IntervalD>;
  auto dm = std::make_shared<const DModel>(DModel::from_instance(inst).with_softmax_form(models::SoftmaxForm::quotient));
  vt.set_double_jacobian_field([dm](const auto& y, auto& dy) { dm->rhs(y, dy); });
  Row r;
  const double t0 = StepProfile::now();
  std::vector<S> x;
  if constexpr (requires { model.time_index(); }) {
    const auto hit = integrate::integrate_to_component_value(vt, model.initial_state(), model.time_index(), t_end,
                                                             S(t_end + S(1)), plan.max_steps);
    x = hit.box;
    r.steps = hit.steps;
  } else {
    const auto tube = vt.integrate(model.initial_state(), S(0), t_end);
    x = tube.final_box();
    r.steps = vt.steps_taken();
  }
  r.cpu = StepProfile::now() - t0;
  r.prof = vt.profile();
  r.width = max_width(x, 2 * inst.T);
  return r;
}

template <class S>
Row run_case(const instances::Instance& inst, const std::string& t, const integrate::RunPlan& plan) {
  if (plan.time == integrate::PlanTime::tau) return run<S, models::LogisticReducedTau>(inst, t, plan);
  return run<S, models::LogisticReduced>(inst, t, plan);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeat = argc > 1 ? std::atoi(argv[1]) : 3;
  const int only = argc > 2 ? std::atoi(argv[2]) : 0;
  const unsigned order = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 0;
  const std::string path = SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json";
  const instances::Instance inst = instances::load_instance(path);
  std::printf("t,bits,order,time,steps,cpu_s,centre,box_record,derivative,apriori,assemble,products,qr,rest,outside,width,apriori_tapes,trials\n");
  struct Case { const char* t; unsigned bits; };
  int index = 0;
  for (const Case c : {Case{"10", 53}, Case{"10", 128}, Case{"100000", 53}, Case{"100000", 128}}) {
    if (++index != only && only != 0) continue;
    integrate::RigorousIntegrateOptions ro;
    ro.precision_bits = c.bits;
    ro.order = order;
    integrate::RunRequest rq = integrate::rigorous_request(ro, c.t);
    rq.form = integrate::PlanForm::reduced_logistic;
    const integrate::RunPlan plan = integrate::plan_run(inst, rq);
    Row best;
    best.cpu = 1e300;
    for (int i = 0; i < repeat; ++i) {
      Row r;
      if (c.bits <= 53) {
        r = run_case<IntervalD>(inst, c.t, plan);
      } else {
        num::PrecisionGuard guard(c.bits);
        r = run_case<IntervalMp>(inst, c.t, plan);
      }
      if (r.cpu < best.cpu) best = r;
    }
    const StepProfile& p = best.prof;
    const double k = 1e3 / static_cast<double>(std::max<std::size_t>(1, p.steps));
    std::printf("%s,%u,%u,%s,%zu,%.4g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g,%.3g\n", c.t, c.bits, plan.order,
                integrate::to_string(plan.time), best.steps, best.cpu, p.centre * k, p.box_record * k, p.derivative * k,
                p.apriori * k, p.assemble * k, p.products * k, p.qr * k, p.rest * k, (best.cpu - p.total()) * 1e3,
                best.width, static_cast<double>(p.apriori_tapes) * k / 1e3, static_cast<double>(p.trial_steps) * k / 1e3);
    std::fflush(stdout);
  }
}
