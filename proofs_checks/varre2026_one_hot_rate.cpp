// Varre, Rofin, Flammarion (2026), Thm 3.3: how fast σ(a) approaches its vertex, from a lemma of
// ours (docs/theorems/varre2026_region_lemma.md, Lemma 4; docs/theorems/varre2026_one_hot_rate.md).
//
// one_hot.rate             [ours] From the state at t₀ = params.from (default H/10), certified
//                          inside R_k with gaps δ_j ≥ d_j > 0, Δ_j ≥ D_j > 0 and u_k ≤ U, Lemma 4
//                          gives for every t ≥ t₀
//                              1 − max σ(a(t)) ≤ B(t) = Σ_{j≠k} 1/(e^{d_j} + (D_j/(cT)) L(t)),
//                              L(t) = log(1 + c(t − t₀)/(1 + e^U)),
//                          a C/log t rate with certified constants. The check also encloses
//                          1 − max σ(a(H)) on the validated tube and compares: a bound below the
//                          enclosure would refute the lemma. Margin: B(H) − (1 − max σ(a(H))).
// one_hot.rate.log2_unit   near miss: 1 − max σ(a(H)) ≤ 1/log²(H), the sharper rate with the
//                          constant 1 — refuted where the measured constant is larger.
#include <cmath>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/rigorous_integrate.hpp"
#include "numerics/elementary.hpp"
#include "varre2026_check.hpp"

namespace softcert::varre2026 {

enum class RateReading { lemma_bound, log2_unit };

namespace {

// A double at or below the rational q (at or above with `up`).
double rounded(const Rational& q, bool up) {
  double d = q.convert_to<double>();
  if (up ? Rational(d) < q : Rational(d) > q) d = std::nextafter(d, up ? INFINITY : -INFINITY);
  return d;
}

// 1 − max σ(a) over the enclosure: [1 − max_i upper σ_i, 1 − max_i lower σ_i].
std::pair<Rational, Rational> one_minus_max(const std::vector<integrate::EnclosedValue>& softmax) {
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
              "every t >= t0, 1 - max sigma(a(t)) <= sum_{j != k} 1/(e^{d_j} + (D_j/(cT)) log(1 + c(t - t0)/(1 + e^U))), "
              "d_j, D_j the certified gaps and U the certified u_k at t0; checked against the enclosure at t = H."};
    return {"varre2026.one_hot.rate.log2_unit", doc,
            "[" + q + "; a near miss: the sharper rate with the constant 1] Logistic loss, softmax: "
            "1 - max sigma(a(H)) <= 1/log(H)^2."};
  }
  // No hypothesis on the start: the run certifies the state at t0 inside a region itself (any
  // start, a(0) uniform or not; a state in no region is inconclusive).
  std::vector<std::string> hypotheses() const override { return {}; }
  std::vector<std::string> params() const override { return {"T", "d", "a_scale", "from"}; }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check needs a rigorous enclosure; use --tier rigorous");
    const instances::Instance inst = logistic_instance(instance);
    const double H = horizon_param(o, 1e5, "1e12");
    if (!(H > 1)) throw std::invalid_argument("horizon: must be > 1");
    const double from = number_param(o.params, "from", H / 10);
    if (!(from > 0 && from < H)) throw std::invalid_argument("params.from: must be in (0, H)");
    integrate::RigorousIntegrateOptions io;
    io.precision_bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r;
    r.horizon = H;
    r.precision_bits = io.precision_bits;
    return engine::rigorous_run(r, [&](engine::CheckResult& r) {
      const std::string t0 = num::decimal_round_trip(from), tH = num::decimal_round_trip(H);
      const auto res = reading_ == RateReading::lemma_bound ? integrate::rigorous_integrate_at(inst, {t0, tH}, io)
                                                            : std::vector{integrate::rigorous_integrate(inst, tH, io)};
      const auto [v_lo, v_hi] = one_minus_max(res.back().softmax);
      r.details["one_minus_max_at_H"] = {decimal_below(v_lo), decimal_above(v_hi)};
      if (reading_ == RateReading::log2_unit) {
        const IntervalD lg = num::interval_log(IntervalD(H, H));
        const IntervalD bound = IntervalD(1) / (lg * lg);
        const Rational b_lo = Rational(bound.lower()), b_hi = Rational(bound.upper());
        r.margin = engine::Margin::of_rationals(b_lo - v_hi, b_hi - v_lo);
        engine::decide_by_exact_sign(r, b_lo - v_hi >= 0 ? 1 : (b_hi - v_lo < 0 ? -1 : 0),
                                     {"1 - max sigma(a(H)) <= 1/log(H)^2", "1 - max sigma(a(H)) > 1/log(H)^2 (certified)",
                                      "the enclosures of 1 - max sigma(a(H)) and 1/log(H)^2 overlap"});
        return;
      }
      const auto& at0 = res.front();
      const std::size_t T = inst.T;
      std::size_t k = 0;
      for (std::size_t i = 1; i < T; ++i)
        if (at0.a[i].value.lower_rational() > at0.a[k].value.lower_rational()) k = i;
      // the certified gaps at t0 (R_k needs every one positive)
      std::vector<Rational> d(T), D(T);
      for (std::size_t j = 0; j < T; ++j) {
        if (j == k) continue;
        d[j] = at0.a[k].value.lower_rational() - at0.a[j].value.upper_rational();
        D[j] = at0.u[k].value.lower_rational() - at0.u[j].value.upper_rational();
        if (d[j] <= 0 || D[j] <= 0) {
          r.reason = "the state at t0 = " + t0 + " is not certainly in R_" + std::to_string(k) + " (token " + std::to_string(j) + ")";
          return;
        }
      }
      // B(H) enclosed: every input rounded the way that makes B larger (d_j, D_j, c down; U up)
      IntervalD c(0);
      for (const auto& b : inst.beta) c = c + num::sqr(num::parse_decimal<IntervalD>(b));
      const IntervalD c_low(c.lower(), c.lower());
      const IntervalD U(rounded(at0.u[k].value.upper_rational(), true));
      const IntervalD L = num::interval_log1p(c_low * (num::parse_decimal<IntervalD>(tH) - num::parse_decimal<IntervalD>(t0)) /
                                              (IntervalD(1) + num::interval_exp(U)));
      IntervalD B(0);
      nlohmann::json gaps = nlohmann::json::array();
      for (std::size_t j = 0; j < T; ++j) {
        if (j == k) continue;
        const IntervalD dj(rounded(d[j], false)), Dj(rounded(D[j], false));
        B = B + IntervalD(1) / (num::interval_exp(dj) + Dj / (c_low * IntervalD(static_cast<double>(T))) * L);
        gaps.push_back({{"token", j}, {"d", decimal_below(d[j])}, {"D", decimal_below(D[j])}});
      }
      r.details["winner"] = k;
      r.details["t0"] = t0;
      r.details["gaps_at_t0"] = gaps;
      r.details["U"] = num::upper_decimal(U, 10);
      r.details["c"] = num::lower_decimal(c_low, 17);
      r.details["bound_at_H"] = num::upper_decimal(B, 10);
      const Rational b_hi = Rational(B.upper());
      // The lemma says 1 − max σ(a(H)) ≤ B(H); the tube encloses 1 − max σ(a(H)) in [v_lo, v_hi].
      r.margin = engine::Margin::of_rationals(b_hi - v_hi, b_hi - v_lo);
      engine::decide_by_exact_sign(
          r, b_hi - v_hi >= 0 ? 1 : (b_hi - v_lo < 0 ? -1 : 0),
          {"state certified in R_" + std::to_string(k) + " at t0 = " + t0 + "; by Lemma 4 1 - max sigma(a(t)) <= B(t) for all t >= t0, "
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
