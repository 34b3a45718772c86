// Varre, Rofin, Flammarion (2026), Thm 3.3: σ(a) → one-hot as the logistic loss → 0, and the
// massive-value split (docs/theorems/varre2026_one_hot.md, varre2026_massive_values.md).
//
// one_hot.eventual: certified entry into R_k on the validated tube proves σ(a(t)) → e_k for all
//                   t → ∞ (Lemma 2 of docs/theorems/varre2026_region_lemma.md).
// massive_values:   the same certificate proves ‖V_k(t)‖ → ∞ and sup_t ‖V_j(t)‖ < ∞ for j ≠ k.
// one_hot.finite:   max_k σ(a(H))_k ≥ 1 − ε, from the rigorous enclosure of the state at t = H.

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "varre2026_check.hpp"
#include "varre2026_region_entry.hpp"

namespace softcert::varre2026 {

namespace {

std::string argmax_name(const std::vector<Rational>& v, std::size_t k) {
  bool is_max = true, unique = true;
  for (std::size_t j = 0; j < v.size(); ++j) {
    if (j == k) continue;
    if (v[j] > v[k]) is_max = false;
    if (v[j] == v[k]) unique = false;
  }
  return is_max ? (unique ? "unique argmax" : "tied argmax") : "not the argmax";
}

template <class S>
engine::CheckResult eventual(const instances::Instance& inst, const TubeCheckSettings& set, bool massive,
                             const std::string& check, const nlohmann::json& instance) {
  const RegionEntrySearch<S> found = find_region_entry<S>(inst, set);
  engine::CheckResult r;
  r.horizon = set.horizon;
  r.details["steps"] = found.walk.steps;
  if (!found.entry) {
    engine::undecided(r, "no certified entry into any R_k up to t = H" +
                             (found.walk.failure.empty() ? std::string() : " (" + found.walk.failure + ")"));
    return r;
  }
  const RegionEntry<S>& e = *found.entry;
  const ExactStart start = exact_start(inst);
  engine::set_margin(r, e.margin);
  r.details["winner"] = e.winner;
  r.details["entry_step"] = e.step;
  r.details["entry_t"] = {num::lower_decimal(e.t), num::upper_decimal(e.t)};
  r.details["winner_vs_u0"] = argmax_name(start.u, e.winner);
  r.details["winner_vs_a0"] = argmax_name(start.a, e.winner);
  // The certified entry into R_winner is the certificate (region lemma); its margin is > 0.
  engine::decide_by_certificate(
      r, engine::Certified::claim,
      {"state certified inside R_" + std::to_string(e.winner) + " at t in [" + num::lower_decimal(e.t, 6) + ", " +
           num::upper_decimal(e.t, 6) + "]; by Lemma 2 " +
           (massive ? "column " + std::to_string(e.winner) + " of V grows without bound, the others stay bounded"
                    : "sigma(a) -> e_" + std::to_string(e.winner) + " as t -> infinity"),
       "", ""});
  if (set.certificate) r.certificate = region_entry_certificate(check, instance, r, found);
  return r;
}

engine::CheckResult eventual_at(const nlohmann::json& instance, const engine::CheckOptions& o, bool massive,
                                const std::string& check) {
  if (o.tier != engine::Tier::rigorous)
    throw std::invalid_argument("tier: this check needs a validated tube; use --tier rigorous");
  const instances::Instance inst = logistic_instance(instance);
  engine::CheckOptions oo = o;
  if (!oo.horizon) oo.horizon = 1e5;
  const TubeCheckSettings set = tube_settings(oo);
  const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
  if (bits <= 53) {
    auto r = eventual<IntervalD>(inst, set, massive, check, instance);
    r.precision_bits = 53;
    return r;
  }
  num::PrecisionGuard guard(bits);
  auto r = eventual<IntervalMp>(inst, set, massive, check, instance);
  r.precision_bits = num::precision_bits();
  return r;
}

}  // namespace

// one_hot.eventual and massive_values: one certificate (entry into R_k), two conclusions.
class RegionEntryCheck : public LogisticCheck {
 public:
  explicit RegionEntryCheck(bool massive)
      : LogisticCheck({massive ? "varre2026.massive_values" : "varre2026.one_hot.eventual",
                       massive ? "docs/theorems/varre2026_massive_values.md" : "docs/theorems/varre2026_one_hot.md",
                       massive
                           ? "[paper: seed 'the norm of the value vector corresponding to that token tends to grow without bound'; "
                             "boundedness of the other columns and the proof ours] Logistic loss, softmax: for some k, "
                             "||V_k(t)|| -> infinity while sup_t ||V_j(t)|| < infinity for j != k, certified by entry into R_k (Lemma 2)."
                           : "[paper, Thm 3.3: seed 'as the loss converges to 0, sigma(a) converges to a one-hot vector'; certificate "
                             "ours (region lemma)] Logistic loss, softmax: sigma(a(t)) -> e_k as t -> infinity for "
                             "some k, certified by entry into the forward-invariant region R_k = {a_k > a_j, u_k > u_j for all j != k}."}),
        massive_(massive) {}
  // generate_logistic_instance's, then the region-entry settings'
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "order", "max_depth", "max_steps", "h_max"}; }
  // A claim about t -> infinity; H only bounds how far the check looks for the region entry.
  bool shorter_horizon_keeps_claim() const override { return true; }
  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    return eventual_at(instance, o, massive_, name());
  }

 private:
  bool massive_;
};

class OneHotFiniteCheck : public LogisticCheck {
 public:
  OneHotFiniteCheck()
      : LogisticCheck({"varre2026.one_hot.finite", "docs/theorems/varre2026_one_hot.md",
                       "[ours: finite-horizon reading of Thm 3.3; a violation concerns (H, eps), not the limit] Logistic loss, "
                       "softmax: max_k sigma(a(H))_k >= 1 - eps (params eps, default 0.1; horizon H, default 1e5)."}) {}
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "eps"}; }
  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check needs a rigorous enclosure; use --tier rigorous");
    const instances::Instance inst = logistic_instance(instance);  // parsed once: validated here, integrated below
    const double H = horizon_param(o, 1e5, "1e12");
    const double eps = fraction_param(o.params, "eps", 0.1);
    flow::Request request;
    request.precision_bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r;
    r.horizon = H;
    r.precision_bits = request.precision_bits;
    r.reason = "rigorous integration to H";
    r = engine::rigorous_run(r, [&](engine::CheckResult& r) { decide(r, flow::state_at(inst, H, request), eps); });
    if (o.certificate && r.verdict == engine::Verdict::proved && request.precision_bits <= 53)
      r.certificate = certificate(instance, inst, r, eps);
    return r;
  }

 private:
  // The certificate of a proved max_k σ_k(H) ≥ 1 − ε (docs/certificates.md): the validated τ-walk
  // of the reduced model until t ≥ H, written step by step, on whose steps that may hold t = H
  // softcert-verify shows max_k σ_k > 1 − ε. A run of its own: flow::state_at brackets t = H inside
  // a step and writes none. Empty when the walk does not reach H or writes no certificate.
  std::vector<std::string> certificate(const nlohmann::json& instance, const instances::Instance& inst,
                                       const engine::CheckResult& r, double eps) const {
    flow::WalkRequest q;
    q.certificate = true;
    const flow::WalkResult walk = flow::walk_until_time<IntervalD>(
        models::LogisticReducedTau<IntervalD>::from_instance(inst), *r.horizon, q, [](const flow::TubeStep<IntervalD>&) { return true; });
    if (!walk.covered || !walk.certificate) return {};
    return flow_certificate(name(), "logistic_reduced_tau", instance, r,
                            {{"kind", "max_attention_at_horizon"}, {"epsilon", num::exact_decimal(eps)}}, *walk.certificate);
  }

  static void decide(engine::CheckResult& r, const flow::StateEnclosure& res, double eps) {
    // margin = max_k σ_k(H) − (1 − ε), exactly in rationals from the enclosures' binary ends; ε
    // is the double the parameter parsed to
    const Rational one_minus_eps = Rational(1) - Rational(eps);
    Rational best_lo = -1, best_hi = -1;
    std::size_t k = 0;
    for (std::size_t i = 0; i < res.softmax.size(); ++i) {
      const Rational lo = res.softmax[i].value.lower_rational();
      const Rational hi = res.softmax[i].value.upper_rational();
      if (lo > best_lo) {
        best_lo = lo;
        k = i;
      }
      if (hi > best_hi) best_hi = hi;
    }
    const Rational m_lo = best_lo - one_minus_eps, m_hi = best_hi - one_minus_eps;
    r.margin = engine::Margin::of_rationals(m_lo, m_hi);
    r.details["steps"] = res.steps;
    r.details["argmax"] = k;
    r.details["max_softmax"] = {res.softmax[k].lower_text(), res.softmax[k].upper_text()};
    // A non-strict claim (max σ ≥ 1 − ε): a lower end exactly 0 proves it.
    engine::decide_by_exact_sign(r, m_lo >= 0 ? 1 : (m_hi < 0 ? -1 : 0),
                                 {"sigma_" + std::to_string(k) + "(H) >= " + res.softmax[k].lower_text() + " >= 1 - eps",
                                  "every sigma_k(H) <= " + decimal_above(best_hi) + " < 1 - eps at this horizon",
                                  "the enclosure of max_k sigma_k(H) straddles 1 - eps"});
  }
};

SOFTCERT_REGISTER_CHECK(RegionEntryCheck, /*massive=*/false);
SOFTCERT_REGISTER_CHECK(RegionEntryCheck, /*massive=*/true);
SOFTCERT_REGISTER_CHECK(OneHotFiniteCheck);

}  // namespace softcert::varre2026
