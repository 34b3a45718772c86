#pragma once
// Exact rationals (FLINT fmpq) for exact certificates: "p/q" or decimal text in, exact
// arithmetic, and a ball (Arb) of a rational for the one step that needs a square root.
#include <flint/fmpq.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arb_types.hpp"

namespace verify {

class Q {
 public:
  Q() { fmpq_init(x_); }
  explicit Q(slong v) { fmpq_init(x_); fmpq_set_si(x_, v, 1); }
  Q(const Q& o) { fmpq_init(x_); fmpq_set(x_, o.x_); }
  Q& operator=(const Q& o) { fmpq_set(x_, o.x_); return *this; }
  ~Q() { fmpq_clear(x_); }
  fmpq* get() { return x_; }
  const fmpq* get() const { return x_; }
  friend Q operator+(const Q& a, const Q& b) { Q r; fmpq_add(r.x_, a.x_, b.x_); return r; }
  friend Q operator-(const Q& a, const Q& b) { Q r; fmpq_sub(r.x_, a.x_, b.x_); return r; }
  friend Q operator*(const Q& a, const Q& b) { Q r; fmpq_mul(r.x_, a.x_, b.x_); return r; }
  // b ≠ 0: callers check the divisor's sign first (FLINT aborts on a zero divisor).
  friend Q operator/(const Q& a, const Q& b) { Q r; fmpq_div(r.x_, a.x_, b.x_); return r; }
  int sign() const { return fmpq_sgn(x_); }
  bool operator==(const Q& o) const { return fmpq_equal(x_, o.x_) != 0; }
  Ball ball() const { Ball b; arb_set_fmpq(b.get(), x_, kPrec); return b; }

 private:
  fmpq_t x_;
};

using QVec = std::vector<Q>;

// A JSON string "p/q" (q > 0) or a decimal, or a JSON integer; throws std::invalid_argument.
Q parse_rational(const nlohmann::json& v);
QVec parse_rational_vector(const nlohmann::json& v, std::size_t n);
Q dot(const QVec& a, const QVec& b);

}  // namespace verify
