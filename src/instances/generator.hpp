#pragma once
// Random instances whose every digit is fixed by the seed on every platform.
//
// Words: SplitMix64 (Steele, Lea, Flood 2014), state += 0x9e3779b97f4a7c15 then the fixed
// xor-shift-multiply finaliser. Uniforms: u = (w >> 11) · 2⁻⁵³ ∈ [0, 1) and the open-at-zero
// variant (w >> 11 + 1) · 2⁻⁵³ ∈ (0, 1]. Normals: Box–Muller on two words, z₀ = r cos θ,
// z₁ = r sin θ with r = √(−2 ln u₁), u₁ ∈ (0, 1], θ = 2π u₂, every operation of which is
// computed by MPFR at 53 bits rounded to nearest (correctly rounded, unlike the platform's
// libm, so the doubles are the same everywhere); z₀ is returned first, z₁ next.
// Everything else uses IEEE +, −, ×, ÷, √ (correctly rounded by the standard). docs/instances.md
// lists the draw order.
#include <cstdint>
#include <string>

#include "instances/instance.hpp"
#include "support/splitmix64.hpp"

namespace softcert::instances {

// Standard normal draws by Box–Muller over SplitMix64 (see above).
class NormalSource {
 public:
  explicit NormalSource(std::uint64_t seed) : words_(seed) {}
  double uniform();              // [0, 1)
  double uniform_open_zero();    // (0, 1]
  double normal();
  std::uint64_t word() { return words_.next(); }

 private:
  support::SplitMix64 words_;
  bool have_spare_ = false;
  double spare_ = 0;
};

struct GeneratorOptions {
  std::size_t T = 8, d = 8;
  Loss loss = Loss::logistic;
  Normalization normalization = Normalization::softmax;
  double v_scale = 0.1;  // V = v_scale · N(0, 1)
  double a_scale = 0.0;  // a = a_scale · N(0, 1) (0: uniform attention a = 0; draws still consumed)
  std::size_t n = 16;    // data points for logistic_dataset / regression
};

// Draw order: V (row by row, d·T normals), a (T normals), β* (d normals, normalised to
// ‖β*‖ = 1), then for dataset losses X (row by row, n·d normals), for cross_entropy p (d normals,
// p_k = |z_k| / Σ|z|). Labels: logistic_dataset y_i = +1 if ⟨x_i, β*⟩ ≥ 0 else −1;
// regression y = X β*. Numbers are written in shortest round-trip decimal.
Instance generate_instance(std::uint64_t seed, const GeneratorOptions& options);

}  // namespace softcert::instances
