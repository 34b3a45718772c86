#include "decimal.hpp"

#include <flint/fmpq.h>
#include <flint/fmpz.h>

#include <cctype>
#include <stdexcept>

namespace verify {

Ball parse_decimal(const std::string& text) {
  // sign, digits, optional fraction, optional exponent: value = m · 10^e with m an integer
  std::size_t i = 0;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) negative = text[i++] == '-';
  std::string digits;
  long exponent = 0;
  bool any = false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) digits += text[i], any = true;
  if (i < text.size() && text[i] == '.')
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) digits += text[i], --exponent, any = true;
  if (!any) throw std::invalid_argument("not a decimal: \"" + text + "\"");
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    std::size_t used = 0;
    const std::string tail = text.substr(i + 1);
    long e = 0;
    try {
      e = std::stol(tail, &used);
    } catch (const std::exception&) {
      throw std::invalid_argument("not a decimal: \"" + text + "\"");
    }
    if (used != tail.size() || e > 100000 || e < -100000) throw std::invalid_argument("not a decimal: \"" + text + "\"");
    exponent += e;
    i = text.size();
  }
  if (i != text.size()) throw std::invalid_argument("not a decimal: \"" + text + "\"");
  fmpz_t m, p;
  fmpq_t q;
  fmpz_init(m);
  fmpz_init(p);
  fmpq_init(q);
  fmpz_set_str(m, digits.c_str(), 10);
  if (negative) fmpz_neg(m, m);
  fmpz_ui_pow_ui(p, 10, static_cast<ulong>(exponent < 0 ? -exponent : exponent));
  if (exponent < 0) fmpq_set_fmpz_frac(q, m, p);
  else {
    fmpz_mul(m, m, p);
    fmpq_set_fmpz(q, m);
  }
  Ball b;
  // exact when the reduced fraction's value has at most kPrec significant bits
  arb_set_fmpq(b.get(), q, kPrec);
  fmpz_clear(m);
  fmpz_clear(p);
  fmpq_clear(q);
  return b;
}

Ball parse_number(const nlohmann::json& v) {
  if (v.is_string()) return parse_decimal(v.get<std::string>());
  if (v.is_number_integer()) return parse_decimal(v.dump());
  throw std::invalid_argument("expected a decimal string, got " + v.dump().substr(0, 60));
}

std::vector<Ball> parse_vector(const nlohmann::json& v) {
  if (!v.is_array()) throw std::invalid_argument("expected an array of decimals");
  std::vector<Ball> out;
  for (const auto& x : v) out.push_back(parse_number(x));
  return out;
}

Ball Interval::hull() const {
  Ball r;
  arb_union(r.get(), lo.get(), hi.get(), kPrec);
  return r;
}

namespace {
// lower end of z ≥ upper end of a (or >, strictly)
bool above(const Ball& z, const Ball& a, bool strict) {
  arf_t zl, au;
  arf_init(zl);
  arf_init(au);
  arb_get_lbound_arf(zl, z.get(), kPrec);  // rounded down: ≤ every point of z
  arb_get_ubound_arf(au, a.get(), kPrec);  // rounded up: ≥ every point of a
  const int c = arf_cmp(zl, au);
  const bool ok = arb_is_finite(z.get()) && arb_is_finite(a.get()) && (strict ? c > 0 : c >= 0);
  arf_clear(zl);
  arf_clear(au);
  return ok;
}
}  // namespace

bool Interval::contains(const Ball& z) const { return above(z, lo, false) && above(hi, z, false); }
bool Interval::interior(const Ball& z) const { return above(z, lo, true) && above(hi, z, true); }

Interval parse_interval(const nlohmann::json& v) {
  if (!v.is_array() || v.size() != 2) throw std::invalid_argument("expected an interval [lo, hi]");
  Interval r{parse_number(v[0]), parse_number(v[1])};
  Ball d = r.hi - r.lo;
  if (!d.nonnegative()) throw std::invalid_argument("interval with lo > hi: " + v.dump().substr(0, 80));
  return r;
}

std::vector<Interval> parse_intervals(const nlohmann::json& v) {
  if (!v.is_array()) throw std::invalid_argument("expected an array of intervals");
  std::vector<Interval> out;
  for (const auto& x : v) out.push_back(parse_interval(x));
  return out;
}

}  // namespace verify
