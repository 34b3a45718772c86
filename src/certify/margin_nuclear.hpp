#pragma once
// The minimum factorised cost of an attention pattern (Súkeník et al. 2026, reconstruction;
// docs/theorems/sukenik2026_cost_scaling.md):
//
//   cost = min ½(‖W_Q‖²_F + ‖W_K‖²_F)  s.t.  q_tᵀ W_Q W_Kᵀ (k_{a} − k_{b}) ≥ 1  for each
//          constraint (t, a, b) of the pattern            ( = min ‖W‖_* over W = W_Q W_Kᵀ)
//
// with queries q_1..q_T, keys k_0..k_T in R^d (margin γ = 1 and score scale τ = 1: the cost for
// γ, τ is γτ times this one, since the feasible set scales). A certified bracket:
//   upper  any factor pair (A, B): with m = min_c q_tᵀ A Bᵀ Δ_c > 0 (interval), the pair
//          (A, B)/√m is feasible, so cost ≤ ½(‖A‖² + ‖B‖²)/m.
//   lower  any multipliers y ≥ 0: Z = Σ_c y_c q_t Δ_cᵀ gives, for every feasible W,
//          Σ_c y_c ≤ ⟨W, Z⟩ ≤ ‖W‖_* ‖Z‖₂, so cost ≥ Σ_c y_c / ‖Z‖₂ (‖Z‖₂ bounded above by
//          operator_norm.hpp).
// Both are evaluated in interval arithmetic (IntervalD, outward rounding) from the exact
// instance data; the solver that proposed (A, B, y) is not trusted.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "certify/operator_norm.hpp"

namespace softcert::certify {

struct PatternConstraint {
  std::size_t t, a, b;  // query t ∈ 1..T (row t−1 of queries), keys a (preferred), b
};

struct MarginProblem {
  IMatrix queries;  // T × d, rows q_1..q_T (enclosures of the instance's numbers)
  IMatrix keys;     // (T+1) × d, rows k_0..k_T
  std::vector<PatternConstraint> constraints;
  bool orthonormal = false;  // queries = e_1..e_T, keys = e_0..e_T in d = T+1 (fast paths)
};

enum class Pattern { sink, diagonal };
const char* to_string(Pattern p);
// sink: (t, 0, s) for 1 ≤ s ≤ t ≤ T;  diagonal: (t, t, s) for 0 ≤ s < t ≤ T.
std::vector<PatternConstraint> pattern_constraints(Pattern p, std::size_t T);

// Orthonormal embeddings: q_t = e_t, k_s = e_s in R^{T+1}.
MarginProblem orthonormal_problem(Pattern p, std::size_t T);

struct Bracket {
  double lower = 0, upper = INFINITY;  // certified: lower ≤ cost ≤ upper (rounded outward)
  bool lower_ok = false, upper_ok = false;
  double relative_gap() const { return (upper - lower) / upper; }
};

// Guarantee: cost ≤ result (or nullopt when the factors give no positive margin).
std::optional<double> certified_upper(const MarginProblem& p, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
// Guarantee: cost ≥ result (multipliers clipped at 0 first; nullopt when ‖Z‖ fails to certify).
// z_norm, when given, receives the certified μ ≥ ‖Z‖₂ the bound divides by.
std::optional<double> certified_lower(const MarginProblem& p, const std::vector<double>& y, double* z_norm = nullptr);

}  // namespace softcert::certify
