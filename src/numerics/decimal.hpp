#pragma once
// Decimal strings in and out, without double rounding.
//
// parse_decimal<S>(text) guarantees:
//  - Real:       the double nearest to the decimal value (one rounding, by MPFR).
//  - MpReal:     the nearest value at the current precision (one rounding).
//  - IntervalD:  an interval containing the decimal value ([RNDD, RNDU] at 53 bits); thin when
//                the value is a double.
//  - IntervalMp: an interval containing the value at the current precision.
//  - Rational:   the value exactly.
// Accepted syntax: [+-]digits[.digits][(e|E)[+-]digits] (also ".5", "5."); anything else, an
// empty string, "nan" or "inf" throws std::invalid_argument naming the text.
//
// to_decimal(x, digits) writes a point in the shortest round-trip form (17 significant digits
// for double, enough for the precision for MpReal, exact p/q for Rational); interval bounds are
// written by lower_decimal/upper_decimal, rounded down / up, so that the decimal pair still
// encloses the interval.
//
// Short text for instances, reasons and tables, the rounding direction in each name:
//  - decimal_nearest(x, digits): `digits` significant digits, rounded to nearest (printf %g
//    form: "0.12", "3e-05"; "-0" written "0"). For point values and generated instances
//    (an instance is then the decimal exactly: what a check certifies is the written text).
//  - decimal_round_trip(x): the shortest decimal that reads back as x ("0.1", not
//    "0.10000000000000001"); parse_decimal<Real> of it is exactly x.
//  - decimal_down / decimal_up(x, digits): at most `digits` significant digits, ≤ / ≥ the
//    exact value of x (a double or a decimal string; compared exactly in rationals), so that a
//    printed bracket [down(lower), up(upper)] still encloses the exact one.
#include <string>

#include "numerics/kinds.hpp"

namespace softcert::num {

// True when `text` matches the accepted decimal syntax.
bool is_decimal_syntax(const std::string& text);

template <class S>
S parse_decimal(const std::string& text);

template <> Real parse_decimal<Real>(const std::string& text);
template <> MpReal parse_decimal<MpReal>(const std::string& text);
template <> IntervalD parse_decimal<IntervalD>(const std::string& text);
template <> IntervalMp parse_decimal<IntervalMp>(const std::string& text);
template <> Rational parse_decimal<Rational>(const std::string& text);

std::string to_decimal(const Real& x);
std::string to_decimal(const MpReal& x);
std::string to_decimal(const Rational& x);  // "p/q" or "p"; exact
// Decimal lower / upper bounds of an interval with `digits` significant digits.
std::string lower_decimal(const IntervalD& x, int digits = 17);
std::string upper_decimal(const IntervalD& x, int digits = 17);
std::string lower_decimal(const IntervalMp& x, int digits = 0);  // 0: enough for the precision
std::string upper_decimal(const IntervalMp& x, int digits = 0);

std::string decimal_nearest(double x, int digits);
std::string decimal_round_trip(double x);
// Every digit of x (a double is m·2^e, a terminating decimal), in the %g form glibc prints exactly:
// parse_decimal of it is exactly x at every precision. "inf", "-inf", "nan" for the others.
std::string exact_decimal(double x);
std::string decimal_down(const std::string& decimal, int digits = 9);
std::string decimal_up(const std::string& decimal, int digits = 9);
std::string decimal_down(double x, int digits = 9);
std::string decimal_up(double x, int digits = 9);
// "[decimal_down(lower), decimal_up(upper)]"
std::string bracket_text(const std::string& lower, const std::string& upper, int digits = 9);

}  // namespace softcert::num
