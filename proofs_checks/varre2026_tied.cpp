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
// (engine/verdict_policy.hpp).
#include <cmath>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/fast_samples.hpp"
#include "integrate/rigorous_full.hpp"
#include "models/tied_value_softmax.hpp"
#include "varre2026_check.hpp"
#include "varre2026_polarization.hpp"

namespace softcert::varre2026 {

namespace {

struct TiedSettings {
  double horizon = 500;  // the authors' t = 0.05 × 10⁴ [code, cell 8]
  bool tau_time = true;  // rigorous tier: τ-time (dτ = γ dt), or t-time with params.time = "t"
  unsigned order = 0;  // 0: integrate::default_full_state_order (30 over double intervals)
  std::size_t max_steps = 200000;
  std::size_t grid = 2000;  // fast tier, monotone: sample times
};

TiedSettings tied_settings(const engine::CheckOptions& o) {
  TiedSettings s;
  s.horizon = horizon_param(o, s.horizon, "1e7");
  s.order = taylor_order_param(o.params, s.order);
  s.max_steps = max_steps_param(o.params, s.max_steps);
  s.grid = static_cast<std::size_t>(number_param(o.params, "grid", static_cast<double>(s.grid)));
  const std::string time = string_param(o.params, "time", "tau");
  if (time != "tau" && time != "t") throw std::invalid_argument("params.time: \"tau\" or \"t\"");
  s.tau_time = time == "tau";
  if (s.grid < 2 || s.grid > 1000000) throw std::invalid_argument("params.grid: must be in [2, 1e6]");
  return s;
}

instances::Instance tied_instance(const nlohmann::json& j) {
  instances::Instance inst = instances::parse_instance(j);
  if (!inst.tied()) throw std::invalid_argument("model: this check needs \"tied_value_softmax\"");
  return inst;
}

// ‖U e_j‖² and its time derivative 2 Σ_i U_ij U̇_ij for every column j of a state (box).
template <class X>
void column_norms_and_rates(const models::TiedValueSoftmax<X>& m, const std::vector<X>& x, std::vector<X>& norm2,
                            std::vector<X>& rate) {
  const std::size_t D = m.dim();
  std::vector<X> dx;
  m.rhs(x, dx);
  norm2.assign(D, X(0));
  rate.assign(D, X(0));
  for (std::size_t j = 0; j < D; ++j) {
    norm2[j] = m.column_norm_squared(x, j);
    for (std::size_t i = 0; i < D; ++i) rate[j] = rate[j] + X(2) * x[i * D + j] * dx[i * D + j];
  }
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

engine::CheckResult rigorous(const instances::Instance& inst, const TiedSettings& set, bool monotone, unsigned bits) {
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
      auto visit = [&](const integrate::TubeSegment<S>& seg) {
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
      integrate::ValidatedOptions vo;
      vo.order = integrate::full_state_order<S>(set.order);
      vo.max_steps = set.max_steps;
      const auto enc = integrate::enclose_model_state<S>(model, H, vo, visit);
      r.details["steps"] = enc.steps;
      r.details["time_variable"] = set.tau_time ? "tau" : "t";
      nlohmann::json al = nlohmann::json::array();
      for (const auto& a : enc.alpha) al.push_back(enclosure_json(a, 8));
      r.details["alpha"] = al;
      const auto k = certain_argmax(enc.alpha);
      if (!k) {
        r.verdict = engine::Verdict::inconclusive;
        r.reason = "argmax alpha(H) is not certified unique";
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
        r.verdict = engine::Verdict::inconclusive;
        r.reason = "no tube segment lies certainly inside [0, H]";
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

// The fast tier's margin from one run: with k the unique argmax of α(H) in the 2p-bit run (the
// same column for both runs), ‖U e_k(H)‖ − ‖U e_k(0)‖, or (monotone) the smallest sampled
// d/dt ‖U e_k‖². Sample times: t = 0, then (monotone) a grid uniform in log(1 + t) up to H.
std::vector<double> fast_times(const TiedSettings& set, bool monotone) {
  std::vector<double> times{0.0};
  if (monotone)
    for (std::size_t i = 1; i < set.grid; ++i)
      times.push_back(std::expm1(std::log1p(set.horizon) * static_cast<double>(i) / static_cast<double>(set.grid - 1)));
  else
    times.push_back(set.horizon);
  times.back() = set.horizon;
  return times;
}

template <class K>
double fast_margin(const models::TiedValueSoftmax<K>& model, const integrate::FlowSamplesOf<K>& s, std::size_t k,
                   bool monotone) {
  using std::sqrt;
  if (!monotone)
    return static_cast<double>(K(sqrt(model.column_norm_squared(s.states.back(), k)) -
                                 sqrt(model.column_norm_squared(s.states.front(), k))));
  double margin = INFINITY;
  for (const auto& x : s.states) {
    std::vector<K> n2, rate;
    column_norms_and_rates(model, x, n2, rate);
    margin = std::min(margin, static_cast<double>(rate[k]));
  }
  return margin;
}

// Two runs under the engine's rule: 53 bits (dopri5, tolerance 1e-11) and 106 bits (MPFR,
// rkf78, tolerance 1e-16). The 106-bit run is most of the cost: authors' D = 20 to t = 500,
// endpoint 28 s, monotone (2000 samples) 61 s on one core (docs/theorems/varre2026_tied.md).
engine::CheckResult fast(const instances::Instance& inst, const TiedSettings& set, bool monotone) {
  const std::vector<double> times = fast_times(set, monotone);
  engine::FastRun lo{NAN, 53, ""}, hi{NAN, 106, ""};
  std::size_t k = 0;
  double column_norm_H = NAN;
  try {
    const models::TiedValueSoftmax<double> model(inst);
    const auto run = integrate::flow_at_times(model, times, 1e-11, integrate::Stepper::dopri5, set.max_steps);
    num::PrecisionGuard guard(106);
    const models::TiedValueSoftmax<MpReal> model_mp(inst);
    const auto ref = integrate::flow_at_times(model_mp, times, 1e-16, integrate::Stepper::rkf78, set.max_steps);
    const std::vector<MpReal> alpha = model_mp.attention(ref.states.back());
    k = static_cast<std::size_t>(std::max_element(alpha.begin(), alpha.end()) - alpha.begin());
    if (std::count(alpha.begin(), alpha.end(), alpha[k]) != 1) {
      lo.failure = "argmax alpha(H) is not unique in the 106-bit run";
    } else {
      lo.margin = fast_margin(model, run, k, monotone);
      hi.margin = fast_margin(model_mp, ref, k, monotone);
      column_norm_H = static_cast<double>(MpReal(sqrt(model_mp.column_norm_squared(ref.states.back(), k))));
    }
  } catch (const std::runtime_error& e) {
    lo.failure = e.what();
  }
  const std::string what = monotone ? "the sampled d/dt ||U e_k||^2 (" + std::to_string(times.size()) + " times)"
                                    : "||U e_k(H)|| - ||U e_k(0)||";
  engine::CheckResult r = engine::decide_fast(lo, hi, "k = " + std::to_string(k) + ", " + what + " > 0", what,
                                              [&] { return rigorous(inst, set, monotone, 53); });
  if (r.verdict != engine::Verdict::violated) {
    r.horizon = set.horizon;
    r.details["k"] = k;
    r.details["column_norm_H"] = column_norm_H;
    r.details["samples"] = times.size();
  }
  return r;
}

// The authors' construction [code, cell 8] with our generator: U(0) = I, β* = N/‖N‖, then
// a = 1 + 0.1·N (D normals each, in that order; the notebook's unused D² draws are not
// replayed). D from params.D (default [3, 6]).
nlohmann::json generate_tied(std::uint64_t seed, const engine::GenerateOptions& o, const std::string& check) {
  instances::SplitMix64 pick(seed ^ 0x7eedULL);
  std::size_t D = pick_size(o.params, "D", 0, pick.next());
  if (D == 0) D = 3 + static_cast<std::size_t>(pick.next() % 4);
  instances::NormalSource normal(seed);
  std::vector<double> beta(D), a(D);
  double norm2 = 0;
  for (auto& b : beta) {
    b = normal.normal();
    norm2 += b * b;
  }
  const double norm = std::sqrt(norm2);
  for (auto& b : beta) b /= norm;
  for (auto& x : a) x = 1.0 + 0.1 * normal.normal();
  instances::Instance inst;
  inst.model = "tied_value_softmax";
  inst.T = inst.d = D;
  inst.V.assign(D, instances::DecimalVector(D, "0"));
  for (std::size_t i = 0; i < D; ++i) inst.V[i][i] = "1";
  for (std::size_t i = 0; i < D; ++i) {
    inst.a.push_back(num::decimal_round_trip(a[i]));
    inst.beta.push_back(num::decimal_round_trip(beta[i]));
  }
  inst.id = check + "@" + std::to_string(seed);
  inst.provenance = check + " generator, seed " + std::to_string(seed) +
                    ": U(0) = I, beta* = N/|N|, a = 1 + 0.1 N (the notebook's cell-8 construction, our RNG)";
  return instances::to_json(inst);
}

}  // namespace

class TiedAttendedColumnCheck : public VarreCheck {
 public:
  explicit TiedAttendedColumnCheck(bool monotone) : monotone_(monotone) {}
  std::string name() const override {
    return monotone_ ? "varre2026.tied.attended_column_grows.monotone" : "varre2026.tied.attended_column_grows";
  }
  std::string statement() const override {
    return monotone_
               ? "[ours: a stronger reading of the notebook's massive-activation figure (cell 8); a violation refutes "
                 "this reading, not the paper] Tied model z = U a, alpha = softmax(z), beta = U alpha, logistic loss: "
                 "with k = argmax alpha(H) (certified unique), t -> ||U e_k(t)|| is strictly increasing on [0, H] "
                 "(d/dt ||U e_k||^2 > 0 throughout)."
               : "[code, cell 8: the figure plots ||U[:, argmax alpha(t)]||; paper, seed: 'the norm of the value vector "
                 "corresponding to that token tends to grow without bound'] Tied model z = U a, alpha = softmax(z), "
                 "beta = U alpha, logistic loss: the gradient flow reaches t = H, k = argmax alpha(H) is unique "
                 "(certified), and ||U e_k(H)|| > ||U e_k(0)||.";
  }
  std::string doc() const override { return "docs/theorems/varre2026_tied.md"; }
  // generate_tied's, then tied_settings'
  std::vector<std::string> params() const override { return {"D", "order", "max_steps", "grid", "time"}; }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    return generate_tied(seed, o, name());
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    const instances::Instance inst = tied_instance(instance);
    const TiedSettings set = tied_settings(o);
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r = o.tier == engine::Tier::rigorous ? rigorous(inst, set, monotone_, bits) : fast(inst, set, monotone_);
    r.details["D"] = inst.d;
    return r;
  }

 private:
  bool monotone_;
};

SOFTCERT_REGISTER_CHECK(TiedAttendedColumnCheck, /*monotone=*/false);
SOFTCERT_REGISTER_CHECK(TiedAttendedColumnCheck, /*monotone=*/true);

}  // namespace softcert::varre2026
