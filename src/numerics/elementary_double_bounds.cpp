// exp and log bounds at a double: the kernels of elementary_double_bounds.hpp in one upward
// scope, MPFR where they are wider than one ulp or outside their domains, and the kernels'
// constants from MPFR.
#include "numerics/elementary_double_bounds.hpp"

#include <mpfr.h>

#include <atomic>
#include <limits>
#include <stdexcept>

#include "numerics/round_upward.hpp"

namespace softcert::num {
namespace {

std::atomic<bool> g_from_mpfr{false};

// A 256-bit MPFR number, cleared on scope exit.
struct Mp256 {
  mpfr_t v;
  Mp256() { mpfr_init2(v, 256); }
  ~Mp256() { mpfr_clear(v); }
};

DoubleBounds enclose(mpfr_srcptr lo, mpfr_srcptr hi) { return {mpfr_get_d(lo, MPFR_RNDD), mpfr_get_d(hi, MPFR_RNDU)}; }

detail::ElementaryConstants make_constants() {
  detail::ElementaryConstants c{};
  // ln 2 enclosed at 256 bits; C1 and C2 are taken from its lower end, δ enclosed from both.
  Mp256 lo, hi, t;
  mpfr_const_log2(lo.v, MPFR_RNDD);
  mpfr_const_log2(hi.v, MPFR_RNDU);
  {
    mpfr_t c1;
    mpfr_init2(c1, 32);
    mpfr_set(c1, lo.v, MPFR_RNDN);
    c.ln2_c1 = mpfr_get_d(c1, MPFR_RNDN);  // exact: 32 bits
    mpfr_clear(c1);
  }
  mpfr_sub_d(lo.v, lo.v, c.ln2_c1, MPFR_RNDD);
  mpfr_sub_d(hi.v, hi.v, c.ln2_c1, MPFR_RNDU);
  const double c2 = mpfr_get_d(lo.v, MPFR_RNDN);
  c.ln2_c2 = {c2, c2};
  mpfr_sub_d(lo.v, lo.v, c2, MPFR_RNDD);
  mpfr_sub_d(hi.v, hi.v, c2, MPFR_RNDU);
  c.ln2_rest = enclose(lo.v, hi.v);
  for (int j = 0; j <= 40; ++j) {
    mpfr_fac_ui(t.v, static_cast<unsigned long>(j), MPFR_RNDN);  // exact: 40! < 2^160
    mpfr_ui_div(lo.v, 1, t.v, MPFR_RNDD);
    mpfr_ui_div(hi.v, 1, t.v, MPFR_RNDU);
    c.inv_factorial[j] = enclose(lo.v, hi.v);
  }
  for (int j = 0; j < 40; ++j) {
    mpfr_set_ui(t.v, static_cast<unsigned long>(2 * j + 1), MPFR_RNDN);
    mpfr_ui_div(lo.v, 1, t.v, MPFR_RNDD);
    mpfr_ui_div(hi.v, 1, t.v, MPFR_RNDU);
    c.inv_odd[j] = enclose(lo.v, hi.v);
  }
  mpfr_set_str(t.v, "0.011", 10, MPFR_RNDU);
  mpfr_exp(hi.v, t.v, MPFR_RNDU);
  c.exp_r_max_hi = mpfr_get_d(hi.v, MPFR_RNDU);
  for (int i = 0; i < 32; ++i) {
    mpfr_set_si_2exp(t.v, i, -5, MPFR_RNDN);  // i/32, exact
    mpfr_exp2(lo.v, t.v, MPFR_RNDD);
    mpfr_exp2(hi.v, t.v, MPFR_RNDU);
    const double big = mpfr_get_d(lo.v, MPFR_RNDN);
    c.exp2_head[i] = big;
    mpfr_sub_d(lo.v, lo.v, big, MPFR_RNDD);
    mpfr_sub_d(hi.v, hi.v, big, MPFR_RNDU);
    c.exp2_rest[i] = enclose(lo.v, hi.v);
  }
  return c;
}

// f at a double by MPFR in the direction rnd, as a double rounded the same way: the path where
// the kernel is wider than one ulp or outside its domain. Two 53-bit numbers per thread, kept.
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
double mpfr_directed(double x, mpfr_rnd_t rnd) {
  struct Scratch {
    mpfr_t in, out;
    Scratch() {
      mpfr_init2(in, 53);
      mpfr_init2(out, 53);
    }
    ~Scratch() {
      mpfr_clear(in);
      mpfr_clear(out);
    }
  };
  thread_local Scratch s;
  mpfr_set_d(s.in, x, MPFR_RNDN);  // exact
  F(s.out, s.in, rnd);
  return mpfr_get_d(s.out, rnd);
}

bool in_exp_kernel_domain(double x) { return x >= -707.0 && x <= 707.0; }
bool in_log_kernel_domain(double x) { return x >= std::numeric_limits<double>::min() && x <= std::numeric_limits<double>::max(); }

}  // namespace

void set_elementary_from_mpfr(bool mpfr) { g_from_mpfr.store(mpfr, std::memory_order_relaxed); }
bool elementary_from_mpfr() { return g_from_mpfr.load(std::memory_order_relaxed); }

const detail::ElementaryConstants& detail::elementary_constants() {
  static const detail::ElementaryConstants c = make_constants();
  return c;
}

namespace {

// Whether the kernel's bounds are adjacent doubles (or one double). Around a value that is not a
// double, such a pair can only be its two directed roundings, which is MPFR's answer.
bool adjacent(DoubleBounds b) { return b.lo == b.hi || b.hi == std::nextafter(b.lo, std::numeric_limits<double>::infinity()); }

// [RD f(lo), RU f(hi)] for an increasing f: each end from the kernel where its bounds are
// adjacent, else from MPFR in that end's direction.
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), class Kernel>
DoubleBounds increasing_bounds(double lo, double hi, bool (*in_domain)(double), Kernel kernel) {
  detail::elementary_constants();  // outside the upward scope
  DoubleBounds at_lo{}, at_hi{};
  bool lo_ok = false, hi_ok = false;
  upward([&] {
    if (in_domain(lo)) at_lo = kernel(lo, lo_ok);
    if (in_domain(hi)) at_hi = kernel(hi, hi_ok);
  });
  return {lo_ok && adjacent(at_lo) ? at_lo.lo : mpfr_directed<F>(lo, MPFR_RNDD),
          hi_ok && adjacent(at_hi) ? at_hi.hi : mpfr_directed<F>(hi, MPFR_RNDU)};
}

}  // namespace

DoubleBounds exp_bounds(double lo, double hi) {
  if (std::isnan(lo) || std::isnan(hi)) throw std::domain_error("exp of NaN");
  return increasing_bounds<mpfr_exp>(lo, hi, in_exp_kernel_domain,
                                     [](double x, bool& ok) { return detail::exp_kernel<detail::kExpDegree>(x, ok); });
}

DoubleBounds log_bounds(double lo, double hi) {
  if (!(lo > 0) || std::isnan(hi)) throw std::domain_error("log of a double that is not positive");
  return increasing_bounds<mpfr_log>(lo, hi, in_log_kernel_domain,
                                     [](double x, bool& ok) { return detail::log_kernel<detail::kLogTerms>(x, ok); });
}

DoubleBounds exp_bounds(double x) { return exp_bounds(x, x); }
DoubleBounds log_bounds(double x) { return log_bounds(x, x); }

}  // namespace softcert::num
