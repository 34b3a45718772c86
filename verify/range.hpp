#pragma once
// An interval kept as two exact end points (arf, rounded outward), for the ranges over
// s ∈ [0, h] that are compared with the certificate's own end points: an Arb ball's radius has
// only 30 bits, so a ball around [−0.01, 0] reaches above 0 by ~1e-12, far more than the slack a
// recorded a priori box may leave at an end that the solution only touches.
#include <cstdio>
#include <string>

#include "arb_types.hpp"
#include "decimal.hpp"

namespace verify {

class Range {
 public:
  explicit Range(const Ball& b) {
    arf_init(lo_);
    arf_init(hi_);
    arb_get_lbound_arf(lo_, b.get(), kPrec);
    arb_get_ubound_arf(hi_, b.get(), kPrec);
    finite_ = b.finite();
  }
  Range(const Range& o) : finite_(o.finite_) {
    arf_init(lo_);
    arf_init(hi_);
    arf_set(lo_, o.lo_);
    arf_set(hi_, o.hi_);
  }
  Range& operator=(const Range&) = delete;
  ~Range() {
    arf_clear(lo_);
    arf_clear(hi_);
  }
  // this = this·s + c over every s ∈ [0, h] (h ≥ 0): [min(0, h·lo), max(0, h·hi)] + c.
  void horner_step(const Ball& h, const Ball& c) {
    arf_t hh, zero;
    arf_init(hh);
    arf_init(zero);
    arb_get_ubound_arf(hh, h.get(), kPrec);
    arf_mul(lo_, lo_, hh, kPrec, ARF_RND_FLOOR);
    arf_mul(hi_, hi_, hh, kPrec, ARF_RND_CEIL);
    arf_min(lo_, lo_, zero);
    arf_max(hi_, hi_, zero);
    const Range cr(c);
    arf_add(lo_, lo_, cr.lo_, kPrec, ARF_RND_FLOOR);
    arf_add(hi_, hi_, cr.hi_, kPrec, ARF_RND_CEIL);
    finite_ = finite_ && cr.finite_ && arb_is_finite(h.get());
    arf_clear(hh);
    arf_clear(zero);
  }
  // Inside (lo, hi) of an exact interval (strict) or [lo, hi].
  bool inside(const Interval& e, bool strict) const {
    const Range a(e.lo), b(e.hi);  // a.hi ≥ e.lo, b.lo ≤ e.hi
    const int l = arf_cmp(lo_, a.hi_), u = arf_cmp(b.lo_, hi_);
    return finite_ && (strict ? l > 0 && u > 0 : l >= 0 && u >= 0);
  }
  bool positive() const { return finite_ && arf_sgn(lo_) > 0; }
  bool nonnegative() const { return finite_ && arf_sgn(lo_) >= 0; }
  Ball ball() const {
    Ball b;
    arb_set_interval_arf(b.get(), lo_, hi_, kPrec);
    return b;
  }
  Ball lower() const {
    Ball b;
    arb_set_arf(b.get(), lo_);
    return b;
  }
  std::string text() const {
    char buf[80];
    std::snprintf(buf, sizeof buf, "[%.17g, %.17g]", arf_get_d(lo_, ARF_RND_FLOOR), arf_get_d(hi_, ARF_RND_CEIL));
    return buf;
  }

 private:
  arf_t lo_, hi_;
  bool finite_ = true;
};

}  // namespace verify
