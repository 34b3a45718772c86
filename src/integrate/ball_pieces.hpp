#pragma once
// The ball step's pieces (integrate/validated_taylor.hpp, step_ball; docs/method.md §2b): where
// [0, h] is cut, and the growth exponent Σ μ_i ℓ_i over the pieces.
//
// Argument. Let the step h be any real in the interval [h] = [h_lo, h_hi], let
// 0 = c_0 < c_1 < … < c_{m−1} ≤ h_lo be doubles and c_m = h, and S_i = [c_{i−1}, c_i]. If for
// every s ∈ S_i two solutions lie in a convex box E_i on which the logarithmic 2-norm of Df is
// at most μ_i, their distance obeys ‖e(c_i)‖ ≤ e^{μ_i ℓ_i} ‖e(c_{i−1})‖ with ℓ_i = c_i − c_{i−1},
// so ‖e(h)‖ ≤ e^{Σ μ_i ℓ_i} ‖e(0)‖. Each cut is ONE double, the end of one piece and the start
// of the next, so the ℓ_i are the exact lengths of a real partition of [0, h] (they sum to h).
// ball_growth_exponent encloses each ℓ_i (both ends, interval subtraction of doubles) and
// Σ μ_i ℓ_i in interval arithmetic, so its upper end is ≥ the exact exponent of this partition
// for every h in [h], whatever the signs of the μ_i: with μ_i < 0 the product's upper end uses
// the LOWER end of ℓ_i's enclosure, which is ≤ the exact ℓ_i.
// Why one double per cut: with a piece starting at lower(h̄·i/m) and the previous one ending at
// upper(h̄·i/m), neighbouring pieces would overlap by an ulp, the lengths would sum to more than
// h, and with μ_i < 0 the exponent could fall below that of every partition the boxes allow.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"

namespace softcert::integrate {

// The interior cuts c_1 < … < c_{m−1} for m pieces of [0, h] with h ≥ h_lo: doubles in
// (0, h_lo], strictly increasing. Empty (one piece) when m ≤ 1 or when h_lo is too small to
// hold m − 1 distinct cuts. The values are only a choice (any such doubles are sound); the
// conditions are checked.
inline std::vector<double> ball_piece_cuts(double h_lo, unsigned m) {
  std::vector<double> cuts;
  if (m <= 1 || !(h_lo > 0)) return cuts;
  double prev = 0;
  for (unsigned i = 1; i < m; ++i) {
    const double c = h_lo / static_cast<double>(m) * static_cast<double>(i);  // any double will do
    if (!(c > prev && c <= h_lo)) return {};
    cuts.push_back(c);
    prev = c;
  }
  return cuts;
}

// Guarantee: for every h in `h`, the result contains Σ_{i=1..m} μ_i (c_i − c_{i−1}) with c_0 = 0,
// c_1..c_{m−1} = cuts, c_m = h, and m = mu.size() = cuts.size() + 1 (argument above). Needs
// cuts increasing in (0, lower(h)] (ball_piece_cuts); throws std::invalid_argument otherwise.
inline IntervalD ball_growth_exponent(const std::vector<double>& mu, const std::vector<double>& cuts, const IntervalD& h) {
  if (mu.size() != cuts.size() + 1) throw std::invalid_argument("ball pieces: one bound μ per piece");
  double prev = 0;
  for (double c : cuts) {
    if (!(c > prev && c <= h.lower())) throw std::invalid_argument("ball pieces: cuts not increasing in (0, h]");
    prev = c;
  }
  if (!(h.lower() >= prev)) throw std::invalid_argument("ball pieces: the step ends before the last cut");
  IntervalD exponent(0.0);
  for (std::size_t i = 0; i < mu.size(); ++i) {
    const double start = i == 0 ? 0.0 : cuts[i - 1];
    const IntervalD end = i + 1 == mu.size() ? h : IntervalD(cuts[i]);
    const IntervalD len = end - IntervalD(start);  // ∋ the exact ℓ_i (for every h in h)
    // ℓ_i ≥ 0 exactly (start ≤ every end), so [max(0, lo), hi] still contains it
    const IntervalD lens(std::max(0.0, len.lower()), len.upper());
    exponent += IntervalD(mu[i]) * lens;
  }
  return exponent;
}

// How many pieces the next ball step cuts its step into when the caller leaves it to the
// stepper (ValidatedOptions::ball_pieces = 0). Only a choice: every count gives the guarantee
// above; the rule trades the cost of Df and μ (once per piece) against the ball's growth.
// μ_i = λ_max(mid) + ρ(rad) (numerics/log_norm_bound.hpp): the radius term ρ(rad) comes from the
// width of Df's enclosure over the piece's box, which shrinks with the piece where the
// trajectory's motion over the step makes the box (not the ball); the midpoint term is the flow's
// own expansion, which no count changes. The rule looks at the last step: `many` pieces when
//  - the radius term costs more than `excess` in the exponent of its growth factor (ρ·h, ρ the
//    largest over its pieces): an overestimate of e^{excess} a step, and
//  - the ball is already wider than `floor`: while it is narrower its growth costs nothing a
//    caller sees (on the authors' regression κ = 1 run, pieces all the way cost time and buy a
//    width no caller needs);
// and back to one piece when the pieces' radius term is below excess/(2·many) (one piece's,
// at most ~`many` times a piece's, would then be below the threshold too).
// Measured in docs/performance.md ("The ball step's pieces, chosen per step").
struct BallPieceRule {
  unsigned many = 4;       // pieces where the radius term costs
  double excess = 1e-3;    // the radius term's part of a step's exponent that calls for them
  double floor = 1e-9;     // the ball radius below which its growth is left alone
  unsigned next = 1;       // the count for the next step
  // The last step, for reports (bench/ball_pieces_trace.cpp): its count, step (an upper bound of
  // h, as a double), and the largest μ, midpoint term and radius term over its pieces.
  unsigned last_pieces = 0;
  double last_h = 0, last_mu = 0, last_mid = 0, last_radius = 0;
  std::size_t steps_with_many = 0, steps = 0;

  // After a step of `pieces` pieces, step at most h, from a ball of radius `ball`, whose pieces
  // had these bounds.
  void observe(unsigned pieces, double h, double ball, const std::vector<num::LogNormBound>& bounds) {
    last_pieces = pieces;
    last_h = h;
    last_mu = last_mid = last_radius = -INFINITY;
    for (const auto& b : bounds) {
      last_mu = std::max(last_mu, b.mu);
      // Without the factor certificate mu is Gershgorin's bound: count all of it as radius.
      last_mid = std::max(last_mid, b.by_cholesky ? b.lambda_mid : -INFINITY);
      last_radius = std::max(last_radius, b.by_cholesky ? b.rho_radius : b.mu);
    }
    ++steps;
    if (pieces > 1) ++steps_with_many;
    const double cost = last_radius * h;  // the radius term's part of the exponent
    if (pieces <= 1) next = cost > excess && ball > floor ? many : 1;
    else next = cost * 2 * static_cast<double>(pieces) < excess ? 1 : pieces;
  }
};

}  // namespace softcert::integrate
