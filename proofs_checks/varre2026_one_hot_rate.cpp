// Varre, Rofin, Flammarion (2026), Thm 3.3: how fast σ(a) approaches its vertex, from a lemma of
// ours (docs/theorems/varre2026_region_lemma.md, Lemma 4; docs/theorems/varre2026_one_hot_rate.md).
//
// one_hot.rate             [ours] From the state at t₀ = params.from (default H/10), certified
//                          inside R_k with gaps δ_j ≥ d_j > 0, Δ_j ≥ D_j > 0, u_k ≤ U and
//                          s_k ≥ s₀ = 1/(1 + Σ_j e^{−d_j}), Lemma 4 gives for every t ≥ t₀
//                              1 − max σ(a(t)) ≤ B(t) = Σ_{j≠k} 1/(e^{d_j} + s₀(D_j L/c + g_j L²/(2c))),
//                              L(t) = log(1 + c(t − t₀)/(1 + e^U)),  g_j = max(0, s₀ − e^{−d_j}),
//                          a C/log² t rate (C/log t where every g_j is 0) with certified
//                          constants. The check also encloses 1 − max σ(a(H)) on the validated
//                          tube and compares: a bound below the enclosure would refute the lemma.
//                          Margin: B(H) − (1 − max σ(a(H))).
// one_hot.rate.log2_unit   near miss: 1 − max σ(a(H)) ≤ 1/log²(H), the rate with the constant 1 —
//                          refuted where the flow's constant is larger.
#include <cmath>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "numerics/elementary.hpp"
#include "varre2026_check.hpp"
#include "varre2026_region_state.hpp"

namespace softcert::varre2026 {

enum class RateReading { lemma_bound, log2_unit };

namespace {

// 1 − max σ(a) over the enclosure: [1 − max_i upper σ_i, 1 − max_i lower σ_i].
std::pair<Rational, Rational> one_minus_max(const std::vector<flow::EnclosedValue>& softmax) {
  Rational lo_max = -1, hi_max = -1;
  for (const auto& s : softmax) {
    lo_max = std::max(lo_max, s.value.lower_rational());
    hi_max = std::max(hi_max, s.value.upper_rational());
  }
  return {Rational(1) - hi_max, Rational(1) - lo_max};
}

}  // namespace

class OneHotRateCheck : public LogisticCheck {
 public:
  explicit OneHotRateCheck(RateReading reading) : LogisticCheck(text(reading)), reading_(reading) {}
  static CheckText text(RateReading reading) {
    const std::string doc = "docs/theorems/varre2026_one_hot_rate.md";
    const std::string q =
        "paper, Thm 3.3: seed 'as the loss converges to 0, sigma(a) converges to a one-hot vector'; the rate and its "
        "proof ours (region lemma, Lemma 4)";
    if (reading == RateReading::lemma_bound)
      return {"varre2026.one_hot.rate", doc,
              "[" + q + "] Logistic loss, softmax: from the state at t0 (params.from, default H/10) certified in R_k, for "
              "every t >= t0, 1 - max sigma(a(t)) <= sum_{j != k} 1/(e^{d_j} + s0 (D_j L/c + g_j L^2/(2c))), "
              "L = log(1 + c(t - t0)/(1 + e^U)), s0 = 1/(1 + sum_j e^{-d_j}), g_j = max(0, s0 - e^{-d_j}) (a C/log^2 t "
              "rate), d_j, D_j the certified gaps and U the certified u_k at t0; checked against the enclosure at t = H."};
    return {"varre2026.one_hot.rate.log2_unit", doc,
            "[" + q + "; a near miss: the sharper rate with the constant 1] Logistic loss, softmax: "
            "1 - max sigma(a(H)) <= 1/log(H)^2."};
  }
  // No hypothesis on the start: the run certifies the state at t0 inside a region itself (any
  // start, a(0) uniform or not; a state in no region is inconclusive).
  std::vector<std::string> hypotheses() const override { return {}; }
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "from"}; }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const RateRun run = rate_run(instance, o);
    const instances::Instance& inst = run.inst;
    const std::string t0_text = num::decimal_round_trip(run.from);  // as the record writes it
    engine::CheckResult r;
    r.horizon = run.H;
    r.precision_bits = run.request.precision_bits;
    return engine::rigorous_run(r, [&](engine::CheckResult& r) {
      const auto res = reading_ == RateReading::lemma_bound ? flow::states_at(inst, {run.from, run.H}, run.request)
                                                            : std::vector{flow::state_at(inst, run.H, run.request)};
      const auto [v_lo, v_hi] = one_minus_max(res.back().softmax);
      r.details["one_minus_max_at_H"] = {decimal_below(v_lo), decimal_above(v_hi)};
      if (reading_ == RateReading::log2_unit) {
        const IntervalD lg = num::interval_log(IntervalD(run.H, run.H));
        const IntervalD bound = IntervalD(1) / (lg * lg);
        const Rational b_lo = Rational(bound.lower()), b_hi = Rational(bound.upper());
        r.margin = engine::Margin::of_rationals(b_lo - v_hi, b_hi - v_lo);
        engine::decide_by_exact_sign(r, b_lo - v_hi >= 0 ? 1 : (b_hi - v_lo < 0 ? -1 : 0),
                                     {"1 - max sigma(a(H)) <= 1/log(H)^2", "1 - max sigma(a(H)) > 1/log(H)^2 (certified)",
                                      "the enclosures of 1 - max sigma(a(H)) and 1/log(H)^2 overlap"});
        return;
      }
      const auto& at0 = res.front();
      std::string why;
      const auto st = certified_region_state(inst, at0, why);
      if (!st) {
        r.reason = why + " (t0 = " + t0_text + ")";
        return;
      }
      const std::size_t T = inst.T, k = st->k;
      // B(H) enclosed: the certified inputs rounded the way that makes B larger (d_j, D_j, s0 down;
      // U up), c over its enclosure.
      const IntervalD& c = st->c;
      const IntervalD L = num::interval_log1p(c * (flow::time_enclosure(run.H) - flow::time_enclosure(run.from)) /
                                              (IntervalD(1) + num::interval_exp(st->U)));
      IntervalD B(0);
      nlohmann::json gaps = nlohmann::json::array();
      for (std::size_t j = 0; j < T; ++j) {
        if (j == k) continue;
        const IntervalD dj(num::outward_double(st->d[j], false)), Dj(num::outward_double(st->D[j], false));
        const double g_lo = std::max(0.0, (st->s0 - num::interval_exp(-dj)).lower());
        const IntervalD g(g_lo, g_lo);
        B = B + IntervalD(1) / (num::interval_exp(dj) + st->s0 * (Dj * L / c + g * L * L / (IntervalD(2) * c)));
        gaps.push_back({{"token", j}, {"d", decimal_below(st->d[j])}, {"D", decimal_below(st->D[j])}, {"g", num::lower_decimal(g, 10)}});
      }
      const IntervalD& U = st->U;
      r.details["s0"] = num::lower_decimal(st->s0, 10);
      r.details["winner"] = k;
      r.details["t0"] = t0_text;
      r.details["gaps_at_t0"] = gaps;
      r.details["U"] = num::upper_decimal(U, 10);
      r.details["c"] = {num::lower_decimal(c, 17), num::upper_decimal(c, 17)};
      r.details["bound_at_H"] = num::upper_decimal(B, 10);
      const Rational b_hi = Rational(B.upper());
      // The lemma says 1 − max σ(a(H)) ≤ B(H); the tube encloses 1 − max σ(a(H)) in [v_lo, v_hi].
      r.margin = engine::Margin::of_rationals(b_hi - v_hi, b_hi - v_lo);
      engine::decide_by_exact_sign(
          r, b_hi - v_hi >= 0 ? 1 : (b_hi - v_lo < 0 ? -1 : 0),
          {"state certified in R_" + std::to_string(k) + " at t0 = " + t0_text + "; by Lemma 4 1 - max sigma(a(t)) <= B(t) for all t >= t0, "
               "and at H the enclosure lies below B(H) = " + num::upper_decimal(B, 6),
           "the enclosure of 1 - max sigma(a(H)) lies above Lemma 4's bound B(H): the lemma is wrong",
           "the enclosure of 1 - max sigma(a(H)) straddles Lemma 4's bound B(H)"});
    });
  }

 private:
  RateReading reading_;
};

SOFTCERT_REGISTER_CHECK(OneHotRateCheck, RateReading::lemma_bound);
SOFTCERT_REGISTER_CHECK(OneHotRateCheck, RateReading::log2_unit);

}  // namespace softcert::varre2026
