#include "instances/generator.hpp"

#include <mpfr.h>

#include <cmath>
#include <stdexcept>

#include "numerics/decimal.hpp"

namespace softcert::instances {
namespace {

// Box–Muller with MPFR at 53 bits, each operation correctly rounded to nearest.
void box_muller(double u1, double u2, double& z0, double& z1) {
  mpfr_t r, th, t;
  mpfr_inits2(53, r, th, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(r, u1, MPFR_RNDN);
  mpfr_log(r, r, MPFR_RNDN);           // ln u1 ≤ 0
  mpfr_mul_si(r, r, -2, MPFR_RNDN);    // −2 ln u1 (exact)
  mpfr_sqrt(r, r, MPFR_RNDN);
  mpfr_const_pi(th, MPFR_RNDN);
  mpfr_mul_2ui(th, th, 1, MPFR_RNDN);  // 2π (exact doubling)
  mpfr_mul_d(th, th, u2, MPFR_RNDN);
  mpfr_cos(t, th, MPFR_RNDN);
  mpfr_mul(t, t, r, MPFR_RNDN);
  z0 = mpfr_get_d(t, MPFR_RNDN);
  mpfr_sin(t, th, MPFR_RNDN);
  mpfr_mul(t, t, r, MPFR_RNDN);
  z1 = mpfr_get_d(t, MPFR_RNDN);
  mpfr_clears(r, th, t, static_cast<mpfr_ptr>(nullptr));
}

std::string dec(double x) { return num::to_decimal(x); }


// x·y rounded to double before any further use: the volatile store forbids contracting a
// following addition into a fused multiply-add (GCC contracts by default on some targets),
// which would change the last bit on some platforms.
double mul(double x, double y) {
  volatile double p = x * y;
  return p;
}

}  // namespace

double NormalSource::uniform() { return static_cast<double>(words_.next() >> 11) * 0x1.0p-53; }
double NormalSource::uniform_open_zero() { return static_cast<double>((words_.next() >> 11) + 1) * 0x1.0p-53; }

double NormalSource::normal() {
  if (have_spare_) {
    have_spare_ = false;
    return spare_;
  }
  const double u1 = uniform_open_zero();
  const double u2 = uniform();
  double z0 = 0, z1 = 0;
  box_muller(u1, u2, z0, z1);
  spare_ = z1;
  have_spare_ = true;
  return z0;
}

Instance generate_instance(std::uint64_t seed, const GeneratorOptions& o) {
  if (o.T == 0) throw std::invalid_argument("T: must be ≥ 1");
  if (o.d == 0) throw std::invalid_argument("d: must be ≥ 1");
  if (loss_uses_dataset(o.loss) && o.n == 0) throw std::invalid_argument("n: must be ≥ 1");
  NormalSource rng(seed);
  Instance inst;
  inst.loss = o.loss;
  inst.normalization = o.normalization;
  inst.T = o.T;
  inst.d = o.d;
  inst.seed = seed;
  inst.V.assign(o.d, DecimalVector(o.T));
  for (std::size_t i = 0; i < o.d; ++i)
    for (std::size_t j = 0; j < o.T; ++j) inst.V[i][j] = dec(mul(o.v_scale, rng.normal()));
  inst.a.resize(o.T);
  for (std::size_t j = 0; j < o.T; ++j) inst.a[j] = dec(mul(o.a_scale, rng.normal()) + 0.0);  // + 0.0: no "-0"
  std::vector<double> beta(o.d);
  double norm2 = 0;
  for (auto& b : beta) {
    b = rng.normal();
    norm2 += mul(b, b);
  }
  const double norm = std::sqrt(norm2);
  inst.beta.resize(o.d);
  for (std::size_t i = 0; i < o.d; ++i) {
    beta[i] /= norm;
    inst.beta[i] = dec(beta[i]);
  }
  if (loss_uses_dataset(o.loss)) {
    inst.X.assign(o.n, DecimalVector(o.d));
    inst.y.resize(o.n);
    for (std::size_t r = 0; r < o.n; ++r) {
      double dot = 0;
      for (std::size_t i = 0; i < o.d; ++i) {
        const double x = rng.normal();
        inst.X[r][i] = dec(x);
        dot += mul(x, beta[i]);
      }
      inst.y[r] = o.loss == Loss::logistic_dataset ? (dot >= 0 ? "1" : "-1") : dec(dot);
    }
  }
  if (loss_uses_p(o.loss)) {
    std::vector<double> z(o.d);
    double sum = 0;
    for (auto& v : z) {
      v = std::fabs(rng.normal());
      sum += v;
    }
    inst.p.resize(o.d);
    for (std::size_t i = 0; i < o.d; ++i) inst.p[i] = dec(z[i] / sum);
  }
  inst.id = "splitmix64-" + std::to_string(seed);
  inst.provenance = "softcert generate_instance: SplitMix64 seed " + std::to_string(seed) +
                    ", Box-Muller (MPFR 53-bit), V = " + num::decimal_round_trip(o.v_scale) + "·N(0,1), a = " + num::decimal_round_trip(o.a_scale) +
                    "·N(0,1), beta = N(0,I) normalised (docs/instances.md)";
  return inst;
}

}  // namespace softcert::instances
