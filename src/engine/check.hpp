#pragma once
// A theorem check: hypotheses, an instance generator that satisfies them, and a decision
// procedure for the property on one instance. One subclass per check in proofs_checks/,
// registered with SOFTCERT_REGISTER_CHECK.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/verdict.hpp"

namespace softcert::engine {

// How to decide: the rigorous tier (intervals, certificates) may answer proved/violated; the
// fast tier only confirmed/inconclusive (and violated only when it re-certifies rigorously).
enum class Tier { fast, rigorous };
const char* to_string(Tier t);

struct CheckOptions {
  Tier tier = Tier::rigorous;
  unsigned precision_bits = 0;    // 0: the check's default
  std::optional<double> horizon;  // the claim's time horizon, where it has one
  nlohmann::json params = nlohmann::json::object();  // check-specific settings from the suite
};

struct GenerateOptions {
  std::set<std::string> dropped;  // hypotheses the generated instance need not satisfy
  nlohmann::json params = nlohmann::json::object();  // e.g. {"T": [2, 8]}
};

struct CheckResult {
  Verdict verdict = Verdict::inconclusive;
  // The certified margin: the quantity whose sign decides the property (positive = holds),
  // as decimal strings [lower, upper]. Empty when there is none (errors).
  std::string margin_lower, margin_upper;
  std::string reason;                                 // one line a person reads
  unsigned precision_bits = 0;                        // precision actually used
  std::optional<double> horizon;                      // horizon actually checked
  nlohmann::json details = nlohmann::json::object();  // check-specific facts (winner, times, ...)
};

class Check {
 public:
  virtual ~Check() = default;
  virtual std::string name() const = 0;       // <paper>.<claim>[.<reading>]
  virtual std::string paper() const = 0;      // citation
  virtual std::string statement() const = 0;  // the formal statement checked, one paragraph
  virtual std::string doc() const { return ""; }  // path under docs/theorems/
  // Hypotheses by name, e.g. "uniform-a0"; `search --drop` may drop any of them.
  virtual std::vector<std::string> hypotheses() const { return {}; }
  // A random instance, fixed by `seed` on every platform, satisfying every hypothesis not in
  // options.dropped.
  virtual nlohmann::json generate(std::uint64_t seed, const GenerateOptions& options) const = 0;
  // Decides the property on one instance. Throws std::invalid_argument for a bad instance.
  virtual CheckResult run(const nlohmann::json& instance, const CheckOptions& options) const = 0;

  // Hooks for `softcert search` (docs/search.md); the defaults suit any check.
  //
  // Which hypotheses hold on `instance`, for those this check decides exactly; a hypothesis
  // absent from the map is undecided. A search moves an instance locally (optimisation,
  // shrinking) only while every hypothesis it keeps is decided true here, so that a
  // counterexample never breaks a kept hypothesis. Default: none decided (a search then
  // changes instances locally only when every hypothesis is dropped). May throw
  // std::invalid_argument for a bad instance.
  virtual std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const;
  // Smaller instances to try while shrinking a counterexample, most aggressive first; each
  // strictly smaller than `instance` (search/shrink_candidates.hpp). Default:
  // search::default_shrink_candidates (fewer tokens and dimensions for value-softmax
  // instances, shorter decimals for all). Overrides usually add their own index removals to
  // search::shorten_decimal_candidates.
  virtual std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& instance) const;
};

}  // namespace softcert::engine
