// sukenik2026.sink_representability — a sink is representable iff the queries lie in an open
// half-space through 0 and the sink is exposed from the keys [reconstruction].
//
//   Tokens x_1..x_T, sink x_0 in Q^d. Some W has x_qᵀ W (x_0 − x_k) > 0 for all q, k ≥ 1
//   iff (i) 0 ∉ conv{x_1..x_T}  ["half-space"]  and  (ii) x_0 ∉ conv{x_1..x_T}  ["sink-exposed"].
//
// Decided exactly: either W = u vᵀ (u, v separators from an exact LP) with every gap > 0 in
// rational arithmetic — proved — or a convex combination (0 = Σλ_q x_q, or x_0 = Σμ_k x_k)
// that makes every W fail — violated. The margin is min(ρ(queries), ρ(x_0 − keys)), the signed
// half-space depth (certify/halfspace_depth.hpp): positive iff representable.
#include <cmath>

#include "certify/rational_json.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "certify/sink_representability.hpp"
#include "engine/registry.hpp"
#include "search/shrink_candidates.hpp"
#include "sukenik2026_check.hpp"

namespace softcert::checks {
namespace {

using certify::RVec;
using certify::RMat;

certify::SinkProblem read_sink_problem(const nlohmann::json& in) {
  const long d = support::require_int(in, "d", 1, 64);
  const long t = support::require_int(in, "T", 1, 256);
  certify::SinkProblem p;
  p.sink = certify::require_rvec(in, "sink", static_cast<std::size_t>(d));
  p.tokens = certify::require_rmat(in, "tokens", static_cast<std::size_t>(t), static_cast<std::size_t>(d));
  return p;
}

class SinkRepresentability final : public SinkPaperCheck {
 public:
  SinkRepresentability()
      : SinkPaperCheck({"sukenik2026.sink_representability", "docs/theorems/sukenik2026_sink_representability.md",
                        "[ours: reconstruction of the abstract's 'necessary alignment between the embedding of the sink and all "
                        "other embeddings'] For tokens x_1..x_T and sink x_0 in R^d there is W with x_q^T W (x_0 - x_k) > 0 "
                        "for all q, k in 1..T iff 0 is not in conv{x_q} (half-space) and x_0 is not in conv{x_k} "
                        "(sink-exposed); then a rank-one W = u v^T suffices. Certified exactly: separators or convex combinations."}) {}
  std::vector<std::string> hypotheses() const override { return {"half-space", "sink-exposed"}; }
  std::vector<std::string> params() const override { return {"d", "T"}; }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::RandomSource rng(seed, 0x5111);
    const bool half_space = kept(o, "half-space"), exposed = kept(o, "sink-exposed");
    const long d = support::param_pick(o.params, "d", 2, 4, 1, 64, rng);
    // Without the half-space condition, more tokens than dimensions make 0 ∈ conv likely.
    const long t = support::param_pick(o.params, "T", half_space ? 2 : d + 1, half_space ? 6 : d + 4, 1, 256, rng);
    const std::vector<double> w = random_unit_vector(rng, d);
    std::vector<std::vector<double>> tokens(t, std::vector<double>(d));
    for (auto& x : tokens) x = normals_in_half_space(rng, w, half_space);
    std::vector<double> sink(d, 0.0);
    if (exposed) {
      // x_0 beyond every token along a random direction e: e·x_0 > max_k e·x_k.
      const std::vector<double> e = random_unit_vector(rng, d);
      double top = -1e300;
      for (const auto& x : tokens) {
        double s = 0;
        for (long i = 0; i < d; ++i) s += e[i] * x[i];
        top = std::max(top, s);
      }
      const double reach = top + 0.5 + rng.unit();
      for (long i = 0; i < d; ++i) sink[i] = reach * e[i] + 0.1 * rng.normal();
      // Project back so that e·sink = reach exactly up to rounding (the 0.1 noise is orthogonalised).
      double s = 0;
      for (long i = 0; i < d; ++i) s += e[i] * sink[i];
      for (long i = 0; i < d; ++i) sink[i] += (reach - s) * e[i];
    } else {
      // A random convex combination of the tokens: the sink sits inside their hull.
      double total = 0;
      std::vector<double> lam(t);
      for (auto& l : lam) { l = 0.1 + rng.unit(); total += l; }
      for (long k = 0; k < t; ++k)
        for (long i = 0; i < d; ++i) sink[i] += lam[k] / total * tokens[k][i];
    }
    nlohmann::json in;
    in["check"] = name();
    in["d"] = std::to_string(d);
    in["T"] = std::to_string(t);
    in["sink"] = decimal_row(sink);
    in["tokens"] = nlohmann::json::array();
    for (const auto& x : tokens) in["tokens"].push_back(decimal_row(x));
    in["provenance"] = provenance(seed, o);
    return in;
  }

  // Both hypotheses decided exactly (a verified separator or a verified convex combination).
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    const certify::SinkProblem p = read_sink_problem(instance);
    std::map<std::string, bool> out;
    if (const auto h = certify::in_open_halfspace(p.tokens)) out["half-space"] = *h;
    if (const auto e = certify::in_open_halfspace(certify::sink_minus_keys(p))) out["sink-exposed"] = *e;
    return out;
  }

  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json&) const override {
    if (h == "half-space") return "0 is a convex combination of the tokens (exact certificate)";
    if (h == "sink-exposed") return "the sink is a convex combination of the tokens (exact certificate)";
    return "";
  }

  // Fewer tokens, fewer coordinates (of every token and the sink), then shorter numbers.
  std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& instance) const override {
    std::vector<nlohmann::json> out = search::remove_index_candidates(instance, {"T", {{"tokens", 0}}});
    for (auto& c : search::remove_index_candidates(instance, {"d", {{"tokens", 1}, {"sink", 0}}})) out.push_back(std::move(c));
    for (auto& c : search::shorten_decimal_candidates(instance)) out.push_back(std::move(c));
    return out;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const certify::SinkProblem p = read_sink_problem(instance);
    const certify::SinkDecision dec = certify::decide_sink_representability(p);
    engine::CheckResult r;
    r.precision_bits = 128;
    engine::set_margin(r, dec.margin, kMarginDigits);
    r.details["certificate"] = dec.certificate;
    r.details["half_space"] = dec.queries.separated;
    r.details["sink_exposed"] = dec.keys.separated;
    // The verdict rests on re-verifying the certificate from scratch, not on the LP.
    Rational gap;
    const int v = certify::verify_sink_certificate(p, dec.certificate, &gap);
    engine::decide_by_exact_sign(r, v,
                         {"sink representable: W = u v^T has every score gap > 0, min gap " +
                              num::decimal_nearest(gap.convert_to<double>(), 6) + " (exact rational)",
                          std::string("no W represents a sink: ") +
                              (!dec.queries.separated ? "0 is a convex combination of the queries (half-space fails)"
                                                      : "the sink is a convex combination of the keys (sink-exposed fails)") +
                              ", exact certificate",
                          "certificate did not verify (internal error in the LP)"});
    if (options.certificate && r.verdict == engine::Verdict::proved)
      r.certificate = exact_certificate(name(), "representable", instance, r, dec.certificate);
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(SinkRepresentability);

}  // namespace
}  // namespace softcert::checks
