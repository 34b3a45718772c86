// Varre, Rofin, Flammarion (2026), Thm 3.2, repulsion ("the gaps between different components widen
// over time", seed summary), in two readings of ours (docs/theorems/varre2026_repulsion.md).
//
// Hypotheses: logistic loss with softmax; a(0) uniform; u(0) distinct.
// leader:    with k = argmax u(0), every gap a_k − a_j and u_k − u_j is nondecreasing on [0, H].
// all_pairs: for every pair with u_i(0) > u_j(0), a_i − a_j and u_i − u_j are nondecreasing on [0, H].
// Decided on the validated τ-tube from the signs of the gap derivatives over each step (a
// derivative certainly negative over a step is a certified violation: the gap strictly
// decreases there).
#include "engine/registry.hpp"
#include "exact_certificate.hpp"
#include "varre2026_check.hpp"
#include "varre2026_tube_check.hpp"

namespace softcert::varre2026 {

class RepulsionCheck : public LogisticCheck {
 public:
  explicit RepulsionCheck(bool all_pairs)
      : LogisticCheck({all_pairs ? "varre2026.repulsion.all_pairs" : "varre2026.repulsion.leader",
                       "docs/theorems/varre2026_repulsion.md",
                       all_pairs
                           ? "[ours: all-pairs reading of Thm 3.2's 'gaps widen' (seed); very likely not the paper's, so a "
                             "violation refutes this reading only] Logistic loss, softmax, a(0) uniform, u(0) distinct: "
                             "for every pair with u_i(0) > u_j(0), a_i - a_j and u_i - u_j are nondecreasing on [0, H]."
                           : "[ours: leader reading of Thm 3.2's 'gaps widen' (paper, seed: 'the gaps between different components "
                             "widen over time'); a violation refutes this reading only] Logistic loss, softmax, a(0) uniform, u(0) distinct: with "
                             "k = argmax u(0), a_k - a_j and u_k - u_j are nondecreasing on [0, H] for every j != k."}),
        all_pairs_(all_pairs) {}
  // generate_logistic_instance's, then tube_settings'
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "order", "max_depth", "max_steps", "h_max"}; }
  // "Nondecreasing" is non-strict, and its margin min(g', Δ') is exactly 0 at t = 0: a(0) is
  // uniform, so Δ' = c(s_i − s_j) = 0 there. proved comes with a lower end ≥ 0, possibly 0.
  bool strict_margin() const override { return false; }
  // A claim for all t in [0, H] about the fixed leader k = argmax u(0): a violation before H is
  // one on [0, H].
  bool shorter_horizon_keeps_claim() const override { return true; }
  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const instances::Instance inst = logistic_instance(instance);
    const ExactStart start = exact_start(inst);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    bool unique = true;
    const std::size_t k = leader(start, &unique);
    if (all_pairs_) {
      pairs = ordered_pairs(start);
    } else {
      for (std::size_t j = 0; j < inst.T; ++j)
        if (j != k && start.u[k] > start.u[j]) pairs.emplace_back(k, j);
    }
    engine::CheckResult r = run_pair_claim_at(inst, pairs, PairClaim::repulsion, o);
    r.details["leader"] = k;
    r.details["leader_unique"] = unique;
    // The leader reading's certificate is the all-time one (docs/certificates.md): with u(0)
    // distinct and the leader's a(0) the largest, Lemma 1 gives the claim for every t ≥ 0, and
    // softcert-verify re-checks those exact conditions rather than the tube. The lemma backs the
    // margin 0 (the non-strict claim), so a record with a positive margin (a(0) not uniform, the
    // hypothesis dropped) gets none.
    if (!all_pairs_ && o.certificate && r.verdict == engine::Verdict::proved && !ahead_of_leader(start) &&
        ordered_pairs(start).size() == inst.T * (inst.T - 1) / 2 && r.margin.lower_sign() == 0)
      r.certificate = exact_certificate(name(), "leader_first", instance, r, {{"leader", k}});
    return r;
  }

 private:
  bool all_pairs_;
};

SOFTCERT_REGISTER_CHECK(RepulsionCheck, /*all_pairs=*/false);
SOFTCERT_REGISTER_CHECK(RepulsionCheck, /*all_pairs=*/true);

}  // namespace softcert::varre2026
