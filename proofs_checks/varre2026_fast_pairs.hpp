#pragma once
// The fast tier of the pair-gap checks (order preservation, repulsion): integrate the reduced
// τ-time flow with a controlled Odeint stepper, and after every accepted step (and at 4 Hermite
// points inside it) evaluate the claim's margin quantity for every pair:
//   order      Δ = u_i − u_j and g = a_i − a_j (g starts at 0 under uniform a(0), so g is only
//              held to g ≥ −δ, δ = 1e-9·(1 + |a|∞)); the reported margin is min Δ
//   repulsion  g' and Δ' from the vector field, held to ≥ −δ (Δ' = c(s_i − s_j) is exactly 0
//              at t = 0 under uniform a(0)); the margin is min(g', Δ')
// No guarantee: sampling can miss a sign change between samples. The engine's rule applies
// (engine::decide_fast) to the δ-tolerant margin min(quantity + δ) of the 53- and the 106-bit
// run; a violation seen by both is handed to the rigorous tube walk, and only its certificate
// makes the verdict violated.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "models/logistic_reduced.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "varre2026_pair_certifier.hpp"

namespace softcert::varre2026 {

struct FastPairScan {
  double margin = std::numeric_limits<double>::infinity();  // min of the margin quantity seen
  // The margin under the engine's rule, min over samples: order — min(Δ, the a-gaps below −δ);
  // repulsion — min(g', Δ') with values in [−δ, 0) read as 0 (sampling noise at the boundary of a
  // non-strict claim). Negative exactly when some sample breaks the claim beyond δ.
  double tolerant_margin = std::numeric_limits<double>::infinity();
  bool violated = false;        // some sample certainly (beyond δ) broke the claim
  double t_violation = 0;       // t of the first such sample
  std::size_t i = 0, j = 0;     // its pair
  std::size_t steps = 0;
  std::string failure;          // non-empty: the run did not reach t = H
};

template <class K>
FastPairScan scan_pairs(const instances::Instance& inst, const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                        PairClaim claim, double H, const flow::SampleRequest& request) {
  using std::abs;
  const auto model = models::LogisticReducedTau<K>::from_instance(inst);
  const std::size_t T = model.tokens(), ti = model.time_index();
  FastPairScan out;
  auto examine = [&](const std::vector<K>& y, const std::vector<K>& fy) {
    K amax(0);
    for (std::size_t k = 0; k < T; ++k) amax = std::max<K>(amax, K(abs(y[k])));
    const double delta = 1e-9 * (1.0 + static_cast<double>(amax));
    for (const auto& [i, j] : pairs) {
      double m, worst, tolerant;
      if (claim == PairClaim::order) {
        const double du = static_cast<double>(K(y[T + i] - y[T + j])), ga = static_cast<double>(K(y[i] - y[j]));
        m = du;
        worst = std::min(du, ga + delta);
        tolerant = ga < -delta ? std::min(du, ga) : du;
      } else {
        const double gp = static_cast<double>(K(fy[i] - fy[j])), dp = static_cast<double>(K(fy[T + i] - fy[T + j]));
        m = std::min(gp, dp);
        worst = m + delta;
        tolerant = m < -delta ? m : std::max(m, 0.0);
      }
      out.margin = std::min(out.margin, m);
      out.tolerant_margin = std::min(out.tolerant_margin, tolerant);
      if (worst < 0 && !out.violated) {
        out.violated = true;
        out.t_violation = static_cast<double>(y[ti]);
        out.i = i;
        out.j = j;
      }
    }
  };
  // Steps at most 0.25 in τ keep the sampling informative on long, slow stretches.
  const flow::DenseRun run = flow::dense_samples_until_time(model, H, request, 0.25, examine);
  out.steps = run.steps;
  out.failure = run.failure;
  return out;
}

// Runs both precisions under the engine's rule (engine::decide_fast) with the margin
// min over samples of (the margin quantity + δ): positive exactly when no sample breaks the claim
// beyond δ. `rigorous` is the tube walk, called only when both runs see a violation.
template <class Rigorous>
engine::CheckResult run_pair_claim_fast(const instances::Instance& inst,
                                        const std::vector<std::pair<std::size_t, std::size_t>>& pairs, PairClaim claim,
                                        double H, Rigorous&& rigorous) {
  constexpr std::size_t kMaxSteps = 2000000;
  if (pairs.empty()) {
    // The claim is vacuous: both margins are +inf (no pair to examine); nothing to integrate.
    engine::CheckResult r = engine::decide_fast({INFINITY, 53, ""}, {INFINITY, 106, ""},
                                                "no ordered pairs: the claim is vacuous", "", nullptr);
    r.horizon = H;
    r.details["pairs"] = 0;
    return r;
  }
  const FastPairScan lo = scan_pairs<double>(inst, pairs, claim, H, {1e-12, false, kMaxSteps});
  FastPairScan hi;
  {
    num::PrecisionGuard guard(106);
    hi = scan_pairs<MpReal>(inst, pairs, claim, H, {1e-24, true, kMaxSteps});
  }
  const engine::FastRun p{lo.tolerant_margin, 53, lo.failure}, p2{hi.tolerant_margin, 106, hi.failure};
  const std::string where = lo.violated ? " (first seen: pair (" + std::to_string(lo.i) + ", " + std::to_string(lo.j) +
                                              ") near t = " + std::to_string(lo.t_violation) + ")"
                                        : "";
  engine::CheckResult r = engine::decide_fast(p, p2, "the claim holds at every sample on [0, H]",
                                              "the sampled margin" + where, std::forward<Rigorous>(rigorous),
                                              /*strict=*/claim == PairClaim::order);
  if (r.verdict == engine::Verdict::violated) return r;
  r.horizon = H;
  r.details["steps"] = lo.steps;
  r.details["pairs"] = pairs.size();
  return r;
}

}  // namespace softcert::varre2026
