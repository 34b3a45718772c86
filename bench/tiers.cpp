// Bench (not a test): the rigorous tier against the fast tier at the same precision, on the
// paper's headline instance (goal: rigorous within 3× of fast). Both in this process, both
// timed around the library call only (no start-up, no JSON: both from the parsed instance),
// best of REPEAT runs, in CPU seconds of the thread (CLOCK_THREAD_CPUTIME_ID): on the shared
// 2-core machine wall time doubled whenever another job took the core, CPU time does not.
// CSV on stdout:
//   t,bits,fast_s,fast_steps,fast_digits,rigorous_s,rigorous_steps,rigorous_width,ratio
// fast: reduced form (τ-time for t ≥ 100), default stepper and tolerance, one run (no
//   escalation); fast_digits = agreement with a 2p-bit reference run (not timed).
// rigorous: `softcert integrate --tier rigorous` defaults (order, t- or τ-time);
//   rigorous_width = max width over a and u of the enclosure at t.
// rigorous_mpfr_exp_s, steps, width, ratio: the same rigorous run with IntervalD's exp and log from MPFR's
//   directed rounding (the peer of numerics/elementary_double_bounds.hpp), alternating with the
//   default in each repeat so that both see the same load.
// Usage: tiers [--quick]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>

#include "instances/instance.hpp"
#include "integrate/fast_integrate.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "numerics/elementary_double_bounds.hpp"

using namespace softcert;

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <class F>
double best_seconds(int repeat, F f) {
  double best = 1e300;
  for (int i = 0; i < repeat; ++i) {
    const double t0 = thread_cpu_seconds();
    f();
    best = std::min(best, thread_cpu_seconds() - t0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::string path = SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json";
  const instances::Instance inst = instances::load_instance(path);
  std::printf("t,bits,fast_s,fast_steps,fast_digits,rigorous_s,rigorous_steps,rigorous_width,ratio,"
              "rigorous_mpfr_exp_s,rigorous_mpfr_exp_steps,rigorous_mpfr_exp_width,ratio_mpfr_exp\n");
  struct Case { const char* t; unsigned bits; };
  for (const Case c : {Case{"10", 53}, Case{"10", 128}, Case{"100000", 53}, Case{"100000", 128}}) {
    if (quick && c.bits > 53) continue;
    const int repeat = c.bits == 53 ? 5 : 2;
    integrate::FastOptions fo;
    fo.form = models::Form::reduced;
    fo.precision_bits = c.bits;
    fo.escalate = false;
    integrate::FastReport fast;
    const double fs = best_seconds(repeat, [&] { fast = integrate::integrate_fast(inst, c.t, fo); });
    fo.escalate = true;
    const auto checked = integrate::integrate_fast(inst, c.t, fo);
    integrate::RigorousIntegrateOptions ro;
    ro.precision_bits = c.bits;
    integrate::RigorousIntegrateResult rig, rig_mpfr;
    double rs = 1e300, rs_mpfr = 1e300;
    for (int i = 0; i < repeat; ++i) {
      rs = std::min(rs, best_seconds(1, [&] { rig = integrate::rigorous_integrate(inst, c.t, ro); }));
      num::set_elementary_from_mpfr(true);
      rs_mpfr = std::min(rs_mpfr, best_seconds(1, [&] { rig_mpfr = integrate::rigorous_integrate(inst, c.t, ro); }));
      num::set_elementary_from_mpfr(false);
    }
    std::printf("%s,%u,%.6g,%zu,%.1f,%.6g,%zu,%.3g,%.3g,%.6g,%zu,%.3g,%.3g\n", c.t, c.bits, fs, fast.run.steps,
                checked.digits.value_or(0), rs, rig.steps, rig.max_width, rs / fs, rs_mpfr, rig_mpfr.steps, rig_mpfr.max_width,
                rs_mpfr / fs);
    std::fflush(stdout);
  }
}
