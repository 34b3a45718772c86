#include "search/search.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "engine/seeds.hpp"
#include "search/instance_coordinates.hpp"
#include "search/nelder_mead.hpp"
#include "search/replay_certification.hpp"

namespace softcert::search {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// `count` distinct indices of [0, n), fixed by `word` (partial Fisher–Yates on SplitMix64):
// the numbers one local optimisation moves.
std::vector<std::size_t> pick_indices(std::size_t n, std::size_t count, std::uint64_t word) {
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  count = std::min(count, n);
  for (std::size_t k = 0; k < count; ++k) {
    word = support::splitmix64(word);
    const std::size_t j = k + static_cast<std::size_t>(word % (n - k));
    std::swap(idx[k], idx[j]);
  }
  idx.resize(count);
  return idx;
}

// A double for a progress line: JSON's shortest round-trip form, and ±inf spelled out.
std::string format_number(double x) {
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  return nlohmann::json(x).dump();
}

// One search run: the state shared by sampling, local optimisation, shrinking and certification.
class Search {
 public:
  Search(const engine::Check& check, const SearchSettings& s, const std::function<void(const SearchProgress&)>& progress)
      : check_(check), s_(s), progress_(progress), eval_(check, s.evaluator), start_(std::chrono::steady_clock::now()) {}

  SearchOutcome run() {
    const engine::GenerateOptions gen{s_.evaluator.dropped, s_.evaluator.params};
    const bool keeps_some = kept_hypotheses() > 0;
    std::optional<std::pair<nlohmann::json, double>> batch_best;  // the batch's most promising sample
    std::string batch_best_where;
    for (std::size_t i = 0;; ++i) {
      if (s_.max_samples && i >= s_.max_samples) {
        out_.sample_cap_reached = true;
        break;
      }
      if (over_budget()) {
        out_.budget_exhausted = true;
        break;
      }
      const std::uint64_t seed = engine::instance_seed(s_.seed, check_.name(), i);
      const nlohmann::json instance = check_.generate(seed, gen);
      ++out_.samples;
      const std::string where = "sample " + std::to_string(i) + " (generator seed " + std::to_string(seed) + ")";
      if (keeps_some && eval_.broken_kept_hypothesis(instance)) {
        ++out_.broken_by_generator;  // the generator broke its contract: not evidence of anything
        continue;
      }
      const Evaluation e = eval_.search_tier(instance);
      if (e.refused)
        throw std::invalid_argument(where + ": the check refuses its own generator's instance: " + e.error +
                                    " (check --param and --horizon)");
      note(instance, e, where);
      report("");
      if (e.candidate() && found(instance, e, where, /*from_generator=*/true)) break;
      if (e.well_formed && std::isfinite(e.margin) && (!batch_best || e.margin < batch_best->second)) {
        batch_best = {instance, e.margin};
        batch_best_where = "sample " + std::to_string(i);
      }
      if ((i + 1) % s_.local_every == 0 && batch_best) {
        const bool done = optimise_locally(batch_best->first, batch_best_where, i);
        batch_best.reset();
        if (done) break;
      }
    }
    out_.runs = eval_.runs();
    out_.rigorous_runs = eval_.rigorous_runs();
    if (eval_.fast_tier_available()) {
      out_.search_tier = "fast";
    } else {
      const std::optional<double> h = eval_.rigorous_search_horizon();
      out_.search_tier = "rigorous at " + (h ? "horizon " + format_number(*h) : std::string("the check's horizon")) +
                         " (the fast tier refused: " + eval_.fast_tier_refusal() + ")";
    }
    if (out_.local_search.empty()) out_.local_search = "on";
    out_.seconds = seconds();
    return out_;
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool over_budget() const { return seconds() >= s_.budget_seconds; }

  std::size_t kept_hypotheses() const {
    std::size_t n = 0;
    for (const auto& h : check_.hypotheses()) n += s_.evaluator.dropped.count(h) ? 0 : 1;
    return n;
  }

  void report(const std::string& event) {
    if (!progress_) return;
    SearchProgress p;
    p.event = event;
    p.samples = out_.samples;
    p.local_evaluations = out_.local_evaluations;
    p.min_margin = out_.closest ? out_.closest->margin : kInf;
    p.seconds = seconds();
    progress_(p);
  }

  void note(const nlohmann::json& instance, const Evaluation& e, const std::string& where) {
    if (e.refused) ++out_.refused;
    if (!e.well_formed) return;
    if (!out_.closest || e.margin < out_.closest->margin) out_.closest = Closest{instance, e.result, e.tier, e.margin, where};
  }

  // Local moves (optimisation, shrinking) need every kept hypothesis decided on the instance.
  bool local_moves_allowed(const nlohmann::json& instance) {
    if (const auto h = eval_.undecided_kept_hypothesis(instance)) {
      if (out_.local_search.empty())
        out_.local_search = "off: the check does not decide its kept hypothesis '" + *h +
                            "' on changed instances (Check::hypotheses_on)";
      return false;
    }
    return true;
  }

  // Nelder–Mead from `start` over a few of its numbers; true when it ends the search.
  bool optimise_locally(const nlohmann::json& start, const std::string& from, std::size_t sample) {
    if (!local_moves_allowed(start)) return false;
    const InstanceCoordinates coords(start);
    if (coords.size() == 0) return false;
    const auto moved = pick_indices(coords.size(), s_.local_dimensions,
                                    support::splitmix64(s_.seed ^ engine::name_hash("local")) + sample);
    const bool keeps_some = kept_hypotheses() > 0;
    std::optional<std::pair<nlohmann::json, Evaluation>> hit;
    const std::string where = "local optimisation from " + from;
    auto objective = [&](const std::vector<double>& y) {
      std::vector<double> x = coords.values();
      for (std::size_t k = 0; k < moved.size(); ++k) x[moved[k]] = y[k];
      const nlohmann::json candidate = coords.with(x);
      if (keeps_some && !eval_.admissible(candidate)) {
        ++out_.outside_hypotheses;
        return kInf;
      }
      const Evaluation e = eval_.search_tier(candidate);
      ++out_.local_evaluations;
      note(candidate, e, where);
      report("");
      if (e.candidate()) {
        hit = {candidate, e};
        return -kInf;  // ends the optimisation (stop_below)
      }
      return e.margin;
    };
    std::vector<double> y0;
    for (std::size_t k : moved) y0.push_back(coords.values()[k]);
    NelderMeadOptions o;
    o.max_evaluations = s_.local_evaluations;
    o.stop_below = 0;
    o.should_stop = [this]() { return over_budget(); };
    nelder_mead(objective, y0, o);
    return hit && found(hit->first, hit->second, where, /*from_generator=*/false);
  }

  // A search-tier candidate: certify, shrink, certify through replay. True when it ends the search.
  bool found(const nlohmann::json& instance, const Evaluation& e, const std::string& where, bool from_generator) {
    report("candidate at " + where + " (margin " + format_number(e.margin) + "): certifying in the rigorous tier");
    const std::optional<double> horizon = e.result.horizon ? e.result.horizon : s_.evaluator.horizon;
    const Evaluation r = e.tier == engine::Tier::rigorous ? e : eval_.rigorous(instance, horizon);
    if (!certified_violation(r.result)) {
      ++out_.candidates_not_certified;
      report("not certified: the rigorous tier says " + std::string(engine::to_string(r.result.verdict)) +
             (r.result.margin.empty() ? "" : ", margin [" + r.result.margin.lower_text() + ", " + r.result.margin.upper_text() + "]"));
      return false;
    }
    Counterexample cx{instance, r.result.horizon, r.result};
    out_.size_found = size_summary(cx);
    const bool moves = kept_hypotheses() == 0 || local_moves_allowed(instance);
    const bool keeps_some = kept_hypotheses() > 0;
    // What the counterexample breaks stays broken: a dropped hypothesis decided false on it must
    // be decided false on every smaller candidate (shrinking toward zero would otherwise make,
    // say, a(0) uniform again, and the "counterexample without X" would satisfy X).
    const std::vector<std::string> broken = eval_.broken_dropped_hypotheses(instance);
    StillViolated still = [&](const nlohmann::json& candidate, std::optional<double> h) -> std::optional<engine::CheckResult> {
      if (candidate != instance) {
        if (!moves || (keeps_some && !eval_.admissible(candidate))) return std::nullopt;
        if (!eval_.breaks_all(candidate, broken)) {
          ++out_.shrink_refused_restores;
          return std::nullopt;
        }
      }
      const Evaluation c = eval_.rigorous(candidate, h);
      if (!certified_violation(c.result)) return std::nullopt;
      return c.result;
    };
    report("certified; shrinking");
    ShrinkLimits limits;
    limits.max_evaluations = s_.max_shrink_evaluations;
    limits.should_stop = [this]() { return over_budget(); };
    // Only a claim that a shorter horizon keeps has its horizon shortened; a claim at the one
    // time H keeps H.
    limits.shorten_horizon = check_.shorter_horizon_keeps_claim();
    ShrinkOutcome sh = shrink(check_, cx, still, limits);
    Counterexample& small = sh.smallest;
    const bool changed = !from_generator || small.instance != instance;
    if (small.instance.is_object() && small.instance.contains("provenance") && small.instance["provenance"].is_string())
      small.instance["provenance"] = small.instance["provenance"].get<std::string>() + "; found by softcert search --seed " +
                                     std::to_string(s_.seed) + " at " + where + ", shrunk in " +
                                     std::to_string(sh.steps) + " steps";
    // A changed instance is no longer what its generator seed gives: keep the seed in the
    // provenance only, and mark the id.
    if (changed && small.instance.is_object()) {
      small.instance.erase("seed");
      if (small.instance.contains("id") && small.instance["id"].is_string())
        small.instance["id"] = small.instance["id"].get<std::string>() + "/search";
    }
    std::string why;
    const auto replayed = replay_result(replay_fields(check_.name(), small, s_.evaluator.params, s_.evaluator.dropped), &why);
    if (!replayed || !certified_violation(*replayed)) {
      ++out_.candidates_not_certified;
      report("the shrunk counterexample did not replay (" + (replayed ? engine::to_string(replayed->verdict) : why) + ")");
      return false;
    }
    small.result = *replayed;
    out_.broken_hypotheses = eval_.broken_dropped_hypotheses(small.instance);
    out_.found = true;
    out_.counterexample = small;
    out_.found_where = where;
    out_.found_margin = e.margin;
    out_.size_shrunk = size_summary(small);
    out_.shrink_steps = sh.steps;
    out_.shrink_evaluations = sh.evaluations;
    out_.shrink_cut_short = sh.cut_short;
    report("shrunk in " + std::to_string(sh.steps) + " steps (" + std::to_string(sh.evaluations) +
           " tried); certified through replay");
    return true;
  }

  const engine::Check& check_;
  const SearchSettings& s_;
  const std::function<void(const SearchProgress&)>& progress_;
  MarginEvaluator eval_;
  std::chrono::steady_clock::time_point start_;
  SearchOutcome out_;
};

}  // namespace

SearchOutcome run_search(const engine::Check& check, const SearchSettings& settings,
                         const std::function<void(const SearchProgress&)>& progress) {
  if (settings.local_every == 0) throw std::invalid_argument("local_every must be at least 1");
  Search s(check, settings, progress);
  return s.run();
}

}  // namespace softcert::search
