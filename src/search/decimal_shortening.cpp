#include "search/decimal_shortening.hpp"

#include <stdexcept>

#include "numerics/decimal.hpp"

namespace softcert::search {

std::optional<int> significant_digits(const std::string& text) {
  if (!num::is_decimal_syntax(text)) return std::nullopt;
  std::string mantissa;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c >= '0' && c <= '9') mantissa += c;
  }
  const auto first = mantissa.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  const auto last = mantissa.find_last_not_of('0');
  return static_cast<int>(last - first + 1);
}

std::optional<std::string> round_significant(const std::string& text, int digits) {
  const auto have = significant_digits(text);
  if (!have || *have <= digits) return std::nullopt;
  double x = 0;
  try {
    x = num::parse_decimal<Real>(text);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // e.g. out of the double range: leave it as it is
  }
  const std::string out = num::decimal_nearest(x, digits);
  const auto now = significant_digits(out);
  if (!now || *now >= *have) return std::nullopt;
  return out;
}

}  // namespace softcert::search
