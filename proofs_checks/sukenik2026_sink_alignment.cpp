// sukenik2026.sink_alignment — with unit-norm embeddings and the sink a query too, a sink is
// representable iff every embedding, the sink's included, lies in one open half-space [ours].
//
//   Unit vectors x_0 (sink) and x_1..x_T in Q^d, no token equal to the sink. Some W has
//   x_qᵀ W (x_0 − x_k) > 0 for every query q ∈ {0..T} and key k ∈ {1..T} iff 0 ∉ conv{x_0..x_T},
//   i.e. one direction u has u·x > 0 for the sink and every token: the alignment between the
//   sink and all other embeddings, read as the abstract's "necessary alignment".
//
// Lemma [ours]: by certify/sink_representability.hpp, W exists iff 0 ∉ conv{queries} and
// 0 ∉ conv{x_0 − x_k}; for distinct unit vectors x_0·(x_0 − x_k) = 1 − x_0·x_k > 0, so the
// second always holds and representability is the alignment alone. Without unit norms the sink
// can sit inside the keys' hull while the embeddings are aligned (the near miss by dropping).
//
// params.statement chooses the claim; the two others are nearby false statements (near misses):
//   "iff"                 (default) representable ⟺ aligned
//   "pairwise-necessary"  representable ⟹ x_0·x_k > 0 for every token (each token aligned with the sink)
//   "mean-sufficient"     x_0·x̄ > 0 (the sink aligned with the tokens' mean) ⟹ representable
// Each margin is an enclosure from exact certificates (signed half-space depths, exact dot
// products) whose sign is the claim's truth; a violation is also certified exactly.
#include <cmath>

#include "certify/rational_json.hpp"
#include "certify/sink_representability.hpp"
#include "engine/registry.hpp"
#include "numerics/precision.hpp"
#include "search/shrink_candidates.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "sukenik2026_check.hpp"

namespace softcert::checks {
namespace {

using certify::RMat;
using certify::RVec;

const std::vector<std::string> kStatements = {"iff", "pairwise-necessary", "mean-sufficient"};

// The problem with the sink as a query too: queries x_0..x_T, keys x_1..x_T.
certify::SinkProblem with_sink_as_query(const SinkAndTokens& a) {
  certify::SinkProblem p{a.sink, a.tokens, {}};
  p.queries.push_back(a.sink);
  for (const auto& x : a.tokens) p.queries.push_back(x);
  return p;
}

class SinkAlignment final : public SinkPaperCheck {
 public:
  SinkAlignment()
      : SinkPaperCheck({"sukenik2026.sink_alignment", "docs/theorems/sukenik2026_sink_alignment.md",
                        "[ours: reading of the abstract's 'a necessary alignment between the embedding of the sink and all other "
                        "embeddings'] For unit-norm embeddings x_0 (sink) and x_1..x_T, none equal to the sink, with the sink a "
                        "query too: some W_QK makes every query q in 0..T score the sink above every token "
                        "(x_q^T W (x_0 - x_k) > 0) iff all embeddings lie in one open half-space through 0 (a direction aligned "
                        "with the sink and every token). params.statement = pairwise-necessary / mean-sufficient state the "
                        "near misses 'each token must be aligned with the sink' and 'alignment with the tokens' mean suffices'."}) {}
  std::vector<std::string> hypotheses() const override { return {"unit-norm", "distinct"}; }
  std::vector<std::string> params() const override { return {"d", "T", "alignment", "statement"}; }

  // Embeddings y = g + c·w around one random direction w (anisotropy of strength c = params.alignment,
  // default uniform in [0, 1.5]): both outcomes, aligned or not, occur; nothing is built to hold.
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::RandomSource rng(seed, 0xa119);
    const bool unit = kept(o, "unit-norm"), distinct = kept(o, "distinct");
    const long d = support::param_pick(o.params, "d", 2, 5, 2, 64, rng);
    const long t = support::param_pick(o.params, "T", 2, 2 * d + 2, 1, 256, rng);
    const double drawn = rng.uniform(0.0, 1.5);
    const double c = support::param_double(o.params, "alignment", drawn);
    const std::vector<double> w = random_unit_vector(rng, d);
    auto draw = [&] {
      std::vector<double> y(static_cast<std::size_t>(d));
      for (long i = 0; i < d; ++i) y[i] = rng.normal() + c * w[i];
      return y;
    };
    SinkAndTokens a;
    for (long k = 0; k < t; ++k) a.tokens.push_back(unit ? unit_rational_near(draw()) : rational_near(draw()));
    if (unit) {
      a.sink = unit_rational_near(draw());
    } else {
      // The sink a strict convex combination of the tokens (weights 1..4, exact): inside the keys' hull.
      a.sink.assign(static_cast<std::size_t>(d), Rational(0));
      Rational total = 0;
      std::vector<Rational> lam;
      for (long k = 0; k < t; ++k) { lam.emplace_back(1 + rng.integer(0, 3)); total += lam.back(); }
      for (long k = 0; k < t; ++k)
        for (long i = 0; i < d; ++i) a.sink[i] += lam[k] / total * a.tokens[k][i];
    }
    if (!distinct) a.tokens.back() = a.sink;
    return sink_and_tokens_json(name(), a, provenance(seed, o));
  }

  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    const SinkAndTokens a = read_sink_and_tokens(instance);
    bool unit = certify::dot(a.sink, a.sink) == 1, distinct = true;
    for (const auto& x : a.tokens) {
      unit = unit && certify::dot(x, x) == 1;
      distinct = distinct && x != a.sink;
    }
    return {{"unit-norm", unit}, {"distinct", distinct}};
  }

  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json&) const override {
    if (h == "unit-norm") return "an embedding's squared norm is not exactly 1";
    if (h == "distinct") return "a token equals the sink exactly";
    return "";
  }

  std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& instance) const override {
    return search::remove_index_candidates(instance, {"T", {{"tokens", 0}}});
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const std::string statement = support::param_choice(options.params, "statement", kStatements);
    const SinkAndTokens a = read_sink_and_tokens(instance);
    const certify::SinkProblem p = with_sink_as_query(a);
    num::PrecisionGuard guard(128);
    const certify::SinkDecision dec = certify::decide_sink_representability(p);
    Rational min_gap;
    const int represented = certify::verify_sink_certificate(p, dec.certificate, &min_gap);  // +1, −1 or 0 (nothing verified)
    const RMat queries = certify::queries_of(p);
    const RMat diffs = certify::sink_minus_keys(p);
    const IntervalMp rho_queries = certify::depth_enclosure(queries, dec.queries);
    const IntervalMp rho_keys = certify::depth_enclosure(diffs, dec.keys);
    const bool aligned = dec.queries.separated && certify::verify_separator(queries, dec.queries.separator).has_value();

    Rational min_pairwise = certify::dot(a.sink, a.tokens.front()), mean_alignment = 0;
    for (const auto& x : a.tokens) {
      const Rational s = certify::dot(a.sink, x);
      if (s < min_pairwise) min_pairwise = s;
      mean_alignment += s;
    }
    mean_alignment /= Rational(static_cast<long>(a.tokens.size()));

    engine::CheckResult r;
    r.precision_bits = 128;
    r.details["statement"] = statement;
    r.details["certificate"] = dec.certificate;
    r.details["aligned"] = aligned;
    r.details["representable"] = represented > 0;
    r.details["min_sink_token_cosine"] = certify::rational_string(min_pairwise);
    r.details["sink_mean_alignment"] = certify::rational_string(mean_alignment);
    r.details["depth_queries"] = {certify::lo_str(rho_queries), certify::hi_str(rho_queries)};
    r.details["depth_sink_minus_keys"] = {certify::lo_str(rho_keys), certify::hi_str(rho_keys)};

    // Each margin's sign is its claim's truth (a max of two terms: either makes the implication hold).
    IntervalMp margin;
    bool counterexample = false;
    engine::MarginReasons why;
    if (statement == "iff") {
      // fails only when aligned (ρ(queries) > 0) and not representable (ρ(sink − keys) ≤ 0)
      margin = certify::interval_max(rho_keys, -rho_queries);
      counterexample = aligned && represented < 0;
      why = {"representable and aligned agree: " + std::string(aligned ? "aligned and representable" : "neither aligned nor representable"),
             "aligned (a separator of every embedding verified) but not representable: the sink is a convex combination of "
             "the keys (exact certificate)",
             "depths not certified apart from 0"};
    } else if (statement == "pairwise-necessary") {
      margin = certify::interval_max(-dec.margin, certify::enclose(min_pairwise));
      counterexample = represented > 0 && min_pairwise < 0;
      why = {represented > 0 ? "representable and every token positively aligned with the sink" : "not representable (vacuous)",
             "representable (W = u v^T, every gap > 0, exact) while a token has sink cosine " +
                 num::decimal_nearest(min_pairwise.convert_to<double>(), 6) + " < 0 (exact)",
             "not decided"};
    } else {
      margin = certify::interval_max(-certify::enclose(mean_alignment), dec.margin);
      counterexample = mean_alignment > 0 && represented < 0;
      why = {mean_alignment > 0 ? "aligned with the mean and representable" : "sink not aligned with the tokens' mean (vacuous)",
             "the sink is aligned with the tokens' mean (x_0 . mean = " + num::decimal_nearest(mean_alignment.convert_to<double>(), 6) +
                 " > 0, exact) but no W represents it (a convex combination, exact)",
             "not decided"};
    }
    engine::set_margin(r, margin, kMarginDigits);
    const bool margin_positive = !r.margin.empty() && r.margin.lower_sign() == 1;
    const engine::Certified what = margin_positive ? engine::Certified::claim
                                   : counterexample ? engine::Certified::counterexample
                                                    : engine::Certified::nothing;
    engine::decide_by_certificate(r, what, why);
    if (options.certificate && r.verdict == engine::Verdict::proved)
      r.certificate = exact_certificate(name(), statement == "iff"                  ? "representable_iff_aligned"
                                                : statement == "pairwise-necessary" ? "pairwise_necessary"
                                                                                    : "mean_sufficient",
                                        instance, r, dec.certificate);
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(SinkAlignment);

}  // namespace
}  // namespace softcert::checks
