#pragma once
// `softcert search`: hunt for a counterexample to a check with some hypotheses dropped
// (docs/search.md). Random instances from the check's generator, with a local optimisation
// (Nelder–Mead over a few of the instance's numbers) of the margin from the most promising
// sample of every batch; a candidate (the search tier says violated, or its margin is
// negative) is re-run in the rigorous tier, shrunk while it stays certified, and finally
// certified once more through the very reader `softcert replay` uses. Certified means a
// rigorous `violated` verdict with the margin interval strictly below 0
// (certified_violation in margin_evaluator.hpp).
//
// Reproducible: the sequence of instances tried is a function of (check, seed, settings)
// alone — sample i is the check's generator at engine::instance_seed(seed, check, i), the same
// instance as `softcert check NAME --instances N --seed S` numbers i — and the budget only
// decides how far along that sequence a run gets. A run that ends before its budget gives the
// same outcome for the same seed on every machine.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "search/margin_evaluator.hpp"
#include "search/shrinker.hpp"

namespace softcert::search {

struct SearchSettings {
  std::uint64_t seed = 1;
  double budget_seconds = 60;    // sampling, optimisation and shrinking; the final certification runs after
  std::size_t max_samples = 0;   // 0: no cap, the budget alone ends a fruitless run
  EvaluatorSettings evaluator;   // dropped hypotheses, params, horizon, precision
  std::size_t local_every = 8;         // a local optimisation after every this many samples
  std::size_t local_evaluations = 120; // evaluations per local optimisation
  std::size_t local_dimensions = 8;    // numbers one local optimisation moves (chosen by the seed)
  std::size_t max_shrink_evaluations = 2000;
};

// What a progress line shows; `event` is nonempty for a phase change worth a line of its own.
struct SearchProgress {
  std::string event;
  std::size_t samples = 0, local_evaluations = 0;
  double min_margin = 0;  // +inf before any margin
  double seconds = 0;
};

// The instance with the smallest margin seen, for honest negatives.
struct Closest {
  nlohmann::json instance;
  engine::CheckResult result;
  engine::Tier tier = engine::Tier::fast;
  double margin = 0;
  std::string where;  // "sample 12 (generator seed 345)", or "local optimisation from sample 12"
};

struct SearchOutcome {
  bool found = false;
  Counterexample counterexample;  // found: shrunk, and certified through the replay reader
  std::string found_where;
  double found_margin = 0;        // the search tier's margin when found
  nlohmann::json size_found = nlohmann::json::object(), size_shrunk = nlohmann::json::object();
  std::size_t shrink_steps = 0, shrink_evaluations = 0;
  bool shrink_cut_short = false;
  // found: the dropped hypotheses decided false on the counterexample (shrinking keeps every one
  // the found instance broke broken), in the order of Check::hypotheses()
  std::vector<std::string> broken_hypotheses;
  std::size_t shrink_refused_restores = 0;  // smaller candidates refused: a broken hypothesis held again
  std::size_t samples = 0, local_evaluations = 0, runs = 0, rigorous_runs = 0;
  std::size_t candidates_not_certified = 0;  // search-tier candidates the rigorous tier did not confirm
  std::size_t outside_hypotheses = 0;        // local moves refused: a kept hypothesis failed
  std::size_t broken_by_generator = 0;       // samples on which a kept hypothesis was decided false
  std::size_t refused = 0;                   // candidates the check refused (malformed)
  std::optional<Closest> closest;
  bool budget_exhausted = false, sample_cap_reached = false;
  std::string search_tier;   // "fast", or "rigorous at horizon H (the fast tier refused: ...)"
  std::string local_search;  // "on", or why it is off
  double seconds = 0;
};

// Throws std::invalid_argument for bad settings (the check's generator or the check refusing
// its own generated instance, e.g. for a bad --param): that is bad usage, not a negative.
SearchOutcome run_search(const engine::Check& check, const SearchSettings& settings,
                         const std::function<void(const SearchProgress&)>& progress);

}  // namespace softcert::search
