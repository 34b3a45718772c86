#include "certify/hard_switch.hpp"

#include <Eigen/Dense>

#include "certify/rational_json.hpp"
#include "certify/interval_bridge.hpp"
#include "numerics/elementary.hpp"
#include "numerics/precision.hpp"
#include "support/random_source.hpp"

namespace softcert::certify {

std::optional<Rational> certified_lambda_min_lower(const RMat& g) {
  const std::size_t n = g.size();
  if (n == 0) return std::nullopt;
  Eigen::MatrixXd a(n, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) a(i, j) = g[i][j].convert_to<double>();
  const double lmin = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(a, Eigen::EigenvaluesOnly).eigenvalues()(0);
  if (!(lmin > 0)) return std::nullopt;
  // A guess safely below the float estimate, rounded to a short dyadic so the exact LDLᵀ stays
  // cheap; verified exactly, never trusted.
  Rational s2 = dyadic_floor(rational_from_double(0.999 * lmin), 40);
  for (int attempt = 0; attempt < 30 && s2 > 0; ++attempt, s2 /= 2) {
    RMat shifted = g;
    for (std::size_t i = 0; i < n; ++i) shifted[i][i] -= s2;
    if (is_psd_exact(shifted)) return s2;
  }
  return std::nullopt;
}

namespace {
RVec output(const RMat& values, const RVec& p) {  // Σ_{j≥1} p_j v_j
  RVec o(values.empty() ? 0 : values[0].size(), Rational(0));
  for (std::size_t j = 0; j < values.size(); ++j)
    for (std::size_t k = 0; k < o.size(); ++k) o[k] += p[j + 1] * values[j][k];
  return o;
}
}  // namespace

bool bound_holds_exactly(const RMat& values, const Rational& kappa_sq, const RVec& p) {
  if (p.size() != values.size() + 1) return false;
  const RVec o = output(values, p);
  const Rational rest = Rational(1) - p[0];
  return dot(o, o) >= kappa_sq * rest * rest;
}

long sampled_bound_holds(const RMat& values, const Rational& kappa_sq, long samples, std::uint64_t seed) {
  support::RandomSource rng(seed, 7);
  const std::size_t t = values.size();
  long passed = 0;
  for (long s = 0; s < samples; ++s) {
    RVec p(t + 1);
    const long k = s % 31;
    p[0] = k == 0 ? Rational(0) : Rational(1) - Rational(1) / Rational(boost::multiprecision::mpz_int(1) << static_cast<unsigned>(k));
    Rational total = 0;
    RVec raw(t);
    for (auto& x : raw) { x = Rational(static_cast<long>(rng.word() >> 44) + 1); total += x; }
    for (std::size_t j = 0; j < t; ++j) p[j + 1] = (Rational(1) - p[0]) * raw[j] / total;
    passed += bound_holds_exactly(values, kappa_sq, p) ? 1 : 0;
  }
  return passed;
}

HardSwitchDecision decide_hard_switch(const RMat& values) {
  num::PrecisionGuard guard(128);
  HardSwitchDecision d;
  const std::size_t t = values.size();
  nlohmann::json c = nlohmann::json::object();
  // full-rank: σ_min² ≥ s² certified on the T×T Gram matrix (only possible when T ≤ d).
  if (!values.empty() && t <= values[0].size()) {
    if (const auto s2 = certified_lambda_min_lower(gram(values))) {
      d.kappa_sq_full_rank = *s2 / Rational(static_cast<long>(t));
      c["full_rank"] = {{"sigma_min_sq_lower", rational_string(*s2)}};
    }
  }
  d.depth = find_depth_certificate(values, true);
  if (d.depth.separated) {
    if (const auto m = verify_separator(values, d.depth.separator)) {
      d.kappa_sq_half_space = (*m) * (*m) / dot(d.depth.separator, d.depth.separator);
      c["half_space"] = {{"w", to_json(d.depth.separator)}};
    }
  } else {
    // p = (1/2, λ/2): output Σ λ_j v_j / 2 = 0 with sink mass 1/2.
    RVec p{Rational(1, 2)};
    for (const auto& l : d.depth.zero_combination) p.push_back(l / 2);
    c["counterexample"] = {{"p", to_json(p)}};
  }
  IntervalMp m = depth_enclosure(values, d.depth);
  std::optional<Rational> best;
  for (const auto& k : {d.kappa_sq_full_rank, d.kappa_sq_half_space})
    if (k && (!best || *k > *best)) best = k;
  if (best) {
    const IntervalMp kappa = num::sqrt(enclose(*best));
    if (num::lower(kappa) > num::lower(m)) m = num::hull_of_bounds<IntervalMp>(num::lower(kappa), num::upper(m));
  }
  d.margin = m;
  d.certificate = c;
  return d;
}

std::optional<Rational> verify_hard_switch_certificate(const RMat& values, const nlohmann::json& c, bool* counterexample) {
  if (counterexample) *counterexample = false;
  std::optional<Rational> best;
  try {
    if (c.contains("full_rank")) {
      const Rational s2 = parse_rational(c.at("full_rank").at("sigma_min_sq_lower").get<std::string>(), "sigma_min_sq_lower");
      RMat g = gram(values);
      if (s2 > 0 && values.size() <= values[0].size()) {
        for (std::size_t i = 0; i < g.size(); ++i) g[i][i] -= s2;
        if (is_psd_exact(g)) best = s2 / Rational(static_cast<long>(values.size()));
      }
    }
    if (c.contains("half_space")) {
      const RVec w = rvec_from_json(c.at("half_space").at("w"), "half_space.w");
      if (const auto m = verify_separator(values, w)) {
        const Rational k = (*m) * (*m) / dot(w, w);
        if (!best || k > *best) best = k;
      }
    }
    if (!best && c.contains("counterexample")) {
      const RVec p = rvec_from_json(c.at("counterexample").at("p"), "counterexample.p");
      bool ok = p.size() == values.size() + 1 && p[0] < 1;
      Rational s = 0;
      for (const auto& x : p) { ok = ok && x >= 0; s += x; }
      if (ok && s == 1) {
        const RVec o = output(values, p);
        bool zero = true;
        for (const auto& x : o) zero = zero && x == 0;
        if (zero && counterexample) *counterexample = true;
      }
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return best;
}

}  // namespace softcert::certify
