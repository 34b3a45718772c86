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

}  // namespace softcert::num
