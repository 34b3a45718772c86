#pragma once
// polarized_at_horizon (varre2026.normalization.polarizes) on the full value-softmax model: at
// t = H, α(a(H)) lies within ε (max-norm) of a one-hot vertex e_k. The steps cover t = H: t(τ)
// increases from t(0) = 0 (dt/dτ = 1 + e^m ≥ 1) and the last box has t ≥ H, so t = H is passed
// in a step whose Taylor range of t contains H. On every such step the claim is shown over the
// step's whole Taylor range of a: α from the range's balls, by the model's own normalization,
// and ε − min_k max(|α_k − 1|, max_{j≠k} |α_j|) > 0.
#include <nlohmann/json.hpp>

#include "field.hpp"
#include "step.hpp"

namespace verify {

class PolarizedAtHorizon {
 public:
  PolarizedAtHorizon(const Field& f, const nlohmann::json& claim, const Ball& horizon);
  void visit(const Step& step, const StepFacts& facts);  // throws Rejection
  // The smallest lower bound of the margin over the steps that may hold t = H (+∞ when none).
  const Ball& margin_lower() const { return margin_; }
  std::size_t steps_at_horizon() const { return at_horizon_; }
  const Ball& epsilon() const { return eps_; }

 private:
  const Field& f_;
  Ball eps_, H_, margin_;
  std::size_t at_horizon_ = 0;
};

}  // namespace verify
