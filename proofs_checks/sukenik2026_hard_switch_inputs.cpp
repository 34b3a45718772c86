// sukenik2026.hard_switch.inputs — with hypotheses on the embeddings, a softmax head whose
// value–output map silences the sink is off only when the sink takes the attention [ours].
//
//   Sink x_0 ≠ 0 and tokens x_1..x_T in Q^d; P = I − x_0x_0ᵀ/‖x_0‖² removes the sink direction.
//   A value–output map W (output o = Wᵀ Σ_{j≥0} p_j x_j) silences the sink when Wᵀx_0 = 0. If the
//   embeddings x_0..x_T are linearly independent ["independent"] or the tokens' parts orthogonal
//   to the sink, Px_1..Px_T, lie in an open half-space ["orthogonal-half-space"], a certified
//   κ > 0 has
//       ‖o‖ ≥ σ_⊥(W) · κ · (1 − p_0)      for every sink-silencing W and every attention vector p,
//   σ_⊥(W) = min over unit y ⊥ x_0 of ‖Wᵀy‖. So every softmax head (W_QK free) with such a W and
//   output below η puts mass p_0 ≥ 1 − η/(σ_⊥κ) on the sink.
//
// Lemma [ours]: Wᵀx_j = WᵀPx_j (x_j − Px_j ∥ x_0), and y = Σ_{j≥1} p_j Px_j ⊥ x_0 has
// ‖y‖ ≥ κ(1 − p_0) by the values bound of certify/hard_switch.hpp applied to Px_1..Px_T;
// independence of x_0..x_T makes Px_1..Px_T independent.
// proved:   κ² > 0 certified exactly for Px_1..Px_T, and re-checked exactly on sampled attention.
// violated: neither hypothesis holds and Σ_{j≥1} Px_j = 0 exactly: W_QK = 0 gives the uniform
//           attention p_j = 1/(T+1) and W = P (σ_⊥ = 1, Wᵀx_0 = 0) outputs exactly 0 while the
//           sink holds only 1/(T+1). The generator's dropped family keeps every embedding, the
//           sink's included, in one open half-space: that hypothesis on the raw inputs is not enough.
// Margin: the signed half-space depth ρ(Px_1..Px_T) (the sharp κ when positive), enclosed.
#include <algorithm>
#include <cmath>

#include "certify/hard_switch.hpp"
#include "certify/rational_json.hpp"
#include "engine/registry.hpp"
#include "numerics/elementary.hpp"
#include "numerics/precision.hpp"
#include "search/shrink_candidates.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "sukenik2026_check.hpp"

namespace softcert::checks {
namespace {

using certify::RMat;
using certify::RVec;

SinkAndTokens read_embeddings(const nlohmann::json& in) {
  SinkAndTokens e = read_sink_and_tokens(in);
  if (certify::dot(e.sink, e.sink) == 0) throw std::invalid_argument("sink: must not be the zero vector");
  return e;
}

// Px = x − (x·x_0 / ‖x_0‖²) x_0, exactly.
RVec orthogonal_to_sink(const RVec& x, const RVec& sink) {
  const Rational c = certify::dot(x, sink) / certify::dot(sink, sink);
  RVec y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] - c * sink[i];
  return y;
}

RMat orthogonal_parts(const SinkAndTokens& e) {
  RMat out;
  for (const auto& x : e.tokens) out.push_back(orthogonal_to_sink(x, e.sink));
  return out;
}

// A decimal with 3 places as an exact rational.
Rational milli(double x) { return Rational(static_cast<long>(std::lround(x * 1e3)), 1000); }

class HardSwitchInputs final : public SinkPaperCheck {
 public:
  HardSwitchInputs()
      : SinkPaperCheck({"sukenik2026.hard_switch.inputs", "docs/theorems/sukenik2026_hard_switch.md",
                        "[ours: reading of the abstract's 'an equivalence between sinks and hard attention switch, in which the "
                        "output of the attention is identically 0', hypotheses on the embeddings] For a sink x_0 and tokens "
                        "x_1..x_T: if x_0..x_T are linearly independent (independent) or the tokens' parts orthogonal to the "
                        "sink lie in an open half-space (orthogonal-half-space), a certified kappa > 0 has ||o|| >= "
                        "sigma_perp(W_VO) kappa (1 - p_0) for every W_VO with W_VO^T x_0 = 0 and every softmax attention p: "
                        "such a head is off only when the sink holds the attention."}) {}
  std::vector<std::string> hypotheses() const override { return {"independent", "orthogonal-half-space"}; }
  std::vector<std::string> params() const override { return {"d", "T", "samples"}; }

  // Kept: independent embeddings (T < d) or tokens whose orthogonal parts share a half-space,
  // each with a random multiple of the sink added (so the raw tokens need not share one).
  // Dropped: tokens x_j = y_j + c_j x_0 with Σ y_j = 0 exactly and c_j large enough that every
  // embedding has x_0·x_j > 0 — aligned with the sink, yet their orthogonal parts cancel.
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::RandomSource rng(seed, 0x4a5e);
    const bool keep = kept(o, "independent") || kept(o, "orthogonal-half-space");
    const long d = support::param_pick(o.params, "d", 2, 5, 2, 64, rng);
    const bool independent = keep && (kept(o, "independent") && (!kept(o, "orthogonal-half-space") || rng.unit() < 0.5));
    const long t = support::param_pick(o.params, "T", independent ? 1 : 2, independent ? std::max(1L, d - 1) : d + 4, 1, 256, rng);
    SinkAndTokens e;
    for (long i = 0; i < d; ++i) e.sink.push_back(milli(rng.normal()));
    if (certify::dot(e.sink, e.sink) == 0) e.sink[0] = 1;
    const double sink_sq = certify::dot(e.sink, e.sink).convert_to<double>();
    if (keep) {
      // w: a random direction orthogonal to the sink (in doubles; the hypothesis is decided exactly later)
      std::vector<double> w = random_unit_vector(rng, d);
      double along = 0;
      for (long i = 0; i < d; ++i) along += w[i] * e.sink[i].convert_to<double>();
      double norm = 0;
      for (long i = 0; i < d; ++i) {
        w[i] -= along / sink_sq * e.sink[i].convert_to<double>();
        norm += w[i] * w[i];
      }
      for (auto& x : w) x /= std::sqrt(norm);  // unit again: normals_in_half_space pushes along a unit w
      for (long k = 0; k < t; ++k) {
        const std::vector<double> y = normals_in_half_space(rng, w, !independent);
        const double c = 2 * rng.normal();
        RVec x;
        for (long i = 0; i < d; ++i) x.push_back(milli(y[i] + c * e.sink[i].convert_to<double>()));
        e.tokens.push_back(std::move(x));
      }
    } else {
      RVec total(static_cast<std::size_t>(d), Rational(0));
      std::vector<RVec> ys;
      for (long k = 0; k < t; ++k) {
        RVec y(static_cast<std::size_t>(d));
        for (long i = 0; i < d; ++i) {
          y[i] = k + 1 < t ? milli(rng.normal()) : -total[i];
          total[i] += y[i];
        }
        ys.push_back(std::move(y));
      }
      for (const auto& y : ys) {
        // x_0·x_j = x_0·y + c |x_0|² > 0 with room: c ≥ |x_0·y|/|x_0|² + 1/2
        const double c = std::fabs(certify::dot(e.sink, y).convert_to<double>()) / sink_sq + rng.uniform(0.5, 1.5);
        RVec x(y.size());
        for (long i = 0; i < d; ++i) x[i] = y[i] + milli(c) * e.sink[i];
        e.tokens.push_back(std::move(x));
      }
    }
    return sink_and_tokens_json(name(), e, provenance(seed, o));
  }

  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    const SinkAndTokens e = read_embeddings(instance);
    RMat all{e.sink};
    for (const auto& x : e.tokens) all.push_back(x);
    std::map<std::string, bool> out;
    out["independent"] = certify::rank_exact(all) == all.size();
    if (const auto h = certify::in_open_halfspace(orthogonal_parts(e))) out["orthogonal-half-space"] = *h;
    return out;
  }

  std::optional<engine::HypothesisFailure> failed_hypothesis(const nlohmann::json& instance,
                                                             const std::set<std::string>& dropped) const override {
    return failed_unless_one_holds(*this, instance, dropped);
  }

  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json&) const override {
    if (h == "independent") return "the sink and the tokens are linearly dependent (exact rank)";
    if (h == "orthogonal-half-space") return "0 is a convex combination of the tokens' parts orthogonal to the sink (exact certificate)";
    return "";
  }

  std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& instance) const override {
    return search::remove_index_candidates(instance, {"T", {{"tokens", 0}}});
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const SinkAndTokens e = read_embeddings(instance);
    const RMat parts = orthogonal_parts(e);
    num::PrecisionGuard guard(128);
    const auto dec = certify::decide_hard_switch(parts);
    engine::CheckResult r;
    r.precision_bits = 128;
    engine::set_margin(r, dec.margin, kMarginDigits);
    r.details["certificate"] = dec.certificate;
    RMat all{e.sink};
    for (const auto& x : e.tokens) all.push_back(x);
    if (const auto raw = certify::in_open_halfspace(all)) r.details["embeddings_in_one_half_space"] = *raw;

    bool zero_combination = false;
    std::string holds, fails;
    const auto kappa_sq = certify::verify_hard_switch_certificate(parts, dec.certificate, &zero_combination);
    if (kappa_sq) {
      const long samples = support::param_int(options.params, "samples", 64, 0, 100000);
      const long passed = certify::sampled_bound_holds(parts, *kappa_sq, samples, 0x4a5eu + static_cast<std::uint64_t>(parts.size()));
      r.details["kappa_sq"] = certify::rational_string(*kappa_sq);
      r.details["sampled_attention_vectors"] = samples;
      r.details["sampled_bound_holds"] = passed;
      if (passed != samples) {
        engine::internal_contradiction(r, "a certified kappa failed on a sampled attention vector");
        return r;
      }
      holds = "kappa >= " + certify::lo_str(num::sqrt(certify::enclose(*kappa_sq)), 6) +
              " certified for the tokens' parts orthogonal to the sink; bound exact on " + std::to_string(samples) +
              " attention vectors";
    }
    // The softmax counterexample: uniform attention (W_QK = 0) and W = P output Σ_j P x_j / (T+1).
    RVec sum(e.sink.size(), Rational(0));
    for (const auto& y : parts)
      for (std::size_t i = 0; i < y.size(); ++i) sum[i] += y[i];
    const bool uniform_off = !kappa_sq && certify::dot(sum, sum) == 0;
    r.details["uniform_attention_output_zero"] = uniform_off;
    if (uniform_off)
      fails = "W_QK = 0 (uniform attention, sink mass 1/" + std::to_string(e.tokens.size() + 1) +
              ") and W_VO = P (silences the sink, sigma_perp = 1) output exactly 0: the head is off without the sink (exact)";
    const engine::Certified what = kappa_sq     ? engine::Certified::claim
                                   : uniform_off ? engine::Certified::counterexample
                                                 : engine::Certified::nothing;
    engine::decide_by_certificate(
        r, what,
        {holds, fails,
         zero_combination ? "hypotheses fail (a zero combination of the orthogonal parts) but no exact softmax head off "
                            "without the sink was found (only uniform attention is tried)"
                          : "no certificate verified"});
    if (options.certificate && r.verdict == engine::Verdict::proved)
      r.certificate = exact_certificate(name(), "switch_needs_sink", instance, r, dec.certificate);
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(HardSwitchInputs);

}  // namespace
}  // namespace softcert::checks
