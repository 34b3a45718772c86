#pragma once
// The shared decision procedure of the pair-gap checks (order preservation, repulsion): walk
// the validated τ-tube to the horizon with a PairCertifier and turn what it found into a
// verdict. Runs at 53 bits on IntervalD, above on IntervalMp.
#include <string>
#include <vector>

#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "numerics/precision.hpp"
#include "varre2026_common.hpp"
#include "varre2026_fast_pairs.hpp"
#include "varre2026_pair_certifier.hpp"

namespace softcert::varre2026 {

struct TubeCheckSettings {
  double horizon = 100;
  unsigned order = 20;
  unsigned max_depth = 5;        // bisections of an undecided step
  std::size_t max_steps = 20000;
  double h_max = 0.5;            // τ-step cap, so that segment boxes stay informative
  bool certificate = false;      // collect the steps as certificate lines (integrate/step_certificate.hpp)
};

inline TubeCheckSettings tube_settings(const engine::CheckOptions& o) {
  TubeCheckSettings s;
  if (o.horizon) s.horizon = *o.horizon;
  s.certificate = o.certificate;
  if (!(s.horizon > 0) || s.horizon > 1e12) throw std::invalid_argument("horizon: must be in (0, 1e12]");
  s.order = static_cast<unsigned>(number_param(o.params, "order", s.order));
  s.max_depth = static_cast<unsigned>(number_param(o.params, "max_depth", s.max_depth));
  s.max_steps = max_steps_param(o.params, s.max_steps);
  s.h_max = h_max_param(o.params, s.h_max);
  if (s.order < 2 || s.order > 60) throw std::invalid_argument("params.order: must be in [2, 60]");
  if (s.max_depth > 20) throw std::invalid_argument("params.max_depth: must be at most 20");
  return s;
}

template <class S>
engine::CheckResult run_pair_claim(const instances::Instance& inst,
                                   const std::vector<std::pair<std::size_t, std::size_t>>& pairs, PairClaim claim,
                                   const TubeCheckSettings& set) {
  const auto model = models::LogisticReducedTau<S>::from_instance(inst);
  PairCertifier<S> cert(model, pairs, claim, set.horizon, set.max_depth);
  flow::WalkRequest q;
  q.order = set.order;
  q.max_steps = set.max_steps;
  q.h_max = set.h_max;
  // Certificates are written for the order claim on IntervalD runs, the ones softcert-verify checks.
  q.certificate = set.certificate && claim == PairClaim::order;
  const flow::WalkResult walk = flow::walk_until_time<S>(model, set.horizon, q, [&cert](const flow::TubeStep<S>& st) { return cert.visit(st); });
  engine::CheckResult r;
  if (walk.certificate) r.certificate = *walk.certificate;
  r.horizon = set.horizon;
  r.details["steps"] = walk.steps;
  r.details["ranges_examined"] = cert.ranges_examined();
  r.details["pairs"] = pairs.size();
  if (const auto& v = cert.violation()) {
    engine::set_margin(r, v->value);
    r.details["violation"] = {{"i", v->i},
                              {"j", v->j},
                              {"quantity", v->quantity},
                              {"step", v->step},
                              {"t_start", {num::lower_decimal(v->t_start), num::upper_decimal(v->t_start)}}};
    engine::decide_by_certificate(
        r, engine::Certified::counterexample,
        {"", v->quantity + " is certainly negative (" + r.margin.upper_text() + " upper bound) for i = " +
                 std::to_string(v->i) + ", j = " + std::to_string(v->j) + " at t in [" + num::lower_decimal(v->t_start, 6) +
                 ", " + num::upper_decimal(v->t_start, 6) + "]",
         ""});
    return r;
  }
  if (pairs.empty()) {
    engine::decide_by_certificate(r, engine::Certified::claim, {"no ordered pairs: the claim is vacuous", "", ""});
    return r;
  }
  const S margin = num::hull_of_bounds<S>(cert.margin_lower(), cert.margin_lower());
  engine::set_margin_lower_bound(r, margin);
  if (!walk.covered) {
    engine::undecided(r, "the tube did not reach t = H: " + walk.failure);
    return r;
  }
  if (cert.undecided()) {
    engine::undecided(r, "some pair could not be certified on some step (enclosures too wide)");
    r.details["first_undecided"] = cert.first_undecided();
    return r;
  }
  engine::decide_by_certificate(r, engine::Certified::claim,
                                {"certified on every step of the validated tube covering t in [0, H]", "", ""});
  return r;
}

// Dispatch on the tier (fast: varre2026_fast_pairs.hpp) and the precision: IntervalD at 53
// bits, IntervalMp (MPFI) above. Defined once in varre2026_tube_check.cpp, not inline here: the
// tube walk instantiated at both kinds is one of the heaviest -O3 compiles, which every check
// calling it would otherwise pay again (docs/performance.md, "Building from scratch").
engine::CheckResult run_pair_claim_at(const instances::Instance& inst,
                                      const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                      PairClaim claim, const engine::CheckOptions& o);

}  // namespace softcert::varre2026
