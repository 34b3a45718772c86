#pragma once
// attended_column_at_horizon (varre2026.tied.attended_column_grows, model tied_value_softmax_tau):
// at t = H the claim's token k is the unique argmax of α = softmax(U a), and its column of U has
// grown, ‖U e_k(H)‖ > ‖U e_k(0)‖ (Euclidean; ‖U e_k(0)‖ from the instance's exact U(0)). Margin
// ‖U e_k(H)‖ − ‖U e_k(0)‖. As for the claims of attention_at_horizon.hpp, t = H is passed in a
// step whose Taylor range of t contains H; on every such step α_k − α_j (j ≠ k) and the margin
// are shown positive over the step's ranges of U and a, each component's range taken on its own.
// attended_column_monotone (….monotone): the same k at t = H, and d/dτ ‖U e_k‖² =
// 2 Σ_i U_ik f_{U,ik} > 0 on every step (over the step's ranges, f the tied τ-field: dt/dτ > 0,
// so t ↦ ‖U e_k(t)‖ increases on [0, H]). Margin: the least lower bound of that rate.
#include <string>

#include <nlohmann/json.hpp>

#include "field.hpp"
#include "step.hpp"

namespace verify {

class AttendedColumn {
 public:
  // Throws Rejection for another check, claim or model, or a k that is not a token.
  AttendedColumn(const Field& f, const nlohmann::json& claim, const std::string& check, const Ball& horizon);
  void visit(const Step& step, const StepFacts& facts);  // throws Rejection
  // The smallest lower bound of the margin over the steps that may hold t = H (+∞ when none).
  const Ball& margin_lower() const { return margin_; }
  std::size_t steps_at_horizon() const { return at_horizon_; }
  const std::string& kind() const { return kind_; }  // the claim as printed, with its k

 private:
  const Field& f_;
  slong k_ = 0;
  bool monotone_ = false;
  std::string kind_;
  Ball H_, norm0_, margin_;
  std::size_t at_horizon_ = 0;
};

}  // namespace verify
