#pragma once
// Hard switch ⇔ sink (Súkeník et al. 2026, reconstruction; docs/theorems/
// sukenik2026_hard_switch.md). Non-sink values v_1..v_T ∈ Q^d; an attention vector
// p = (p_0, p_1..p_T) in the simplex (p_0 = sink mass) outputs o(p) = Σ_{j≥1} p_j v_j.
// Claim: if the v_j are linearly independent ("full-rank") or lie in a strict half-space
// ("half-space"), there is κ > 0 with ‖o(p)‖ ≥ κ (1 − p_0) for every p — so o(p) → 0 forces
// p_0 → 1 (only a sink switches the head off). The sharp κ is ρ(V)⁺ (halfspace_depth.hpp).
// Certificates (all exact; κ is certified through κ², a rational):
//   full-rank  κ² = s²/T with G − s² I ⪰ 0, G = (v_i·v_j) (exact LDLᵀ): ‖Vq‖ ≥ s‖q‖₂ ≥ s‖q‖₁/√T
//   half-space κ² = m²/‖w‖² with m = min_j w·v_j > 0:  ‖Vq‖ ≥ w·Vq/‖w‖ ≥ m‖q‖₁/‖w‖
// Counterexample when both fail: p = (1/2, λ/2) with Σ λ_j v_j = 0 — output exactly 0 while
// the sink mass is 1/2.
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "certify/halfspace_depth.hpp"
#include "certify/rational_linear.hpp"

namespace softcert::certify {

struct HardSwitchDecision {
  std::optional<Rational> kappa_sq_full_rank;  // certified (verified) κ² from σ_min
  std::optional<Rational> kappa_sq_half_space; // certified κ² from a separator
  DepthCertificate depth;
  IntervalMp margin;            // encloses the sharp κ (signed: ρ(V))
  nlohmann::json certificate;   // replayable
};

// Certified lower bound s² ≤ λ_min(G) for a symmetric PSD rational G (tries a dyadic rational
// just below the floating-point λ_min, verified exactly; halves on failure). nullopt when no
// positive bound verifies (e.g. G singular).
std::optional<Rational> certified_lambda_min_lower(const RMat& g);

HardSwitchDecision decide_hard_switch(const RMat& values);

// Re-verifies a certificate from scratch. Returns the certified κ² > 0 (holds), or sets
// *counterexample = true when the certificate holds a valid zero-output attention vector with
// p_0 < 1 (violated); nullopt and false when nothing verifies (tampered).
std::optional<Rational> verify_hard_switch_certificate(const RMat& values, const nlohmann::json& certificate,
                                                       bool* counterexample);

// Exact check of the bound on one attention vector p (size T+1): ‖o(p)‖² ≥ κ²(1 − p_0)².
bool bound_holds_exactly(const RMat& values, const Rational& kappa_sq, const RVec& p);

// The bound checked exactly on `samples` attention vectors (reproducible from `seed`): p_0 runs
// through 0 and 1 − 2^−k (k = 1..30), the rest of the mass spread by random positive weights.
// Returns how many satisfied it (all of them, if κ² is right).
long sampled_bound_holds(const RMat& values, const Rational& kappa_sq, long samples, std::uint64_t seed);

}  // namespace softcert::certify
