#include "search/margin_evaluator.hpp"

#include <cmath>
#include <stdexcept>

#include "engine/verdict_policy.hpp"

namespace softcert::search {

double margin_estimate(const engine::CheckResult& r) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (r.margin.empty()) return inf;
  // the ends to nearest: an estimate that steers the search, never a verdict
  const double lo = r.margin.lower_nearest(), hi = r.margin.upper_nearest();
  const bool lo_finite = std::isfinite(lo), hi_finite = std::isfinite(hi);
  if (lo_finite && hi_finite) return 0.5 * (lo + hi);
  if (lo_finite) return lo;
  if (hi_finite) return hi;
  if (lo == -inf) return -inf;  // [-inf, -inf]: certainly negative
  return inf;
}

bool certified_violation(const engine::CheckResult& r) {
  if (r.verdict != engine::Verdict::violated) return false;
  if (r.margin.empty()) return true;
  return r.margin.certain_sign() < 0;  // the upper end, exactly
}

bool Evaluation::candidate() const {
  return well_formed && (result.verdict == engine::Verdict::violated || margin < 0);
}

MarginEvaluator::MarginEvaluator(const engine::Check& check, EvaluatorSettings settings)
    : check_(check), settings_(std::move(settings)) {}

Evaluation MarginEvaluator::run(const nlohmann::json& instance, const engine::CheckOptions& options) {
  Evaluation e;
  e.tier = options.tier;
  ++runs_;
  if (options.tier == engine::Tier::rigorous) ++rigorous_runs_;
  try {
    e.result = engine::run_check(check_, instance, options);
    e.well_formed = e.result.verdict != engine::Verdict::error;
    if (!e.well_formed) e.error = e.result.reason;
  } catch (const std::invalid_argument&) {
    throw;  // the caller decides between "tier refused" and "bad instance"
  } catch (const std::exception& ex) {
    // A candidate the check cannot handle (e.g. a numeric failure on a degenerate instance)
    // is a bad candidate, not the end of the search.
    e.error = std::string("internal error: ") + ex.what();
    return e;
  }
  e.margin = e.well_formed ? margin_estimate(e.result) : std::numeric_limits<double>::infinity();
  return e;
}

Evaluation MarginEvaluator::rigorous(const nlohmann::json& instance, std::optional<double> horizon) {
  engine::CheckOptions o;
  o.tier = engine::Tier::rigorous;
  o.precision_bits = settings_.precision_bits;
  o.horizon = horizon;
  o.params = settings_.params;
  o.dropped = settings_.dropped;
  try {
    return run(instance, o);
  } catch (const std::invalid_argument& ex) {
    Evaluation e;
    e.tier = engine::Tier::rigorous;
    e.refused = true;
    e.error = ex.what();
    return e;
  }
}

Evaluation MarginEvaluator::search_tier(const nlohmann::json& instance) {
  if (fast_available_) {
    engine::CheckOptions o;
    o.tier = engine::Tier::fast;
    o.precision_bits = settings_.precision_bits;
    o.horizon = settings_.horizon;
    o.params = settings_.params;
    o.dropped = settings_.dropped;
    try {
      return run(instance, o);
    } catch (const std::invalid_argument& fast_refused) {
      // Either the fast tier is refused, or the instance is bad: the rigorous tier tells which.
      Evaluation e = rigorous(instance, rigorous_search_horizon());
      if (!e.refused) {
        fast_available_ = false;
        fast_refusal_ = fast_refused.what();
      }
      return e;
    }
  }
  return rigorous(instance, rigorous_search_horizon());
}

std::optional<double> MarginEvaluator::rigorous_search_horizon() const {
  if (settings_.horizon) return settings_.horizon;
  // A violation at the short horizon is one of the claim only when a shorter horizon keeps it;
  // a claim at the one time H is searched at the check's own H.
  if (check_.shorter_horizon_keeps_claim()) return settings_.short_horizon;
  return std::nullopt;
}

std::map<std::string, bool> MarginEvaluator::decided(const nlohmann::json& instance) const {
  try {
    return check_.hypotheses_on(instance);
  } catch (const std::exception&) {
    return {};
  }
}

std::optional<std::string> MarginEvaluator::undecided_kept_hypothesis(const nlohmann::json& instance) const {
  const auto d = decided(instance);
  for (const auto& h : check_.hypotheses())
    if (!settings_.dropped.count(h) && !d.count(h)) return h;
  return std::nullopt;
}

std::optional<std::string> MarginEvaluator::broken_kept_hypothesis(const nlohmann::json& instance) const {
  const auto d = decided(instance);
  for (const auto& h : check_.hypotheses())
    if (!settings_.dropped.count(h) && d.count(h) && !d.at(h)) return h;
  return std::nullopt;
}

std::vector<std::string> MarginEvaluator::broken_dropped_hypotheses(const nlohmann::json& instance) const {
  const auto d = decided(instance);
  std::vector<std::string> out;
  for (const auto& h : check_.hypotheses())
    if (settings_.dropped.count(h) && d.count(h) && !d.at(h)) out.push_back(h);
  return out;
}

bool MarginEvaluator::breaks_all(const nlohmann::json& instance, const std::vector<std::string>& hypotheses) const {
  if (hypotheses.empty()) return true;
  const auto d = decided(instance);
  for (const auto& h : hypotheses)
    if (!d.count(h) || d.at(h)) return false;
  return true;
}

bool MarginEvaluator::admissible(const nlohmann::json& instance) const {
  const auto d = decided(instance);
  for (const auto& h : check_.hypotheses())
    if (!settings_.dropped.count(h) && (!d.count(h) || !d.at(h))) return false;
  return true;
}

}  // namespace softcert::search
