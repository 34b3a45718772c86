#pragma once
// What the value-softmax checks share: their instance generator (hypotheses by name), the exact
// initial data they reason about, and the parameters they read.
#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "instances/generator.hpp"
#include "instances/instance.hpp"
#include "integrate/flow.hpp"
#include "numerics/decimal.hpp"
#include "numerics/enclosure.hpp"
#include "numerics/kinds.hpp"

namespace softcert::varre2026 {

inline const char* const kPaper =
    "Varre, Rofin, Flammarion (2026), Gradient flow polarizes softmax outputs towards low-entropy solutions, "
    "arXiv 2603.06248";

// Hypothesis names (search --drop takes them).
inline const char* const kUniformA0 = "uniform-a0";    // a(0) = 0
inline const char* const kDistinctU0 = "distinct-u0";  // entries of u(0) = V(0)ᵀβ* pairwise distinct

// An integer parameter: a number, or a range [lo, hi] from which the seed picks uniformly.
inline std::size_t pick_size(const nlohmann::json& params, const char* key, std::size_t fallback, std::uint64_t word) {
  if (!params.contains(key)) return fallback;
  const auto& v = params[key];
  auto as_size = [&](const nlohmann::json& x) {
    if (!x.is_number_integer() || x.get<long long>() < 1 || x.get<long long>() > 4096)
      throw std::invalid_argument(std::string("params.") + key + ": must be an integer in [1, 4096] or a range [lo, hi]");
    return static_cast<std::size_t>(x.get<long long>());
  };
  if (v.is_array()) {
    if (v.size() != 2) throw std::invalid_argument(std::string("params.") + key + ": a range is [lo, hi]");
    const std::size_t lo = as_size(v[0]), hi = as_size(v[1]);
    if (lo > hi) throw std::invalid_argument(std::string("params.") + key + ": range [lo, hi] needs lo <= hi");
    return lo + static_cast<std::size_t>(word % (hi - lo + 1));
  }
  return as_size(v);
}

// The precision of a rigorous re-certification started from the fast tier: the fast tier takes
// up to 65536 bits, the rigorous tier at most engine::kMaxRigorousPrecision (beyond, GMP runs
// out of memory and aborts); a re-certification at the cap proves as much as one above it.
inline unsigned recertify_bits(unsigned bits) { return std::min(bits, engine::kMaxRigorousPrecision); }

inline double number_param(const nlohmann::json& params, const char* key, double fallback) {
  if (!params.contains(key)) return fallback;
  if (!params[key].is_number()) throw std::invalid_argument(std::string("params.") + key + ": must be a number");
  return params[key].get<double>();
}

// A tolerance such as epsilon or delta: params.<key>, else `fallback`; must lie in (0, 1).
inline double fraction_param(const nlohmann::json& params, const char* key, double fallback) {
  const double x = number_param(params, key, fallback);
  if (!(x > 0 && x < 1)) throw std::invalid_argument(std::string("params.") + key + ": must be in (0, 1)");
  return x;
}

// The claim's horizon: options.horizon, else `fallback`; must lie in (0, max].
inline double horizon_param(const engine::CheckOptions& o, double fallback, const std::string& max) {
  const double h = o.horizon.value_or(fallback);
  if (!(h > 0) || h > std::stod(max)) throw std::invalid_argument("horizon: must be in (0, " + max + "]");
  return h;
}

// params.order, the Taylor order of the validated steps: in [2, 60]; `fallback` when absent
// (0: the integrator's default for the run, integrate/full_state_orders.hpp).
inline unsigned taylor_order_param(const nlohmann::json& params, unsigned fallback) {
  if (!params.is_object() || !params.contains("order")) return fallback;
  const auto order = static_cast<unsigned>(number_param(params, "order", fallback));
  if (order < 2 || order > 60) throw std::invalid_argument("params.order: must be in [2, 60]");
  return order;
}

// params[key] as the word integrate/run_knobs.hpp reads (absent: "auto", the check's default).
inline std::string word_param(const nlohmann::json& params, const char* key) {
  if (!params.is_object() || !params.contains(key)) return "auto";
  return params[key].is_string() ? params[key].get<std::string>() : params[key].dump();
}

// params.set, the set a full-state run carries: "lohner" (the Taylor–Lohner set) or "ball"
// (integrate::ValidatedOptions::log_norm_ball, docs/method.md §2b); empty: the check's default.
inline std::optional<integrate::PlanStepper> set_param(const nlohmann::json& params) {
  return flow::parse_plan_set(word_param(params, "set"), "params.set");
}

// params.ball_pieces (with set "ball"): the pieces of each step's growth factor, in [1, 64];
// default 1 (integrate::ValidatedOptions::ball_pieces).
inline unsigned ball_pieces_param(const nlohmann::json& params) {
  if (!params.is_object() || !params.contains("ball_pieces")) return 1;
  const double k = number_param(params, "ball_pieces", 1);
  if (!(k >= 1 && k <= 64) || k != static_cast<double>(static_cast<unsigned>(k)))
    throw std::invalid_argument("params.ball_pieces: must be an integer in [1, 64]");
  if (set_param(params) != integrate::PlanStepper::ball) throw std::invalid_argument("params.ball_pieces: only with params.set = \"ball\"");
  return static_cast<unsigned>(k);
}

// params.max_steps, the step budget of an integration: an integer in [1, 10⁷]. Bounded, so that
// no parameter (a negative number read as "unlimited", a huge one with a tiny h_max) can make a
// run that never ends; the defaults are 2·10⁴ to 10⁶.
inline std::size_t max_steps_param(const nlohmann::json& params, std::size_t fallback) {
  const double v = number_param(params, "max_steps", static_cast<double>(fallback));
  if (!(v >= 1 && v <= 1e7) || v != std::floor(v)) throw std::invalid_argument("params.max_steps: must be an integer in [1, 1e7]");
  return static_cast<std::size_t>(v);
}

// params.h_max, a cap on the validated step (0: none): finite and >= 0. A tiny cap only costs
// steps, which max_steps bounds.
inline double h_max_param(const nlohmann::json& params, double fallback) {
  const double v = number_param(params, "h_max", fallback);
  if (!(v >= 0 && std::isfinite(v))) throw std::invalid_argument("params.h_max: must be a finite number >= 0 (0: no cap)");
  return v;
}

// A logistic value-softmax instance: T from params.T (default [2, 8]), d = params.d or T,
// V(0) = 0.1·N(0,1), β* ~ N(0, I) normalised; a(0) = 0 unless `uniform-a0` is dropped (then
// a(0) = params.a_scale·N(0,1), default scale 1); with `distinct-u0` dropped, the last column
// of V repeats the first, so u_0 = u_{T−1}.
inline nlohmann::json generate_logistic_instance(std::uint64_t seed, const engine::GenerateOptions& o,
                                                 const std::string& check) {
  support::SplitMix64 pick(seed ^ 0x5eed5eed5eedULL);
  instances::GeneratorOptions g;
  g.T = pick_size(o.params, "T", 0, pick.next());
  if (g.T == 0) g.T = 2 + static_cast<std::size_t>(pick.next() % 7);  // default range [2, 8]
  g.d = pick_size(o.params, "d", g.T, pick.next());
  // Refused before anything is drawn: V holds d·T decimals, which T = d = 4096 would make 1.7·10⁷.
  if (double(g.T) * double(g.d) > 1e6)
    throw std::invalid_argument("params.T, params.d: V(0) would have d*T = " + std::to_string(g.T * g.d) + " entries; at most 10^6");
  g.a_scale = o.dropped.count(kUniformA0) ? number_param(o.params, "a_scale", 1.0) : 0.0;
  instances::Instance inst = instances::generate_instance(seed, g);
  if (o.dropped.count(kDistinctU0) && inst.T >= 2)
    for (auto& row : inst.V) row.back() = row.front();
  inst.id = check + "@" + std::to_string(seed);
  return instances::to_json(inst);
}

// The exact initial data the checks reason about: u(0) = V(0)ᵀβ* and a(0) in rationals.
struct ExactStart {
  std::vector<Rational> a, u;
};

inline ExactStart exact_start(const instances::Instance& inst) {
  ExactStart e;
  for (const auto& x : inst.a) e.a.push_back(num::parse_decimal<Rational>(x));
  e.u.assign(inst.T, Rational(0));
  for (std::size_t r = 0; r < inst.d; ++r) {
    const Rational b = num::parse_decimal<Rational>(inst.beta[r]);
    for (std::size_t j = 0; j < inst.T; ++j) e.u[j] += num::parse_decimal<Rational>(inst.V[r][j]) * b;
  }
  return e;
}

// Pairs (i, j) with u_i(0) > u_j(0), exactly.
inline std::vector<std::pair<std::size_t, std::size_t>> ordered_pairs(const ExactStart& e) {
  std::vector<std::pair<std::size_t, std::size_t>> p;
  for (std::size_t i = 0; i < e.u.size(); ++i)
    for (std::size_t j = 0; j < e.u.size(); ++j)
      if (e.u[i] > e.u[j]) p.emplace_back(i, j);
  return p;
}

// The first index of the largest u(0), exactly; `unique` tells whether it is the only one.
inline std::size_t leader(const ExactStart& e, bool* unique = nullptr) {
  const std::size_t k = static_cast<std::size_t>(std::max_element(e.u.begin(), e.u.end()) - e.u.begin());
  if (unique) *unique = std::count(e.u.begin(), e.u.end(), e.u[k]) == 1;
  return k;
}

// An index j with a_j(0) > a_k(0) for the leader k = argmax u(0) (its first index), if any.
inline std::optional<std::size_t> ahead_of_leader(const ExactStart& s) {
  const std::size_t k = leader(s);
  for (std::size_t j = 0; j < s.a.size(); ++j)
    if (s.a[j] > s.a[k]) return j;
  return std::nullopt;
}

// Decimal strings below / above a rational (17 significant digits, rounded outward).
inline std::string decimal_below(const Rational& q) {
  const double d = num::outward_double(q, false);
  return num::lower_decimal(IntervalD(d, d));
}
inline std::string decimal_above(const Rational& q) {
  const double d = num::outward_double(q, true);
  return num::upper_decimal(IntervalD(d, d));
}

// Reads and validates a value-softmax logistic instance.
inline instances::Instance logistic_instance(const nlohmann::json& j) {
  instances::Instance inst = instances::parse_instance(j);
  if (inst.loss != instances::Loss::logistic) throw std::invalid_argument("loss: this check needs \"logistic\"");
  if (inst.normalization != instances::Normalization::softmax)
    throw std::invalid_argument("normalization: this check needs \"softmax\"");
  return inst;
}

// An enclosure in a check's details: [lower, upper] as decimals of `digits` significant digits,
// rounded outward (num::lower_decimal / upper_decimal), so the printed pair still contains x.
template <class S>
nlohmann::json enclosure_json(const S& x, int digits = 10) {
  return {num::lower_decimal(x, digits), num::upper_decimal(x, digits)};
}

}  // namespace softcert::varre2026
