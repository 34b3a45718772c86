#pragma once
// Claims on the attention α(a(H)) at t = H, each with its margin, which must be positive. On the
// full value-softmax model (value_softmax_tau):
//   polarized_at_horizon  (varre2026.normalization.polarizes): α within ε (max-norm) of a one-hot
//                         vertex, margin ε − min_k max(|α_k − 1|, max_{j≠k} |α_j|);
//   spread_at_horizon     (varre2026.normalization.spread): no token carries 1 − ε of the
//                         magnitude, margin (1 − ε) − max_i |α_i| / Σ_i |α_i|;
//   open_gates_at_horizon (varre2026.normalization.open_gates): every token with u_i(0) =
//                         (V(0)ᵀβ*)_i > 0 keeps its weight, margin min_i α_i(H) − α_i(0) (the
//                         tokens and α(0) computed here from the instance).
// On the reduced logistic model (logistic_reduced_tau, softmax):
//   max_attention_at_horizon (varre2026.one_hot.finite): some token carries more than 1 − ε,
//                         margin max_k σ_k − (1 − ε) (the check's claim is ≥; a certificate
//                         shows >).
// The steps cover t = H: t(τ) increases from t(0) = 0 (dt/dτ = 1 + e^m ≥ 1) and the last box has
// t ≥ H, so t = H is passed in a step whose Taylor range of t contains H. On every such step the
// claim is shown over the step's whole Taylor range of a: α from the range's balls, by the
// model's own normalization.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "field.hpp"
#include "step.hpp"

namespace verify {

// α(a) over the balls a, by the field's normalization (pairwise softmax; σ for sigmoid; f(a)/Σf).
std::vector<Ball> attention(const Field& f, const std::vector<Ball>& a);
// The max-norm distance of α to the nearest one-hot vertex: min_k max(|α_k − 1|, max_{j≠k} |α_j|).
Ball vertex_distance(const std::vector<Ball>& alpha);

class AttentionAtHorizon {
 public:
  // Throws Rejection for a claim kind that is not the check's, or an ε outside (0, 1).
  AttentionAtHorizon(const Field& f, const nlohmann::json& claim, const std::string& check, const Ball& horizon);
  void visit(const Step& step, const StepFacts& facts);  // throws Rejection
  // The smallest lower bound of the margin over the steps that may hold t = H (+∞ when none).
  const Ball& margin_lower() const { return margin_; }
  std::size_t steps_at_horizon() const { return at_horizon_; }
  const std::string& kind() const { return kind_; }

 private:
  Ball margin(const std::vector<Ball>& alpha) const;
  const Field& f_;
  std::string kind_;
  Ball eps_, H_, margin_;
  std::vector<slong> open_;       // open_gates: the tokens with u_i(0) > 0
  std::vector<Ball> alpha0_;      // open_gates: α(a(0))
  std::size_t at_horizon_ = 0;
};

}  // namespace verify
