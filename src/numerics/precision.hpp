#pragma once
// Run-time precision of the MPFR-based kinds. Boost.Multiprecision (1.74, Debian 12) keeps ONE
// process-wide default precision for new values — not one per thread — and counts it in
// decimal digits; softcert speaks bits. A request for p
// bits gives at least p bits (the conversion rounds up); precision_bits() reports what is used.
#include "numerics/kinds.hpp"

namespace softcert::num {

// Decimal digits Boost needs so that its binary precision is at least `bits`.
unsigned digits10_for_bits(unsigned bits);

// The binary precision new MpReal / IntervalMp values get (process-wide).
unsigned precision_bits();

// Sets the precision of new MpReal / IntervalMp values to ≥ bits (process-wide: call it only
// while holding a PrecisionGuard, or before any worker thread starts).
void set_precision_bits(unsigned bits);

// Scoped precision: sets ≥ bits, restores the previous value on exit. Because the default is
// process-wide, a guard also holds a process-wide recursive lock for its lifetime: two threads
// with guards at different precisions would otherwise create each other's values at the wrong
// precision (a result would depend on the thread count and the timing). Guards nest on one
// thread; guarded work on different threads runs one at a time. Code that creates MpReal /
// IntervalMp values must do so inside a guard to get a determined precision.
class PrecisionGuard {
 public:
  explicit PrecisionGuard(unsigned bits);
  ~PrecisionGuard();
  PrecisionGuard(const PrecisionGuard&) = delete;
  PrecisionGuard& operator=(const PrecisionGuard&) = delete;

 private:
  unsigned saved_mpfr_digits10_;
  unsigned saved_mpfi_digits10_;
};

}  // namespace softcert::num
