// Varre, Rofin, Flammarion (2026): polarization under square loss is weaker than under logistic
// loss (docs/theorems/varre2026_normalization_square_weaker.md).
//
// [paper, seed] under square loss polarization occurs but is "not as strong as with the
// logistic loss". [code, cells 5–6] the notebook runs each normalization α = f(a)/Σ_j f(a_j)
// (f = exp, x², |x|, normalised relu, x) and the elementwise sigmoid from ONE initial state
// under both losses: square loss to t = 0.1 × 5000 = 500, logistic loss to t = 0.5 × 10⁵ = 5·10⁴.
//
// Checked, on such a pair (same V(0), a(0), β*, normalization; one square, one logistic):
//   the gradient flows reach t = H_sq and t = H_log, and the entropy drop is smaller under
//   square loss:  H(α̂(0)) − H(α̂_sq(H_sq)) < H(α̂(0)) − H(α̂_log(H_log)),
// where α̂ = α/Σ_k α_k (α itself for f/Σf; the sigmoid's σ(a) normalised — our convention, as in
// `softcert reproduce`) and H(p) = −Σ p_k log p_k (0 log 0 = 0). The start is shared, so the
// margin is H(α̂_sq(H_sq)) − H(α̂_log(H_log)). The entropy is defined only when α̂ ≥ 0; an entry
// certainly negative (f(x) = x can leave the simplex) makes the statement inapplicable:
// inconclusive, never violated.
// Source of each row: softmax is the paper's model [paper]; the other five rows are the
// notebook's [code], on which the paper's sentence is our extension [ours] — for sum and
// sigmoid, which the paper says do not polarize, the comparison has no content from the paper.
//
// Rigorous tier: logistic side — the full model in τ-time to H_log (integrate/rigorous_full.hpp);
// square side — validated steps until the loss is below r²/(H_sq − s), then the energy tail
// x(H_sq) ∈ [x(s)] + [−r, r] (integrate/gradient_flow_tail.hpp; the square-loss flow is the
// gradient flow of L ≥ 0). When a score of |x| or relu reaches its kink first, the square side
// is stepped to H_sq through the certified crossing instead (integrate/kink_crossing.hpp,
// t-time; docs/method.md §5c); a crossing that is not certified or a singular normalization
// makes it inconclusive. Fast tier: 53- and 106-bit runs of both sides under the engine's rule
// (engine/verdict_policy.hpp).
#include <cmath>
#include <cstdio>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "instances/loss_pair.hpp"
#include "integrate/flow.hpp"
#include "numerics/entropy_enclosure.hpp"
#include "varre2026_check.hpp"
#include "varre2026_polarization.hpp"

namespace softcert::varre2026 {

namespace {

struct WeakerSettings {
  double square_horizon = 500, logistic_horizon = 5e4;  // the authors' [code, cell 6]
  double tail_radius = 1e-9;                           // r_max of the energy tail
  unsigned order = 0;  // 0: integrate::default_full_state_order (30 over double intervals)
  std::size_t max_steps = 200000;
};

WeakerSettings weaker_settings(const engine::CheckOptions& o) {
  WeakerSettings s;
  if (o.horizon) throw std::invalid_argument("horizon: this check has two; use params.square_horizon and params.logistic_horizon");
  s.square_horizon = number_param(o.params, "square_horizon", s.square_horizon);
  s.logistic_horizon = number_param(o.params, "logistic_horizon", s.logistic_horizon);
  for (double h : {s.square_horizon, s.logistic_horizon})
    if (!(h > 0) || h > 1e9) throw std::invalid_argument("params.square_horizon/logistic_horizon: must be in (0, 1e9]");
  s.tail_radius = number_param(o.params, "tail_radius", s.tail_radius);
  if (!(s.tail_radius >= 0 && s.tail_radius <= 1)) throw std::invalid_argument("params.tail_radius: must be in [0, 1]");
  s.order = taylor_order_param(o.params, s.order);
  s.max_steps = max_steps_param(o.params, s.max_steps);
  return s;
}

double entropy_point(const std::vector<double>& alpha) {
  double s = 0, h = 0;
  for (double a : alpha) s += a;
  for (double a : alpha) {
    const double p = a / s;
    if (p < 0) return NAN;
    if (p > 0) h -= p * std::log(p);
  }
  return h;
}

// The statement does not apply when α(H) has an entry certainly below 0 (its entropy is
// undefined): inconclusive, marked in the details.
inline int not_applicable(engine::CheckResult& r, const std::string& which) {
  engine::undecided(r, which + " has an entry below 0: the entropy is undefined and the statement does not apply");
  r.details["not_applicable"] = true;
  return 0;
}

// α(0) of the shared start, at kind S.
template <class S>
std::vector<S> alpha_at_start(const instances::Instance& inst) {
  const models::ValueSoftmax<S> m(inst);
  return m.attention(m.initial_state());
}

// Margin H(p_sq(H_sq)) − H(p_log(H_log)) over the rigorous enclosures (the engine decides).
engine::CheckResult rigorous(const instances::LossPair& pair, const WeakerSettings& set, unsigned bits) {
  engine::CheckResult start;
  start.precision_bits = bits <= 53 ? 53 : bits;
  return engine::rigorous_run(start, [&](engine::CheckResult& r) {
    engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      using S = decltype(kind);
      r.precision_bits = used;
      // The logistic side first: when its α(H) leaves the simplex the statement does not apply
      // and the square side is not needed.
      r.reason = "the logistic-loss run to its horizon";
      const auto lg = flow::full_state_at<S>(pair.logistic, set.logistic_horizon, order_and_budget(set.order, set.max_steps));
      r.details["logistic_steps"] = lg.steps;
      if (!lg.kink_arrivals.empty()) r.details["logistic_kink_arrivals"] = kink_arrivals_json(lg.kink_arrivals);
      auto alpha_json = [](const std::vector<S>& al) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& x : al) a.push_back(enclosure_json(x, 8));
        return a;
      };
      r.details["alpha_logistic"] = alpha_json(lg.alpha);
      bool und_lg = false;
      const auto h_lg = num::entropy_enclosure(lg.alpha, und_lg);
      if (und_lg) return not_applicable(r, "alpha(H) under logistic loss (certainly)");
      r.reason = "the square-loss run to its horizon";
      // |x| / relu: where a score reaches its kink before the tail applies, the run steps to H_sq
      // through the certified crossing instead (integrate/energy_tail_through_kinks.hpp).
      // The square side's steps as the plan sets them; its tail is the energy tail.
      const auto sq_run = flow::full_state_with_energy_tail<S>(pair.square, set.square_horizon, set.tail_radius,
                                                               order_and_budget(set.order, set.max_steps));
      const auto& sq = sq_run.state;
      const auto& tail = sq_run.tail;
      if (!sq_run.tail_stopped_by_kink.empty()) {
        r.details["square_tail_stopped_by_kink"] = sq_run.tail_stopped_by_kink;
        if (!sq.kink_arrivals.empty()) r.details["square_kink_arrivals"] = kink_arrivals_json(sq.kink_arrivals);
      }
      r.details["square_steps"] = sq.steps;
      r.details["square_tail_used"] = tail.used;
      if (tail.used) {
        r.details["square_tail_from_t"] = num::lower_decimal(tail.from, 8);
        r.details["square_tail_radius"] = num::upper_decimal(tail.radius, 3);
      }
      bool und0 = false, und_sq = false;
      const auto h0 = num::entropy_enclosure(alpha_at_start<S>(pair.square), und0);
      const auto h_sq = num::entropy_enclosure(sq.alpha, und_sq);
      r.details["alpha_square"] = alpha_json(sq.alpha);
      if (h0) r.details["entropy_0"] = enclosure_json(*h0);
      if (h_sq) r.details["entropy_square"] = enclosure_json(*h_sq);
      if (h_lg) r.details["entropy_logistic"] = enclosure_json(*h_lg);
      if (h0 && h_sq) r.details["drop_square"] = enclosure_json(S(*h0 - *h_sq));
      if (h0 && h_lg) r.details["drop_logistic"] = enclosure_json(S(*h0 - *h_lg));
      if (und_sq) return not_applicable(r, "alpha(H) under square loss (certainly)");
      if (!h_sq || !h_lg) {
        engine::undecided(r, "the sign of an entry of alpha(H) is not certain: the entropy is not enclosed");
        return 0;
      }
      const std::string values = "H_sq(H_sq) in [" + num::lower_decimal(*h_sq, 6) + ", " + num::upper_decimal(*h_sq, 6) +
                                 "], H_log(H_log) in [" + num::lower_decimal(*h_lg, 6) + ", " + num::upper_decimal(*h_lg, 6) + "]";
      engine::decide_by_margin(r, S(*h_sq - *h_lg),
                               {"the entropy drop is certainly smaller under square loss: " + values,
                                "the entropy drop is certainly larger under square loss: " + values,
                                "the enclosures of the two entropies overlap: " + values});
      return 0;
    });
  });
}

// The same margin from the fast tier's 53- and 106-bit runs (engine::decide_fast's rule).
engine::CheckResult fast(const instances::LossPair& pair, const WeakerSettings& set, unsigned bits) {
  const FastAlpha sq = fast_alpha(pair.square, set.square_horizon, set.max_steps);
  const FastAlpha lg = fast_alpha(pair.logistic, set.logistic_horizon, set.max_steps);
  engine::FastRun lo{NAN, 53, ""}, hi{NAN, 106, ""};
  for (const auto* side : {&sq, &lg})
    if (!side->failure.empty() || side->reference.empty())
      lo.failure = std::string(side == &sq ? "square" : "logistic") + " side: " +
                   (side->failure.empty() ? std::string("no reference run") : side->failure);
  if (!lo.failure.empty()) return engine::decide_fast(lo, hi, "", "", nullptr);
  lo.margin = entropy_point(sq.run) - entropy_point(lg.run);
  hi.margin = entropy_point(sq.reference) - entropy_point(lg.reference);
  const double h0 = entropy_point(alpha_at_start<double>(pair.square));
  if (std::isnan(lo.margin) || std::isnan(hi.margin)) {
    engine::CheckResult r;
    r.precision_bits = 53;
    r.details["entropy_0"] = h0;
    not_applicable(r, "fast tier: alpha(H)");
    return r;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "drop square %.4g, drop logistic %.4g", h0 - entropy_point(sq.reference),
                h0 - entropy_point(lg.reference));
  engine::CheckResult r = engine::decide_fast(lo, hi, std::string("the drop is smaller under square loss: ") + buf,
                                              std::string("H_sq - H_log (") + buf + ")",
                                              [&] { return rigorous(pair, set, recertify_bits(bits)); });
  if (r.verdict != engine::Verdict::violated) {
    r.details["entropy_square"] = entropy_point(sq.reference);
    r.details["entropy_logistic"] = entropy_point(lg.reference);
    r.details["entropy_0"] = h0;
  }
  return r;
}

}  // namespace

class NormalizationSquareWeakerCheck : public VarreCheck {
 public:
  NormalizationSquareWeakerCheck()
      : VarreCheck({"varre2026.normalization.square_weaker", "docs/theorems/varre2026_normalization_square_weaker.md",
                    "[paper, seed: under square loss polarization is 'not as strong as with the logistic loss' (softmax); code, "
                    "cells 5-6: the notebook's six normalizations from one start, square loss to t = 500, logistic to t = 5e4; "
                    "applying the sentence to the five other rows and measuring by entropy is ours] For a pair of instances with "
                    "the same start and normalization, one under square and one under logistic loss, the gradient flows reach "
                    "t = H_sq and t = H_log and the entropy drop H(p(0)) - H(p(H)) of p = alpha/sum(alpha) is smaller under "
                    "square loss: H(p_sq(H_sq)) > H(p_log(H_log)). Inapplicable (inconclusive) when p has a negative entry."}) {}
  // generate_family_instance's, then weaker_settings'
  std::vector<std::string> params() const override {
    return {"T", "d", "n", "normalization", "v_scale", "a_scale", "square_horizon", "logistic_horizon", "tail_radius",
            "order", "max_steps"};
  }

  // The authors' construction [code, cell 5] with our generator: V = 0.1·N(0,1), a = 1 + 0.1·N(0,1),
  // β* = N/‖N‖ (generate_family_instance with a(0) jittered), params.normalization (softmax),
  // params.T (default [2, 4]); the logistic member is the square member with loss "logistic".
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    engine::GenerateOptions g = o;
    g.dropped.insert(kUniformOnesA0);
    g.params["loss"] = "square";
    if (!g.params.contains("a_scale")) g.params["a_scale"] = 0.1;
    if (!g.params.contains("T")) g.params["T"] = nlohmann::json::array({2, 4});
    nlohmann::json sq = generate_family_instance(seed, g, name());
    nlohmann::json lg = sq;
    lg["loss"] = "logistic";
    sq["id"] = sq["id"].get<std::string>() + "/square";
    lg["id"] = lg["id"].get<std::string>() + "/logistic";
    return {{"id", name() + "@" + std::to_string(seed)},
            {"provenance", name() + " generator, seed " + std::to_string(seed) +
                               ": V = 0.1 N, a = 1 + 0.1 N, beta* = N/|N| (the notebook's cell-5 construction, our RNG)"},
            {"square", sq},
            {"logistic", lg}};
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const instances::LossPair pair = instances::read_loss_pair(instance);
    const WeakerSettings set = weaker_settings(o);
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r = o.tier == engine::Tier::rigorous ? rigorous(pair, set, bits) : fast(pair, set, bits);
    r.details["normalization"] = instances::to_string(pair.square.normalization);
    r.details["square_horizon"] = set.square_horizon;
    r.details["logistic_horizon"] = set.logistic_horizon;
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(NormalizationSquareWeakerCheck);

}  // namespace softcert::varre2026
