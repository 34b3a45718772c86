#pragma once
// The base of the sink-paper checks (Súkeník, López Amado, Lampert, Mondelli 2026): the
// citation, the provenance line their generators write, and the small helpers they share.
#include <cstdint>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/interval_bridge.hpp"
#include "certify/rational_json.hpp"
#include "check_text.hpp"
#include "exact_certificate.hpp"
#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "numerics/decimal.hpp"

namespace softcert::checks {

class SinkPaperCheck : public StatedCheck {
 public:
  using StatedCheck::StatedCheck;
  std::string paper() const override {
    return "Súkeník, López Amado, Lampert, Mondelli (2026), Sink vs. diagonal patterns, arXiv 2605.08453";
  }

 protected:
  // "<name> generator, seed S[, dropped: h1,h2]": where a generated instance came from.
  std::string provenance(std::uint64_t seed, const engine::GenerateOptions& o) const {
    std::string dropped;
    for (const auto& h : o.dropped) dropped += (dropped.empty() ? "" : ",") + h;
    return name() + " generator, seed " + std::to_string(seed) + (dropped.empty() ? "" : ", dropped: " + dropped);
  }
};

// For a claim that assumes one of its hypotheses, not all: it fails only when every kept one is
// decided false (an undecided or holding one lets the claim apply); the failure names them all.
inline std::optional<engine::HypothesisFailure> failed_unless_one_holds(const engine::Check& check, const nlohmann::json& instance,
                                                                        const std::set<std::string>& dropped) {
  std::vector<std::string> kept_ones;
  for (const auto& h : check.hypotheses())
    if (!dropped.count(h)) kept_ones.push_back(h);
  if (kept_ones.empty()) return std::nullopt;
  const auto decided = check.hypotheses_on(instance);
  std::string name, detail;
  for (const auto& h : kept_ones) {
    const auto it = decided.find(h);
    if (it == decided.end() || it->second) return std::nullopt;
    name += (name.empty() ? "" : " or ") + h;
    detail += (detail.empty() ? "" : "; ") + check.why_hypothesis_fails(h, instance);
  }
  return engine::HypothesisFailure{name, detail};
}

// Whether the generator must keep `hypothesis` (it is not among the dropped).
inline bool kept(const engine::GenerateOptions& o, const std::string& hypothesis) { return o.dropped.count(hypothesis) == 0; }

// The generators' random geometry. A unit vector: d normals, in order, divided by their norm.
inline std::vector<double> random_unit_vector(support::RandomSource& rng, long d) {
  std::vector<double> w(static_cast<std::size_t>(d));
  double norm = 0;
  for (auto& x : w) { x = rng.normal(); norm += x * x; }
  for (auto& x : w) x /= std::sqrt(norm);
  return w;
}

// w.size() normals; when `push`, moved along the unit vector w until w·v ≥ 0.25 (an open
// half-space with a margin that survives 6-digit rounding), by a random extra in [0, 0.5).
inline std::vector<double> normals_in_half_space(support::RandomSource& rng, const std::vector<double>& w, bool push) {
  const std::size_t d = w.size();
  std::vector<double> v(d);
  double along = 0;
  for (std::size_t i = 0; i < d; ++i) { v[i] = rng.normal(); along += v[i] * w[i]; }
  if (push && along < 0.25)
    for (std::size_t i = 0; i < d; ++i) v[i] += (0.25 - along + 0.5 * rng.unit()) * w[i];
  return v;
}

// A JSON row of decimals, each the nearest with `digits` significant digits (an instance's data).
inline nlohmann::json decimal_row(const std::vector<double>& v, int digits = 6) {
  nlohmann::json row = nlohmann::json::array();
  for (double x : v) row.push_back(num::decimal_nearest(x, digits));
  return row;
}

// A sink embedding and T token embeddings in Q^d: the instance of the embedding-level checks
// (sink alignment, hard switch on the inputs), {"d", "T", "sink", "tokens"} as exact decimals or p/q.
struct SinkAndTokens {
  certify::RVec sink;
  certify::RMat tokens;
};

inline SinkAndTokens read_sink_and_tokens(const nlohmann::json& in) {
  const long d = support::require_int(in, "d", 1, 64);
  const long t = support::require_int(in, "T", 1, 256);
  SinkAndTokens e;
  e.sink = certify::require_rvec(in, "sink", static_cast<std::size_t>(d));
  e.tokens = certify::require_rmat(in, "tokens", static_cast<std::size_t>(t), static_cast<std::size_t>(d));
  return e;
}

// The instance file of `e` for the check `check` (the generators' output).
inline nlohmann::json sink_and_tokens_json(const std::string& check, const SinkAndTokens& e, const std::string& provenance) {
  nlohmann::json in;
  in["check"] = check;
  in["d"] = std::to_string(e.sink.size());
  in["T"] = std::to_string(e.tokens.size());
  in["sink"] = certify::to_json(e.sink);
  in["tokens"] = certify::to_json(e.tokens);
  in["provenance"] = provenance;
  return in;
}

// An exactly unit rational vector near the direction of y: the inverse stereographic image
// (2a, ±(1 − |a|²))/(1 + |a|²) of a point a with 4-decimal coordinates, projected from the pole
// opposite to y's last coordinate (so |a| ≤ 1 and the rounding stays small).
inline certify::RVec unit_rational_near(const std::vector<double>& y) {
  double norm = 0;
  for (double v : y) norm += v * v;
  norm = std::sqrt(norm);
  const std::size_t d = y.size();
  const double last = y[d - 1] / norm;
  const bool upper = last >= 0;
  certify::RVec a(d - 1);
  Rational a_sq = 0;
  for (std::size_t i = 0; i + 1 < d; ++i) {
    a[i] = Rational(static_cast<long>(std::lround(y[i] / norm / (1 + std::fabs(last)) * 1e4)), 10000);
    a_sq += a[i] * a[i];
  }
  certify::RVec x(d);
  for (std::size_t i = 0; i + 1 < d; ++i) x[i] = 2 * a[i] / (1 + a_sq);
  x[d - 1] = (upper ? 1 - a_sq : a_sq - 1) / (1 + a_sq);
  return x;
}

// A rational vector of the decimals of y (3 decimals), for instances without unit norms.
inline certify::RVec rational_near(const std::vector<double>& y) {
  certify::RVec x(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) x[i] = Rational(static_cast<long>(std::lround(y[i] * 1e3)), 1000);
  return x;
}

// The digits the Sukeník checks write their margins with (engine::set_margin).
inline constexpr int kMarginDigits = 17;

}  // namespace softcert::checks
