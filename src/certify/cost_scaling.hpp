#pragma once
// Certified pattern costs for one embedding configuration (the engine of
// sukenik2026.cost_scaling; docs/theorems/sukenik2026_cost_scaling.md).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/margin_nuclear.hpp"
#include "certify/rational_linear.hpp"

namespace softcert::certify {

// One problem size: T tokens after the sink, embeddings x_0..x_T ∈ R^d (keys; queries are
// x_1..x_T). Orthonormal: x_s = e_s, d = T+1 (no matrix stored).
struct CostCase {
  std::size_t T = 0, d = 0;
  bool orthonormal = true;
  IMatrix x;  // (T+1) × d enclosures of the instance's decimals (gaussian only)
  RMat x_exact;  // the same, exactly (gaussian only)
};

MarginProblem make_problem(const CostCase& c, Pattern p);

struct PatternCost {
  Bracket bracket;       // γ = τ = 1, certified
  std::string proposal;  // where the candidate certificates came from
  std::string note;      // solver status or failure
  double seconds = 0;
  // Infeasible pattern (cost +∞), certified by Farkas: y ≥ 0, Σy = 1, Σ_c y_c q_t Δ_cᵀ = 0
  // exactly (then Σ_c y_c · margin_c(W) = 0 < 1 for every W). Only tried when the proposal
  // certifies no upper bound and exact data are present.
  bool infeasible = false;
  RVec farkas_y;
  // What the certified ends rest on (the exact certificate writes them): the factors behind
  // bracket.upper, the multipliers (clipped at 0) and μ ≥ ‖Z‖₂ behind bracket.lower.
  Eigen::MatrixXd a, b;
  std::vector<double> y;
  double z_norm = 0;
};

// Guarantee: true iff y certifies infeasibility of pattern p for case c (exact check).
bool verify_pattern_infeasible(const CostCase& c, Pattern p, const RVec& y);

// Proposals: "closed-form" (orthonormal only) or "csdp"; the bracket is certified either way.
PatternCost certify_pattern_cost(const CostCase& c, Pattern p, const std::string& proposal);

// Exact unfactorised cost min ‖W‖²_F for orthonormal embeddings, with γ = τ = 1: a primal M and
// dual multipliers, both exact rationals, whose values coincide. nullopt if the exact
// verification fails (never expected). Same for both patterns.
std::optional<Rational> certified_frobenius_cost(std::size_t T, Pattern p);

}  // namespace softcert::certify
