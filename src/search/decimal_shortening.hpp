#pragma once
// Shorter decimal strings for shrinking counterexamples: how many significant digits a decimal
// string carries, and the same number rounded to fewer. A shortened string is only a candidate
// — the check re-decides the property on it — so rounding through a double is harmless.
#include <optional>
#include <string>

namespace softcert::search {

// Significant digits of a decimal string (num::is_decimal_syntax): leading zeros and trailing
// zeros of the mantissa do not count ("0" → 0, "0.0250" → 2, "100" → 1, "1.5e-3" → 2).
// nullopt when `text` is not a decimal string.
std::optional<int> significant_digits(const std::string& text);

// `text` rounded to `digits` significant digits (printf %g form: "0.12", "3e-05"), or nullopt
// when that would not carry strictly fewer significant digits (or `text` is not decimal).
std::optional<std::string> round_significant(const std::string& text, int digits);

}  // namespace softcert::search
