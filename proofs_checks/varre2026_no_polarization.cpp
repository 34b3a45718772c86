// Varre, Rofin, Flammarion (2026): the negative claims of §3.2 as statements that hold per
// instance (docs/theorems/varre2026_no_polarization.md). The seed summary says that f(x) = x
// normalization "does not" polarize and that "with elementwise nonlinearities such as sigmoid or
// ReLU this polarization disappears". A negative claim is universal: it is checked on every
// instance, not supported by one counterexample to "polarizes". Two readings, both ours:
//
//   normalization.spread       no token carries 1 − ε or more of the attention's magnitude at H:
//                              share(α) = max_i |α_i| / Σ_i |α_i| < 1 − ε. The share respects what
//                              α is for every row of the notebook: α = a/Σa leaves the simplex
//                              (its entries can be negative and exceed 1, so "far from a vertex"
//                              would hold trivially), and an elementwise gate is not a
//                              distribution (α = (0.9, 0.9) is spread, not near a vertex).
//                              Margin: (1 − ε) − share(α(a(H))).
//   normalization.open_gates   competition: every token whose value projection u_i(0) = (V(0)ᵀβ*)_i
//                              is positive ends with α_i(a(H)) ≥ α_i(a(0)) — a token that helps the
//                              loss keeps its weight. Under elementwise sigmoid u̇_i = g c α_i > 0
//                              and ȧ_i = g σ'(a_i) u_i, so it holds for all t on every instance
//                              (our lemma); under softmax the winner's gain is the others' loss
//                              (mean-centering), so it fails once two values are positive — the
//                              mechanism the paper names. Margin: min_{u_i(0) > 0} α_i(H) − α_i(0).
//
// Instances: generate_family_instance (polarization.hpp), then exactly the first k value
// projections are made positive by flipping columns of V(0), k = params.positive (a number or a
// range [lo, hi]) or drawn from [1, T] — starts with one, two and all values positive. Rigorous tier only: the full model enclosed to t = H (flow::full_state_at).
#include <string>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "varre2026_check.hpp"
#include "varre2026_polarization.hpp"

namespace softcert::varre2026 {

enum class SpreadReading { spread, open_gates };

namespace {

// share(α) = max |α_i| / Σ |α_i|. Guarantee (interval kinds): contains share(α) for every α in
// the box with Σ|α_i| > 0 (an enclosure of the sum that contains 0 throws domain_error).
template <class S>
S magnitude_share(const std::vector<S>& alpha) {
  S top = num::abs_of(alpha[0]), sum = num::abs_of(alpha[0]);
  for (std::size_t i = 1; i < alpha.size(); ++i) {
    top = num::max_of(top, num::abs_of(alpha[i]));
    sum = S(sum + num::abs_of(alpha[i]));
  }
  if (!num::certainly_positive(sum)) throw std::domain_error("the attention's total magnitude may be 0");
  return S(top / sum);
}

// Flips columns of V(0) so that u_j(0) > 0 exactly for j < k and u_j(0) < 0 for j ≥ k (a column
// with u_j(0) = 0 exactly is left as it is).
void make_positive_values(nlohmann::json& j, std::size_t k) {
  const instances::Instance inst = instances::parse_instance(j);
  const ExactStart s = exact_start(inst);
  for (std::size_t col = 0; col < inst.T; ++col) {
    const bool want_positive = col < k;
    if (s.u[col] == 0 || (s.u[col] > 0) == want_positive) continue;
    for (auto& row : j["V"]) {
      std::string x = row[col].get<std::string>();
      row[col] = x.rfind('-', 0) == 0 ? x.substr(1) : (x == "0" ? x : "-" + x);
    }
  }
}

}  // namespace

class NoPolarizationCheck : public VarreCheck {
 public:
  explicit NoPolarizationCheck(SpreadReading reading) : VarreCheck(text(reading)), reading_(reading) {}
  static CheckText text(SpreadReading reading) {
    const std::string doc = "docs/theorems/varre2026_no_polarization.md";
    const std::string q =
        "paper: seed 3.2 'a linear normalization such as f(x) = x does not' polarize, 'with elementwise "
        "nonlinearities such as sigmoid or ReLU this polarization disappears'; code: the notebook's rows Sum and "
        "Sigmoid (cells 5-6)";
    if (reading == SpreadReading::spread)
      return {"varre2026.normalization.spread", doc,
              "[" + q + "; ours: the reading, per instance, in a metric for any alpha] For the instance's loss and "
              "normalization the gradient flow reaches t = H and no token carries 1 - epsilon or more of the "
              "attention's magnitude: max_i |alpha_i(H)| / sum_i |alpha_i(H)| < 1 - epsilon."};
    return {"varre2026.normalization.open_gates", doc,
            "[" + q + "; ours: 'disappears' read as the absence of competition] For the instance's loss and "
            "normalization the gradient flow reaches t = H and every token with a positive value projection "
            "u_i(0) = (V(0)^T beta*)_i > 0 keeps its weight: alpha_i(a(H)) >= alpha_i(a(0))."};
  }
  std::vector<std::string> hypotheses() const override { return {kUniformOnesA0}; }
  std::vector<std::string> params() const override {
    return {"T", "d", "n", "loss", "normalization", "v_scale", "a_scale", "positive", "epsilon", "order", "max_steps"};
  }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    nlohmann::json j = generate_family_instance(seed, o, name());
    const std::size_t T = j["T"].get<std::size_t>();
    support::SplitMix64 pick(seed ^ 0x905171feULL);
    const std::size_t k = std::min(T, pick_size(o.params, "positive", 1 + pick.next() % T, pick.next()));
    make_positive_values(j, k);
    j["provenance"] = j["provenance"].get<std::string>() + ", " + std::to_string(k) + " value projection(s) positive";
    return j;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check needs a validated enclosure; use --tier rigorous");
    const instances::Instance inst = instances::parse_instance(instance);
    const ExactStart s = exact_start(inst);
    std::vector<std::size_t> positive;
    for (std::size_t i = 0; i < inst.T; ++i)
      if (s.u[i] > 0) positive.push_back(i);
    if (reading_ == SpreadReading::open_gates && positive.empty())
      throw std::invalid_argument("V: this reading needs a token with a positive value projection (V(0)^T beta*)_i > 0");
    const double H = horizon_param(o, 1e4, "1e9");
    const double epsilon = fraction_param(o.params, "epsilon", 0.1);
    const auto request = no_tail(order_and_budget(taylor_order_param(o.params, 0), max_steps_param(o.params, 200000)));
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r;
    r.horizon = H;
    engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      using S = decltype(kind);
      const auto enc = flow::full_state_at<S>(inst, H, request, o.certificate);
      const auto certify = [&] {  // a proved record's certificate, where the run wrote its steps
        if (o.certificate && enc.certificate && r.verdict == engine::Verdict::proved)
          r.certificate = attention_at_horizon_certificate(
              name(), reading_ == SpreadReading::spread ? "spread_at_horizon" : "open_gates_at_horizon", instance, r,
              *enc.certificate, epsilon);
      };
      r.precision_bits = used;
      r.details["steps"] = enc.steps;
      nlohmann::json al = nlohmann::json::array();
      for (const auto& x : enc.alpha) al.push_back(enclosure_json(x, 8));
      r.details["alpha"] = al;
      if (reading_ == SpreadReading::spread) {
        const S share = magnitude_share(enc.alpha);
        r.details["share"] = enclosure_json(share, 8);
        engine::decide_by_margin(r, S(S(1) - S(epsilon) - share),
                                 {"no token carries 1 - epsilon of the attention's magnitude at H",
                                  "one token certainly carries more than 1 - epsilon of the attention's magnitude at H",
                                  "the enclosure of the largest share straddles 1 - epsilon"});
        certify();
        return 0;
      }
      const auto alpha0 = models::ValueSoftmax<S>(inst).attention(models::ValueSoftmax<S>(inst).initial_state());
      S worst;
      std::size_t at = positive.front();
      for (std::size_t n = 0; n < positive.size(); ++n) {
        const std::size_t i = positive[n];
        const S gain = S(enc.alpha[i] - alpha0[i]);
        if (n == 0 || num::lower(gain) < num::lower(worst)) at = i;
        worst = n == 0 ? gain : num::min_of(worst, gain);
      }
      r.details["positive_values"] = positive;
      r.details["worst_token"] = at;
      engine::decide_by_margin(r, worst,
                               {"every token with a positive value projection keeps its weight at H",
                                "token " + std::to_string(at) + " has a positive value projection and certainly lost weight by H",
                                "the enclosure of a weight change straddles 0"});
      certify();
      return 0;
    });
    r.details["normalization"] = instances::to_string(inst.normalization);
    r.details["loss"] = instances::to_string(inst.loss);
    r.details["epsilon"] = epsilon;
    return r;
  }

 private:
  SpreadReading reading_;
};

SOFTCERT_REGISTER_CHECK(NoPolarizationCheck, SpreadReading::spread);
SOFTCERT_REGISTER_CHECK(NoPolarizationCheck, SpreadReading::open_gates);

}  // namespace softcert::varre2026
