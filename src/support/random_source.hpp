#pragma once
// Platform-independent random numbers for the sink-paper generators: SplitMix64 seeding a
// std::mt19937_64 (raw words only; the standard fixes its output) and our own Box–Muller,
// never std:: distributions (their output differs between standard libraries). The two
// transcendental steps of Box–Muller (log, cos) are correctly rounded to the nearest double
// (numerics/correctly_rounded.hpp), never the system libm's; every other step
// is one IEEE operation (+, ×, sqrt: correctly rounded everywhere). Golden values:
// tests/instances/generator_golden_test.cpp.
#include <cmath>
#include <cstdint>
#include <random>

#include "support/splitmix64.hpp"
#include "numerics/correctly_rounded.hpp"

namespace softcert::support {

class RandomSource {
 public:
  // `stream` separates independent uses of one seed (e.g. one check's parts).
  explicit RandomSource(std::uint64_t seed, std::uint64_t stream = 0) {
    rng_.seed(splitmix64(seed ^ (stream * 0xD1B54A32D192ED03ULL)));
  }
  std::uint64_t word() { return rng_(); }
  double unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double a, double b) { return a + (b - a) * unit(); }
  // An integer in [lo, hi] (modulo bias ≤ 2^-50 for the small ranges used).
  int integer(int lo, int hi) { return lo + static_cast<int>(rng_() % static_cast<std::uint64_t>(hi - lo + 1)); }
  // Standard normal by Box–Muller (the sine branch is discarded, so each call costs two words).
  double normal() {
    double u1 = unit();
    while (u1 <= 0.0) u1 = unit();
    const double u2 = unit();
    // Each product is stored before use so that no target contracts it into a fused multiply-add.
    volatile double r2 = -2.0 * num::correctly_rounded_log(u1);
    volatile double angle = 6.283185307179586 * u2;
    volatile double z = std::sqrt(r2) * num::correctly_rounded_cos(angle);
    return z;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace softcert::support
