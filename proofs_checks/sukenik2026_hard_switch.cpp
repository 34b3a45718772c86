// sukenik2026.hard_switch — a hard attention switch needs a sink [reconstruction].
//
//   Non-sink values v_1..v_T in Q^d. If they are linearly independent ["full-rank"] or lie in
//   a strict half-space w·v_j > 0 ["half-space"], there is a certified κ > 0 with
//       ‖Σ_{j≥1} p_j v_j‖ ≥ κ (1 − p_0)     for every attention vector p (p ≥ 0, Σ p = 1),
//   so the output vanishes only as the sink mass p_0 → 1.
//
// proved:   κ² > 0 certified exactly (Gram LDLᵀ for full-rank; a separator for half-space),
//           and the bound re-checked exactly on random attention vectors (incl. p_0 → 1).
// violated: neither holds, and an exact attention vector with p_0 = 1/2 outputs exactly 0.
// Margin: the sharp κ = ρ(V) (signed half-space depth of the values), enclosed.
#include "numerics/elementary.hpp"
#include "certify/hard_switch.hpp"
#include "certify/rational_json.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "engine/registry.hpp"
#include "search/shrink_candidates.hpp"
#include "sukenik2026_check.hpp"

#include <cmath>

namespace softcert::checks {
namespace {

using certify::RMat;
using certify::RVec;

class HardSwitch final : public SinkPaperCheck {
 public:
  HardSwitch()
      : SinkPaperCheck({"sukenik2026.hard_switch", "docs/theorems/sukenik2026_hard_switch.md",
                        "[ours: reconstruction of the abstract's 'equivalence between sinks and hard attention switch'; hypotheses "
                        "on the values, not the embeddings; no optimisation] If the non-sink values v_1..v_T are linearly "
                        "independent (full-rank) or lie in a "
                        "strict half-space (half-space), then ||sum_{j>=1} p_j v_j|| >= kappa (1 - p_0) for every attention "
                        "vector p, with a certified kappa > 0: the output is 0 only when all mass is on the sink."}) {}
  std::vector<std::string> hypotheses() const override { return {"full-rank", "half-space"}; }
  std::vector<std::string> params() const override { return {"d", "T", "samples"}; }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::RandomSource rng(seed, 0x4a5d);
    const bool full_rank = kept(o, "full-rank"), half_space = kept(o, "half-space");
    const long d = support::param_pick(o.params, "d", 2, 5, 1, 64, rng);
    // full-rank needs T ≤ d; with both dropped, T > d + 1 makes 0 ∈ conv V likely.
    const long t_lo = full_rank ? 1 : (half_space ? 2 : d + 1), t_hi = full_rank ? d : d + 4;
    const long t = support::param_pick(o.params, "T", std::max(1L, t_lo), std::max(t_lo, t_hi), 1, 256, rng);
    const std::vector<double> w = random_unit_vector(rng, d);
    nlohmann::json in;
    in["check"] = name();
    in["d"] = std::to_string(d);
    in["T"] = std::to_string(t);
    in["values"] = nlohmann::json::array();
    for (long j = 0; j < t; ++j) in["values"].push_back(decimal_row(normals_in_half_space(rng, w, half_space)));
    in["provenance"] = provenance(seed, o);
    return in;
  }

  // Both hypotheses decided exactly: the rank by elimination over Q, the half-space by a
  // verified separator or a verified convex combination of 0.
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    const long d = support::require_int(instance, "d", 1, 64);
    const long t = support::require_int(instance, "T", 1, 256);
    const RMat values = certify::require_rmat(instance, "values", static_cast<std::size_t>(t), static_cast<std::size_t>(d));
    std::map<std::string, bool> out;
    out["full-rank"] = certify::rank_exact(values) == values.size();
    if (const auto h = certify::in_open_halfspace(values)) out["half-space"] = *h;
    return out;
  }

  // The claim assumes one of its two hypotheses, not both.
  std::optional<engine::HypothesisFailure> failed_hypothesis(const nlohmann::json& instance,
                                                             const std::set<std::string>& dropped) const override {
    return failed_unless_one_holds(*this, instance, dropped);
  }

  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json&) const override {
    if (h == "full-rank") return "the values are linearly dependent (exact rank)";
    if (h == "half-space") return "0 is a convex combination of the values (exact certificate)";
    return "";
  }

  // Fewer values, fewer coordinates, then shorter numbers.
  std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& instance) const override {
    std::vector<nlohmann::json> out = search::remove_index_candidates(instance, {"T", {{"values", 0}}});
    for (auto& c : search::remove_index_candidates(instance, {"d", {{"values", 1}}})) out.push_back(std::move(c));
    for (auto& c : search::shorten_decimal_candidates(instance)) out.push_back(std::move(c));
    return out;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const long d = support::require_int(instance, "d", 1, 64);
    const long t = support::require_int(instance, "T", 1, 256);
    const RMat values = certify::require_rmat(instance, "values", static_cast<std::size_t>(t), static_cast<std::size_t>(d));
    const auto dec = certify::decide_hard_switch(values);
    engine::CheckResult r;
    r.precision_bits = 128;
    engine::set_margin(r, dec.margin, kMarginDigits);
    r.details["certificate"] = dec.certificate;
    bool counterexample = false;
    std::string holds;  // the reason when the certificate of kappa verified
    const auto kappa_sq = certify::verify_hard_switch_certificate(values, dec.certificate, &counterexample);
    if (kappa_sq) {
      const long samples = support::param_int(options.params, "samples", 64, 0, 100000);
      const long passed = certify::sampled_bound_holds(values, *kappa_sq, samples, 0x9e37u + static_cast<std::uint64_t>(t));
      r.details["kappa_sq"] = certify::rational_string(*kappa_sq);
      r.details["kappa_lower"] = certify::lo_str(num::sqrt(certify::enclose(*kappa_sq)));
      r.details["full_rank_certified"] = dec.kappa_sq_full_rank.has_value();
      r.details["half_space_certified"] = dec.kappa_sq_half_space.has_value();
      r.details["sampled_attention_vectors"] = samples;
      r.details["sampled_bound_holds"] = passed;
      if (passed != samples) {
        // Impossible if the certificate is right: report loudly rather than pass.
        engine::internal_contradiction(r, "a certified kappa failed on a sampled attention vector");
        return r;
      }
      holds = std::string("kappa >= ") + certify::lo_str(num::sqrt(certify::enclose(*kappa_sq)), 6) + " certified (" +
              (dec.kappa_sq_full_rank ? "full-rank" : "") + (dec.kappa_sq_full_rank && dec.kappa_sq_half_space ? " and " : "") +
              (dec.kappa_sq_half_space ? "half-space" : "") + "), bound exact on " + std::to_string(samples) + " attention vectors";
    }
    const engine::Certified what = kappa_sq       ? engine::Certified::claim
                                   : counterexample ? engine::Certified::counterexample
                                                    : engine::Certified::nothing;
    engine::decide_by_certificate(
        r, what,
        {holds,
         "values neither independent nor in a half-space: attention p with p_0 = 1/2 gives output exactly 0 (exact certificate)",
         "no certificate verified (sigma_min bound too weak and no separator)"});
    if (options.certificate && r.verdict == engine::Verdict::proved)
      r.certificate = exact_certificate(name(), "values_need_sink", instance, r, dec.certificate);
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(HardSwitch);

}  // namespace
}  // namespace softcert::checks
