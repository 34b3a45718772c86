#include "search/search_record.hpp"

#include <cmath>

#include "search/replay_certification.hpp"

namespace softcert::search {

namespace {
nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

nlohmann::json margin_pair(const engine::CheckResult& r) {
  if (r.margin.empty()) return nullptr;
  return nlohmann::json::array({r.margin.lower_text(), r.margin.upper_text()});
}
}  // namespace

nlohmann::json search_facts(const SearchSettings& s, const SearchOutcome& o) {
  nlohmann::json f;
  f["seed"] = s.seed;
  f["budget_seconds"] = s.budget_seconds;
  f["max_samples"] = s.max_samples ? nlohmann::json(s.max_samples) : nlohmann::json(nullptr);
  f["dropped"] = nlohmann::json(s.evaluator.dropped);
  f["search_tier"] = o.search_tier;
  f["local_search"] = o.local_search;
  f["tried"] = o.samples + o.local_evaluations;
  f["samples"] = o.samples;
  f["local_evaluations"] = o.local_evaluations;
  f["check_runs"] = o.runs;
  f["rigorous_runs"] = o.rigorous_runs;
  f["candidates_not_certified"] = o.candidates_not_certified;
  f["outside_kept_hypotheses"] = o.outside_hypotheses;
  f["generator_broke_kept_hypothesis"] = o.broken_by_generator;
  f["refused_by_check"] = o.refused;
  f["budget_exhausted"] = o.budget_exhausted;
  f["sample_cap_reached"] = o.sample_cap_reached;
  if (o.found) {
    f["found_at"] = o.found_where;
    f["found_margin"] = number_or_null(o.found_margin);
    f["shrink_steps"] = o.shrink_steps;
    f["shrink_candidates_tried"] = o.shrink_evaluations;
    f["shrink_cut_short"] = o.shrink_cut_short;
    f["breaks"] = o.broken_hypotheses;
    f["shrink_refused_restoring_a_hypothesis"] = o.shrink_refused_restores;
    f["size_found"] = o.size_found;
    f["size_shrunk"] = o.size_shrunk;
  }
  if (o.closest) {
    f["min_margin"] = number_or_null(o.closest->margin);
    f["min_margin_at"] = o.closest->where;
  } else {
    f["min_margin"] = nullptr;
  }
  f["seconds"] = o.seconds;
  return f;
}

nlohmann::json search_record(const engine::Check& check, const SearchSettings& s, const SearchOutcome& o) {
  nlohmann::json r;
  if (o.found) {
    r = replay_fields(check.name(), o.counterexample, s.evaluator.params, s.evaluator.dropped);
    r["tier"] = "rigorous";
    r["verdict"] = engine::to_string(o.counterexample.result.verdict);
    r["margin"] = margin_pair(o.counterexample.result);
    r["reason"] = o.counterexample.result.reason;
    r["details"] = o.counterexample.result.details;
  } else {
    r["check"] = check.name();
    r["verdict"] = "none found";
    if (o.closest) {
      nlohmann::json c;
      c["instance"] = o.closest->instance;
      c["tier"] = engine::to_string(o.closest->tier);
      c["verdict"] = engine::to_string(o.closest->result.verdict);
      c["margin"] = margin_pair(o.closest->result);
      c["horizon"] = o.closest->result.horizon ? nlohmann::json(*o.closest->result.horizon) : nlohmann::json(nullptr);
      c["where"] = o.closest->where;
      r["closest"] = c;
    }
  }
  r["search"] = search_facts(s, o);
  return r;
}

}  // namespace softcert::search
