// Varre, Rofin, Flammarion (2026), Thm 3.3's "as the loss converges to 0": how fast, from a lemma
// of ours (docs/theorems/varre2026_region_lemma.md, Lemma 5; docs/theorems/varre2026_loss_rate.md).
//
// loss.rate        [ours] From the state at t₀ = params.from (default H/10), certified inside R_k
//                  with s_k ≥ s₀ and the loss ℓ(t₀) ≤ ℓ₀, Lemma 5 gives for every t ≥ t₀
//                      ℓ(t) ≤ B(t) = 1/(E₀ + c s₀² q (t − t₀)),  E₀ = 1/(e^{ℓ₀} − 1),  q = e^{−ℓ₀},
//                  a 1/(ct) rate as s₀, q → 1. The check also encloses ℓ(H) on the validated tube
//                  and compares: a bound below the enclosure would refute the lemma.
//                  Margin: B(H) − ℓ(H).
// loss.rate.half   near miss: ℓ(H) ≤ 1/(2cH), the rate with half the constant — refuted where the
//                  flow's ℓ·c·t is above ½ (it tends to 1).
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "numerics/elementary.hpp"
#include "varre2026_check.hpp"
#include "varre2026_region_state.hpp"

namespace softcert::varre2026 {

enum class LossRateReading { lemma_bound, half_constant };

class LossRateCheck : public LogisticCheck {
 public:
  explicit LossRateCheck(LossRateReading reading) : LogisticCheck(text(reading)), reading_(reading) {}
  static CheckText text(LossRateReading reading) {
    const std::string doc = "docs/theorems/varre2026_loss_rate.md";
    const std::string q = "paper, Thm 3.3: seed 'as the loss converges to 0'; the rate and its proof ours (region lemma, Lemma 5)";
    if (reading == LossRateReading::lemma_bound)
      return {"varre2026.loss.rate", doc,
              "[" + q + "] Logistic loss, softmax: from the state at t0 (params.from, default H/10) certified in R_k, for "
              "every t >= t0, loss(t) <= 1/(E0 + c s0^2 q (t - t0)), E0 = 1/(e^{l0} - 1), q = e^{-l0}, l0 the certified "
              "upper end of the loss at t0, s0 = 1/(1 + sum_j e^{-d_j}) (a 1/(ct) rate); checked against the enclosure at "
              "t = H."};
    return {"varre2026.loss.rate.half", doc,
            "[" + q + "; a near miss: the rate with half its constant] Logistic loss, softmax: loss(H) <= 1/(2 c H)."};
  }
  // No hypothesis on the start: the run certifies the state at t0 inside a region itself.
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
      const auto res = reading_ == LossRateReading::lemma_bound ? flow::states_at(inst, {run.from, run.H}, run.request)
                                                                : std::vector{flow::state_at(inst, run.H, run.request)};
      const Rational l_lo = res.back().loss.value.lower_rational(), l_hi = res.back().loss.value.upper_rational();
      r.details["loss_at_H"] = {decimal_below(l_lo), decimal_above(l_hi)};
      const IntervalD c = beta_norm_sq(inst);
      const IntervalD tHi = flow::time_enclosure(run.H);
      if (reading_ == LossRateReading::half_constant) {
        const IntervalD bound = IntervalD(1) / (IntervalD(2) * c * tHi);
        const Rational b_lo(bound.lower()), b_hi(bound.upper());
        r.details["loss_c_H"] = {num::lower_decimal(IntervalD(num::outward_double(l_lo, false)) * c * tHi, 6),
                                 num::upper_decimal(IntervalD(num::outward_double(l_hi, true)) * c * tHi, 6)};
        r.margin = engine::Margin::of_rationals(b_lo - l_hi, b_hi - l_lo);
        engine::decide_by_exact_sign(r, b_lo - l_hi >= 0 ? 1 : (b_hi - l_lo < 0 ? -1 : 0),
                                     {"loss(H) <= 1/(2cH)", "loss(H) > 1/(2cH) (certified)",
                                      "the enclosures of loss(H) and 1/(2cH) overlap"});
        return;
      }
      std::string why;
      const auto st = certified_region_state(inst, res.front(), why);
      if (!st) {
        r.reason = why + " (t0 = " + t0_text + ")";
        return;
      }
      // B(H) enclosed: the certified inputs rounded the way that makes B larger (s0, E0, q down:
      // l0 up), c over its enclosure.
      const IntervalD l0(st->loss_upper, st->loss_upper);
      const IntervalD E0 = IntervalD(1) / num::interval_expm1(l0), q = num::interval_exp(-l0);
      const IntervalD E0_low(E0.lower(), E0.lower()), q_low(q.lower(), q.lower());
      const IntervalD B = IntervalD(1) / (E0_low + c * st->s0 * st->s0 * q_low * (tHi - flow::time_enclosure(run.from)));
      r.details["winner"] = st->k;
      r.details["t0"] = t0_text;
      r.details["s0"] = num::lower_decimal(st->s0, 10);
      r.details["loss_upper_at_t0"] = num::upper_decimal(l0, 10);
      r.details["c"] = {num::lower_decimal(c, 17), num::upper_decimal(c, 17)};
      r.details["bound_at_H"] = num::upper_decimal(B, 10);
      const Rational b_hi(B.upper());
      // The lemma says ℓ(H) ≤ B(H); the tube encloses ℓ(H) in [l_lo, l_hi].
      r.margin = engine::Margin::of_rationals(b_hi - l_hi, b_hi - l_lo);
      engine::decide_by_exact_sign(
          r, b_hi - l_hi >= 0 ? 1 : (b_hi - l_lo < 0 ? -1 : 0),
          {"state certified in R_" + std::to_string(st->k) + " at t0 = " + t0_text + "; by Lemma 5 loss(t) <= B(t) for all t >= t0, "
               "and at H the enclosure lies below B(H) = " + num::upper_decimal(B, 6),
           "the enclosure of loss(H) lies above Lemma 5's bound B(H): the lemma is wrong",
           "the enclosure of loss(H) straddles Lemma 5's bound B(H)"});
    });
  }

 private:
  LossRateReading reading_;
};

SOFTCERT_REGISTER_CHECK(LossRateCheck, LossRateReading::lemma_bound);
SOFTCERT_REGISTER_CHECK(LossRateCheck, LossRateReading::half_constant);

}  // namespace softcert::varre2026
