#pragma once
// What the rate lemmas of docs/theorems/varre2026_region_lemma.md (Lemmas 4 and 5) read off an
// enclosure of the state at t₀: the region R_k it certainly lies in, the certified gaps
// δ_j ≥ d_j, Δ_j ≥ D_j, the upper end U of u_k, the winner's weight s₀ ≤ s_k and the upper end of
// the loss — each rounded the way that only weakens the lemma's bound, so the bound stays a bound.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/check.hpp"
#include "instances/instance.hpp"
#include "integrate/flow.hpp"
#include "numerics/decimal.hpp"
#include "numerics/elementary.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/kinds.hpp"
#include "varre2026_common.hpp"

namespace softcert::varre2026 {

// c = ‖β*‖², enclosed from the instance's decimals.
inline IntervalD beta_norm_sq(const instances::Instance& inst) {
  IntervalD c(0);
  for (const auto& b : inst.beta) c = c + num::sqr(num::parse_decimal<IntervalD>(b));
  return c;
}

// What both rate checks run: a logistic instance in the rigorous tier to H > 1 (default 10⁵),
// with the region read at t₀ = params.from ∈ (0, H) (default H/10); refused otherwise.
struct RateRun {
  instances::Instance inst;
  double H = 0, from = 0;
  flow::Request request;
};

inline RateRun rate_run(const nlohmann::json& instance, const engine::CheckOptions& o) {
  if (o.tier != engine::Tier::rigorous)
    throw std::invalid_argument("tier: this check needs a rigorous enclosure; use --tier rigorous");
  RateRun run;
  run.inst = logistic_instance(instance);
  run.H = horizon_param(o, 1e5, "1e12");
  if (!(run.H > 1)) throw std::invalid_argument("horizon: must be > 1");
  run.from = number_param(o.params, "from", run.H / 10);
  if (!(run.from > 0 && run.from < run.H)) throw std::invalid_argument("params.from: must be in (0, H)");
  run.request.precision_bits = o.precision_bits == 0 ? 53 : o.precision_bits;
  return run;
}

struct RegionState {
  std::size_t k = 0;           // the leader: the state is certainly in R_k
  std::vector<Rational> d, D;  // certified lower ends of δ_j = a_k − a_j, Δ_j = u_k − u_j (j ≠ k; 0 at k)
  IntervalD U;                 // a double ≥ u_k(t₀), as a point interval
  IntervalD s0;                // a double ≤ 1/(1 + Σ_{j≠k} e^{−d_j}) ≤ s_k(t), every t ≥ t₀ (Lemma 1)
  // An enclosure of c = ‖β*‖². Not rounded to one end: c is the flow's constant, not a
  // certified bound the lemmas may weaken, and the bounds are not monotone in it (log(1 + cy)/c
  // falls as c grows), so the bounds are evaluated over the whole enclosure.
  IntervalD c;
  double loss_upper = 0;       // a double ≥ the loss at t₀
};

// The region state at t₀, or the reason it is not certified (std::nullopt and `why` set).
inline std::optional<RegionState> certified_region_state(const instances::Instance& inst,
                                                         const flow::StateEnclosure& at0, std::string& why) {
  RegionState st;
  const std::size_t T = inst.T;
  for (std::size_t i = 1; i < T; ++i)
    if (at0.a[i].value.lower_rational() > at0.a[st.k].value.lower_rational()) st.k = i;
  st.d.assign(T, Rational(0));
  st.D.assign(T, Rational(0));
  IntervalD tail_sum(0);  // Σ_{j≠k} e^{−d_j}, enclosed
  for (std::size_t j = 0; j < T; ++j) {
    if (j == st.k) continue;
    st.d[j] = at0.a[st.k].value.lower_rational() - at0.a[j].value.upper_rational();
    st.D[j] = at0.u[st.k].value.lower_rational() - at0.u[j].value.upper_rational();
    if (st.d[j] <= 0 || st.D[j] <= 0) {
      why = "the state at t0 is not certainly in R_" + std::to_string(st.k) + " (token " + std::to_string(j) + ")";
      return std::nullopt;
    }
    tail_sum = tail_sum + num::interval_exp(-IntervalD(num::outward_double(st.d[j], false)));
  }
  const IntervalD s0 = IntervalD(1) / (IntervalD(1) + tail_sum);
  st.s0 = IntervalD(s0.lower(), s0.lower());
  st.c = beta_norm_sq(inst);
  const double u_hi = num::outward_double(at0.u[st.k].value.upper_rational(), true);
  st.U = IntervalD(u_hi, u_hi);
  st.loss_upper = num::outward_double(at0.loss.value.upper_rational(), true);
  return st;
}

}  // namespace softcert::varre2026
