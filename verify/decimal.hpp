#pragma once
// Reading the certificate's numbers: decimal text ("-1.25e-3", "0", "inf") into balls that
// contain the exact value (exact, radius 0, for the decimals of binary numbers at kPrec), and
// intervals [lo, hi] with their end points kept apart, so that an inclusion into an interval is
// decided against its exact ends, never against a wider ball around it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arb_types.hpp"

namespace verify {

// Throws std::invalid_argument for text that is not a finite decimal.
Ball parse_decimal(const std::string& text);
// A JSON string holding a decimal, or a JSON integer.
Ball parse_number(const nlohmann::json& v);
std::vector<Ball> parse_vector(const nlohmann::json& v);

struct Interval {
  Ball lo, hi;
  Ball hull() const;                      // a ball containing [lo, hi]
  bool contains(const Ball& z) const;     // z ⊆ [lo, hi]
  bool interior(const Ball& z) const;     // z ⊆ (lo, hi)
  std::string text() const {  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "[" + …
    std::string s = "[";
    s += lo.text(8);
    s += ", ";
    s += hi.text(8);
    return s += "]";
  }
};
Interval parse_interval(const nlohmann::json& v);  // ["lo", "hi"] with lo ≤ hi
std::vector<Interval> parse_intervals(const nlohmann::json& v);

}  // namespace verify
