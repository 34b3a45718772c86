// The short decimal writers of numerics/decimal.hpp: nearest, round-trip, down and up.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "numerics/decimal.hpp"

namespace softcert::num {

namespace {

// A decimal sign·m·10^e (m ≥ 0 an integer) in %g-like notation.
std::string format(bool negative, std::string m, long e) {
  while (m.size() > 1 && m.back() == '0') {  // drop trailing zeros of the mantissa
    m.pop_back();
    ++e;
  }
  const long point = static_cast<long>(m.size()) + e;  // digits before the decimal point
  if (m == "0") return "0";
  // Appended piece by piece (GCC 12 warns falsely, -Wrestrict, on "literal" + std::string&&).
  std::string s = negative ? "-" : "";
  if (point > 12 || point < -4) {  // scientific: d.ddd e(point − 1)
    s += m.substr(0, 1);
    if (m.size() > 1) s.append(".").append(m.substr(1));
    s.append("e").append(std::to_string(point - 1));
  } else if (point <= 0) {
    s.append("0.").append(static_cast<std::size_t>(-point), '0').append(m);
  } else if (point >= static_cast<long>(m.size())) {
    s.append(m).append(static_cast<std::size_t>(point) - m.size(), '0');
  } else {
    s.append(m.substr(0, static_cast<std::size_t>(point))).append(".").append(m.substr(static_cast<std::size_t>(point)));
  }
  return s;
}

// r rounded toward −∞ (up = false) or +∞ (up = true) to `digits` significant digits; approx is
// a double near r that picks the candidate.
std::string directed(const Rational& r, double approx, int digits, bool up) {
  if (digits < 1) digits = 1;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, approx);  // [-]d.ddde[+-]x
  std::string text = buf;
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const std::size_t epos = text.find('e');
  std::string m = text.substr(0, epos);
  if (m.find('.') != std::string::npos) m.erase(m.find('.'), 1);
  long e = std::strtol(text.c_str() + epos + 1, nullptr, 10) - (digits - 1);
  const Rational c = parse_decimal<Rational>(buf);
  if (up ? c >= r : c <= r) return format(negative, m, e);
  // One unit in the last digit toward the wanted side: the magnitude grows when rounding a
  // positive number up or a negative number down, and shrinks otherwise.
  const bool grow = up != negative;
  std::string digits_m = m;
  if (grow) {
    int i = static_cast<int>(digits_m.size()) - 1;
    while (i >= 0 && digits_m[static_cast<std::size_t>(i)] == '9') digits_m[static_cast<std::size_t>(i--)] = '0';
    if (i < 0) digits_m.insert(digits_m.begin(), '1');
    else ++digits_m[static_cast<std::size_t>(i)];
  } else {
    int i = static_cast<int>(digits_m.size()) - 1;
    while (digits_m[static_cast<std::size_t>(i)] == '0') digits_m[static_cast<std::size_t>(i--)] = '9';
    --digits_m[static_cast<std::size_t>(i)];
    if (digits_m.size() > 1 && digits_m[0] == '0') digits_m.erase(0, 1);
  }
  return format(negative, digits_m, e);
}

}  // namespace

std::string decimal_nearest(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  std::string s(buf);
  if (s == "-0") s = "0";
  return s;
}

std::string exact_decimal(double x) {
  if (!std::isfinite(x)) return x > 0 ? "inf" : x < 0 ? "-inf" : "nan";
  char buf[1200];  // a double has at most 767 significant decimal digits; %g adds sign, point, exponent
  std::snprintf(buf, sizeof buf, "%.1100g", x);
  return buf;
}

std::string decimal_round_trip(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

std::string decimal_down(const std::string& d, int digits) {
  return directed(parse_decimal<Rational>(d), std::strtod(d.c_str(), nullptr), digits, false);
}
std::string decimal_up(const std::string& d, int digits) {
  return directed(parse_decimal<Rational>(d), std::strtod(d.c_str(), nullptr), digits, true);
}
std::string decimal_down(double x, int digits) { return directed(Rational(x), x, digits, false); }
std::string decimal_up(double x, int digits) { return directed(Rational(x), x, digits, true); }

std::string bracket_text(const std::string& lower, const std::string& upper, int digits) {
  std::string s = "[";
  s.append(decimal_down(lower, digits)).append(", ").append(decimal_up(upper, digits)).append("]");
  return s;
}

}  // namespace softcert::num
