#pragma once
// Shrinking a counterexample while it stays violated, as property-based testing tools do:
// a shorter horizon first when the claim allows it (cheaper runs after), then the check's shrink candidates
// (Check::shrink_candidates: fewer indices, shorter decimals). A candidate is kept only if
// `still_violated` certifies it — so every accepted step is itself a certified counterexample
// — and candidates are strictly smaller, so shrinking ends. Greedy with resumption: after an
// accepted step the candidate list is rebuilt and the scan resumes at the same position;
// shrinking stops after a full pass with no accepted step, at the evaluation cap, or when
// `should_stop` says so (the budget).
#include <cstddef>
#include <functional>
#include <optional>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"

namespace softcert::search {

struct Counterexample {
  nlohmann::json instance;
  std::optional<double> horizon;  // none: the check has no horizon
  engine::CheckResult result;     // the rigorous result that certifies it (verdict violated)
};

// The certified rigorous result on (instance, horizon) when the property is still violated
// there (and the instance stays within the kept hypotheses); nullopt otherwise.
using StillViolated = std::function<std::optional<engine::CheckResult>(const nlohmann::json&, std::optional<double>)>;

struct ShrinkLimits {
  std::size_t max_evaluations = 2000;
  // Whether shorter horizons are tried at all: only for a claim that a shorter horizon keeps
  // (engine::Check::shorter_horizon_keeps_claim); a claim at the one time H keeps H.
  bool shorten_horizon = true;
  double min_horizon = 0.01;
  std::function<bool()> should_stop;
};

struct ShrinkOutcome {
  Counterexample smallest;
  std::size_t steps = 0;        // accepted candidates
  std::size_t evaluations = 0;  // candidates tried
  bool cut_short = false;       // stopped by the cap or the budget, not by a fixed point
};

// Shorter horizons to try, shortest first: 1, 2, 5 × 10^k in [min_horizon, horizon).
std::vector<double> shorter_horizons(double horizon, double min_horizon);

ShrinkOutcome shrink(const engine::Check& check, Counterexample start, const StillViolated& still_violated,
                     const ShrinkLimits& limits);

// A size summary for reports: T and d when the instance has them, the number of decimal
// leaves, their total significant digits, and the horizon.
nlohmann::json size_summary(const Counterexample& c);

}  // namespace softcert::search
