// Varre, Rofin, Flammarion (2026), Thm 3.2, order preservation (docs/theorems/varre2026_order_preservation.md).
//
// Hypotheses: logistic loss with softmax; a(0) uniform (uniform-a0); u(0) = V(0)ᵀβ* with
// pairwise distinct entries (distinct-u0).
// Claim: for every pair with u_i(0) > u_j(0) and all t ∈ [0, H]: u_i(t) > u_j(t) and a_i(t) ≥ a_j(t).
// Decided on the validated τ-tube: every step certifies both gaps (directly, or by the sign of
// their derivatives from a certified start value); a gap certainly negative on a step is a
// certified violation.
#include "engine/registry.hpp"
#include "flow_certificate.hpp"
#include "varre2026_check.hpp"
#include "varre2026_tube_check.hpp"

namespace softcert::varre2026 {

class OrderPreservationCheck : public LogisticCheck {
 public:
  OrderPreservationCheck()
      : LogisticCheck({"varre2026.order_preservation", "docs/theorems/varre2026_order_preservation.md",
                       "[paper, Thm 3.2: seed 'preserves the order of the scores a and of the projected values u'; a(0) = 0 as in "
                       "the authors' code, cell 3; pairwise form ours] Logistic loss, softmax, a(0) uniform, u(0) = V(0)^T beta* "
                       "distinct: for every pair with u_i(0) > u_j(0) and all t in [0, H], u_i(t) > u_j(t) and a_i(t) >= a_j(t)."}) {}
  // generate_logistic_instance's, then tube_settings'
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "order", "max_depth", "max_steps", "h_max"}; }
  // A claim for all t in [0, H]: a violation before H is one on [0, H].
  bool shorter_horizon_keeps_claim() const override { return true; }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const instances::Instance inst = logistic_instance(instance);
    const ExactStart start = exact_start(inst);
    engine::CheckResult r = run_pair_claim_at(inst, ordered_pairs(start), PairClaim::order, o);
    r.details["uniform_a0"] = uniform(start.a);
    if (!r.certificate.empty()) {
      // The header binds the steps to this check, instance, claim, horizon and margin (docs/certificates.md).
      nlohmann::json pairs = nlohmann::json::array();
      for (const auto& [i, j] : ordered_pairs(start)) pairs.push_back({i, j});
      r.certificate = flow_certificate(name(), "logistic_reduced_tau", instance, r,
                                       {{"kind", "order_preservation"}, {"pairs", pairs}}, r.certificate);
    }
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(OrderPreservationCheck);

}  // namespace softcert::varre2026
