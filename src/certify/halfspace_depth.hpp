#pragma once
// The signed half-space depth of a finite point set P = {p_1..p_n} ⊂ Q^d about the origin,
//   ρ(P) = max_{‖u‖₂ = 1} min_i u·p_i,
// is > 0 iff P lies in an open half-space through 0 (iff 0 ∉ conv P), and then equals
// dist(0, conv P); it is < 0 iff 0 is an interior point of conv P, and then equals minus the
// radius of the largest ball about 0 inside conv P. Both signs have finite exact certificates:
//   separator      u ∈ Q^d with min_i u·p_i > 0           ⇒ ρ ≥ min_i u·p_i / ‖u‖ > 0
//   zero hull      λ ≥ 0, Σλ = 1, Σ λ_i p_i = 0            ⇒ ρ ≤ 0 (0 ∈ conv P)
//   interior       ±r e_k ∈ conv P for k = 1..d (2d convex  ⇒ the ball of radius r/√d about 0
//                  combinations), r > 0                      lies in conv P ⇒ ρ ≤ −r/√d
// This is the certificate behind sink representability (queries; sink minus keys) and the
// hard-switch bound (values): the sharp κ of ‖Σ p_j v_j‖ ≥ κ(1 − p₀) is exactly ρ(V)⁺.
#include <optional>

#include "certify/rational_linear.hpp"
#include "numerics/kinds.hpp"

namespace softcert::certify {

struct DepthCertificate {
  bool separated = false;
  RVec separator;                   // separated
  RVec zero_combination;            // not separated: weights on the points
  std::optional<Rational> inner_r;  // not separated and 0 interior: ±r e_k ∈ conv P
  RMat interior_combinations;       // 2d rows: weights giving +r e_1, −r e_1, +r e_2, ...
};

// Finds a certificate by exact LPs (exact_feasibility). With `want_interior`, also tries
// r = R·2^{−k} (R = max_i ‖p_i‖_∞, k = 1..max_halvings) for the interior certificate.
// Throws std::invalid_argument for an empty set or ragged points.
DepthCertificate find_depth_certificate(const RMat& points, bool want_interior, int max_halvings = 12);

// Whether P lies in an open half-space through 0 (0 ∉ conv P), decided exactly: true only
// with a verified separator, false only with a verified zero combination; nullopt if neither
// verifies (an internal failure of the LP). Throws std::invalid_argument as
// find_depth_certificate.
std::optional<bool> in_open_halfspace(const RMat& points);

// Guarantee: the exact value min_i u·p_i when it is > 0, else nullopt.
std::optional<Rational> verify_separator(const RMat& points, const RVec& u);
// Guarantee: true iff λ ≥ 0, Σλ = 1 and Σ λ_i p_i = 0 exactly.
bool verify_zero_combination(const RMat& points, const RVec& lambda);
// Guarantee: true iff r > 0 and row 2k (2k+1) of `combos` is a convex combination of the
// points equal to +r e_k (−r e_k) exactly, for every k < d.
bool verify_interior(const RMat& points, const Rational& r, const RMat& combos);

// An interval containing ρ(P), derived only from verified parts of `cert` (parts that fail
// verification are ignored; with none verified the result is the trivial
// [−max‖p_i‖, min‖p_i‖]). Guarantee: contains ρ(P). Uses the current MPFI precision.
IntervalMp depth_enclosure(const RMat& points, const DepthCertificate& cert);

}  // namespace softcert::certify
