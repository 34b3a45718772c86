#pragma once
// Run-time precision of the MPFR-based kinds. Boost.Multiprecision keeps the default
// precision per thread and counts it in decimal digits; softcert speaks bits. A request for p
// bits gives at least p bits (the conversion rounds up); precision_bits() reports what is used.
#include "numerics/kinds.hpp"

namespace softcert::num {

// Decimal digits Boost needs so that its binary precision is at least `bits`.
unsigned digits10_for_bits(unsigned bits);

// The binary precision new MpReal / IntervalMp values of this thread get.
unsigned precision_bits();

// Sets the precision of new MpReal / IntervalMp values on this thread to ≥ bits.
void set_precision_bits(unsigned bits);

// Scoped precision: sets ≥ bits for this thread, restores the previous value on exit.
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
