// Varre, Rofin, Flammarion (2026), Thm 3.3 for two tokens: which vertex σ(a) goes to, and the
// starts from which it goes to none (docs/theorems/varre2026_t2_basin.md).
//
// [ours] For T = 2, logistic loss and softmax, with δ = a_1 − a_2, Δ = u_1 − u_2 (u = Vᵀβ*) and
// c = ‖β*‖², the flow satisfies δ̇ = 2g s(1 − s) Δ and Δ̇ = g c (2s − 1) with s = σ(a)_1 and
// g = sigmoid(−⟨β*, Vσ(a)⟩) > 0, so E = cosh δ − Δ²/(2c) is conserved. Hence:
//   E < 1: Δ never vanishes, and the token with the larger u(0) wins;
//   E > 1: δ never vanishes, and the token with the larger a(0) wins;
//   E = 1 with sign δ = −sign Δ (the separatrix): δ, Δ → 0, so σ(a) → (½, ½) while the loss → 0
//          (∫g dt = ∞ on every orbit, so u_1 + u_2 → ∞) — Thm 3.3 needs a genericity hypothesis.
//
// t2_basin            claim: the certified winner is the one the sign of E − 1 names.
// t2_basin.swapped    near miss: the rule with its two cases exchanged.
// t2_separatrix       the ungeneric reading "σ(a) → a vertex from every start with u_1(0) ≠
//                     u_2(0)". The instance fixes V(0), β* and a_2(0); the check builds two starts
//                     a_1(0) = a_2(0) + δ± on either side of the separatrix (E − 1 = ∓η·Δ²/(2c),
//                     certified), and certifies their winners by integration. Different winners
//                     (as the rule says) bracket a start with E = 1 exactly, from which σ(a) →
//                     (½, ½): violated, margin −½ (the limit's distance from both vertices).
//
// Winners are certified by entry into the forward-invariant region R_k (region_entry.hpp).
#include <cmath>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "numerics/elementary.hpp"
#include "varre2026_check.hpp"
#include "varre2026_region_entry.hpp"

namespace softcert::varre2026 {

enum class BasinReading { rule, swapped, separatrix };

namespace {

// E − 1 = cosh δ − 1 − Δ²/(2c) from the decimal data, enclosed.
template <class S>
S energy_minus_one(const instances::Instance& inst) {
  auto p = [](const std::string& x) { return num::parse_decimal<S>(x); };
  const S delta = S(p(inst.a[0]) - p(inst.a[1]));
  S Delta(0), c(0);
  for (std::size_t r = 0; r < inst.d; ++r) {
    const S b = p(inst.beta[r]);
    Delta = S(Delta + S(S(p(inst.V[r][0]) - p(inst.V[r][1])) * b));
    c = S(c + S(b * b));
  }
  const S cosh = S(S(num::exp(delta) + num::exp(S(S(0) - delta))) / S(2));
  return S(S(cosh - S(1)) - S(S(Delta * Delta) / S(S(2) * c)));
}

// The point δ with cosh δ = 1 + (1 + rel)·Δ²/(2c) and sign −sign Δ (no guarantee: a start to be
// certified), as a shortest round-trip decimal.
std::string delta_for(const ExactStart& s, const Rational& c, double rel) {
  const double D = (s.u[0] - s.u[1]).convert_to<double>(), cc = c.convert_to<double>();
  const double mag = std::acosh(1 + (1 + rel) * D * D / (2 * cc));
  return num::decimal_round_trip(D > 0 ? -mag : mag);
}

Rational squared_norm(const instances::Instance& inst) {
  Rational c = 0;
  for (const auto& b : inst.beta) c += num::parse_decimal<Rational>(b) * num::parse_decimal<Rational>(b);
  return c;
}

instances::Instance with_a(instances::Instance inst, const std::string& delta) {
  inst.a[0] = num::decimal_round_trip(num::parse_decimal<double>(inst.a[1]) + num::parse_decimal<double>(delta));
  return inst;
}

}  // namespace

class TwoTokenBasinCheck : public LogisticCheck {
 public:
  explicit TwoTokenBasinCheck(BasinReading reading) : LogisticCheck(text(reading)), reading_(reading) {}
  static CheckText text(BasinReading reading) {
    const std::string doc = "docs/theorems/varre2026_t2_basin.md";
    const std::string q =
        "paper, Thm 3.3: seed 'as the loss converges to 0, the attention scores sigma(a) converge to a one-hot vector'; "
        "ours: the conserved E = cosh(a_1 - a_2) - (u_1 - u_2)^2/(2|beta*|^2) for T = 2 and the basin rule it gives";
    switch (reading) {
      case BasinReading::rule:
        return {"varre2026.one_hot.t2_basin", doc,
                "[" + q + "] Logistic loss, softmax, T = 2, E != 1: sigma(a(t)) -> e_k with k = argmax u(0) when E < 1 "
                "and k = argmax a(0) when E > 1."};
      case BasinReading::swapped:
        return {"varre2026.one_hot.t2_basin.swapped", doc,
                "[" + q + "; a near miss: the rule's two cases exchanged] Logistic loss, softmax, T = 2, E != 1: "
                "sigma(a(t)) -> e_k with k = argmax a(0) when E < 1 and k = argmax u(0) when E > 1."};
      case BasinReading::separatrix:
        return {"varre2026.one_hot.t2_separatrix", doc,
                "[" + q + "; the reading without genericity] Logistic loss, softmax, T = 2: from every start with "
                "u_1(0) != u_2(0) (here: V(0), beta* and a_2(0) of the instance, every a_1(0)), sigma(a(t)) converges "
                "to a one-hot vector."};
    }
    return {"", doc, ""};
  }
  std::vector<std::string> hypotheses() const override { return {kDistinctU0}; }
  // Claims about t -> infinity; H only bounds how far the check looks for the region entries.
  bool shorter_horizon_keeps_claim() const override { return true; }
  std::vector<std::string> params() const override { return {"v_scale", "eta", "order", "max_depth", "max_steps", "h_max"}; }

  // T = d = 2, V(0) = v_scale·N(0,1) (default 1), β* normalised, and a(0) = (δ, 0) with
  // E − 1 = ±η·Δ²/(2c), η = params.eta or drawn in [0.05, 0.5], the side alternating with the
  // seed: a(0) and u(0) ordered oppositely, so the rule's two cases name different winners.
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    instances::GeneratorOptions g;
    g.T = 2;
    g.d = 2;
    g.v_scale = number_param(o.params, "v_scale", 1.0);
    instances::Instance inst = instances::generate_instance(seed, g);
    support::SplitMix64 pick(seed ^ 0xba5171ULL);
    const double eta = o.params.contains("eta") ? fraction_param(o.params, "eta", 0.1)
                                                : 0.05 + 0.45 * static_cast<double>(pick.next() % 1000) / 999.0;
    const double side = seed % 2 == 0 ? 1.0 : -1.0;
    inst.a = {"0", "0"};
    inst.a = with_a(inst, delta_for(exact_start(inst), squared_norm(inst), side * eta)).a;
    inst.id = name() + "@" + std::to_string(seed);
    inst.provenance = name() + " generator, seed " + std::to_string(seed) + ", E - 1 = " + (side > 0 ? "+" : "-") +
                      num::decimal_round_trip(eta) + " * Delta^2/(2c)";
    return instances::to_json(inst);
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check needs a validated tube; use --tier rigorous");
    const instances::Instance inst = logistic_instance(instance);
    if (inst.T != 2) throw std::invalid_argument("T: this check is for two tokens");
    const ExactStart s = exact_start(inst);
    if (s.u[0] == s.u[1]) {
      // Reached only with distinct-u0 dropped (run_check tests it otherwise): the rule's sides
      // and the separatrix's starts are defined by the sign of u_1(0) − u_2(0).
      engine::CheckResult r;
      engine::undecided(r, "u_1(0) = u_2(0): the reading names its winner and its starts by the sign of u_1(0) - u_2(0)");
      return r;
    }
    engine::CheckOptions oo = o;
    if (!oo.horizon) oo.horizon = 1e5;
    const TubeCheckSettings set = tube_settings(oo);
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    return engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      using S = decltype(kind);
      engine::CheckResult r = reading_ == BasinReading::separatrix ? separatrix<S>(inst, s, o, set) : rule<S>(inst, s, set, instance);
      r.precision_bits = used;
      r.horizon = set.horizon;
      return r;
    });
  }

 private:
  // The winner the rule (or its swap) names: nullopt when the sign of E − 1 is not certain.
  template <class S>
  std::optional<std::size_t> predicted(const instances::Instance& inst, const ExactStart& s, nlohmann::json& details,
                                       bool swap) const {
    const S e = energy_minus_one<S>(inst);
    details["E_minus_1"] = enclosure_json(e, 10);
    const bool below = num::certainly_negative(e), above = num::certainly_positive(e);
    if (!below && !above) return std::nullopt;
    const std::size_t by_u = s.u[0] > s.u[1] ? 0 : 1, by_a = s.a[0] > s.a[1] ? 0 : 1;
    if (s.a[0] == s.a[1] && below != swap) return by_u;
    if (s.a[0] == s.a[1]) return std::nullopt;  // a tie makes E < 1, where the swap names the tied argmax a(0)
    return below != swap ? by_u : by_a;
  }

  template <class S>
  engine::CheckResult rule(const instances::Instance& inst, const ExactStart& s, const TubeCheckSettings& set,
                           const nlohmann::json& instance) const {
    engine::CheckResult r;
    const auto k = predicted<S>(inst, s, r.details, reading_ == BasinReading::swapped);
    if (!k) {
      r.reason = "the enclosure of E - 1 contains 0: the start may lie on the separatrix";
      return r;
    }
    r.details["claimed_winner"] = *k;
    const RegionEntrySearch<S> found = find_region_entry<S>(inst, set);
    r.details["steps"] = found.walk.steps;
    if (!found.entry) {
      r.reason = "no certified entry into R_1 or R_2 up to t = H" + (found.walk.failure.empty() ? "" : " (" + found.walk.failure + ")");
      return r;
    }
    const RegionEntry<S>& e = *found.entry;
    r.details["winner"] = e.winner;
    r.details["entry_t"] = enclosure_json(e.t, 10);
    const std::string where = "state certified inside R_" + std::to_string(e.winner) + " at t in [" +
                              num::lower_decimal(e.t, 6) + ", " + num::upper_decimal(e.t, 6) + "]";
    engine::decide_by_margin(r, e.winner == *k ? e.margin : S(-e.margin),
                             {where + ", the winner the sign of E - 1 names",
                              where + ": the winner is not e_" + std::to_string(*k) + ", the one claimed",
                              where + ": the entry margin does not exclude 0"});
    // The rule's own reading is certified (softcert-verify recomputes E − 1 and the winner it names).
    if (set.certificate && reading_ == BasinReading::rule && r.verdict == engine::Verdict::proved)
      r.certificate = region_entry_certificate(name(), instance, r, found);
    return r;
  }

  template <class S>
  engine::CheckResult separatrix(const instances::Instance& inst, const ExactStart& s, const engine::CheckOptions& o,
                                 const TubeCheckSettings& set) const {
    engine::CheckResult r;
    const double eta = fraction_param(o.params, "eta", 0.01);
    const Rational c = squared_norm(inst);
    const instances::Instance inner = with_a(inst, delta_for(s, c, -eta)), outer = with_a(inst, delta_for(s, c, eta));
    const S e_in = energy_minus_one<S>(inner), e_out = energy_minus_one<S>(outer);
    r.details["a1_inner"] = inner.a[0];
    r.details["a1_outer"] = outer.a[0];
    r.details["E_minus_1"] = {enclosure_json(e_in, 10), enclosure_json(e_out, 10)};
    if (!num::certainly_negative(e_in) || !num::certainly_positive(e_out)) {
      r.reason = "the two starts are not certified on opposite sides of E = 1";
      return r;
    }
    const RegionEntrySearch<S> w_in = find_region_entry<S>(inner, set), w_out = find_region_entry<S>(outer, set);
    r.details["steps"] = w_in.walk.steps + w_out.walk.steps;
    if (!w_in.entry || !w_out.entry) {
      r.reason = "no certified winner by t = H from the start on the " + std::string(w_in.entry ? "outer" : "inner") + " side";
      return r;
    }
    r.details["winners"] = {w_in.entry->winner, w_out.entry->winner};
    r.details["entry_t"] = {enclosure_json(w_in.entry->t, 10), enclosure_json(w_out.entry->t, 10)};
    if (w_in.entry->winner == w_out.entry->winner) {
      r.reason = "both starts have the same certified winner: no flip certified between them";
      return r;
    }
    engine::decide_by_exact_margin(
        r, Rational(-1, 2),
        {"", "certified winners e_" + std::to_string(w_in.entry->winner) + " (E < 1) and e_" + std::to_string(w_out.entry->winner) +
                 " (E > 1) for a_1(0) = " + inner.a[0] + " and " + outer.a[0] +
                 ": between them a start has E = 1 exactly, from which sigma(a) -> (1/2, 1/2) while the loss -> 0",
         ""});
    return r;
  }

  BasinReading reading_;
};

SOFTCERT_REGISTER_CHECK(TwoTokenBasinCheck, BasinReading::rule);
SOFTCERT_REGISTER_CHECK(TwoTokenBasinCheck, BasinReading::swapped);
SOFTCERT_REGISTER_CHECK(TwoTokenBasinCheck, BasinReading::separatrix);

}  // namespace softcert::varre2026
