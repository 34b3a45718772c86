// Varre, Rofin, Flammarion (2026), massive activations in the tied model
// (docs/theorems/varre2026_tied.md).
//
// Model [code, cell 8]: the notebook's TiedUSolver — one matrix U ∈ R^{D×D} mixes the scores
// and holds the values, z = U a, α = softmax(z), β = U α, logistic loss log(1 + e^{−⟨β*, β⟩}),
// from U(0) = I, a(0) = 1 + 0.1·N(0, 1), β* = N/‖N‖ (models/tied_value_softmax.hpp); the
// notebook plots ‖U[:, argmax α(t)]‖ against t ("massive_activations_2.pdf").
// [paper, seed] "the norm of the value vector corresponding to that token tends to grow without
// bound"; for the tied model the value vector of token k is the column U e_k.
//
// attended_column_grows [code, cell 8: what the figure plots]: the gradient flow reaches t = H,
//     k = argmax_j α_j(H) is unique (certified), and ‖U e_k(H)‖ > ‖U e_k(0)‖.
//     Margin: ‖U e_k(H)‖ − ‖U e_k(0)‖.
// attended_column_grows.monotone [ours: a stronger reading of the figure]: with the same k,
//     t ↦ ‖U e_k(t)‖ is strictly increasing on [0, H], i.e. d/dt ‖U e_k‖² = 2 Σ_i U_ik U̇_ik > 0
//     on [0, H]. Margin: min over [0, H] of d/dt ‖U e_k‖² (enclosed over every tube segment).
//     The notebook's curve takes the argmax at every t; where the argmax changes early (D = 20)
//     that curve can dip while the column of the final winner still grows: this reading fixes k.
//
// Rigorous tier: the state enclosed to t = H, integrated in τ-time (dτ = γ dt) by default or in
// t-time with params.time = "t" (integrate/rigorous_full.hpp, whose guarantee it inherits),
// the column-norm derivative enclosed on every tube segment; a derivative certainly negative
// on a segment is a certified violation of the monotone reading
// (the norm strictly decreases there). Fast tier: 53- and 106-bit runs to H (endpoint), or the
// flow sampled on a grid (monotone; a sampled check, confirmed at best), under the engine's rule
// (engine/verdict_policy.hpp); its protocol is in varre2026_tied_fast.hpp, the generator in
// instances/tied_generator.hpp.
#include <cmath>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "flow_certificate.hpp"
#include "instances/tied_generator.hpp"
#include "integrate/flow.hpp"
#include "models/tied_value_softmax.hpp"
#include "varre2026_check.hpp"
#include "varre2026_polarization.hpp"
#include "varre2026_tied_fast.hpp"

namespace softcert::varre2026 {

namespace {

instances::Instance tied_instance(const nlohmann::json& j) {
  instances::Instance inst = instances::parse_instance(j);
  if (!inst.tied()) throw std::invalid_argument("model: this check needs \"tied_value_softmax\"");
  return inst;
}

// The index whose enclosure lies above every other's, if any.
template <class S>
std::optional<std::size_t> certain_argmax(const std::vector<S>& v) {
  for (std::size_t k = 0; k < v.size(); ++k) {
    bool top = true;
    for (std::size_t j = 0; j < v.size() && top; ++j)
      if (j != k && !num::certainly_gt(v[k], v[j])) top = false;
    if (top) return k;
  }
  return std::nullopt;
}

// lohner_steps (when given): whether the run took Lohner steps (the plan's stepper).
engine::CheckResult rigorous(const instances::Instance& inst, const TiedSettings& set, bool monotone, unsigned bits,
                             bool* lohner_steps = nullptr) {
  engine::CheckResult start;
  start.horizon = set.horizon;
  start.precision_bits = bits <= 53 ? 53 : bits;
  return engine::rigorous_run(start, [&](engine::CheckResult& r) {
    engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      using S = decltype(kind);
      using B = num::BoundOf<S>;
      r.precision_bits = used;
      const models::TiedValueSoftmax<S> model(inst, set.tau_time);
      const std::size_t D = model.dim();
      const S H(set.horizon);
      // Per column, over the tube segments: the smallest derivative enclosure (min of lowers,
      // min of uppers), the t where it is first not certainly positive, and the first segment
      // lying certainly before t = H on which it is certainly negative. In τ-time the rate is
      // d/dτ = (dt/dτ)·d/dt with dt/dτ ≥ 1: the same sign.
      // The margin's upper end only uses segments that certainly lie in [0, H] (t-time: all of
      // them; τ-time: t certainly < H), so that it bounds the minimum over [0, H] from above;
      // its lower end uses every segment (they cover [0, H]).
      std::vector<B> rate_lo(D), rate_hi(D);
      std::vector<std::optional<S>> first_unsure(D), first_negative(D);
      bool first = true, first_within = true;
      auto visit = [&](const flow::FullSegment<S>& seg) {
        std::vector<S> n2, rate;
        column_norms_and_rates(model, seg.box, n2, rate);
        const S t_range = set.tau_time ? seg.box[model.time_index()] : num::hull(seg.t0, seg.t1);
        const bool within = !set.tau_time || num::certainly_lt(t_range, H);
        for (std::size_t j = 0; j < D; ++j) {
          if (first || num::lower(rate[j]) < rate_lo[j]) rate_lo[j] = num::lower(rate[j]);
          if (within && (first_within || num::upper(rate[j]) < rate_hi[j])) rate_hi[j] = num::upper(rate[j]);
          if (!first_unsure[j] && !num::certainly_positive(rate[j])) first_unsure[j] = t_range;
          if (!first_negative[j] && within && num::certainly_negative(rate[j])) first_negative[j] = t_range;
        }
        first = false;
        if (within) first_within = false;
      };
      flow::Request q = order_and_budget(set.order, set.max_steps);
      q.time = set.tau_time ? integrate::PlanTime::tau : integrate::PlanTime::t;
      const auto enc = flow::full_curve_over<S>(inst, set.horizon, q, visit);
      if (lohner_steps) *lohner_steps = enc.plan.stepper == integrate::PlanStepper::lohner;
      r.details["steps"] = enc.steps;
      r.details["time_variable"] = set.tau_time ? "tau" : "t";
      nlohmann::json al = nlohmann::json::array();
      for (const auto& a : enc.alpha) al.push_back(enclosure_json(a, 8));
      r.details["alpha"] = al;
      const auto k = certain_argmax(enc.alpha);
      if (!k) {
        engine::undecided(r, "argmax alpha(H) is not certified unique");
        return 0;
      }
      const std::vector<S> x0 = model.initial_state();
      const S n0 = num::sqrt(model.column_norm_squared(x0, *k));
      const S nH = num::sqrt(model.column_norm_squared(enc.x, *k));
      S others_max(0);
      for (std::size_t j = 0; j < D; ++j)
        if (j != *k) others_max = num::max_of(others_max, num::sqrt(model.column_norm_squared(enc.x, j)));
      r.details["k"] = *k;
      r.details["alpha_k"] = enclosure_json(enc.alpha[*k]);
      r.details["column_norm_0"] = enclosure_json(n0);
      r.details["column_norm_H"] = enclosure_json(nH);
      r.details["other_columns_max_norm_H"] = enclosure_json(others_max);
      if (!monotone) {
        engine::decide_by_margin(
            r, S(nH - n0),
            {"k = " + std::to_string(*k) + " is the unique argmax of alpha(H); ||U e_k|| grew from " +
                 num::lower_decimal(n0, 6) + " to [" + num::lower_decimal(nH, 6) + ", " + num::upper_decimal(nH, 6) + "]",
             "||U e_k(H)|| is certainly below ||U e_k(0)|| for the certified argmax k = " + std::to_string(*k),
             "the enclosure of ||U e_k(H)|| - ||U e_k(0)|| contains 0"});
        return 0;
      }
      if (first_within) {  // no segment certainly inside [0, H] (H within the first step)
        engine::undecided(r, "no tube segment lies certainly inside [0, H]");
        return 0;
      }
      // Certainly negative exactly when some segment certainly inside [0, H] has a certainly
      // negative rate (first_negative); certainly positive when every segment's is (no first_unsure).
      const std::string k_text = " (k = " + std::to_string(*k) + ")";
      std::string fails, undecided;
      if (first_negative[*k]) {
        fails = "d/dt ||U e_k||^2 is certainly negative on a tube segment within t in [" +
                num::lower_decimal(*first_negative[*k], 6) + ", " + num::upper_decimal(*first_negative[*k], 6) +
                "] before H" + k_text + ": the column shrinks there";
        r.details["first_decrease_t"] = enclosure_json(*first_negative[*k]);
      }
      if (first_unsure[*k]) {
        undecided = "d/dt ||U e_k||^2 is not certainly positive on the tube segment with t in [" +
                    num::lower_decimal(*first_unsure[*k], 6) + ", " + num::upper_decimal(*first_unsure[*k], 6) + "]";
        r.details["first_unsure_t"] = enclosure_json(*first_unsure[*k]);
      }
      engine::decide_by_margin(r, num::hull_of_bounds<S>(rate_lo[*k], std::max(rate_lo[*k], rate_hi[*k])),
                               {"d/dt ||U e_k||^2 > 0 on every tube segment of [0, H]" + k_text, fails, undecided});
      return 0;
    });
  });
}

}  // namespace

class TiedAttendedColumnCheck : public VarreCheck {
 public:
  explicit TiedAttendedColumnCheck(bool monotone)
      : VarreCheck({monotone ? "varre2026.tied.attended_column_grows.monotone" : "varre2026.tied.attended_column_grows",
                    "docs/theorems/varre2026_tied.md",
                    monotone
                        ? "[ours: a stronger reading of the notebook's massive-activation figure (cell 8); a violation refutes "
                          "this reading, not the paper] Tied model z = U a, alpha = softmax(z), beta = U alpha, logistic loss: "
                          "with k = argmax alpha(H) (certified unique), t -> ||U e_k(t)|| is strictly increasing on [0, H] "
                          "(d/dt ||U e_k||^2 > 0 throughout)."
                        : "[code, cell 8: the figure plots ||U[:, argmax alpha(t)]||; paper, seed: 'the norm of the value vector "
                          "corresponding to that token tends to grow without bound'] Tied model z = U a, alpha = softmax(z), "
                          "beta = U alpha, logistic loss: the gradient flow reaches t = H, k = argmax alpha(H) is unique "
                          "(certified), and ||U e_k(H)|| > ||U e_k(0)||."}),
        monotone_(monotone) {}
  // D (default [3, 6]; instances/tied_generator.hpp), then tied_settings'
  std::vector<std::string> params() const override { return {"D", "order", "max_steps", "grid", "time"}; }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::SplitMix64 pick(seed ^ 0x7eedULL);
    std::size_t D = pick_size(o.params, "D", 0, pick.next());
    if (D == 0) D = 3 + static_cast<std::size_t>(pick.next() % 4);
    return instances::generate_tied_instance(seed, D, name());
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const instances::Instance inst = tied_instance(instance);
    const TiedSettings set = tied_settings(o);
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    auto recertify = [&] { return rigorous(inst, set, monotone_, 53); };
    bool lohner_steps = false;
    engine::CheckResult r = o.tier == engine::Tier::rigorous ? rigorous(inst, set, monotone_, bits, &lohner_steps)
                                                             : fast_tied(inst, set, monotone_, recertify);
    r.details["D"] = inst.d;
    // Where the plan took ball steps (from a few hundred states on) the certificate's Lohner walk
    // would cost far more than the proof, and its re-check n³ a step: none is written there.
    if (o.certificate && o.tier == engine::Tier::rigorous && set.tau_time && bits <= 53 && lohner_steps &&
        r.verdict == engine::Verdict::proved)
      r.certificate = certificate(instance, inst, r);
    return r;
  }

 private:
  // The certificate of a proved attended_column_grows (docs/certificates.md): the validated τ-walk
  // of the tied model until t ≥ H, written step by step (Lohner steps), on whose steps that may
  // hold t = H softcert-verify shows that k is the unique argmax of α and that ‖U e_k‖ exceeds
  // ‖U e_k(0)‖ — or, for .monotone, that d/dτ ‖U e_k‖² > 0 on every step. A run of its own: the
  // check's run brackets t = H inside a step and writes none.
  // Empty when the walk does not reach H or writes no certificate.
  std::vector<std::string> certificate(const nlohmann::json& instance, const instances::Instance& inst,
                                       const engine::CheckResult& r) const {
    flow::WalkRequest q;
    q.certificate = true;
    q.certificate_widening = 8;  // the full model's (integrate/step_certificate.hpp)
    const flow::WalkResult walk = flow::walk_until_time<IntervalD>(
        models::TiedValueSoftmax<IntervalD>(inst, true), *r.horizon, q, [](const flow::TubeStep<IntervalD>&) { return true; });
    if (!walk.covered || !walk.certificate) return {};
    return flow_certificate(name(), "tied_value_softmax_tau", instance, r,
                            {{"kind", monotone_ ? "attended_column_monotone" : "attended_column_at_horizon"}, {"k", r.details.at("k")}},
                            *walk.certificate);
  }

  bool monotone_;
};

SOFTCERT_REGISTER_CHECK(TiedAttendedColumnCheck, /*monotone=*/false);
SOFTCERT_REGISTER_CHECK(TiedAttendedColumnCheck, /*monotone=*/true);

}  // namespace softcert::varre2026
