// Bench (not a test): harmonic oscillator x'' = −x from the point (1, 0) over 1000 periods
// (t = 2000π) on double intervals. Goal: final width ≤ 1e-9 (wrapping under control).
// Prints width, steps, seconds for Lohner and for plain interval vectors.
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>

#include "integrate/validated_taylor.hpp"
#include "numerics/decimal.hpp"

using namespace softcert;

int main() {
  auto osc = [](const auto& x, auto& dx) { dx[0] = x[1]; dx[1] = -x[0]; };
  const IntervalD T = IntervalD(2000) * num::parse_decimal<IntervalD>("3.14159265358979323846264338327950288");
  for (bool lohner : {true, false}) {
    integrate::ValidatedOptions o;
    o.lohner = lohner;
    o.keep_segments = false;
    integrate::ValidatedTaylor<IntervalD, decltype(osc)> vt(osc, 2, o);
    const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
    try {
      const auto tube = vt.integrate({IntervalD(1.0), IntervalD(0.0)}, IntervalD(0.0), T);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
      const auto& b = tube.final_box();
      std::printf("oscillator 1000 periods, %s: x in [%.17g, %.17g] y in [%.17g, %.17g] width %.3g steps %zu CPU %.3f s (wall %.3f s)\n",
                  lohner ? "Lohner QR" : "interval vector", b[0].lower(), b[0].upper(), b[1].lower(), b[1].upper(),
                  std::max(width(b[0]), width(b[1])), vt.steps_taken(), cpu, s);
    } catch (const std::exception& e) {
      std::printf("oscillator, %s: failed: %s\n", lohner ? "Lohner QR" : "interval vector", e.what());
    }
  }
}
