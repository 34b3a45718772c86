#pragma once
// The claims a certificate may carry and their check on the re-checked steps.
//
// order_preservation (varre2026.order_preservation): for every pair (i, j) with u_i(0) > u_j(0)
// and all t ∈ [0, H]: u_i(t) > u_j(t) and a_i(t) ≥ a_j(t). Shown on every step:
//   u_i − u_j > 0 over the step's Taylor range, and
//   a_i − a_j ≥ 0 over it, or a_i − a_j ≥ L ≥ 0 at the step's start and (a_i − a_j)(s) − L ≥ 0
//   through its slope form s·Q(s), Q ≥ 0 on the step.
// The steps cover every t ∈ [0, H]: t(τ) is continuous, t(0) = 0 and t ≥ H at the last step's end.
//
// region_entry (varre2026.one_hot.eventual, .massive_values, .attention_sink and its readings):
// the solution is in R_k = {a_k > a_j and u_k > u_j for all j ≠ k} at the end of the last step
// (region_at_start: at t = 0, a certificate with no steps). The region lemma
// (docs/theorems/varre2026_region_lemma.md) turns that into σ(a) → e_k and the massive-value
// split; the verifier trusts that lemma as a paper proof and checks the entry. Which k the claim
// needs is the check's, not the certificate's: argmax u(0) for .attention_sink and .argmax_u0,
// argmax a(0) for .argmax_a0 and .values_at_zero, both for .agreeing, any k for the others.
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

class RegionEntry {
 public:
  // Throws Rejection unless the check is one of the region-entry checks above and the winner is
  // the token it names (a strict argmax of the instance's u(0) or a(0), certainly).
  RegionEntry(const Field& f, const nlohmann::json& claim, const std::string& check);
  // The smallest gap a_k − a_j, u_k − u_j (j ≠ k) at the initial state, resp. at the end of a
  // checked step; throws Rejection naming the gap that is not certainly positive.
  Ball at_start(const Field& f) const;
  Ball at_end(const StepFacts& facts, const std::string& step) const;
  slong winner() const { return k_; }

 private:
  template <class Gap>
  Ball least_gap(Gap gap, const std::string& where, const std::string& after) const;
  slong T_, k_;
};

}  // namespace verify
