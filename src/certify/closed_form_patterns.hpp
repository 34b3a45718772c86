#pragma once
// Closed-form optimal certificates for orthonormal embeddings (q_t = e_t, k_s = e_s, γ = τ = 1),
// derived in docs/theorems/sukenik2026_cost_scaling.md and used only as *proposals*: the
// bracket they give is certified by margin_nuclear.hpp exactly like a solver's.
//
//   sink      M = 𝟙 bᵀ, b = (T, −1, …, −1)/(T+1)          ‖M‖_* = T/√(T+1)
//             Z = [𝟙 | −I]/√(T+1)  (y_tt = 1/√(T+1))      ‖Z‖₂ = 1, Σy = T/√(T+1)
//   diagonal  row t of M: −1/(t+1) for s < t, t/(t+1) at s = t; rows orthogonal
//             ‖M‖_* = Σ_t √(t/(t+1))
//             Z = rows of M normalised (y_ts = 1/√(t(t+1)))  ‖Z‖₂ = 1, Σy = Σ_t √(t/(t+1))
#include <vector>

#include <Eigen/Dense>

#include "certify/margin_nuclear.hpp"

namespace softcert::certify {

struct ClosedFormProposal {
  Eigen::MatrixXd a, b;   // factors in R^{(T+1)×r}
  std::vector<double> y;  // multipliers in the order of pattern_constraints
};

ClosedFormProposal closed_form_proposal(Pattern p, std::size_t T);

// The closed-form costs, enclosed (IntervalD). Guarantee: contain the exact values stated above.
IntervalD sink_cost_closed_form(std::size_t T);
IntervalD diagonal_cost_closed_form(std::size_t T);
// Unfactorised cost min ‖W‖²_F (both patterns): Σ_t t/(t+1), exact.
Rational frobenius_cost_closed_form(std::size_t T);

}  // namespace softcert::certify
