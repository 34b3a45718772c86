// Square loss from a rank-one start: the orbit stops part-way (docs/models.md, [ours];
// docs/theorems/varre2026_square_rank_one.md).
//
// With ℓ(β) = ½‖β − β*‖² and V(0) = β* w₀ᵀ, V stays β* wᵀ; with u = c w, c = ‖β*‖²,
// ρ = 1 − uᵀs/c and dτ = ρ dt the flow is da/dτ = C(s) u, du/dτ = c s — the logistic τ-orbit —
// while dρ/dτ = −‖s‖² − ‖C(s)u‖²/c ≤ −1/T. So ρ reaches 0 at a finite τ* ≤ T·ρ(0), and
// t → ∞ as τ → τ* (dt/dτ = 1/ρ is not integrable there): the attention converges to
// σ(a(τ*)), which is not one-hot. The checked claim, partial polarization to ε:
//
//   ρ(0) > 0, the τ-orbit reaches ρ = 0 at a finite τ*, and σ(a(τ*)) stays farther than ε
//   (ℓ∞) from every one-hot vertex.   Margin: min_k ‖σ(a(τ*)) − e_k‖∞ − ε.
//
// Decided on the validated τ-tube (flow::walk_until_time): every step before the first one whose box
// does not certify ρ > 0 excludes τ*; the first step whose end certifies ρ < 0 bounds it; the
// hull of the boxes in between contains a(τ*). A violation (σ(a(τ*)) certainly within ε of a
// vertex) is a certified counterexample to "partial". Rigorous tier only.
#include <cstdio>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "numerics/stable.hpp"
#include "engine/verdict_policy.hpp"
#include "varre2026_check.hpp"
#include "varre2026_polarization.hpp"
#include "integrate/flow.hpp"
#include "models/model_parameters.hpp"

namespace softcert::varre2026 {

namespace {

// n / 10^k written exactly as a decimal string.
std::string fixed_point(long long n, int k) {  // k ≤ 18
  unsigned long long scale = 1;
  for (int e = 0; e < k; ++e) scale *= 10;
  const unsigned long long m = n < 0 ? 0ULL - static_cast<unsigned long long>(n) : static_cast<unsigned long long>(n);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%llu.%0*llu", n < 0 ? "-" : "", m / scale, k, m % scale);
  return buf;
}

struct RankOneStart {
  std::vector<Rational> a, u, beta;
  Rational c{0};
};

// The exact data of a square-loss rank-one instance; throws invalid_argument naming the field.
RankOneStart rank_one_start(const instances::Instance& inst) {
  if (inst.loss != instances::Loss::square) throw std::invalid_argument("loss: this check needs \"square\"");
  if (inst.normalization != instances::Normalization::softmax)
    throw std::invalid_argument("normalization: this check needs \"softmax\"");
  // u(0) = V(0)ᵀβ* and c = ‖β*‖², exactly (the shared definition, at Rational)
  const models::ReducedParameters<Rational> p = models::reduced_parameters<Rational>(inst);
  RankOneStart e;
  e.a = p.a0;
  e.beta = p.beta;
  e.c = p.c;
  if (e.c == 0) throw std::invalid_argument("beta: must be nonzero");
  e.u = p.u0;
  // exactly rank one along β*: V = β* uᵀ / c, i.e. c·V_ri = β_r u_i for every entry
  for (std::size_t r = 0; r < inst.d; ++r)
    for (std::size_t i = 0; i < inst.T; ++i)
      if (e.c * p.V[r][i] != e.beta[r] * e.u[i])
        throw std::invalid_argument("V: not exactly rank one along beta (V[" + std::to_string(r) + "][" +
                                    std::to_string(i) + "] differs from beta_r w_i)");
  return e;
}

template <class S>
S rho_of(const std::vector<S>& x, std::size_t T, const S& c) {
  const std::vector<S> a(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(T));
  const std::vector<S> s = num::softmax(a);
  S su(0);
  for (std::size_t i = 0; i < T; ++i) su += s[i] * x[T + i];
  return S(1) - su / c;
}

// With `certificate` (IntervalD runs): a proved record carries the walk's steps up to the crossing
// (docs/certificates.md), on which softcert-verify re-derives the orbit from the instance and
// shows the claim where ρ may vanish.
template <class S>
engine::CheckResult decide(const RankOneStart& e, double epsilon, unsigned order, std::size_t max_steps, bool certificate,
                           const std::string& check, const nlohmann::json& instance) {
  const std::size_t T = e.a.size();
  std::vector<S> a0, u0;
  for (std::size_t i = 0; i < T; ++i) {
    a0.push_back(num::hull_of_bounds<S>(num::lower(num::parse_decimal<S>(decimal_below(e.a[i]))),
                                         num::upper(num::parse_decimal<S>(decimal_above(e.a[i])))));
    u0.push_back(num::hull_of_bounds<S>(num::lower(num::parse_decimal<S>(decimal_below(e.u[i]))),
                                         num::upper(num::parse_decimal<S>(decimal_above(e.u[i])))));
  }
  const S c = num::hull_of_bounds<S>(num::lower(num::parse_decimal<S>(decimal_below(e.c))),
                                     num::upper(num::parse_decimal<S>(decimal_above(e.c))));
  const models::LogisticReducedTau<S> model(a0, u0, c);
  engine::CheckResult r;
  std::vector<S> x0 = a0;
  x0.insert(x0.end(), u0.begin(), u0.end());
  const S rho0 = rho_of(x0, T, c);
  r.details["rho0"] = {num::lower_decimal(rho0, 10), num::upper_decimal(rho0, 10)};
  if (!num::certainly_positive(rho0))
    throw std::invalid_argument("V: rho(0) = 1 - w0^T softmax(a0) must be positive (the hypothesis rho0-positive)");

  flow::WalkRequest q;
  q.order = order;
  q.max_steps = max_steps;
  q.h_max = 0.25;
  q.certificate = certificate;
  S tau(0), tau_lo(0), tau_hi(0);
  bool collecting = false, crossed = false;
  std::vector<S> a_hull;
  const flow::WalkResult walk = flow::walk_until_time<S>(model, 1e300, q, [&](const flow::TubeStep<S>& st) {
    const S tau_next = tau + st.h();
    if (!collecting && !num::certainly_positive(rho_of(st.box(), T, c))) {
      collecting = true;
      tau_lo = tau;
      a_hull.assign(st.box().begin(), st.box().begin() + static_cast<std::ptrdiff_t>(T));
    } else if (collecting) {
      for (std::size_t i = 0; i < T; ++i) a_hull[i] = num::hull(a_hull[i], st.box()[i]);
    }
    tau = tau_next;
    if (collecting && num::certainly_negative(rho_of(st.end(), T, c))) {
      crossed = true;
      tau_hi = tau_next;
      return false;
    }
    return true;
  });
  r.details["steps"] = walk.steps;
  if (!crossed) {
    engine::undecided(r, "the tube did not certify rho < 0 (" + (walk.failure.empty() ? std::string("walk ended") : walk.failure) + ")");
    return r;
  }
  r.details["tau_star"] = {num::lower_decimal(tau_lo, 10), num::upper_decimal(tau_hi, 10)};
  const std::vector<S> alpha = num::softmax(a_hull);
  nlohmann::json al = nlohmann::json::array();
  for (const auto& x : alpha) al.push_back({num::lower_decimal(x, 8), num::upper_decimal(x, 8)});
  r.details["alpha_limit"] = al;
  const S margin = vertex_distance(alpha) - S(epsilon);
  const std::string where = "tau* in [" + num::lower_decimal(tau_lo, 6) + ", " + num::upper_decimal(tau_hi, 6) + "]";
  engine::decide_by_margin(r, margin,
                           {"the orbit stops at " + where + " with the limit attention certainly farther than epsilon from one-hot",
                            "the orbit stops at " + where + " but its limit attention is certainly within epsilon of one-hot",
                            "the orbit stops at " + where + "; the limit attention's enclosure straddles distance epsilon"});
  if (r.verdict == engine::Verdict::proved && walk.certificate)
    r.certificate = flow_certificate(check, "rank_one_square_tau", instance, r,
                                     {{"kind", "partial_polarization"}, {"epsilon", num::exact_decimal(epsilon)}}, *walk.certificate);
  return r;
}

class SquareRankOnePartialPolarizationCheck : public VarreCheck {
 public:
  SquareRankOnePartialPolarizationCheck()
      : VarreCheck({"varre2026.square_rank_one.partial_polarization", "docs/theorems/varre2026_square_rank_one.md",
                    "[ours: conjecture, not stated by the paper; a violation refutes our conjecture] Square loss, softmax, "
                    "V(0) = beta* w0^T with rho(0) = 1 - w0^T softmax(a0) > 0: the "
                    "tau-orbit (d tau = rho dt) reaches rho = 0 at a finite tau*, where t -> infinity, and the limit attention "
                    "softmax(a(tau*)) stays farther than epsilon (max-norm) from every one-hot vertex."}) {}
  std::vector<std::string> params() const override {
    return {"T", "d", "w_scale", "w_mean", "epsilon", "order", "max_steps"};
  }

  // params: T (default [2, 6]), d (default T), w_mean (default 0), w_scale (default 1):
  // w0 = ±(w_mean + w_scale·N(0,1)) to 4
  // decimals (the sign making ρ(0) = 1 − mean(w0) positive), β* ~ N(0, I) normalised to 6
  // decimals, a(0) = 0, V = β* w0ᵀ exactly.
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    support::SplitMix64 pick(seed ^ 0x2a4e1ULL);
    const std::size_t T = pick_size(o.params, "T", 2 + static_cast<std::size_t>(pick.next() % 5), pick.next());
    const std::size_t d = pick_size(o.params, "d", T, pick.next());
    const double w_scale = number_param(o.params, "w_scale", 1.0);
    const double w_mean = number_param(o.params, "w_mean", 0.0);
    if (std::abs(w_mean) > 1e3) throw std::invalid_argument("params.w_mean: must be in [-1000, 1000]");
    if (!(w_scale > 0) || w_scale > 1e3) throw std::invalid_argument("params.w_scale: must be in (0, 1000]");
    instances::NormalSource normal(seed);
    std::vector<long long> w(T), b(d);
    for (auto& x : w) x = std::llround((w_mean + w_scale * normal.normal()) * 1e4);
    // ρ(0) = 1 − mean(w0) at a(0) = 0 must be positive: if Σw ≥ T, take −w0 instead
    long long sum = 0;
    for (auto x : w) sum += x;
    if (sum >= static_cast<long long>(T) * 10000)
      for (auto& x : w) x = -x;
    double norm = 0;
    std::vector<double> bd(d);
    for (auto& x : bd) {
      x = normal.normal();
      norm += x * x;
    }
    for (std::size_t r = 0; r < d; ++r) b[r] = std::llround(bd[r] / std::sqrt(norm) * 1e6);
    instances::Instance inst;
    inst.loss = instances::Loss::square;
    inst.T = T;
    inst.d = d;
    inst.a.assign(T, "0");
    for (std::size_t r = 0; r < d; ++r) {
      inst.beta.push_back(fixed_point(b[r], 6));
      inst.V.emplace_back();
      for (std::size_t i = 0; i < T; ++i) inst.V[r].push_back(fixed_point(b[r] * w[i], 10));
    }
    inst.id = name() + "@" + std::to_string(seed);
    inst.provenance = name() + " generator, seed " + std::to_string(seed) + ": V = beta* w0^T exactly";
    return instances::to_json(inst);
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check decides over a validated tube; use --tier rigorous");
    const instances::Instance inst = instances::parse_instance(instance);
    const RankOneStart e = rank_one_start(inst);
    const double epsilon = fraction_param(o.params, "epsilon", 0.1);
    const auto order = static_cast<unsigned>(number_param(o.params, "order", 20));
    const auto max_steps = max_steps_param(o.params, 20000);
    const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
    engine::CheckResult r = engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      engine::CheckResult res = decide<decltype(kind)>(e, epsilon, order, max_steps, o.certificate, name(), instance);
      res.precision_bits = used;
      return res;
    });
    r.details["epsilon"] = epsilon;
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(SquareRankOnePartialPolarizationCheck);

}  // namespace
}  // namespace softcert::varre2026
