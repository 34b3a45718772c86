#include "certify/sink_representability.hpp"

#include "certify/rational_json.hpp"
#include "certify/interval_bridge.hpp"
#include "numerics/precision.hpp"

namespace softcert::certify {

const RMat& queries_of(const SinkProblem& p) { return p.queries.empty() ? p.tokens : p.queries; }

RMat sink_minus_keys(const SinkProblem& p) {
  RMat out;
  for (const auto& x : p.tokens) {
    RVec v(p.sink.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = p.sink[i] - x[i];
    out.push_back(std::move(v));
  }
  return out;
}

namespace {
nlohmann::json depth_json(const DepthCertificate& c) {
  nlohmann::json j;
  if (c.separated) {
    j["separator"] = to_json(c.separator);
  } else {
    j["zero_combination"] = to_json(c.zero_combination);
    if (c.inner_r) {
      j["inner_radius"] = rational_string(*c.inner_r);
      j["interior_combinations"] = to_json(c.interior_combinations);
    }
  }
  return j;
}

// min over q, k of x_qᵀ (u vᵀ)(x_0 − x_k) = min_q (u·x_q) · min_k (v·(x_0 − x_k)) when both
// factors are positive; computed here pair by pair, exactly, without using that identity.
std::optional<Rational> min_gap_rank_one(const SinkProblem& p, const RVec& u, const RVec& v) {
  const RMat diffs = sink_minus_keys(p);
  std::optional<Rational> best;
  for (const auto& xq : queries_of(p)) {
    if (xq.size() != u.size()) return std::nullopt;
    const Rational a = dot(xq, u);
    for (const auto& dk : diffs) {
      if (dk.size() != v.size()) return std::nullopt;
      const Rational g = a * dot(v, dk);
      if (!best || g < *best) best = g;
    }
  }
  return best;
}
}  // namespace

SinkDecision decide_sink_representability(const SinkProblem& p) {
  num::PrecisionGuard guard(128);
  SinkDecision d;
  const RMat diffs = sink_minus_keys(p);
  d.queries = find_depth_certificate(queries_of(p), true);
  d.keys = find_depth_certificate(diffs, true);
  d.representable = d.queries.separated && d.keys.separated;
  d.margin = interval_min(depth_enclosure(queries_of(p), d.queries), depth_enclosure(diffs, d.keys));
  nlohmann::json c;
  c["queries"] = depth_json(d.queries);
  c["sink_minus_keys"] = depth_json(d.keys);
  if (d.representable) {
    c["W"] = {{"form", "u vᵀ"}, {"u", to_json(d.queries.separator)}, {"v", to_json(d.keys.separator)}};
    if (const auto g = min_gap_rank_one(p, d.queries.separator, d.keys.separator)) c["min_gap"] = rational_string(*g);
  }
  d.certificate = c;
  return d;
}

int verify_sink_certificate(const SinkProblem& p, const nlohmann::json& c, Rational* min_gap) {
  try {
    if (c.contains("W")) {
      const RVec u = rvec_from_json(c.at("W").at("u"), "W.u");
      const RVec v = rvec_from_json(c.at("W").at("v"), "W.v");
      const auto g = min_gap_rank_one(p, u, v);
      if (g && *g > 0) {
        if (min_gap) *min_gap = *g;
        return +1;
      }
      return 0;
    }
    if (c.contains("queries") && c.at("queries").contains("zero_combination")) {
      if (verify_zero_combination(queries_of(p), rvec_from_json(c.at("queries").at("zero_combination"), "queries.zero_combination"))) return -1;
    }
    if (c.contains("sink_minus_keys") && c.at("sink_minus_keys").contains("zero_combination")) {
      if (verify_zero_combination(sink_minus_keys(p), rvec_from_json(c.at("sink_minus_keys").at("zero_combination"), "sink_minus_keys.zero_combination"))) return -1;
    }
  } catch (const std::exception&) {
    return 0;
  }
  return 0;
}

}  // namespace softcert::certify
