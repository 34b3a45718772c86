#include "rational.hpp"

#include <flint/fmpz.h>

#include <cctype>
#include <stdexcept>

namespace verify {

namespace {
// An optionally signed run of decimal digits, as an fmpz; false when `s` is not one.
bool parse_integer(const std::string& s, fmpz_t out) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == s.size()) return false;
  for (std::size_t k = i; k < s.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
  return fmpz_set_str(out, s[0] == '+' ? s.c_str() + 1 : s.c_str(), 10) == 0;
}
}  // namespace

Q parse_rational(const nlohmann::json& v) {
  if (v.is_number_integer()) return parse_rational(nlohmann::json(v.dump()));
  if (!v.is_string()) throw std::invalid_argument("expected a rational \"p/q\" or a decimal, got " + v.dump().substr(0, 60));
  const std::string s = v.get<std::string>();
  Q r;
  const std::size_t slash = s.find('/');
  if (slash == std::string::npos) {
    // a decimal: m · 10^e, exact
    std::string digits;
    long exponent = 0;
    std::size_t i = 0;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) digits += s[i++];
    bool any = false, point = false;
    for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
      if (s[i] == '.' && !point) { point = true; continue; }
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) throw std::invalid_argument("not a rational: \"" + s + "\"");
      digits += s[i];
      any = true;
      if (point) --exponent;
    }
    if (!any) throw std::invalid_argument("not a rational: \"" + s + "\"");
    if (i < s.size()) {
      std::size_t used = 0;
      const std::string tail = s.substr(i + 1);
      long e = 0;
      try {
        e = std::stol(tail, &used);
      } catch (const std::exception&) {
        throw std::invalid_argument("not a rational: \"" + s + "\"");
      }
      if (used != tail.size() || e > 100000 || e < -100000) throw std::invalid_argument("not a rational: \"" + s + "\"");
      exponent += e;
    }
    fmpz_t m, p;
    fmpz_init(m);
    fmpz_init(p);
    const bool ok = parse_integer(digits, m);
    fmpz_ui_pow_ui(p, 10, static_cast<ulong>(exponent < 0 ? -exponent : exponent));
    if (ok && exponent < 0) fmpq_set_fmpz_frac(r.get(), m, p);
    if (ok && exponent >= 0) {
      fmpz_mul(m, m, p);
      fmpq_set_fmpz(r.get(), m);
    }
    fmpz_clear(m);
    fmpz_clear(p);
    if (!ok) throw std::invalid_argument("not a rational: \"" + s + "\"");
    return r;
  }
  fmpz_t p, q;
  fmpz_init(p);
  fmpz_init(q);
  const bool ok = parse_integer(s.substr(0, slash), p) && parse_integer(s.substr(slash + 1), q) && fmpz_sgn(q) > 0;
  if (ok) fmpq_set_fmpz_frac(r.get(), p, q);
  fmpz_clear(p);
  fmpz_clear(q);
  if (!ok) throw std::invalid_argument("not a rational: \"" + s + "\"");
  return r;
}

QVec parse_rational_vector(const nlohmann::json& v, std::size_t n) {
  if (!v.is_array() || v.size() != n) throw std::invalid_argument("expected " + std::to_string(n) + " rationals");
  QVec out;
  for (const auto& x : v) out.push_back(parse_rational(x));
  return out;
}

Q dot(const QVec& a, const QVec& b) {
  if (a.size() != b.size()) throw std::invalid_argument("vectors of different lengths");
  Q s;
  for (std::size_t i = 0; i < a.size(); ++i) s = s + a[i] * b[i];
  return s;
}

}  // namespace verify
