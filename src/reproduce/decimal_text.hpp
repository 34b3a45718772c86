#pragma once
// Short decimal text for tables people read, rounded in a chosen direction so that a printed
// bracket [down(lower), up(upper)] still encloses the exact bracket. Comparisons are exact
// (rationals); the result has at most `digits` significant digits, in %g-like notation.
#include <string>

namespace softcert::reproduce {

std::string decimal_down(const std::string& decimal, int digits = 9);  // ≤ the decimal's value
std::string decimal_up(const std::string& decimal, int digits = 9);    // ≥ the decimal's value
std::string decimal_down(double x, int digits = 9);                    // ≤ x exactly
std::string decimal_up(double x, int digits = 9);                      // ≥ x exactly
// "[down(lower), up(upper)]"
std::string bracket_text(const std::string& lower, const std::string& upper, int digits = 9);

}  // namespace softcert::reproduce
