#include "certify/rational_linear.hpp"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "numerics/decimal.hpp"
#include "numerics/quote.hpp"

namespace softcert::certify {

Rational rational_from_double(double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("rational_from_double: not a finite number");
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m·2^e, |m| in [0.5, 1)
  // m·2^53 is an integer exactly representable in a double, hence in a long long.
  const long long mi = static_cast<long long>(std::ldexp(m, 53));
  Rational r(mi);
  const int shift = e - 53;
  boost::multiprecision::mpz_int p2 = 1;
  p2 <<= static_cast<unsigned>(shift >= 0 ? shift : -shift);
  if (shift >= 0) r *= Rational(p2);
  else r /= Rational(p2);
  return r;
}

namespace {
Rational dyadic_round(const Rational& x, unsigned bits, bool up) {
  boost::multiprecision::mpz_int scale = 1;
  scale <<= bits;
  const Rational y = x * Rational(scale);
  const boost::multiprecision::mpz_int n = numerator(y), d = denominator(y);
  boost::multiprecision::mpz_int q = n / d;  // truncates toward zero
  if (q * d != n) {
    if (up && n > 0) q += 1;
    if (!up && n < 0) q -= 1;
  }
  return Rational(q) / Rational(scale);
}
}  // namespace

Rational dyadic_floor(const Rational& x, unsigned bits) { return dyadic_round(x, bits, false); }
Rational dyadic_ceil(const Rational& x, unsigned bits) { return dyadic_round(x, bits, true); }

Rational dot(const RVec& a, const RVec& b) {
  if (a.size() != b.size()) throw std::invalid_argument("dot: size mismatch");
  Rational s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

RVec matvec(const RMat& a, const RVec& x) {
  RVec y;
  y.reserve(a.size());
  for (const auto& row : a) y.push_back(dot(row, x));
  return y;
}

RMat transpose(const RMat& a) {
  if (a.empty()) return {};
  RMat t(a[0].size(), RVec(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a[i].size(); ++j) t[j][i] = a[i][j];
  return t;
}

RMat gram(const RMat& rows) {
  const std::size_t n = rows.size();
  RMat g(n, RVec(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i; j < n; ++j) g[i][j] = g[j][i] = dot(rows[i], rows[j]);
  return g;
}

std::size_t rank_exact(RMat m) {
  const std::size_t rows = m.size(), cols = rows ? m[0].size() : 0;
  for (const auto& row : m)
    if (row.size() != cols) throw std::invalid_argument("rank_exact: rows of different lengths");
  std::size_t rank = 0;
  for (std::size_t c = 0; c < cols && rank < rows; ++c) {
    std::size_t pivot = rank;
    while (pivot < rows && m[pivot][c] == 0) ++pivot;
    if (pivot == rows) continue;
    std::swap(m[pivot], m[rank]);
    for (std::size_t r = rank + 1; r < rows; ++r) {
      if (m[r][c] == 0) continue;
      const Rational f = m[r][c] / m[rank][c];
      for (std::size_t k = c; k < cols; ++k) m[r][k] -= f * m[rank][k];
    }
    ++rank;
  }
  return rank;
}

bool is_psd_exact(RMat s) {
  const std::size_t n = s.size();
  for (const auto& row : s)
    if (row.size() != n) throw std::invalid_argument("is_psd_exact: not square");
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      if (s[i][j] != s[j][i]) throw std::invalid_argument("is_psd_exact: not symmetric");
  for (std::size_t k = 0; k < n; ++k) {
    const Rational p = s[k][k];
    if (p < 0) return false;
    if (p == 0) {
      // A PSD matrix with a zero diagonal entry has a zero row there.
      for (std::size_t j = k + 1; j < n; ++j)
        if (s[k][j] != 0) return false;
      continue;
    }
    // Schur complement: S' = S − s_k s_kᵀ / p on the trailing block (stays symmetric, exact).
    for (std::size_t i = k + 1; i < n; ++i) {
      if (s[i][k] == 0) continue;
      const Rational f = s[i][k] / p;
      for (std::size_t j = k + 1; j < n; ++j) s[i][j] -= f * s[k][j];
    }
  }
  return true;
}

std::string rational_string(const Rational& x) { return num::to_decimal(x); }

namespace {
// An integer from decimal digits, base 10 explicitly (Boost's mpz_int(string) guesses the base).
boost::multiprecision::mpz_int integer_from_digits(const std::string& digits) {
  boost::multiprecision::mpz_int m;
  if (digits.empty() || mpz_set_str(m.backend().data(), digits.c_str(), 10) != 0)
    throw std::invalid_argument("bad digits");
  return m;
}
}  // namespace

Rational parse_rational(const std::string& text, const std::string& field) {
  try {
    const auto slash = text.find('/');
    if (slash == std::string::npos) return num::parse_decimal<Rational>(text);
    const std::string p = text.substr(0, slash), q = text.substr(slash + 1);
    auto is_int = [](const std::string& s, bool allow_sign) {
      std::size_t i = 0;
      if (allow_sign && i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
      if (i == s.size()) return false;
      for (; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9') return false;
      return true;
    };
    if (!is_int(p, true) || !is_int(q, false)) throw std::invalid_argument("bad fraction");
    const bool neg = p[0] == '-';
    const std::string pd = (p[0] == '+' || p[0] == '-') ? p.substr(1) : p;
    const boost::multiprecision::mpz_int num = neg ? boost::multiprecision::mpz_int(-integer_from_digits(pd)) : integer_from_digits(pd);
    const boost::multiprecision::mpz_int den = integer_from_digits(q);
    if (den == 0) throw std::invalid_argument("zero denominator");
    return Rational(num) / Rational(den);
  } catch (const std::exception&) {
    throw std::invalid_argument("field \"" + field + "\": not an exact number: " + num::quoted(text));
  }
}

}  // namespace softcert::certify
