#pragma once
// High-precision reference values: an MPFR number at a chosen precision, and a check that
// it lies inside given bounds. At ≥ 4× the working precision the reference is so close to the
// exact value that a bound missing it means the bound misses the exact value too.
#include <mpfr.h>

#include <string>

namespace softcert::testing {

class Ref {
 public:
  explicit Ref(mpfr_prec_t prec) { mpfr_init2(v_, prec); }
  ~Ref() { mpfr_clear(v_); }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }
  std::string str() const {
    char buf[256];
    mpfr_snprintf(buf, sizeof buf, "%.40Rg", v_);
    return buf;
  }

 private:
  mpfr_t v_;
};

// lower ≤ ref ≤ upper, where NaN never counts as inside.
inline bool inside(double lower, mpfr_srcptr ref, double upper) {
  if (mpfr_nan_p(ref)) return false;
  return mpfr_cmp_d(ref, lower) >= 0 && mpfr_cmp_d(ref, upper) <= 0;
}
// For references computed by several rounded steps at precision P: lower − r ≤ ref ≤ upper + r
// with r = |ref|·2^−(P/2), far below a double's ulp, so it forgives only the reference's own
// rounding, never a bound that is off by an ulp.
inline bool inside_compound(double lower, mpfr_srcptr ref, double upper) {
  if (mpfr_nan_p(ref)) return false;
  mpfr_t slack, lo, hi;
  const mpfr_prec_t p = mpfr_get_prec(ref);
  mpfr_inits2(p, slack, lo, hi, static_cast<mpfr_ptr>(nullptr));
  mpfr_abs(slack, ref, MPFR_RNDU);
  mpfr_mul_2si(slack, slack, -static_cast<long>(p / 2), MPFR_RNDU);
  mpfr_set_d(lo, lower, MPFR_RNDN);
  mpfr_sub(lo, lo, slack, MPFR_RNDD);
  mpfr_set_d(hi, upper, MPFR_RNDN);
  mpfr_add(hi, hi, slack, MPFR_RNDU);
  const bool ok = mpfr_cmp(ref, lo) >= 0 && mpfr_cmp(ref, hi) <= 0;
  mpfr_clears(slack, lo, hi, static_cast<mpfr_ptr>(nullptr));
  return ok;
}
inline bool inside(mpfr_srcptr lower, mpfr_srcptr ref, mpfr_srcptr upper) {
  if (mpfr_nan_p(ref)) return false;
  return mpfr_cmp(ref, lower) >= 0 && mpfr_cmp(ref, upper) <= 0;
}

}  // namespace softcert::testing
