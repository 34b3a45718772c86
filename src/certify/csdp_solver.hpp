#pragma once
// Proposes near-optimal primal factors and dual multipliers for a MarginProblem with CSDP
// (coinor-csdp, run as an external program on an SDPA file). Nothing it returns is trusted:
// margin_nuclear.hpp certifies both sides.
//
// SDP: min ½ tr X₁₁ + ½ tr X₂₂ s.t. X = [X₁₁ W; Wᵀ X₂₂] ⪰ 0, ⟨q_t Δ_cᵀ, W⟩ − s_c = 1, s ≥ 0;
// its optimum is min ‖W‖_* subject to the margins, and a PSD X = L Lᵀ gives the factors
// A = L[0:d], B = L[d:2d] with ½(‖A‖²+‖B‖²) = ½ tr X.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "certify/margin_nuclear.hpp"

namespace softcert::certify {

struct SolverProposal {
  Eigen::MatrixXd a, b;   // primal factors (d × r)
  std::vector<double> y;  // one multiplier per constraint (≥ 0 up to solver error)
  double primal_objective = 0, dual_objective = 0;
  std::string log;        // solver status line
};

// True when the csdp program can be found (SOFTCERT_CSDP or `csdp` on PATH).
bool csdp_available();
// Throws std::runtime_error when csdp is missing or fails.
SolverProposal solve_with_csdp(const MarginProblem& p);

}  // namespace softcert::certify
