#pragma once
// The tied model's check (varre2026_tied.cpp): its settings, the column norms and their rates,
// and its fast tier: 53- and 106-bit runs under the engine's rule (engine/verdict_policy.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "instances/instance.hpp"
#include "integrate/flow.hpp"
#include "models/tied_value_softmax.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "varre2026_common.hpp"

namespace softcert::varre2026 {

struct TiedSettings {
  double horizon = 500;  // the authors' t = 0.05 × 10⁴ [code, cell 8]
  bool tau_time = true;  // rigorous tier: τ-time (dτ = γ dt), or t-time with params.time = "t"
  unsigned order = 0;  // 0: integrate::default_full_state_order (30 over double intervals)
  std::size_t max_steps = 200000;
  std::size_t grid = 2000;  // fast tier, monotone: sample times
};

inline TiedSettings tied_settings(const engine::CheckOptions& o) {
  TiedSettings s;
  s.horizon = horizon_param(o, s.horizon, "1e7");
  s.order = taylor_order_param(o.params, s.order);
  s.max_steps = max_steps_param(o.params, s.max_steps);
  s.grid = static_cast<std::size_t>(number_param(o.params, "grid", static_cast<double>(s.grid)));
  // "auto": τ, the plan's choice for the tied model's rigorous full state (integrate/run_plan.hpp).
  s.tau_time = flow::parse_plan_time(word_param(o.params, "time"), "params.time").value_or(integrate::PlanTime::tau) ==
               integrate::PlanTime::tau;
  if (s.grid < 2 || s.grid > 1000000) throw std::invalid_argument("params.grid: must be in [2, 1e6]");
  return s;
}

// ‖U e_j‖² and its time derivative 2 Σ_i U_ij U̇_ij for every column j of a state (box).
template <class X>
void column_norms_and_rates(const models::TiedValueSoftmax<X>& m, const std::vector<X>& x, std::vector<X>& norm2,
                            std::vector<X>& rate) {
  const std::size_t D = m.dim();
  std::vector<X> dx;
  m.rhs(x, dx);
  norm2.assign(D, X(0));
  rate.assign(D, X(0));
  for (std::size_t j = 0; j < D; ++j) {
    norm2[j] = m.column_norm_squared(x, j);
    for (std::size_t i = 0; i < D; ++i) rate[j] = rate[j] + X(2) * x[i * D + j] * dx[i * D + j];
  }
}

// The fast tier's margin from one run: with k the unique argmax of α(H) in the 2p-bit run (the
// same column for both runs), ‖U e_k(H)‖ − ‖U e_k(0)‖, or (monotone) the smallest sampled
// d/dt ‖U e_k‖². Sample times: t = 0, then (monotone) a grid uniform in log(1 + t) up to H.
inline std::vector<double> tied_fast_times(const TiedSettings& set, bool monotone) {
  std::vector<double> times{0.0};
  if (monotone)
    for (std::size_t i = 1; i < set.grid; ++i)
      times.push_back(std::expm1(std::log1p(set.horizon) * static_cast<double>(i) / static_cast<double>(set.grid - 1)));
  else
    times.push_back(set.horizon);
  times.back() = set.horizon;
  return times;
}

template <class K>
double tied_fast_margin(const models::TiedValueSoftmax<K>& model, const flow::Samples<K>& s, std::size_t k,
                   bool monotone) {
  using std::sqrt;
  if (!monotone)
    return static_cast<double>(K(sqrt(model.column_norm_squared(s.states.back(), k)) -
                                 sqrt(model.column_norm_squared(s.states.front(), k))));
  double margin = INFINITY;
  for (const auto& x : s.states) {
    std::vector<K> n2, rate;
    column_norms_and_rates(model, x, n2, rate);
    margin = std::min(margin, static_cast<double>(rate[k]));
  }
  return margin;
}

// Two runs under the engine's rule: 53 bits (dopri5, tolerance 1e-11) and 106 bits (MPFR,
// rkf78, tolerance 1e-16). The 106-bit run is most of the cost (docs/theorems/varre2026_tied.md).
inline engine::CheckResult fast_tied(const instances::Instance& inst, const TiedSettings& set, bool monotone,
                                     const std::function<engine::CheckResult()>& recertify) {
  const std::vector<double> times = tied_fast_times(set, monotone);
  engine::FastRun lo{NAN, 53, ""}, hi{NAN, 106, ""};
  std::size_t k = 0;
  double column_norm_H = NAN;
  try {
    const models::TiedValueSoftmax<double> model(inst);
    const auto run = flow::samples_at(model, times, {1e-11, false, set.max_steps});
    num::PrecisionGuard guard(106);
    const models::TiedValueSoftmax<MpReal> model_mp(inst);
    const auto ref = flow::samples_at(model_mp, times, {1e-16, true, set.max_steps});
    const std::vector<MpReal> alpha = model_mp.attention(ref.states.back());
    k = static_cast<std::size_t>(std::max_element(alpha.begin(), alpha.end()) - alpha.begin());
    if (std::count(alpha.begin(), alpha.end(), alpha[k]) != 1) {
      lo.failure = "argmax alpha(H) is not unique in the 106-bit run";
    } else {
      lo.margin = tied_fast_margin(model, run, k, monotone);
      hi.margin = tied_fast_margin(model_mp, ref, k, monotone);
      column_norm_H = static_cast<double>(MpReal(sqrt(model_mp.column_norm_squared(ref.states.back(), k))));
    }
  } catch (const std::runtime_error& e) {
    lo.failure = e.what();
  }
  const std::string what = monotone ? "the sampled d/dt ||U e_k||^2 (" + std::to_string(times.size()) + " times)"
                                    : "||U e_k(H)|| - ||U e_k(0)||";
  engine::CheckResult r = engine::decide_fast(lo, hi, "k = " + std::to_string(k) + ", " + what + " > 0", what,
                                              recertify);
  if (r.verdict != engine::Verdict::violated) {
    r.horizon = set.horizon;
    r.details["k"] = k;
    r.details["column_norm_H"] = column_norm_H;
    r.details["samples"] = times.size();
  }
  return r;
}

}  // namespace softcert::varre2026
