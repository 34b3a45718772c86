#pragma once
// Certified brackets of the minimal cost of a soft attention pattern (our reading of Súkeník
// et al. 2026; docs/theorems/sukenik2026_soft_attention.md):
//
//   cost = min ‖W‖ (nuclear or Frobenius) s.t. for every query t = 1..T the causal softmax
//          of the scores x_tᵀ W x_s (s = 0..t) puts mass ≥ 1 − ε on a_t
//          (a_t = 0: sink; a_t = t: diagonal; with triggers, a_t = t − 1 at a trigger: soft_target),
//   i.e. Σ_{s≠a_t} exp(−x_tᵀ W (x_{a_t} − x_s)) ≤ ε/(1−ε).
//
// upper  a candidate W (Frobenius) or factors A, B with W = ABᵀ (nuclear, ‖ABᵀ‖_* ≤
//        ½(‖A‖²_F + ‖B‖²_F)) whose constraints hold in interval arithmetic on the instance's
//        enclosures: cost ≤ ‖W‖_F resp. ½(‖A‖² + ‖B‖²), rounded up.
// lower  any multipliers u_ts ≥ 0, y_t = Σ_s u_ts: log-sum-exp ≥ any average plus its entropy,
//        so every feasible W has Σ_s u_ts x_tᵀW(x_a − x_s) ≥ y_t θ − Σ_s u_ts log(u_ts / y_t)
//        (θ = log((1−ε)/ε)); summing, ⟨W, Z⟩ ≥ N with Z = Σ u_ts x_t(x_a − x_s)ᵀ, hence
//        cost ≥ N / ‖Z‖_dual (operator norm for the nuclear cost, Frobenius for Frobenius),
//        rounded down; 0 when N is not certainly positive.
// Hard margins bracket it too (tests): every margin ≥ θ is necessary and margins ≥ log(t(1−ε)/ε)
// suffice, so θ·M ≤ cost ≤ log(T(1−ε)/ε)·M with M the cost of unit hard margins.
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "certify/margin_nuclear.hpp"
#include "certify/soft_pattern_solver.hpp"
#include "numerics/kinds.hpp"

namespace softcert::certify {

struct SoftProblem {
  std::size_t T = 0;
  IMatrix x;          // (≥ T+1) × d enclosures of x_0..x_T
  Pattern pattern = Pattern::sink;
  IntervalD epsilon;  // an enclosure of ε ∈ (0, 1/2)
  // > 0: the bigram-backcopy task, every k-th query a trigger that attends to its previous token
  // and the others dormant under `pattern` (certify::soft_target).
  std::size_t trigger_period = 0;
};

// Guarantee: true only if W (every matrix in the interval matrix w) satisfies every constraint.
bool soft_feasible(const SoftProblem& p, const IMatrix& w);

// Guarantee: cost_frobenius ≤ result (nullopt when w is not certainly feasible).
std::optional<double> soft_upper_frobenius(const SoftProblem& p, const Eigen::MatrixXd& w);
// Guarantee: cost_nuclear ≤ result (nullopt when A Bᵀ is not certainly feasible).
std::optional<double> soft_upper_nuclear(const SoftProblem& p, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
// Guarantee: cost ≥ result ≥ 0 for the given norm (u[t−1][k] over soft_others(pattern, t);
// negative or non-finite entries count as 0). nullopt when a dual norm fails to certify.
std::optional<double> soft_lower(const SoftProblem& p, const std::vector<std::vector<double>>& u, CostNorm norm);

struct SoftBracket {
  double lower = 0, upper = INFINITY;  // certified, outward
  bool upper_ok = false;               // a feasible point certified
  std::string note;
};

// Proposals (soft_pattern_solver.hpp) from the midpoints of p.x, certified: every iterate is
// tried, scaled up by 1 + κ (κ = 0, 1e-12, …, 1e-6) until certainly feasible; the bracket is the
// best certified pair.
SoftBracket certify_soft_cost(const SoftProblem& p, CostNorm norm);

}  // namespace softcert::certify
