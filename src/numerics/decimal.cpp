#include "numerics/decimal.hpp"
#include "numerics/mpfr_text.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "numerics/precision.hpp"
#include "numerics/quote.hpp"

namespace softcert::num {
namespace {

[[noreturn]] void bad(const std::string& text) {
  throw std::invalid_argument("not a decimal number: " + num::quoted(text));
}

// Sets `out` from decimal text rounded in `rnd`, after the syntax check.
void set_mpfr(mpfr_ptr out, const std::string& text, mpfr_rnd_t rnd) {
  if (!is_decimal_syntax(text)) bad(text);
  if (mpfr_set_str(out, text.c_str(), 10, rnd) != 0) bad(text);
}

}  // namespace

std::string format_mpfr(mpfr_srcptr x, int digits, mpfr_rnd_t rnd) {
  if (mpfr_nan_p(x)) return "nan";
  if (mpfr_inf_p(x)) return mpfr_sgn(x) > 0 ? "inf" : "-inf";
  if (mpfr_zero_p(x)) return "0";
  mpfr_exp_t e = 0;
  char* s = mpfr_get_str(nullptr, &e, 10, static_cast<size_t>(digits), x, rnd);
  std::string m(s);
  mpfr_free_str(s);
  std::string sign;
  if (!m.empty() && m[0] == '-') { sign = "-"; m.erase(0, 1); }
  // strip trailing zeros of the mantissa (value unchanged)
  while (m.size() > 1 && m.back() == '0') m.pop_back();
  std::string out;
  out.reserve(m.size() + 24);
  out.append(sign).push_back(m[0]);
  if (m.size() > 1) out.append(".").append(m, 1, std::string::npos);
  const long exp10 = static_cast<long>(e) - 1;
  if (exp10 != 0) out.append("e").append(std::to_string(exp10));
  return out;
}

bool is_decimal_syntax(const std::string& t) {
  std::size_t i = 0;
  const std::size_t n = t.size();
  if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
  std::size_t int_digits = 0, frac_digits = 0;
  while (i < n && std::isdigit(static_cast<unsigned char>(t[i]))) { ++i; ++int_digits; }
  if (i < n && t[i] == '.') {
    ++i;
    while (i < n && std::isdigit(static_cast<unsigned char>(t[i]))) { ++i; ++frac_digits; }
    // docs/instances.md: [+-]digits[.digits][e[+-]digits] — digits on both sides of a point
    // ("5." and "+.5" are outside the grammar)
    if (frac_digits == 0) return false;
  }
  if (int_digits == 0) return false;
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < n && std::isdigit(static_cast<unsigned char>(t[i]))) { ++i; ++exp_digits; }
    if (exp_digits == 0 || exp_digits > 9) return false;  // exponents beyond 1e±999999999 are not numbers we use
  }
  return i == n;
}

template <>
Real parse_decimal<Real>(const std::string& text) {
  mpfr_t x;
  mpfr_init2(x, 53);
  set_mpfr(x, text, MPFR_RNDN);
  const double d = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  if (!std::isfinite(d)) bad(text);
  return d;
}

template <>
MpReal parse_decimal<MpReal>(const std::string& text) {
  MpReal r;
  set_mpfr(r.backend().data(), text, MPFR_RNDN);
  if (!mpfr_number_p(r.backend().data())) bad(text);
  return r;
}

template <>
IntervalD parse_decimal<IntervalD>(const std::string& text) {
  mpfr_t lo, hi;
  mpfr_init2(lo, 53);
  mpfr_init2(hi, 53);
  set_mpfr(lo, text, MPFR_RNDD);
  set_mpfr(hi, text, MPFR_RNDU);
  const double l = mpfr_get_d(lo, MPFR_RNDD), h = mpfr_get_d(hi, MPFR_RNDU);
  mpfr_clear(lo);
  mpfr_clear(hi);
  if (!std::isfinite(l) || !std::isfinite(h)) bad(text);
  return IntervalD(l, h);
}

template <>
IntervalMp parse_decimal<IntervalMp>(const std::string& text) {
  IntervalMp r;
  mpfi_ptr p = r.backend().data();
  set_mpfr(&p->left, text, MPFR_RNDD);
  set_mpfr(&p->right, text, MPFR_RNDU);
  if (!mpfr_number_p(&p->left) || !mpfr_number_p(&p->right)) bad(text);
  return r;
}

template <>
Rational parse_decimal<Rational>(const std::string& text) {
  if (!is_decimal_syntax(text)) bad(text);
  // mantissa digits (without the point) and a power of ten, all exact
  std::string digits;
  long exp10 = 0;
  bool negative = false, after_point = false;
  std::size_t i = 0;
  if (text[i] == '+' || text[i] == '-') negative = text[i++] == '-';
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') { after_point = true; continue; }
    digits += text[i];
    if (after_point) --exp10;
  }
  if (i < text.size()) exp10 += std::strtol(text.c_str() + i + 1, nullptr, 10);
  if (exp10 > 100000 || exp10 < -100000) bad(text);  // 10^±100000: far beyond any instance; guards memory
  // Base 10 explicitly: mpz_int(string) would read a leading 0 as an octal prefix ("0.17" → 017).
  boost::multiprecision::mpz_int m, p10;
  mpz_set_str(m.backend().data(), digits.c_str(), 10);
  // 10^|exp10| by GMP's binary powering: a loop of multiplications by 10 is quadratic in the
  // exponent (0.3 s for one 1e-99999).
  mpz_ui_pow_ui(p10.backend().data(), 10, static_cast<unsigned long>(exp10 < 0 ? -exp10 : exp10));
  Rational r = exp10 >= 0 ? Rational(m * p10) : Rational(m) / Rational(p10);
  return negative ? Rational(-r) : r;
}

std::string to_decimal(const Real& x) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_d(t, x, MPFR_RNDN);
  std::string s = format_mpfr(t, 17, MPFR_RNDN);
  mpfr_clear(t);
  return s;
}

std::string to_decimal(const MpReal& x) { return format_mpfr(x.backend().data(), 0, MPFR_RNDN); }

std::string to_decimal(const Rational& x) { return x.str(); }

namespace {
std::string bound_of_double(double v, int digits, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, 53);
  mpfr_set_d(t, v, MPFR_RNDN);
  std::string s = format_mpfr(t, digits, rnd);
  mpfr_clear(t);
  return s;
}
}  // namespace

std::string lower_decimal(const IntervalD& x, int digits) { return bound_of_double(x.lower(), digits, MPFR_RNDD); }
std::string upper_decimal(const IntervalD& x, int digits) { return bound_of_double(x.upper(), digits, MPFR_RNDU); }
std::string lower_decimal(const IntervalMp& x, int digits) { return format_mpfr(&x.backend().data()->left, digits, MPFR_RNDD); }
std::string upper_decimal(const IntervalMp& x, int digits) { return format_mpfr(&x.backend().data()->right, digits, MPFR_RNDU); }

}  // namespace softcert::num
