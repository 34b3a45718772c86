// Varre, Rofin, Flammarion (2026), §3.2: "with elementwise nonlinearities such as sigmoid or ReLU
// this polarization disappears" (seed summary, translated) — the elementwise ReLU, unnormalised
// (docs/theorems/varre2026_elementwise_relu.md). The notebook's "relu" row is a different,
// normalised model; the elementwise sigmoid is run by varre2026.normalization.*.
//
// Model [ours: the seed's sentence made concrete]: β = V α with α = max(a, 0) elementwise, logistic
// loss log(1 + e^{−⟨β*, β⟩}), relu'(0) = 0. With u = Vᵀβ*, c = ‖β*‖², k = √c, in τ-time
// (dτ = γ dt): for a_i > 0, da_i/dτ = u_i and du_i/dτ = c a_i; for a_i ≤ 0 both are 0. So every
// token evolves alone: a_i(τ) = ½[(a_i + u_i/k) e^{kτ} + (a_i − u_i/k) e^{−kτ}] while positive.
// With S = {i : a_i(0) > 0, k a_i(0) + u_i(0) > 0}, the tokens of S stay positive and grow like
// e^{kτ}, the others reach 0 or decay, and τ → ∞ as t → ∞; hence
//     p(t) = α/Σα → p∞,  p∞_i = (k a_i(0) + u_i(0)) / Σ_{j∈S} (k a_j(0) + u_j(0))  (i ∈ S), 0 else.
// Claim ("polarization disappears", our reading): the limit p∞ is not one-hot, i.e. |S| ≥ 2.
// Margin: 1 − max_i p∞_i (enclosed; > 0 iff |S| ≥ 2). S is decided exactly in rationals:
// k a + u > 0 ⇔ u ≥ 0 (with a > 0) or c a² > u².
// proved: |S| ≥ 2. violated: |S| = 1 — the limit is the vertex e_i, a certified counterexample to
// our reading (margin exactly 0). inconclusive: S empty (every α_i → 0: no limit direction).
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "exact_certificate.hpp"
#include "numerics/elementary.hpp"
#include "varre2026_check.hpp"
#include "varre2026_polarization.hpp"

namespace softcert::varre2026 {

namespace {

// [lo, hi] doubles around a rational, outward.
IntervalD enclose(const Rational& q) {
  double lo = q.convert_to<double>(), hi = lo;
  if (Rational(lo) > q) lo = std::nextafter(lo, -INFINITY);
  if (Rational(hi) < q) hi = std::nextafter(hi, INFINITY);
  return IntervalD(lo, hi);
}

}  // namespace

class ElementwiseReluCheck : public VarreCheck {
 public:
  ElementwiseReluCheck()
      : VarreCheck({"varre2026.elementwise_relu.no_polarization", "docs/theorems/varre2026_elementwise_relu.md",
                    "[paper, 3.2: seed 'with elementwise nonlinearities such as sigmoid or ReLU this polarization disappears'; "
                    "ours: the unnormalised model alpha = max(a, 0), its exact solution and the reading of 'disappears'] "
                    "Logistic loss, beta = V max(a, 0) elementwise: alpha/sum(alpha) converges as t -> infinity to a limit "
                    "that is not one-hot (at least two tokens with a_i(0) > 0 and sqrt(c) a_i(0) + u_i(0) > 0)."}) {}
  std::vector<std::string> params() const override { return {"T", "d", "v_scale", "a_scale"}; }

  // The authors' start for the normalization rows [code, cell 6]: a(0) = 1 + a_scale·N(0, 1)
  // (default 0.1), V(0) = 0.1·N(0, 1), β* normalised; normalization "relu" (read as elementwise).
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    engine::GenerateOptions g = o;
    g.dropped.insert(kUniformOnesA0);
    if (!g.params.contains("a_scale")) g.params["a_scale"] = 0.1;
    g.params["normalization"] = "relu";
    return generate_family_instance(seed, g, name());
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check is an exact certificate; use --tier rigorous");
    const instances::Instance inst = instances::parse_instance(instance);
    if (inst.model != "value_softmax") throw std::invalid_argument("model: this check needs \"value_softmax\"");
    if (inst.loss != instances::Loss::logistic) throw std::invalid_argument("loss: this check needs \"logistic\"");
    if (inst.normalization != instances::Normalization::relu)
      throw std::invalid_argument(
          "normalization: this check needs \"relu\", which it reads as the elementwise ReLU max(a, 0), unnormalised");
    const ExactStart s = exact_start(inst);
    Rational c = 0;
    for (const auto& b : inst.beta) c += num::parse_decimal<Rational>(b) * num::parse_decimal<Rational>(b);
    if (c == 0) throw std::invalid_argument("beta: must not be 0");
    std::vector<std::size_t> survivors;
    for (std::size_t i = 0; i < inst.T; ++i)
      if (s.a[i] > 0 && (s.u[i] >= 0 || c * s.a[i] * s.a[i] > s.u[i] * s.u[i])) survivors.push_back(i);
    engine::CheckResult r;
    r.precision_bits = 53;
    r.details["survivors"] = survivors;
    if (survivors.empty()) {
      r.reason = "no token has a(0) > 0 and sqrt(c) a(0) + u(0) > 0: every alpha_i -> 0, no limit direction";
      return r;
    }
    if (survivors.size() == 1) {
      // 1 − max p∞ = 0 exactly: the limit is one-hot, the claim's margin is 0 and the exact
      // limit is the certificate of the counterexample.
      engine::set_exact_margin(r, 0);
      engine::decide_by_certificate(r, engine::Certified::counterexample,
                                    {"", "only token " + std::to_string(survivors[0]) + " survives: alpha/sum(alpha) -> e_" +
                                             std::to_string(survivors[0]) + " (one-hot)",
                                     ""});
      return r;
    }
    // 1 − p∞_i = Σ_{j∈S, j≠i} (k a_j + u_j) / Σ_{j∈S} (k a_j + u_j), every term positive
    const IntervalD k = num::sqrt(enclose(c));
    Rational A = 0, U = 0;
    for (std::size_t j : survivors) A += s.a[j], U += s.u[j];
    const IntervalD total = k * enclose(A) + enclose(U);
    IntervalD margin;
    nlohmann::json limit = nlohmann::json::object();
    for (std::size_t n = 0; n < survivors.size(); ++n) {
      const std::size_t i = survivors[n];
      const IntervalD rest = k * enclose(A - s.a[i]) + enclose(U - s.u[i]);
      const IntervalD m = rest / total;
      const IntervalD p = (k * enclose(s.a[i]) + enclose(s.u[i])) / total;
      limit[std::to_string(i)] = enclosure_json(p, 8);
      margin = n == 0 ? m : num::min_of(margin, m);
    }
    r.details["limit"] = limit;
    // Every term of 1 − p∞_i is positive with two or more survivors: only `proved` or, for an
    // enclosure too wide, `inconclusive` can come out.
    engine::decide_by_margin(r, margin,
                             {std::to_string(survivors.size()) + " tokens survive: the limit of alpha/sum(alpha) has max weight <= " +
                                  num::upper_decimal(IntervalD(1) - margin, 6) + " < 1",
                              "the limit attention is one-hot", "the enclosure of 1 - max p_inf does not exclude 0"});
    if (o.certificate && r.verdict == engine::Verdict::proved)
      r.certificate = exact_certificate(name(), "limit_not_one_hot", instance, r, {{"survivors", survivors}});
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(ElementwiseReluCheck);

}  // namespace softcert::varre2026
