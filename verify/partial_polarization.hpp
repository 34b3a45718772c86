#pragma once
// partial_polarization (varre2026.square_rank_one.partial_polarization, model
// rank_one_square_tau): square loss from V(0) = β* w₀ᵀ. In τ = ∫ρ dt, ρ = 1 − uᵀσ(a)/c, the orbit
// of (a, u) is the logistic reduced τ-orbit, and the square-loss flow's t → ∞ as τ → τ*, the
// first zero of ρ (docs/theorems/varre2026_square_rank_one.md: the verifier trusts that reduction
// as a paper proof and checks its hypotheses: loss, softmax, V(0) exactly rank one, ρ(0) > 0).
// The claim: ρ reaches 0 at a finite τ*, and σ(a(τ*)) stays farther than ε (max-norm) from every
// one-hot vertex. Shown as: ρ(0) > 0; ρ < 0 at the last step's end, so τ* lies in the steps; on
// every step where ρ over the step's Taylor range is not certainly positive (τ* can lie only
// there), min_k ‖σ(a) − e_k‖∞ − ε > 0 over the step's range of a.
#include <string>

#include <nlohmann/json.hpp>

#include "field.hpp"
#include "step.hpp"

namespace verify {

class PartialPolarization {
 public:
  // Throws Rejection for another check, an ε outside (0, 1) or ρ(0) not certainly positive.
  PartialPolarization(const Field& f, const nlohmann::json& claim, const std::string& check);
  void visit(const Step& step, const StepFacts& facts);  // throws Rejection
  // ρ at the end of the last step (its end box); throws Rejection unless certainly negative.
  void require_crossed(const Step& last) const;
  // The smallest lower bound of the margin over the steps that may hold τ* (+∞ when none).
  const Ball& margin_lower() const { return margin_; }
  std::size_t steps_at_crossing() const { return at_crossing_; }

 private:
  Ball rho(const std::vector<Ball>& a, const std::vector<Ball>& u) const;
  const Field& f_;
  Ball eps_, margin_;
  std::size_t at_crossing_ = 0;
};

}  // namespace verify
