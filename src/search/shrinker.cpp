#include "search/shrinker.hpp"

#include <cstdlib>
#include <string>

#include "search/decimal_shortening.hpp"
#include "search/instance_leaves.hpp"
#include "search/shrink_candidates.hpp"

namespace softcert::search {

std::vector<double> shorter_horizons(double horizon, double min_horizon) {
  std::vector<double> out;
  for (int e = -6; e <= 12; ++e)
    for (const char* m : {"1", "2", "5"}) {
      // From the decimal text, so that the horizon is the double nearest 1, 2, 5 · 10^e and is
      // written back as that short decimal.
      const double h = std::strtod((std::string(m) + "e" + std::to_string(e)).c_str(), nullptr);
      if (h >= min_horizon && h < horizon) out.push_back(h);
    }
  return out;
}

ShrinkOutcome shrink(const engine::Check& check, Counterexample start, const StillViolated& still_violated,
                     const ShrinkLimits& limits) {
  ShrinkOutcome out;
  out.smallest = std::move(start);
  // True when the scan must end now (cap or budget).
  auto exhausted = [&]() {
    if (out.evaluations >= limits.max_evaluations || (limits.should_stop && limits.should_stop())) {
      out.cut_short = true;
      return true;
    }
    return false;
  };
  // Horizon first: the shortest one that still shows the violation.
  if (out.smallest.horizon && limits.shorten_horizon)
    for (double h : shorter_horizons(*out.smallest.horizon, limits.min_horizon)) {
      if (exhausted()) return out;
      ++out.evaluations;
      if (auto r = still_violated(out.smallest.instance, h)) {
        out.smallest.horizon = h;
        out.smallest.result = std::move(*r);
        ++out.steps;
        break;
      }
    }
  std::size_t position = 0;
  bool accepted_in_pass = false;
  for (;;) {
    std::vector<nlohmann::json> candidates = check.shrink_candidates(out.smallest.instance);
    if (candidates.empty()) candidates = default_shrink_candidates(out.smallest.instance);
    bool accepted = false;
    for (; position < candidates.size(); ++position) {
      if (exhausted()) return out;
      ++out.evaluations;
      if (auto r = still_violated(candidates[position], out.smallest.horizon)) {
        out.smallest.instance = candidates[position];
        out.smallest.result = std::move(*r);
        ++out.steps;
        accepted = accepted_in_pass = true;
        break;  // rebuild the list from the smaller instance, resume here
      }
    }
    if (accepted) continue;
    if (!accepted_in_pass) return out;  // a full pass without progress: a fixed point
    position = 0;
    accepted_in_pass = false;
  }
}

nlohmann::json size_summary(const Counterexample& c) {
  nlohmann::json s = nlohmann::json::object();
  for (const char* key : {"T", "d"})
    if (c.instance.is_object() && c.instance.contains(key)) s[key] = c.instance[key];
  std::size_t leaves = 0;
  long digits = 0;
  for (const auto& at : search::decimal_leaves(c.instance)) {
    ++leaves;
    digits += search::significant_digits(c.instance.at(at).get<std::string>()).value_or(0);
  }
  s["numbers"] = leaves;
  s["significant_digits"] = digits;
  s["horizon"] = c.horizon ? nlohmann::json(*c.horizon) : nlohmann::json(nullptr);
  return s;
}

}  // namespace softcert::search
