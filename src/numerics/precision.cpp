#include "numerics/precision.hpp"

#include <mpfr.h>

#include <mutex>

namespace softcert::num {

unsigned digits10_for_bits(unsigned bits) {
  // Boost converts d decimal digits to d*1000/301 + (1 or 2) bits; find the least d that
  // gives at least `bits`.
  unsigned d = 1;
  while (boost::multiprecision::detail::digits10_2_2(d) < bits) ++d;
  return d;
}

unsigned precision_bits() {
  return boost::multiprecision::detail::digits10_2_2(MpReal::default_precision());
}

void set_precision_bits(unsigned bits) {
  const unsigned d = digits10_for_bits(bits);
  MpReal::default_precision(d);
  IntervalMp::default_precision(d);
}

namespace {
// Serialises guarded work: Boost's default precision is one process-wide value (see the header).
std::recursive_mutex& precision_lock() {
  static std::recursive_mutex m;
  return m;
}
unsigned locked_mpfr_digits10() {
  precision_lock().lock();  // released by ~PrecisionGuard on the same thread
  return MpReal::default_precision();
}
}  // namespace

PrecisionGuard::PrecisionGuard(unsigned bits)
    : saved_mpfr_digits10_(locked_mpfr_digits10()),
      saved_mpfi_digits10_(IntervalMp::default_precision()) {
  set_precision_bits(bits);
}

PrecisionGuard::~PrecisionGuard() {
  MpReal::default_precision(saved_mpfr_digits10_);
  IntervalMp::default_precision(saved_mpfi_digits10_);
  precision_lock().unlock();
}

}  // namespace softcert::num
