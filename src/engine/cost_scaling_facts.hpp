#pragma once
// What sukenik2026.cost_scaling computes per case and its exponent fits, typed, for `softcert
// reproduce sukenik2026-cost-scaling` (engine::RunFacts); the record's details "rows" and "fits"
// say the same in JSON.
#include <cstddef>
#include <optional>
#include <vector>

#include "numerics/kinds.hpp"
#include "statistics/loglog_fit.hpp"

namespace softcert::engine {

// One case (T tokens after the sink, dimension d) of a cost-scaling instance.
struct CostScalingRow {
  std::size_t T = 0, d = 0;
  // The certified costs min ‖W_Q W_Kᵀ‖_* of the sink and the diagonal pattern scaled by γτ, and
  // their ratio diagonal / sink: enclosures, present when both brackets were certified (an
  // infeasible or an uncertified case has none).
  std::optional<IntervalD> sink, diagonal, ratio;
  double relative_gap = 0;  // the larger relative width of the two brackets (0 without them)
  // Orthonormal embeddings: the closed forms scaled by γτ (midpoints of their enclosures), and the
  // unfactorised cost min ‖W‖²_F at γ = τ = 1, exact (certify::certified_frobenius_cost), when known.
  std::optional<double> sink_closed_form, diagonal_closed_form;
  std::optional<Rational> frobenius_sink_gamma1_tau1;
  bool frobenius_equal = false;  // the diagonal pattern's min ‖W‖²_F is the same
};

// A log-log least-squares exponent of the certified costs (statistics on certified numbers, not a
// certificate) and the exponent the claim expects asymptotically (NaN where it expects none).
struct CostScalingFit {
  statistics::ExponentFit fit;
  double expected_asymptotic = 0;
};

struct CostScalingFacts {
  std::vector<CostScalingRow> rows;                      // one per case, in the instance's order
  std::optional<CostScalingFit> sink, diagonal, ratio;  // fitted when ≥ 2 distinct T were certified
};

}  // namespace softcert::engine
