#pragma once
// The claims a certificate may carry and their check on the re-checked steps.
//
// order_preservation (varre2026.order_preservation): for every pair (i, j) with u_i(0) > u_j(0)
// and all t ∈ [0, H]: u_i(t) > u_j(t) and a_i(t) ≥ a_j(t). Shown on every step:
//   u_i − u_j > 0 over the step's Taylor range, and
//   a_i − a_j ≥ 0 over it, or a_i − a_j ≥ L ≥ 0 at the step's start and (a_i − a_j)(s) − L ≥ 0
//   through its slope form s·Q(s), Q ≥ 0 on the step.
// The steps cover every t ∈ [0, H]: t(τ) is continuous, t(0) = 0 and t ≥ H at the last step's end.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "field.hpp"
#include "step.hpp"

namespace verify {

class OrderPreservation {
 public:
  // The pairs are the header's; each pair the instance orders must be among them.
  OrderPreservation(const Field& f, const nlohmann::json& claim);
  void visit(const Step& step, const StepFacts& facts);  // throws Rejection
  // The smallest lower bound of u_i − u_j over all steps and pairs.
  const Ball& margin_lower() const { return margin_; }
  std::size_t pairs() const { return pairs_.size(); }

 private:
  slong T_;
  std::vector<std::pair<slong, slong>> pairs_;
  std::vector<Ball> a_start_;  // a lower bound of a_i − a_j at the current step's start, per pair
  Ball margin_;
};

}  // namespace verify
