#include "numerics/enclosure.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "numerics/decimal.hpp"
#include "numerics/mpfr_text.hpp"
#include "numerics/quote.hpp"

namespace softcert::num {

// One end: a binary number (an MPFR number at its own precision, 53 bits for a double) written
// with `digits` significant digits, or — read from text — the decimal's value, a rational
// (`exact`), written with the digits the text had. The sign tests read the end itself: for a
// binary end that is what its text rounds outward from, so a sign and the printed text never
// disagree (a rational margin rounded down to the double 0 is not certainly positive).
struct Enclosure::End {
  mpfr_t bin;
  bool has_bin = false;
  std::optional<Rational> exact;  // only without `bin`
  int digits = 17;
  bool nearest = false;  // a point estimate: written to nearest

  End() = default;
  End(const End&) = delete;
  End& operator=(const End&) = delete;
  ~End() {
    if (has_bin) mpfr_clear(bin);
  }
  void set_bin(mpfr_srcptr x) {
    mpfr_init2(bin, mpfr_get_prec(x));
    mpfr_set(bin, x, MPFR_RNDN);  // same precision: exact
    has_bin = true;
  }
  void set_double(double x) {
    mpfr_init2(bin, 53);
    mpfr_set_d(bin, x, MPFR_RNDN);  // exact
    has_bin = true;
  }
  // −1, 0, +1; nullopt for NaN.
  std::optional<int> sign() const {
    if (!has_bin) return exact->sign();
    if (mpfr_nan_p(bin)) return std::nullopt;
    return mpfr_sgn(bin) > 0 ? 1 : (mpfr_sgn(bin) < 0 ? -1 : 0);
  }
  bool is_inf() const { return has_bin && mpfr_inf_p(bin); }
  Rational rational() const {
    if (!has_bin) return *exact;
    if (!mpfr_number_p(bin)) throw std::domain_error("enclosure end is not a finite number");
    Rational q;
    mpfr_get_q(q.backend().data(), bin);
    return q;
  }
  // The end rounded in `rnd` into `out` (initialised by the caller at its precision).
  void round_into(mpfr_ptr out, mpfr_rnd_t rnd) const {
    if (!has_bin)
      mpfr_set_q(out, exact->backend().data(), rnd);
    else
      mpfr_set(out, bin, rnd);
  }
  double to_double(mpfr_rnd_t rnd) const {
    if (has_bin) return mpfr_get_d(bin, rnd);
    mpfr_t t;
    mpfr_init2(t, 128);
    mpfr_set_q(t, exact->backend().data(), rnd);
    const double d = mpfr_get_d(t, rnd);  // two roundings in the same direction: still outward
    mpfr_clear(t);
    return d;
  }
};

namespace {

using EndPtr = std::shared_ptr<Enclosure::End>;

// The text of a rational with at most `digits` significant digits, rounded down (toward −inf) or
// up, in format_mpfr's form ("d.ddde±x", trailing zeros stripped, "0" for zero).
std::string rational_text(const Rational& q, int digits, bool up) {
  if (q == 0) return "0";
  using boost::multiprecision::mpz_int;
  const bool negative = q < 0;
  const Rational a = negative ? Rational(-q) : q;
  // e: 10^e ≤ a < 10^(e+1), from the digit counts, then corrected
  const mpz_int num = boost::multiprecision::numerator(a), den = boost::multiprecision::denominator(a);
  long e = static_cast<long>(num.str().size()) - static_cast<long>(den.str().size());
  auto pow10 = [](long k) {
    mpz_int p = 1;
    for (long i = 0; i < (k < 0 ? -k : k); ++i) p *= 10;
    return k >= 0 ? Rational(p) : Rational(1) / Rational(p);
  };
  while (a < pow10(e)) --e;
  while (a >= pow10(e + 1)) ++e;
  // m = a·10^(digits−1−e), rounded away from the number's side: toward −inf overall
  const Rational scaled = a * pow10(digits - 1 - e);
  mpz_int m = boost::multiprecision::numerator(scaled) / boost::multiprecision::denominator(scaled);  // floor
  const bool away = negative ? !up : up;  // |q| rounded up when the direction moves away from 0
  if (away && Rational(m) != scaled) m += 1;
  const mpz_int ten_d = boost::multiprecision::numerator(pow10(digits));
  if (m == ten_d) {
    m /= 10;
    ++e;
  }
  std::string s = m.str();
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  std::string out = negative ? "-" : "";
  out.push_back(s[0]);
  if (s.size() > 1) out.append(".").append(s, 1, std::string::npos);
  if (e != 0) out.append("e").append(std::to_string(e));
  return out;
}

// Significant digits of a decimal text ("0.00150" → 3, "1.5e-3" → 2, "0" → 1).
int significant_digits(const std::string& text) {
  std::string d;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c >= '0' && c <= '9') d.push_back(c);
  }
  const auto first = d.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  return static_cast<int>(d.size() - first);
}

EndPtr double_end(double x, int digits) {
  auto e = std::make_shared<Enclosure::End>();
  e->set_double(x);
  e->digits = digits;
  return e;
}

EndPtr mpfr_end(mpfr_srcptr x, int digits) {
  auto e = std::make_shared<Enclosure::End>();
  e->set_bin(x);
  e->digits = digits;
  return e;
}

EndPtr rational_end(const Rational& q, bool up) { return double_end(outward_double(q, up), 17); }

EndPtr text_end(const std::string& text) {
  auto e = std::make_shared<Enclosure::End>();
  if (text == "inf" || text == "+inf" || text == "-inf") {
    e->set_double(text == "-inf" ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    return e;
  }
  e->exact = parse_decimal<Rational>(text);  // throws invalid_argument naming the text
  e->digits = significant_digits(text);
  return e;
}

std::string end_text(const Enclosure::End& e, bool up) {
  if (e.has_bin) return format_mpfr(e.bin, e.digits, e.nearest ? MPFR_RNDN : (up ? MPFR_RNDU : MPFR_RNDD));
  return rational_text(*e.exact, e.digits, up);
}

// a ≤ b exactly, for ends that are numbers (infinite ones included).
bool end_le(const Enclosure::End& a, const Enclosure::End& b) {
  const auto sa = a.sign(), sb = b.sign();
  if (!sa || !sb) return false;
  if (a.is_inf() || b.is_inf()) {
    const double x = a.is_inf() ? *sa * std::numeric_limits<double>::infinity() : 0.0;
    const double y = b.is_inf() ? *sb * std::numeric_limits<double>::infinity() : 0.0;
    if (a.is_inf() && b.is_inf()) return x <= y;
    return a.is_inf() ? x < 0 : y > 0;
  }
  return a.rational() <= b.rational();
}

}  // namespace

double outward_double(const Rational& q, bool up) {
  double d = q.convert_to<double>();
  const double toward = up ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  if (up ? Rational(d) < q : Rational(d) > q) d = std::nextafter(d, toward);
  return d;
}


Enclosure::Enclosure(const IntervalD& x, int digits)
    : lo_(double_end(x.lower(), digits)), hi_(double_end(x.upper(), digits)) {}

Enclosure::Enclosure(const IntervalMp& x, int digits)
    : lo_(mpfr_end(&x.backend().data()->left, digits)), hi_(mpfr_end(&x.backend().data()->right, digits)) {}

Enclosure Enclosure::of_doubles(double lower, double upper, int digits) {
  Enclosure e;
  e.lo_ = double_end(lower, digits);
  e.hi_ = double_end(upper, digits);
  return e;
}

Enclosure Enclosure::at_least(const IntervalD& lower_bound, int digits) {
  return of_doubles(lower_bound.lower(), std::numeric_limits<double>::infinity(), digits);
}

Enclosure Enclosure::at_least(const IntervalMp& lower_bound, int digits) {
  Enclosure e;
  e.lo_ = mpfr_end(&lower_bound.backend().data()->left, digits);
  e.hi_ = double_end(std::numeric_limits<double>::infinity(), digits);
  return e;
}

Enclosure Enclosure::of_rationals(const Rational& lower, const Rational& upper) {
  Enclosure e;
  e.lo_ = rational_end(lower, false);
  e.hi_ = rational_end(upper, true);
  e.exact_ = lower == upper;
  return e;
}

Enclosure Enclosure::of_exact(const Rational& value) { return of_rationals(value, value); }

Enclosure Enclosure::point_estimate(double x) {
  auto end = double_end(x, 17);
  end->nearest = true;
  Enclosure e;
  e.lo_ = e.hi_ = end;
  e.estimate_ = true;
  return e;
}

Enclosure Enclosure::point_estimate(const MpReal& x) {
  auto end = mpfr_end(x.backend().data(), 0);
  end->nearest = true;
  Enclosure e;
  e.lo_ = e.hi_ = end;
  e.estimate_ = true;
  return e;
}

Enclosure Enclosure::parse(const std::string& lower, const std::string& upper) {
  Enclosure e;
  e.lo_ = text_end(lower);
  e.hi_ = text_end(upper);
  e.exact_ = !e.lo_->has_bin && !e.hi_->has_bin && *e.lo_->exact == *e.hi_->exact;
  return e;
}

bool Enclosure::exact() const { return !empty() && exact_; }

std::string Enclosure::lower_text() const { return empty() ? "" : end_text(*lo_, false); }
std::string Enclosure::upper_text() const { return empty() ? "" : end_text(*hi_, true); }

std::optional<int> Enclosure::lower_sign() const { return empty() ? std::nullopt : lo_->sign(); }
std::optional<int> Enclosure::upper_sign() const { return empty() ? std::nullopt : hi_->sign(); }

int Enclosure::certain_sign() const {
  const auto lo = lower_sign(), hi = upper_sign();
  if (lo && *lo > 0) return 1;
  if (hi && *hi < 0) return -1;
  return 0;
}

bool Enclosure::ordered() const { return !empty() && end_le(*lo_, *hi_); }

double Enclosure::lower_down() const { return empty() ? NAN : lo_->to_double(MPFR_RNDD); }
double Enclosure::upper_up() const { return empty() ? NAN : hi_->to_double(MPFR_RNDU); }
double Enclosure::lower_nearest() const { return empty() ? NAN : lo_->to_double(MPFR_RNDN); }
double Enclosure::upper_nearest() const { return empty() ? NAN : hi_->to_double(MPFR_RNDN); }

IntervalD Enclosure::to_interval_d() const {
  if (empty()) throw std::domain_error("to_interval_d: empty enclosure");
  return IntervalD(lower_down(), upper_up());
}

IntervalMp Enclosure::to_interval_mp() const {
  if (empty()) throw std::domain_error("to_interval_mp: empty enclosure");
  IntervalMp r;
  mpfi_ptr p = r.backend().data();
  lo_->round_into(&p->left, MPFR_RNDD);
  hi_->round_into(&p->right, MPFR_RNDU);
  return r;
}

Rational Enclosure::lower_rational() const {
  if (empty()) throw std::domain_error("lower_rational: empty enclosure");
  return lo_->rational();
}

Rational Enclosure::upper_rational() const {
  if (empty()) throw std::domain_error("upper_rational: empty enclosure");
  return hi_->rational();
}

}  // namespace softcert::num
