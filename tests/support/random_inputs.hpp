#pragma once
// Deterministic random inputs for soundness tests. std::mt19937_64's output is fixed by the
// standard; we avoid std:: distributions (they differ between standard libraries) and build
// every value from raw 64-bit words.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

namespace softcert::testing {

class InputGenerator {
 public:
  explicit InputGenerator(std::uint64_t seed) : rng_(seed) {}

  std::uint64_t word() { return rng_(); }
  // uniform in [0, 1)
  double unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  double uniform(double a, double b) { return a + (b - a) * unit(); }
  bool coin() { return (rng_() >> 63) != 0; }

  // A double of the given kind, inside [lo_domain, hi_domain].
  //   0 moderate: uniform over the domain
  //   1 tiny:     ±10^−k, k up to 300 (clamped into the domain)
  //   2 huge:     ±10^k (clamped)
  //   3 near an edge of the domain (within a few ulps or 1e-12 relative)
  double value(double lo_domain, double hi_domain) {
    const int kind = static_cast<int>(rng_() % 4);
    double v;
    switch (kind) {
      case 0: v = uniform(lo_domain, hi_domain); break;
      case 1: v = (coin() ? 1 : -1) * std::pow(10.0, -uniform(1, 300)); break;
      case 2: v = (coin() ? 1 : -1) * std::pow(10.0, uniform(0, 300)); break;
      default: {
        const double edge = coin() ? lo_domain : hi_domain;
        const int ulps = static_cast<int>(rng_() % 8);
        v = edge;
        for (int i = 0; i < ulps; ++i) v = std::nextafter(v, edge == lo_domain ? hi_domain : lo_domain);
        if (coin()) v = edge + (edge == lo_domain ? 1 : -1) * 1e-12 * (1 + std::fabs(edge)) * unit();
      }
    }
    if (v < lo_domain) v = lo_domain;
    if (v > hi_domain) v = hi_domain;
    return v;
  }

  // Interval end points inside the domain: thin, a few ulps wide, or wide (independent ends).
  std::pair<double, double> interval(double lo_domain, double hi_domain) {
    double a = value(lo_domain, hi_domain);
    double b = a;
    switch (rng_() % 3) {
      case 0: break;
      case 1: {
        const int ulps = 1 + static_cast<int>(rng_() % 16);
        for (int i = 0; i < ulps && b < hi_domain; ++i) b = std::nextafter(b, hi_domain);
        break;
      }
      default: b = value(lo_domain, hi_domain);
    }
    if (b < a) std::swap(a, b);
    return {a, b};
  }

 private:
  std::mt19937_64 rng_;
};

// k/1000 written exactly as a decimal string ("-1.234" for k = -1234): entries of random
// instances, given to the parser as decimals.
inline std::string milli(int k) {
  const int m = k < 0 ? -k : k;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%d.%03d", k < 0 ? "-" : "", m / 1000, m % 1000);
  return buf;
}

}  // namespace softcert::testing
