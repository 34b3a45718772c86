#include "partial_polarization.hpp"

#include <vector>

#include "attention_at_horizon.hpp"
#include "decimal.hpp"

namespace verify {

PartialPolarization::PartialPolarization(const Field& f, const nlohmann::json& claim, const std::string& check) : f_(f) {
  if (check != "varre2026.square_rank_one.partial_polarization")
    throw Rejection("header: the check " + check + " has no claim partial_polarization");
  eps_ = parse_number(claim.at("epsilon"));
  if (!eps_.positive() || !(Ball(1) - eps_).positive()) throw Rejection("claim: epsilon must lie in (0, 1)");
  const slong T = f.T;
  const Ball rho0 = rho(std::vector<Ball>(f.x0.begin(), f.x0.begin() + T), std::vector<Ball>(f.x0.begin() + T, f.x0.begin() + 2 * T));
  if (!rho0.positive()) throw Rejection("claim: rho(0) = 1 - u(0)ᵀσ(a(0))/c is not certainly positive: " + rho0.text());
  arb_pos_inf(margin_.get());
}

Ball PartialPolarization::rho(const std::vector<Ball>& a, const std::vector<Ball>& u) const {
  const std::vector<Ball> s = attention(f_, a);
  Ball su;
  for (slong i = 0; i < f_.T; ++i) su += s[i] * u[i];
  Ball q;
  arb_div(q.get(), su.get(), f_.c.get(), kPrec);
  return Ball(1) - q;
}

void PartialPolarization::visit(const Step& step, const StepFacts& facts) {
  std::vector<Ball> a, u;
  for (slong k = 0; k < f_.T; ++k) {
    a.push_back(over_step(facts, {{k, 1}}).ball());
    u.push_back(over_step(facts, {{f_.T + k, 1}}).ball());
  }
  if (rho(a, u).positive()) return;  // ρ > 0 on the whole step: τ* is not in it
  ++at_crossing_;
  const Ball m = vertex_distance(attention(f_, a)) - eps_;
  if (!m.positive() || !m.finite())
    throw Rejection("step " + std::to_string(step.index) + ": (e) claim: rho may vanish in this step, and there the distance of " +
                    "σ(a) to the nearest vertex minus epsilon, " + m.text() + ", is not positive");
  const Ball low = m.lower_end();
  if (arb_lt(low.get(), margin_.get())) margin_ = low;
}

void PartialPolarization::require_crossed(const Step& last) const {
  std::vector<Ball> a, u;
  for (slong k = 0; k < f_.T; ++k) {
    a.push_back(last.box[k].hull());
    u.push_back(last.box[f_.T + k].hull());
  }
  const Ball r = rho(a, u);
  if (!(Ball(0) - r).positive())
    throw Rejection("step " + std::to_string(last.index) + ": (d) rho on the last box, " + r.text() +
                    ", is not certainly negative: the steps need not reach tau*");
}

}  // namespace verify
