#pragma once
// Platform-independent random numbers for instance generators: SplitMix64 seeding a
// std::mt19937_64 (raw words only; the standard fixes its output) and our own Box–Muller,
// never std:: distributions (their output differs between standard libraries). The two
// transcendental steps of Box–Muller (log, cos) are MPFR's, correctly rounded to the nearest
// double, never the system libm's (libm versions may differ in the last bit); every other step
// is one IEEE operation (+, ×, sqrt: correctly rounded everywhere). Golden values:
// tests/instances/generator_golden_test.cpp.
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace softcert::certify {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// log(x) and cos(x) correctly rounded to the nearest double (MPFR at 53 bits; the inputs are
// doubles, so one correctly rounded operation each).
inline double correctly_rounded_log(double x) {
  mpfr_t r;
  mpfr_init2(r, 53);
  mpfr_set_d(r, x, MPFR_RNDN);
  mpfr_log(r, r, MPFR_RNDN);
  const double y = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  return y;
}
inline double correctly_rounded_cos(double x) {
  mpfr_t r;
  mpfr_init2(r, 53);
  mpfr_set_d(r, x, MPFR_RNDN);
  mpfr_cos(r, r, MPFR_RNDN);
  const double y = mpfr_get_d(r, MPFR_RNDN);
  mpfr_clear(r);
  return y;
}

class RandomSource {
 public:
  // `stream` separates independent uses of one seed (e.g. one check's parts).
  explicit RandomSource(std::uint64_t seed, std::uint64_t stream = 0) {
    std::uint64_t s = seed ^ (stream * 0xD1B54A32D192ED03ULL);
    rng_.seed(splitmix64(s));
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
    volatile double r2 = -2.0 * correctly_rounded_log(u1);
    volatile double angle = 6.283185307179586 * u2;
    volatile double z = std::sqrt(r2) * correctly_rounded_cos(angle);
    return z;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace softcert::certify
