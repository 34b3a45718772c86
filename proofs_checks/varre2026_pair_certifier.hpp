#pragma once
// Certifies, step by step along the validated τ-tube, facts about the gaps between pairs of
// indices (i, j): g = a_i − a_j and Δ = u_i − u_j, and their τ-derivatives
//     g' = s_i(u_i − ū) − s_j(u_j − ū),      Δ' = c(s_i − s_j)     (ū = sᵀu),
// and finds certified violations. Facts per pair and time range R (a sub-range of a step):
//   A0  g ≥ 0 on R     directly (enclosure of g over R), or g ≥ L ≥ 0 at R's start and g' ≥ 0 on R
//   U0  Δ > 0 on R     directly, or Δ ≥ L > 0 at R's start and Δ' ≥ 0 on R
//   A1  g' ≥ 0 on R    interval evaluation of the vector field over R's box
//   U1  Δ' ≥ 0 on R    directly, or from A0 (s_i − s_j has the sign of a_i − a_j: softmax is
//                      increasing)
// A violation is a range where g, Δ, g' or Δ' is certainly negative over the whole range and
// whose start time is certainly ≤ H: the quantity is negative at that time (and, for a
// derivative, the gap strictly decreases through it). A range whose facts are undecided is
// bisected up to `max_depth` times before the pair is declared undecided.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/logistic_reduced.hpp"
#include "numerics/decimal.hpp"
#include "integrate/flow.hpp"

namespace softcert::varre2026 {

enum class PairClaim { order, repulsion };

template <class S>
class PairCertifier {
  using B = num::BoundOf<S>;

 public:
  struct Violation {
    std::size_t i, j, step;
    std::string quantity;  // "a_i - a_j", "u_i - u_j", "d/dtau (a_i - a_j)", ...
    S value;               // the certainly negative enclosure
    S t_start;             // enclosure of t at the start of the violating range
  };

  PairCertifier(const models::LogisticReducedTau<S>& model, std::vector<std::pair<std::size_t, std::size_t>> pairs,
                PairClaim claim, double horizon, unsigned max_depth)
      : model_(model), pairs_(std::move(pairs)), claim_(claim), H_(horizon), max_depth_(max_depth) {
    T_ = model.tokens();
    const std::vector<S> x0 = model.initial_state();
    for (const auto& [i, j] : pairs_) {
      PairState ps;
      ps.La = ps.La_step = num::lower(S(x0[i] - x0[j]));
      ps.Lu = ps.Lu_step = num::lower(S(x0[T_ + i] - x0[T_ + j]));
      state_.push_back(ps);
    }
  }

  // Examines one step; false once a violation is certified (the walk may stop).
  bool visit(const flow::TubeStep<S>& st) {
    series_a_.clear();
    series_u_.clear();
    std::vector<std::size_t> all(pairs_.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
      all[k] = k;
      const auto [i, j] = pairs_[k];
      series_a_.push_back(st.difference_series(i, j));
      series_u_.push_back(st.difference_series(T_ + i, T_ + j));
      // certified lower bounds at the step start: carried over, or from the series at s = 0
      PairState& ps = state_[k];
      ps.La = std::max(ps.La, num::lower(series_a_[k].at_start()));
      ps.Lu = std::max(ps.Lu, num::lower(series_u_[k].at_start()));
      ps.La_step = ps.La;
      ps.Lu_step = ps.Lu;
    }
    examine(st, B(0), num::upper(st.h()), all, 0);
    return !violation_;
  }

  bool undecided() const { return undecided_; }
  // Where the first undecided pair failed, and which facts were missing (for the record).
  const nlohmann::json& first_undecided() const { return first_undecided_; }
  const std::optional<Violation>& violation() const { return violation_; }
  // The smallest certified lower bound of the claim's margin quantity: Δ for order, min(g', Δ')
  // for repulsion (as a Bound); +inf if nothing was examined.
  B margin_lower() const { return margin_; }
  std::size_t ranges_examined() const { return ranges_; }

 private:
  struct PairState {
    B La, Lu;            // certified lower bounds of g and Δ at the current time (−inf: unknown)
    B La_step, Lu_step;  // the same at the start of the current step
  };

  static S intersect_or_first(const S& a, const S& b) {
    const auto lo = num::lower(a) > num::lower(b) ? num::lower(a) : num::lower(b);
    const auto hi = num::upper(a) < num::upper(b) ? num::upper(a) : num::upper(b);
    return hi < lo ? a : num::hull_of_bounds<S>(lo, hi);  // both enclose the truth: never empty
  }

  // A lower bound of a gap over s ∈ [s0, s1] ⊂ [0, h]: the best of the direct enclosure,
  // L_step + s·slope (g(s) = g(0) + s·Q(s), g(0) ≥ L_step), and L_range when g' ≥ 0 on the range.
  static B gap_lower(const flow::StepSeries<S>& gs, const S& range, const B& s1, const B& L_step, const B& L_range,
                     bool nondecreasing) {
    B best = num::lower(gs.value(range));
    if (L_step > B(-std::numeric_limits<double>::infinity())) {
      const B q = num::lower(gs.slope(range));
      // s·Q(s) ≥ min(0, s1·lower(Q)) for s ∈ [0, s1]; s1·q rounded down via an interval product
      const B sq = q >= 0 ? B(0) : num::lower(S(num::hull_of_bounds<S>(s1, s1) * num::hull_of_bounds<S>(q, q)));
      const B via_slope = num::lower(S(num::hull_of_bounds<S>(L_step, L_step) + num::hull_of_bounds<S>(sq, sq)));
      best = std::max(best, via_slope);
    }
    if (nondecreasing) best = std::max(best, L_range);
    return best;
  }

  void examine(const flow::TubeStep<S>& st, const B& s0, const B& s1, const std::vector<std::size_t>& todo,
               unsigned depth) {
    ++ranges_;
    const S range = num::hull_of_bounds<S>(s0, s1);
    const std::vector<S> dx = st.derivative(range);  // τ-derivatives over the range (a second enclosure of g', Δ')
    const S t_start = st.component(2 * T_, num::hull_of_bounds<S>(s0, s0));
    // Violations must happen inside [0, H]: the range starts at a time certainly < H, so a
    // quantity negative over the whole range is negative at times ≤ H (a derivative negative
    // there makes the gap strictly decrease on an interval of times < H).
    const bool within_horizon = num::upper(t_start) < H_;
    const S s1i = num::hull_of_bounds<S>(s1, s1);
    std::vector<std::size_t> failed;
    for (std::size_t k : todo) {
      // Plain variables, not a structured binding: the `violate` lambda below captures i and j,
      // which C++20 allows for bindings but clang < 16 rejects (the fuzz build uses clang 14).
      const std::size_t i = pairs_[k].first, j = pairs_[k].second;
      PairState& ps = state_[k];
      const flow::StepSeries<S>& sa = series_a_[k];
      const flow::StepSeries<S>& su = series_u_[k];
      const S g = sa.value(range), d = su.value(range);
      const S gp = intersect_or_first(sa.derivative(range), S(dx[i] - dx[j]));
      const S dp = intersect_or_first(su.derivative(range), S(dx[T_ + i] - dx[T_ + j]));
      const bool A1 = num::certainly_nonnegative(gp);
      const B Lg = gap_lower(sa, range, s1, ps.La_step, ps.La, A1);
      const bool A0 = Lg >= 0;
      const bool U1 = num::certainly_nonnegative(dp) || A0;  // Δ' = c(s_i − s_j) has the sign of g
      const B Ld = gap_lower(su, range, s1, ps.Lu_step, ps.Lu, U1);
      const bool U0 = Ld > 0;
      if (within_horizon) {
        auto violate = [&](const char* what, const S& v) {
          if (!violation_) violation_ = Violation{i, j, st.index(), what, v, t_start};
        };
        if (claim_ == PairClaim::order) {
          if (num::certainly_negative(d)) violate("u_i - u_j", d);
          else if (num::certainly_negative(g)) violate("a_i - a_j", g);
        } else {
          if (num::certainly_negative(gp)) violate("d/dtau (a_i - a_j)", gp);
          else if (num::certainly_negative(dp)) violate("d/dtau (u_i - u_j)", dp);
        }
      }
      const bool ok = claim_ == PairClaim::order ? (A0 && U0) : (A1 && U1);
      if (ok || depth >= max_depth_) {
        // state at the end of the range: the direct value there, or the range's lower bound
        // when the gap is certified nondecreasing on the range
        const B la_end = num::lower(sa.value(s1i)), lu_end = num::lower(su.value(s1i));
        ps.La = A0 && A1 ? std::max(la_end, Lg) : la_end;
        ps.Lu = U0 && U1 ? std::max(lu_end, Ld) : lu_end;
        if (ok) {
          const B m = claim_ == PairClaim::order ? Ld : std::min(num::lower(gp), num::certainly_nonnegative(dp) ? num::lower(dp) : B(0));
          margin_ = std::min(margin_, m);
        } else {
          if (!undecided_)
            first_undecided_ = {{"i", i},
                                {"j", j},
                                {"step", st.index()},
                                {"facts", std::string(A0 ? "" : " g>=0?") + (U0 ? "" : " du>0?") + (A1 ? "" : " g'>=0?") +
                                              (U1 ? "" : " du'>=0?")},
                                {"g", {num::lower_decimal(g, 6), num::upper_decimal(g, 6)}},
                                {"du", {num::lower_decimal(d, 6), num::upper_decimal(d, 6)}},
                                {"g'", {num::lower_decimal(gp, 6), num::upper_decimal(gp, 6)}},
                                {"du'", {num::lower_decimal(dp, 6), num::upper_decimal(dp, 6)}}};
          undecided_ = true;
        }
      } else {
        failed.push_back(k);
      }
    }
    if (failed.empty() || violation_) return;
    const B mid = s0 + (s1 - s0) / 2;  // any split point is valid
    examine(st, s0, mid, failed, depth + 1);
    if (violation_) return;
    examine(st, mid, s1, failed, depth + 1);
  }

  const models::LogisticReducedTau<S>& model_;
  std::vector<std::pair<std::size_t, std::size_t>> pairs_;
  PairClaim claim_;
  double H_;
  unsigned max_depth_;
  std::size_t T_ = 0, ranges_ = 0;
  std::vector<PairState> state_;
  std::vector<flow::StepSeries<S>> series_a_, series_u_;  // per pair, for the current step
  bool undecided_ = false;
  nlohmann::json first_undecided_;
  std::optional<Violation> violation_;
  B margin_ = B(std::numeric_limits<double>::infinity());
};

}  // namespace softcert::varre2026
