#pragma once
// Runs a check on candidate instances for `softcert search` and turns the result into a number
// to minimise. The search tier is the fast tier when the check has one; a check whose fast
// tier refuses (std::invalid_argument) is run in the rigorous tier instead, at a short horizon
// when the user gave none and a shorter horizon keeps the claim. Certification is always the
// rigorous tier. Every run assumes exactly the hypotheses the search keeps (CheckOptions::dropped).
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"

namespace softcert::search {

struct EvaluatorSettings {
  std::set<std::string> dropped;                    // hypotheses the search may break
  nlohmann::json params = nlohmann::json::object();  // check parameters (CheckOptions::params)
  std::optional<double> horizon;                     // the user's --horizon; none: see short_horizon
  // The rigorous search tier's horizon when none is given, for a check whose claim a shorter
  // horizon keeps (Check::shorter_horizon_keeps_claim); other checks run at their own horizon.
  double short_horizon = 10;
  unsigned precision_bits = 0;                       // 0: the check's default
};

struct Evaluation {
  bool well_formed = false;  // the check decided the instance (no exception, no error verdict)
  bool refused = false;      // the check threw std::invalid_argument (a bad instance)
  std::string error;         // why not, when not
  engine::Tier tier = engine::Tier::fast;
  engine::CheckResult result;
  // The margin as one number to minimise: the midpoint of [lower, upper] when both are
  // finite, else the finite end; +inf when the result has no margin.
  double margin = std::numeric_limits<double>::infinity();
  // The search tier says the property fails: verdict violated, or a negative margin.
  bool candidate() const;
};

// What the search counts as a certified counterexample: a rigorous `violated` verdict whose
// margin interval, when the check gives one, lies strictly below 0. A violation exactly on the
// boundary (margin [0, 0], e.g. a zero token) is a real violation of a strict inequality but a
// degenerate one; the search looks for robust counterexamples.
bool certified_violation(const engine::CheckResult& rigorous_result);

// A point estimate of the margin (the midpoint of its ends, to nearest; an infinite end: the
// other one; none: +inf), for steering the search only.
double margin_estimate(const engine::CheckResult& r);

class MarginEvaluator {
 public:
  MarginEvaluator(const engine::Check& check, EvaluatorSettings settings);

  // One run in the search tier (see the header comment).
  Evaluation search_tier(const nlohmann::json& instance);
  // One run in the rigorous tier at `horizon` (none: the check's default).
  Evaluation rigorous(const nlohmann::json& instance, std::optional<double> horizon);

  // Every kept hypothesis decided true by Check::hypotheses_on (false when undecided, refused,
  // or any kept one fails). The instances a search changes locally must pass this.
  bool admissible(const nlohmann::json& instance) const;
  // A kept hypothesis that Check::hypotheses_on leaves undecided on `instance`, if any: then
  // local moves are off for the run.
  std::optional<std::string> undecided_kept_hypothesis(const nlohmann::json& instance) const;
  // A kept hypothesis decided false on `instance` (a generator that broke its contract), if any.
  std::optional<std::string> broken_kept_hypothesis(const nlohmann::json& instance) const;
  // The dropped hypotheses that Check::hypotheses_on decides false on `instance`, in the order of
  // Check::hypotheses(): what a counterexample found there breaks.
  std::vector<std::string> broken_dropped_hypotheses(const nlohmann::json& instance) const;
  // Whether every one of `hypotheses` is decided false on `instance` (undecided or refused: no).
  bool breaks_all(const nlohmann::json& instance, const std::vector<std::string>& hypotheses) const;

  // The horizon of the rigorous search tier: the user's, else short_horizon when a shorter
  // horizon keeps the check's claim, else none (the check's own).
  std::optional<double> rigorous_search_horizon() const;

  bool fast_tier_available() const { return fast_available_; }
  const std::string& fast_tier_refusal() const { return fast_refusal_; }
  std::size_t runs() const { return runs_; }
  std::size_t rigorous_runs() const { return rigorous_runs_; }
  const EvaluatorSettings& settings() const { return settings_; }

 private:
  Evaluation run(const nlohmann::json& instance, const engine::CheckOptions& options);
  std::map<std::string, bool> decided(const nlohmann::json& instance) const;

  const engine::Check& check_;
  EvaluatorSettings settings_;
  bool fast_available_ = true;
  std::string fast_refusal_;
  std::size_t runs_ = 0, rigorous_runs_ = 0;
};

}  // namespace softcert::search
