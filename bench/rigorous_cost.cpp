// Bench (not a test): cost per validated step of the logistic reduced flow (t-time) as the
// state dimension (T = 2 … 64, n = 2T), the Taylor order and the precision grow.
// Each line: the mean over a few steps from a fixed random instance (a, u from mt19937_64 raw
// words), time per step and the step size the controller chose.
#include <chrono>
#include <ctime>
#include <cmath>
#include <cstdio>
#include <random>

#include "integrate/validated_taylor.hpp"
#include "models/logistic_reduced.hpp"
#include "numerics/precision.hpp"

using namespace softcert;

template <class S>
void run(std::size_t T, unsigned order, int steps) {
  std::mt19937_64 g(42 + T);
  auto unit = [&] { return static_cast<double>(g() >> 11) * 0x1.0p-53; };
  std::vector<S> a(T), u(T);
  for (auto& v : a) v = S(0);
  for (auto& v : u) v = S(0.2 * (2 * unit() - 1));
  const models::LogisticReduced<S> m(a, u, S(1));
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  integrate::ValidatedOptions o;
  o.order = order;
  o.keep_segments = false;
  integrate::ValidatedTaylor<S, decltype(field)> vt(field, m.dimension(), o);
  auto set = integrate::LohnerSet<S>::from_box(m.initial_state());
  S t(0);
  bool reached = false;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  double hsum = 0;
  int k = 0;
  for (; k < steps && !reached; ++k) {
    vt.step(set, t, S(1e6), reached);
    hsum += num::to_double(vt.last_step().h);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  std::printf("%-16s bits=%-4u T=%-3zu n=%-4zu order=%-3u  %9.3f ms/step CPU (%9.3f wall)   mean h=%.3g\n", num::ScalarTraits<S>::name(),
              integrate::working_bits<S>(), T, m.dimension(), order, 1e3 * cpu / k, 1e3 * s / k, hsum / k);
}

int main() {
  std::printf("-- dimension (interval-double, order 20)\n");
  for (std::size_t T : {2, 4, 8, 16, 32, 64}) run<IntervalD>(T, 20, T >= 32 ? 2 : 5);
  std::printf("-- order (interval-double, T = 8)\n");
  for (unsigned p : {10, 20, 30, 40}) run<IntervalD>(8, p, 5);
  std::printf("-- precision (T = 8, order 20 and order bits/4)\n");
  for (unsigned bits : {64, 128, 256, 512}) {
    num::PrecisionGuard guard(bits);
    run<IntervalMp>(8, 20, 2);
    run<IntervalMp>(8, std::max(20u, bits / 4), 2);
  }
}
