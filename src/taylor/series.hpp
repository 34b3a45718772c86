#pragma once
// taylor::Series<S>: a truncated power series c_0 + c_1 t + … + c_p t^p over any scalar kind
// S (Real, MpReal, IntervalD, IntervalMp), with the operations models use: + − × ÷ with
// series and scalars, exp log log1p expm1 sqrt sqr (and num::pow_int by squaring).
//
// Guarantee (interval S): every coefficient of a result encloses the corresponding exact
// Taylor coefficient of the operation applied to any series whose coefficients lie in the
// operands' intervals (coefficients via taylor/coefficients.hpp).
//
// Conventions:
//  - Coefficients are stored contiguously (one std::vector<S>).
//  - A series of length 1 is an exact constant (all higher coefficients are 0): constants made
//    from S or int have length 1 and combine with series of any order. Two longer series of
//    different lengths combine to the shorter length (the longer one's extra terms are not
//    matched by the other's).
//  - num::ScalarTraits<Series<S>> exposes the bounds of the constant coefficient c_0 (the
//    value at t = 0): lower/upper/mid/width/contains refer to c_0 only. It reports
//    is_interval = false ON PURPOSE, even for interval S: numerics/stable.hpp evaluates
//    sigmoid/softplus of an interval kind at the thin end points of the argument, which for a
//    series would keep c_0 and silently drop every higher coefficient. With is_interval = false
//    the stable functions use their closed formulas (exact identities in + − × ÷ exp log1p),
//    which are correct on series. is_rigorous = is_rigorous_v<S>.
#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "numerics/elementary.hpp"
#include "numerics/traits.hpp"
#include "taylor/coefficients.hpp"

namespace softcert::taylor {

template <class S>
class Series {
 public:
  Series() : c_(1, S(0)) {}
  Series(const S& constant) : c_(1, constant) {}  // NOLINT: implicit, models write X(s)
  Series(int constant) : c_(1, S(constant)) {}    // NOLINT
  template <class D, std::enable_if_t<std::is_same_v<D, double> && !std::is_same_v<S, double>, int> = 0>
  Series(D constant) : c_(1, S(constant)) {}  // NOLINT
  // Zero series with coefficients 0..order.
  static Series zero(std::size_t order) { return Series(std::vector<S>(order + 1, S(0))); }
  // From coefficients c_0..c_p.
  explicit Series(std::vector<S> coefficients) : c_(std::move(coefficients)) {
    if (c_.empty()) c_.assign(1, S(0));
  }
  // The variable: value + t (c_0 = value, c_1 = 1) up to `order`.
  static Series variable(const S& value, std::size_t order) {
    Series s = zero(order);
    s.c_[0] = value;
    if (order >= 1) s.c_[1] = S(1);
    return s;
  }

  std::size_t order() const { return c_.size() - 1; }
  std::size_t size() const { return c_.size(); }
  bool is_constant() const { return c_.size() == 1; }
  const S& operator[](std::size_t k) const { return c_[k]; }
  S& operator[](std::size_t k) { return c_[k]; }
  const S* data() const { return c_.data(); }
  const std::vector<S>& coefficients() const { return c_; }

  // Σ c_k t^k by Horner's rule (t may be an interval: encloses the polynomial over it).
  S evaluate(const S& t) const {
    S acc = c_.back();
    for (std::size_t k = c_.size() - 1; k-- > 0;) acc = acc * t + c_[k];
    return acc;
  }

  Series& operator+=(const Series& o) { return *this = *this + o; }
  Series& operator-=(const Series& o) { return *this = *this - o; }
  Series& operator*=(const Series& o) { return *this = *this * o; }
  Series& operator/=(const Series& o) { return *this = *this / o; }

  friend Series operator+(const Series& x) { return x; }
  friend Series operator-(const Series& x) {
    Series r = x;
    for (auto& v : r.c_) v = -v;
    return r;
  }
  friend Series operator+(const Series& x, const Series& y) { return add_sub(x, y, false); }
  friend Series operator-(const Series& x, const Series& y) { return add_sub(x, y, true); }
  friend Series operator*(const Series& x, const Series& y) {
    if (x.is_constant()) return scaled(y, x.c_[0]);
    if (y.is_constant()) return scaled(x, y.c_[0]);
    const std::size_t n = std::min(x.size(), y.size());
    Series r = zero(n - 1);
    for (std::size_t k = 0; k < n; ++k) r.c_[k] = coef::mul(x.data(), y.data(), k);
    return r;
  }
  friend Series operator/(const Series& x, const Series& y) {
    if (y.is_constant()) {
      Series r = x;
      for (auto& v : r.c_) v = v / y.c_[0];
      return r;
    }
    // A constant numerator is padded to y's order (its higher coefficients are exactly 0).
    const std::size_t n = x.is_constant() ? y.size() : std::min(x.size(), y.size());
    const Series xa = x.padded(n);
    Series r = zero(n - 1);
    r.c_[0] = xa.c_[0] / y.c_[0];
    for (std::size_t k = 1; k < n; ++k) r.c_[k] = coef::div(xa.data(), y.data(), r.data(), k);
    return r;
  }

 private:
  Series padded(std::size_t n) const {
    if (c_.size() >= n) return *this;
    std::vector<S> c = c_;
    c.resize(n, S(0));
    return Series(std::move(c));
  }
  static Series scaled(const Series& x, const S& v) {
    Series r = x;
    for (auto& e : r.c_) e = e * v;
    return r;
  }
  static Series add_sub(const Series& x, const Series& y, bool subtract) {
    const Series* longer = &x;
    std::size_t n;
    if (x.is_constant()) n = y.size();
    else if (y.is_constant()) n = x.size();
    else n = std::min(x.size(), y.size());
    Series r = zero(n - 1);
    for (std::size_t k = 0; k < n; ++k) {
      const S xv = k < x.size() ? x.c_[k] : S(0);
      const S yv = k < y.size() ? y.c_[k] : S(0);
      r.c_[k] = subtract ? S(xv - yv) : S(xv + yv);
    }
    (void)longer;
    return r;
  }

  std::vector<S> c_;
};

// The elementary functions of a series, coefficient by coefficient (taylor/coefficients.hpp).
template <class S>
struct SeriesOps {
  static Series<S> exp(const Series<S>& a) {
    Series<S> r = Series<S>::zero(a.order());
    r[0] = num::exp(a[0]);
    for (std::size_t k = 1; k < a.size(); ++k) r[k] = coef::exp(a.data(), r.data(), k);
    return r;
  }
  static Series<S> expm1(const Series<S>& a) {
    Series<S> r = Series<S>::zero(a.order());
    r[0] = num::expm1(a[0]);
    const S e0 = num::exp(a[0]);
    for (std::size_t k = 1; k < a.size(); ++k) r[k] = coef::expm1(a.data(), r.data(), e0, k);
    return r;
  }
  static Series<S> log(const Series<S>& a) { return log_with(a, num::log(a[0]), a[0]); }
  static Series<S> log1p(const Series<S>& a) { return log_with(a, num::log1p(a[0]), S(S(1) + a[0])); }
  static Series<S> sqrt(const Series<S>& a) {
    Series<S> r = Series<S>::zero(a.order());
    r[0] = num::sqrt(a[0]);
    for (std::size_t k = 1; k < a.size(); ++k) r[k] = coef::sqrt(a.data(), r.data(), k);
    return r;
  }
  static Series<S> sqr(const Series<S>& a) {
    Series<S> r = Series<S>::zero(a.order());
    r[0] = num::sqr(a[0]);  // tight (nonnegative) for intervals
    for (std::size_t k = 1; k < a.size(); ++k) r[k] = coef::sqr(a.data(), k);
    return r;
  }

 private:
  static Series<S> log_with(const Series<S>& a, const S& c0, const S& b0) {
    Series<S> r = Series<S>::zero(a.order());
    r[0] = c0;
    for (std::size_t k = 1; k < a.size(); ++k) r[k] = coef::log(a.data(), r.data(), b0, k);
    return r;
  }
};

}  // namespace softcert::taylor

namespace softcert::num {

template <class S>
struct ElementaryOps<taylor::Series<S>> {
  using X = taylor::Series<S>;
  static X exp(const X& a) { return taylor::SeriesOps<S>::exp(a); }
  static X log(const X& a) { return taylor::SeriesOps<S>::log(a); }
  static X log1p(const X& a) { return taylor::SeriesOps<S>::log1p(a); }
  static X expm1(const X& a) { return taylor::SeriesOps<S>::expm1(a); }
  static X sqrt(const X& a) { return taylor::SeriesOps<S>::sqrt(a); }
  static X sqr(const X& a) { return taylor::SeriesOps<S>::sqr(a); }
};

// Bounds of a series are the bounds of its constant coefficient; see the header comment for
// why is_interval is false.
template <class S>
struct ScalarTraits<taylor::Series<S>> {
  using X = taylor::Series<S>;
  using Bound = BoundOf<S>;
  static constexpr bool is_interval = false, is_exact = false, is_rigorous = is_rigorous_v<S>;
  static const char* name() { return "taylor-series"; }
  static Bound lower(const X& x) { return num::lower(x[0]); }
  static Bound upper(const X& x) { return num::upper(x[0]); }
  static Bound mid(const X& x) { return num::mid(x[0]); }
  static Bound width(const X& x) { return num::width(x[0]); }
  static bool contains(const X& x, const Bound& v) { return num::contains(x[0], v); }
  static X hull(const Bound& lo, const Bound& hi) { return X(num::hull_of_bounds<S>(lo, hi)); }
  static double to_double(const X& x) { return num::to_double(x[0]); }
};

}  // namespace softcert::num
