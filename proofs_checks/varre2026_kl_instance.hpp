#pragma once
// The KL check's instance side (varre2026_kl.cpp; docs/theorems/varre2026_kl.md): its settings
// from the check's options, the instance's validation, the closed-form infimum L* of the loss,
// and the generator of the authors' cell-13 construction.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "instances/instance.hpp"
#include "support/random_source.hpp"
#include "support/splitmix64.hpp"
#include "numerics/correctly_rounded.hpp"
#include "numerics/entropy_enclosure.hpp"
#include "varre2026_common.hpp"

namespace softcert::varre2026 {

struct KlSettings {
  double horizon = 1e6;  // the authors' t = 0.1 × 10⁷ [code, cell 14]
  double delta = 1e-6;
  unsigned order = 0;  // 0: integrate::default_full_state_order (30 over double intervals)
  std::size_t max_steps = 20000;  // rigorous budget
  bool ball = true;               // the ball step (params.set, default "ball")
  bool tail = true;               // the cross-entropy tail lemma (params.tail)
  unsigned jacobian_order = 0;    // Lohner set: q of the mean value form (0: the full-state default)
  unsigned ball_pieces = 2;       // ball set: pieces per step (params.ball_pieces)
  std::size_t fast_max_steps = 5000000;
};

inline KlSettings kl_settings(const engine::CheckOptions& o) {
  KlSettings s;
  s.horizon = horizon_param(o, s.horizon, "1e9");
  s.delta = fraction_param(o.params, "delta", s.delta);
  s.order = taylor_order_param(o.params, s.order);
  s.max_steps = max_steps_param(o.params, s.max_steps);
  if (const auto set = set_param(o.params)) s.ball = *set == integrate::PlanStepper::ball;
  if (o.params.is_object() && o.params.contains("ball_pieces")) {
    if (!s.ball) throw std::invalid_argument("params.ball_pieces: only with params.set = \"ball\"");
    const double k = number_param(o.params, "ball_pieces", 1);
    if (!(k >= 1 && k <= 64) || k != static_cast<double>(static_cast<unsigned>(k)))
      throw std::invalid_argument("params.ball_pieces: must be an integer in [1, 64]");
    s.ball_pieces = static_cast<unsigned>(k);
  }
  if (o.params.is_object() && o.params.contains("jacobian_order")) {
    const double q = number_param(o.params, "jacobian_order", 0);
    if (!(q >= 0 && q <= 128) || q != static_cast<double>(static_cast<unsigned>(q)))
      throw std::invalid_argument("params.jacobian_order: must be an integer in [0, 128]");
    s.jacobian_order = static_cast<unsigned>(q);
  }
  if (o.params.is_object() && o.params.contains("tail")) {
    if (!o.params["tail"].is_boolean()) throw std::invalid_argument("params.tail: must be true or false");
    s.tail = o.params["tail"].get<bool>();
  }
  return s;
}

inline instances::Instance kl_instance(const nlohmann::json& j) {
  instances::Instance inst = instances::parse_instance(j);
  if (inst.tied() || inst.loss != instances::Loss::cross_entropy || inst.normalization != instances::Normalization::softmax)
    throw std::invalid_argument("loss: this check needs model \"value_softmax\", loss \"cross_entropy\", softmax");
  return inst;
}

// L* = −Σ p_r log(p_r/s) = −Σ p_r log p_r + s log s, s = Σ p (0 log 0 = 0), at kind S.
template <class S>
S loss_infimum(const instances::Instance& inst) {
  S s(0), h(0);
  for (const auto& d : inst.p) {
    const S p = num::parse_decimal<S>(d);
    s = s + p;
    h = h - num::xlogx_enclosure(p);
  }
  return h + num::xlogx_enclosure(s);
}

// The authors' construction [code, cell 13] with our generator: V = 0.1·N(0,1) (k × T, row r =
// class r), a = 0, p = softmax(10·U[0,1)^k); T from params.T (default [2, 4]), k = params.d or T.
inline nlohmann::json generate_kl(std::uint64_t seed, const engine::GenerateOptions& o, const std::string& check) {
  support::SplitMix64 pick(seed ^ 0x6b1ULL);
  std::size_t T = pick_size(o.params, "T", 0, pick.next());
  if (T == 0) T = 2 + static_cast<std::size_t>(pick.next() % 3);
  const std::size_t k = pick_size(o.params, "d", T, pick.next());
  instances::NormalSource src(seed);
  instances::Instance inst;
  inst.loss = instances::Loss::cross_entropy;
  inst.T = T;
  inst.d = k;
  inst.V.assign(k, instances::DecimalVector(T));
  for (auto& row : inst.V)
    for (auto& v : row) v = num::decimal_round_trip(0.1 * src.normal());
  inst.a.assign(T, "0");
  // p = softmax(10·u): exp by MPFR at 53 bits, rounded to nearest (correctly rounded, so the
  // same double on every platform, unlike libm's exp); shift, sum and division in IEEE double.
  std::vector<double> e(k);
  for (auto& z : e) z = 10 * src.uniform();
  const double top = *std::max_element(e.begin(), e.end());
  double sum = 0;
  for (auto& z : e) {
    z = num::correctly_rounded_exp(z - top);
    sum += z;
  }
  for (double z : e) inst.p.push_back(num::decimal_round_trip(z / sum));
  inst.id = check + "@" + std::to_string(seed);
  inst.provenance = check + " generator, seed " + std::to_string(seed) +
                    ": V = 0.1 N, a = 0, p = softmax(10 U[0,1)) (the notebook's cell-13 construction, our RNG)";
  return instances::to_json(inst);
}

}  // namespace softcert::varre2026
