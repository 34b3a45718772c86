// Varre, Rofin, Flammarion (2026), §3.3, the attention sink: "the optimisation dynamics
// inevitably concentrate the attention mass on the token with the highest initial score (e.g.
// the BOS token)" (seed summary, translated) — docs/theorems/varre2026_attention_sink.md.
//
// Which token wins is certified by entry into the forward-invariant region R_k (Lemma 2 of
// docs/theorems/varre2026_region_lemma.md: σ(a) → e_k for all t → ∞); each reading then
// compares that winner k with an index computed exactly from the rational initial data:
//
// attention_sink            a(0) uniform (the paper's initialisation [code, cell 3]): every
//                           initial score ties, so [ours] "highest initial score" is the score
//                           that leads for all small t > 0, i.e. argmax u(0), since
//                           da_i/dt(0) = γ(u_i − ū)/T. Claim: k = argmax u(0).
// attention_sink.argmax_a0  [ours] a(0) not uniform, unique argmax: k = argmax a(0).
// attention_sink.argmax_u0  [ours] a(0) not uniform: k = argmax u(0).
// attention_sink.agreeing   [ours] argmax a(0) = argmax u(0) = m (both unique): k = m. The start
//                           is in R_m exactly (Lemma 1), so no integration is needed.
// attention_sink.values_at_zero  [ours] V(0) = 0 and a unique m = argmax a(0), the reading where
//                           the highest initial score is all there is: k = m. Our lemma proves it for
//                           every such start (u(0) = 0 and u̇ = g c σ(a) put the state in R_m for all
//                           small t > 0); the check certifies the entry by integration regardless.
//
// proved: the certified winner is the claimed index (margin: the entry margin). violated: the
// state is certified inside R_k with k ≠ the claimed index, so σ(a) → e_k ≠ e_claimed — a
// certified counterexample to that reading (margin: minus the entry margin). inconclusive: no
// certified entry by H.
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "varre2026_check.hpp"
#include "varre2026_region_entry.hpp"

namespace softcert::varre2026 {

// Which index the reading claims wins (file header).
enum class SinkReading { uniform, argmax_a0, argmax_u0, agreeing, values_at_zero };

namespace {

inline const char* const kUniqueArgmaxA0 = "unique-argmax-a0";
inline const char* const kZeroV0 = "zero-V0";  // every entry of V(0) is 0
// argmax a(0) = argmax u(0), both unique (the agreeing reading)
inline const char* const kAgreeingArgmax = "agreeing-argmax";

bool zero_values(const instances::Instance& inst) {
  for (const auto& row : inst.V)
    for (const auto& x : row)
      if (num::parse_decimal<Rational>(x) != 0) return false;
  return true;
}

// "a_1(0) = a_4(0)": the first two indices where v reaches its maximum (`name` is v's name).
std::string ties_of_max(const std::vector<Rational>& v, const std::string& name) {
  const Rational top = *std::max_element(v.begin(), v.end());
  std::string out;
  int shown = 0;
  for (std::size_t j = 0; j < v.size() && shown < 2; ++j)
    if (v[j] == top) out += (shown++ ? " = " : "") + name + "_" + std::to_string(j) + "(0)";
  return out;
}

// The index of the strict maximum of v, exactly; nullopt when the maximum is tied.
std::optional<std::size_t> strict_argmax(const std::vector<Rational>& v) {
  const std::size_t k = static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
  if (std::count(v.begin(), v.end(), v[k]) != 1) return std::nullopt;
  return k;
}

// min over j ≠ m of min(a_m − a_j, u_m − u_j), exactly: > 0 iff the start is in R_m.
Rational region_margin(const ExactStart& s, std::size_t m) {
  Rational best = 0;
  bool first = true;
  for (std::size_t j = 0; j < s.a.size(); ++j) {
    if (j == m) continue;
    const Rational g = std::min(s.a[m] - s.a[j], s.u[m] - s.u[j]);
    if (first || g < best) best = g;
    first = false;
  }
  return best;
}

template <class S>
engine::CheckResult decide(const instances::Instance& inst, const TubeCheckSettings& set, std::size_t claimed,
                           const std::string& claimed_as, const std::string& check, const nlohmann::json& instance) {
  const RegionEntrySearch<S> found = find_region_entry<S>(inst, set);
  engine::CheckResult r;
  r.horizon = set.horizon;
  r.details["steps"] = found.walk.steps;
  r.details["claimed_winner"] = claimed;
  if (!found.entry) {
    r.reason = "no certified entry into any R_k up to t = H" +
               (found.walk.failure.empty() ? std::string() : " (" + found.walk.failure + ")");
    return r;
  }
  const RegionEntry<S>& e = *found.entry;
  r.details["winner"] = e.winner;
  r.details["entry_t"] = {num::lower_decimal(e.t), num::upper_decimal(e.t)};
  const std::string where = "state certified inside R_" + std::to_string(e.winner) + " at t in [" +
                            num::lower_decimal(e.t, 6) + ", " + num::upper_decimal(e.t, 6) + "]";
  // The region entry certifies where σ(a) goes; its margin (the gap that keeps the state in
  // R_winner) is the claim's margin when the winner is the claimed token, its negation otherwise.
  const bool holds = e.winner == claimed;
  engine::decide_by_margin(r, holds ? e.margin : S(-e.margin),
                           {where + ": sigma(a) -> e_" + std::to_string(e.winner) + ", the " + claimed_as,
                            where + ": sigma(a) -> e_" + std::to_string(e.winner) + ", not e_" + std::to_string(claimed) +
                                " (the " + claimed_as + ")",
                            where + ": the entry margin does not exclude 0"});
  if (set.certificate && r.verdict == engine::Verdict::proved) r.certificate = region_entry_certificate(check, instance, r, found);
  return r;
}

}  // namespace

class AttentionSinkCheck : public LogisticCheck {
 public:
  explicit AttentionSinkCheck(SinkReading reading) : LogisticCheck(text(reading)), reading_(reading) {}
  static CheckText text(SinkReading reading) {
    const std::string doc = "docs/theorems/varre2026_attention_sink.md";
    const std::string q =
        "paper, section 3.3: seed 'attention mass inevitably concentrates on the token with the highest initial "
        "score (e.g. BOS)'";
    switch (reading) {
      case SinkReading::uniform:
        return {"varre2026.attention_sink", doc,
                "[" + q + "; ours: with a(0) uniform every initial score ties, so the token whose score leads for "
                "small t > 0, argmax u(0); certificate ours (region lemma)] Logistic loss, softmax, a(0) uniform, "
                "u(0) distinct: sigma(a(t)) -> e_k as t -> infinity with k = argmax u(0)."};
      case SinkReading::argmax_a0:
        return {"varre2026.attention_sink.argmax_a0", doc,
                "[ours: a reading of " + q + " from a non-uniform start; a violation refutes this reading only] "
                "Logistic loss, softmax, argmax a(0) unique: sigma(a(t)) -> e_k with k = argmax a(0)."};
      case SinkReading::argmax_u0:
        return {"varre2026.attention_sink.argmax_u0", doc,
                "[ours: the alternative reading, u(0) decides; a violation refutes this reading only] Logistic "
                "loss, softmax, a(0) not necessarily uniform: sigma(a(t)) -> e_k with k = argmax u(0)."};
      case SinkReading::agreeing:
        return {"varre2026.attention_sink.agreeing", doc,
                "[ours: Thm 3.3 and the sink from a non-uniform a(0) where the orderings agree] Logistic loss, "
                "softmax, argmax a(0) = argmax u(0) = m, both unique: sigma(a(t)) -> e_m (the start is in R_m, "
                "Lemma 1)."};
      case SinkReading::values_at_zero:
        return {"varre2026.attention_sink.values_at_zero", doc,
                "[" + q + "; ours: the reading where the initial scores are all that differs -- values start at "
                "zero; our lemma proves it for every such start, the check certifies it by integration] Logistic "
                "loss, softmax, V(0) = 0, argmax a(0) unique: sigma(a(t)) -> e_k with k = argmax a(0)."};
    }
    return {"", doc, ""};
  }
  std::vector<std::string> hypotheses() const override {
    switch (reading_) {
      case SinkReading::uniform: return {kUniformA0, kDistinctU0};
      case SinkReading::argmax_a0: return {kUniqueArgmaxA0, kDistinctU0};
      case SinkReading::values_at_zero: return {kZeroV0, kUniqueArgmaxA0};
      case SinkReading::agreeing: return {kAgreeingArgmax, kDistinctU0};
      default: return {kDistinctU0};
    }
  }
  // Claims about t -> infinity; H only bounds how far the check looks for the region entry.
  bool shorter_horizon_keeps_claim() const override { return true; }
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "order", "max_depth", "max_steps", "h_max"}; }

  // The paper's reading draws a(0) = 0; the others draw a(0) = a_scale·N(0,1) (uniform-a0 is
  // not theirs to keep). agreeing then swaps two entries of a(0) so that its argmax is u(0)'s,
  // unless agreeing-argmax is dropped; values_at_zero sets V(0) = 0 unless zero-V0 is dropped.
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    engine::GenerateOptions g = o;
    if (reading_ != SinkReading::uniform) g.dropped.insert(kUniformA0);
    nlohmann::json j = generate_logistic_instance(seed, g, name());
    if (reading_ == SinkReading::agreeing && !o.dropped.count(kAgreeingArgmax)) {
      const ExactStart s = exact_start(instances::parse_instance(j));
      const std::size_t ka = static_cast<std::size_t>(std::max_element(s.a.begin(), s.a.end()) - s.a.begin());
      const std::size_t ku = static_cast<std::size_t>(std::max_element(s.u.begin(), s.u.end()) - s.u.begin());
      std::swap(j["a"][ka], j["a"][ku]);
    }
    if (reading_ == SinkReading::values_at_zero && !o.dropped.count(kZeroV0))
      for (auto& row : j["V"])
        for (auto& x : row) x = "0";
    return j;
  }

  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    std::map<std::string, bool> h = LogisticCheck::hypotheses_on(instance);
    const instances::Instance inst = logistic_instance(instance);
    const ExactStart s = exact_start(inst);
    const auto ka = strict_argmax(s.a), ku = strict_argmax(s.u);
    h[kUniqueArgmaxA0] = ka.has_value();
    h[kZeroV0] = zero_values(inst);
    h[kAgreeingArgmax] = ka && ku && *ka == *ku;
    return h;
  }

  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json& instance) const override {
    const instances::Instance inst = logistic_instance(instance);
    const ExactStart s = exact_start(inst);
    if (h == kZeroV0)
      for (std::size_t r = 0; r < inst.d; ++r)
        for (std::size_t j = 0; j < inst.T; ++j)
          if (num::parse_decimal<Rational>(inst.V[r][j]) != 0)
            return "V[" + std::to_string(r) + "][" + std::to_string(j) + "] = " + inst.V[r][j];
    if (h == kUniqueArgmaxA0) return "the largest entry of a(0) is tied: " + ties_of_max(s.a, "a");
    if (h == kAgreeingArgmax) {
      const auto ka = strict_argmax(s.a), ku = strict_argmax(s.u);
      if (!ka) return "the largest entry of a(0) is tied: " + ties_of_max(s.a, "a");
      if (!ku) return "the largest entry of u(0) is tied: " + ties_of_max(s.u, "u");
      return "argmax a(0) = " + std::to_string(*ka) + " but argmax u(0) = " + std::to_string(*ku);
    }
    return LogisticCheck::why_hypothesis_fails(h, instance);
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check needs a validated tube; use --tier rigorous");
    const instances::Instance inst = logistic_instance(instance);
    const ExactStart s = exact_start(inst);
    const auto ka = strict_argmax(s.a), ku = strict_argmax(s.u);
    std::size_t claimed = 0;
    std::string claimed_as;
    // The hypotheses the run assumes were tested by run_check; what is left here is a dropped
    // one whose failure leaves the reading without a token to name (a tied maximum): undecided.
    auto names_no_token = [](const std::string& why) {
      engine::CheckResult r;
      engine::undecided(r, why + ": the reading names no token");
      return r;
    };
    switch (reading_) {
      case SinkReading::uniform:
      case SinkReading::argmax_u0:
        if (!ku) return names_no_token("the largest entry of u(0) = V(0)^T beta* is tied");
        claimed = *ku, claimed_as = "argmax of u(0)";
        break;
      case SinkReading::argmax_a0:
      case SinkReading::values_at_zero:
        if (!ka) return names_no_token("the largest entry of a(0) is tied");
        claimed = *ka, claimed_as = "argmax of a(0)";
        break;
      case SinkReading::agreeing:
        if (!ka || !ku || *ka != *ku) return names_no_token("argmax a(0) and argmax u(0) are not one unique index");
        return agreeing_at_start(s, *ka, o.certificate ? name() : std::string(), instance);
    }
    engine::CheckOptions oo = o;
    if (!oo.horizon) oo.horizon = 1e5;
    const TubeCheckSettings set = tube_settings(oo);
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r = engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      engine::CheckResult at = decide<decltype(kind)>(inst, set, claimed, claimed_as, name(), instance);
      at.precision_bits = used;
      return at;
    });
    if (ka) r.details["argmax_a0"] = *ka;
    if (ku) r.details["argmax_u0"] = *ku;
    return r;
  }

 private:
  // Exact: the start is in R_m (every gap to m positive), so by Lemmas 1 and 2 σ(a) → e_m.
  // With `check` named, a proved result carries its certificate: the header alone, the start's
  // gaps being the instance's own numbers (docs/certificates.md, claim region_at_start).
  static engine::CheckResult agreeing_at_start(const ExactStart& s, std::size_t m, const std::string& check,
                                               const nlohmann::json& instance) {
    const Rational g = region_margin(s, m);
    engine::CheckResult r;
    r.precision_bits = 0;
    r.details["winner"] = m;
    r.details["claimed_winner"] = m;
    r.details["argmax_a0"] = m;
    r.details["argmax_u0"] = m;
    engine::decide_by_exact_margin(r, g,
                                   {"the start is in R_" + std::to_string(m) + " exactly (min gap " + decimal_below(g) +
                                        "); by Lemmas 1-2 sigma(a) -> e_" + std::to_string(m),
                                    "", "the start is on the boundary of R_" + std::to_string(m)});
    if (!check.empty() && r.verdict == engine::Verdict::proved)
      r.certificate = {nlohmann::json({{"certificate", "softcert.flow.v1"},
                                       {"check", check},
                                       {"model", "logistic_reduced_tau"},
                                       {"instance", instance},
                                       {"claim", {{"kind", "region_at_start"}, {"winner", m}}},
                                       {"margin", nlohmann::json::array({r.margin.lower_text(), r.margin.upper_text()})}})
                           .dump()};
    return r;
  }

  SinkReading reading_;
};

SOFTCERT_REGISTER_CHECK(AttentionSinkCheck, SinkReading::uniform);
SOFTCERT_REGISTER_CHECK(AttentionSinkCheck, SinkReading::argmax_a0);
SOFTCERT_REGISTER_CHECK(AttentionSinkCheck, SinkReading::argmax_u0);
SOFTCERT_REGISTER_CHECK(AttentionSinkCheck, SinkReading::agreeing);
SOFTCERT_REGISTER_CHECK(AttentionSinkCheck, SinkReading::values_at_zero);

}  // namespace softcert::varre2026
