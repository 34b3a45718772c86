#pragma once
// One attention step and token cosine similarity (Súkeník et al. 2026, reconstruction;
// docs/theorems/sukenik2026_oversmoothing.md). T unit tokens with pairwise cosine ρ,
// W_VO = λI, A = (1−α)I + (α/T)𝟙𝟙ᵀ, y = x + λ A x, then RMS normalisation (cosine-neutral).
// Formula: a = 1 + λ(1−α), b = λα, m = (1 + (T−1)ρ)/T,
//   ρ' = (a²ρ + (2ab + b²)m) / (a² + (2ab + b²)m).
// Dense (α > 0) smooths more than sparse (α = 0, ρ' = ρ) iff λ(2 + λ(2 − α)) > 0.
#include <optional>

#include "certify/rational_linear.hpp"
#include "numerics/kinds.hpp"

namespace softcert::certify {

struct OversmoothingParams {
  long T = 2;
  Rational rho, lambda, alpha;
};

// The formula, exactly. nullopt when its denominator vanishes (the output is 0).
std::optional<Rational> cosine_formula(const OversmoothingParams& p, const Rational& alpha);

// Direct exact simulation on Gram matrices: G = (1−ρ)I + ρ𝟙𝟙ᵀ, B = I + λA,
// G' = B G Bᵀ. Returns the exact squared cosines cos²(y_i, y_j) for i < j and the signs of
// G'_ij (every pair), or nullopt when some output vector is 0.
struct ExactSimulation {
  std::vector<Rational> cos_sq;
  std::vector<int> sign;
};
std::optional<ExactSimulation> simulate_exact(const OversmoothingParams& p);

// Direct high-precision interval simulation with explicit vectors: X = chol(G) (interval
// Cholesky, MPFI), y_i = Σ_j B_ij x_j, y_i / rms(y_i), interval cosines. Guarantee: each
// returned interval contains the exact cosine of pair (i, j), i < j (row-major order).
// nullopt if G is not certainly positive definite at this precision.
std::optional<std::vector<IntervalMp>> simulate_interval(const OversmoothingParams& p, unsigned bits);

// The sign condition value λ(2 + λ(2 − α)), exactly.
Rational smoothing_sign_value(const OversmoothingParams& p);

}  // namespace softcert::certify
