#pragma once
// An enclosure [lower, upper] of one real number, carried as binary values and written as decimal
// text only where it leaves the program (records, JSON files, CLI output, Python's decimals).
//
// Guarantee: the exact number lies in [lower, upper], where each end is exactly the binary value
// the enclosure was made from — a double, or an MPFR number at the precision it was computed at
// (a rational bound: the double enclosing it outward) — never a rounded copy of its text. lower_text() / upper_text() round outward (down / up), so
// that the printed pair contains the ends and hence the number. The sign tests (lower_sign,
// upper_sign, certain_sign) are exact: they read the ends themselves, never their decimals.
//
// Text read back (a record of results.jsonl, a JSON file) is parsed at that edge by parse(): its
// ends are the decimals' values exactly (rationals), and text in the form this class writes
// ("d.ddde-x", "0", "inf") is written again identically.
#include <memory>
#include <optional>
#include <string>

#include "numerics/kinds.hpp"

namespace softcert::num {

// The largest double ≤ q (up = false) or the smallest ≥ q (up = true), exactly: the nearest
// double, moved one step outward when it lies on the wrong side of q.
double outward_double(const Rational& q, bool up);

class Enclosure {
 public:
  // No enclosure (a result without a margin, a quantity not computed): empty() is true.
  Enclosure() = default;
  // The ends of x exactly. Written with `digits` significant digits rounded outward; 0 (for
  // MPFI): MPFR's choice, enough to round-trip at the ends' precision (num::lower_decimal).
  explicit Enclosure(const IntervalD& x, int digits = 17);
  explicit Enclosure(const IntervalMp& x, int digits = 0);
  // Two double ends as given (lower ≤ upper is the caller's to ensure; ordered() tells).
  static Enclosure of_doubles(double lower, double upper, int digits = 17);
  // Known only from below: [lower end of `lower_bound`, +inf].
  static Enclosure at_least(const IntervalD& lower_bound, int digits = 17);
  static Enclosure at_least(const IntervalMp& lower_bound, int digits = 0);
  // Rational ends, enclosed by doubles: the largest double ≤ lower and the smallest ≥ upper are
  // the ends (signs are read on them, as they are printed), written with 17 digits.
  static Enclosure of_rationals(const Rational& lower, const Rational& upper);
  // A number known exactly (exact() is true); written like of_rationals(value, value).
  static Enclosure of_exact(const Rational& value);
  // A point estimate with no guarantee (a fast-tier value): both ends x, written to nearest
  // (17 digits for a double, enough for its precision for MPFR: num::to_decimal's text);
  // estimate() tells it apart from an enclosure.
  static Enclosure point_estimate(double x);
  static Enclosure point_estimate(const MpReal& x);
  // Two decimal texts ("inf", "+inf", "-inf" allowed), read exactly; written again with as many
  // significant digits as each text has. Throws std::invalid_argument naming a text that is
  // not a decimal number.
  static Enclosure parse(const std::string& lower, const std::string& upper);

  bool empty() const { return !lo_; }
  // The number is known exactly (of_exact, or two equal rational ends).
  bool exact() const;
  // A point estimate (point_estimate): no guarantee.
  bool estimate() const { return estimate_; }

  // The ends as outward decimal text (see the top of the file); "" when empty.
  std::string lower_text() const;
  std::string upper_text() const;

  // The sign of each end (−1, 0, +1; infinite ends count by their sign); nullopt when empty or
  // an end is not a number.
  std::optional<int> lower_sign() const;
  std::optional<int> upper_sign() const;
  // +1 when the number is certainly > 0 (lower > 0), −1 when certainly < 0 (upper < 0), else 0
  // (the enclosure contains 0, or is empty).
  int certain_sign() const;
  // lower ≤ upper, compared exactly (false when empty or an end is not a number).
  bool ordered() const;

  // The ends as doubles: rounded down / up (outward), or to nearest (an estimate, for search
  // heuristics and drawing). ±inf for infinite ends; NaN when empty.
  double lower_down() const;
  double upper_up() const;
  double lower_nearest() const;
  double upper_nearest() const;
  // An interval over double containing the enclosure (ends rounded outward).
  IntervalD to_interval_d() const;
  // An MPFI interval at the current MPFR precision containing the enclosure.
  IntervalMp to_interval_mp() const;
  // The ends as rationals, exactly (throws std::domain_error for an infinite or empty end).
  Rational lower_rational() const;
  Rational upper_rational() const;

  struct End;  // one end (enclosure.cpp); shared, never changed after it is made

 private:
  std::shared_ptr<const End> lo_, hi_;
  bool exact_ = false;
  bool estimate_ = false;
};

}  // namespace softcert::num
