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

#include "engine/cost_scaling_facts.hpp"
#include "engine/verdict.hpp"
#include "numerics/enclosure.hpp"

namespace softcert::engine {

// How to decide: the rigorous tier (intervals, certificates) may answer proved/violated; the
// fast tier only confirmed/inconclusive (and violated only when it re-certifies rigorously).
enum class Tier { fast, rigorous };
const char* to_string(Tier t);

// The most bits the rigorous tier takes (integrate, check, suites). Above this its Taylor order
// and the MPFI coefficients it keeps make a step cost minutes and gigabytes, and far above it
// GMP runs out of memory and aborts (measured: docs/cli.md, "Limits").
inline constexpr unsigned kMaxRigorousPrecision = 4096;
// "" when `bits` is allowed for `tier`, else the message (without the option name): "the
// rigorous tier takes at most 4096 bits, got ...".
std::string precision_problem(Tier tier, unsigned bits);

struct CheckOptions {
  Tier tier = Tier::rigorous;
  unsigned precision_bits = 0;    // 0: the check's default
  std::optional<double> horizon;  // the claim's time horizon, where it has one
  nlohmann::json params = nlohmann::json::object();  // check-specific settings from the suite
  // Hypotheses the run does not assume (a suite entry's `drop`, `check --drop`, a search's
  // dropped ones, a replayed record's "dropped"). run_check tests every other declared
  // hypothesis on the instance before the check runs (engine/verdict_policy.hpp).
  std::set<std::string> dropped;
  // Whether to return a certificate of a proved result (CheckResult::certificate) where the check
  // writes one (docs/certificates.md). No effect on the verdict or the margin.
  bool certificate = false;
};

struct GenerateOptions {
  std::set<std::string> dropped;  // hypotheses the generated instance need not satisfy
  nlohmann::json params = nlohmann::json::object();  // e.g. {"T": [2, 8]}
};

// The margin of a result: an enclosure of the quantity whose sign decides the property
// (positive = holds), with the binary ends the check computed (a double, MPFR at the check's
// precision, or exact rationals; numerics/enclosure.hpp). The policy decides on its exact signs;
// it becomes decimal text only in the records and the CLI's output (lower_text, upper_text,
// rounded outward). Records read back parse their text into it (Margin::parse).
using Margin = num::Enclosure;

// Facts of a run that other modules read (softcert reproduce's tables and figures), as typed
// fields; the record's `details` say the same in text, for a person and for the records. Each is
// empty when the check does not compute it.
struct RunFacts {
  // varre2026.regression.*: the entropy H(σ(a(H))) of each sweep member (empty where a member was
  // not needed): the rigorous tier's enclosures, or the fast tier's 106-bit run's estimates
  // (Enclosure::estimate()).
  std::vector<num::Enclosure> member_entropy;
  // varre2026.normalization.polarizes, rigorous tier: the enclosure of each weight α_k(H).
  std::vector<num::Enclosure> alpha;
  // sukenik2026.cost_scaling: the certified costs per case and the exponent fits.
  CostScalingFacts cost_scaling;
};

struct CheckResult {
  Verdict verdict = Verdict::inconclusive;
  Margin margin;  // empty when there is none (errors, a run that stopped)
  std::string reason;                                 // one line a person reads
  unsigned precision_bits = 0;                        // precision actually used
  std::optional<double> horizon;                      // horizon actually checked
  nlohmann::json details = nlohmann::json::object();  // check-specific facts (winner, times, ...)
  RunFacts facts;  // what other modules read of them, typed
  // JSON Lines of a certificate (docs/certificates.md), when options.certificate asked for one and
  // the check writes one for this run; the runner keeps it only for a proved record.
  std::vector<std::string> certificate;
};

// A hypothesis that fails on an instance: its name and what shows it ("" when the check does
// not say).
struct HypothesisFailure {
  std::string name;
  std::string detail;
};

class Check {
 public:
  virtual ~Check() = default;
  virtual std::string name() const = 0;       // <paper>.<claim>[.<reading>]
  virtual std::string paper() const = 0;      // citation
  virtual std::string statement() const = 0;  // the formal statement checked, one paragraph
  virtual std::string doc() const { return ""; }  // path under docs/theorems/
  // Hypotheses by name, e.g. "uniform-a0": what the claim assumes of an instance. `check
  // --drop`, a suite's `drop` and `search --drop` may drop any of them; every one not dropped is
  // tested on each instance before the check runs, and an instance that fails one is
  // `inconclusive` (run_check, docs/verdicts.md "Hypotheses").
  virtual std::vector<std::string> hypotheses() const { return {}; }
  // A random instance, fixed by `seed` on every platform, satisfying every hypothesis not in
  // options.dropped.
  virtual nlohmann::json generate(std::uint64_t seed, const GenerateOptions& options) const = 0;
  // Decides the property on one instance. Throws std::invalid_argument for a bad instance.
  virtual CheckResult run(const nlohmann::json& instance, const CheckOptions& options) const = 0;

  // Whether the claim is strict: proved needs a margin whose lower end is > 0 (true, the
  // default) or a non-strict claim ("nondecreasing", "≥"), where proved needs a lower end
  // ≥ 0 and 0 may be the exact value (docs/verdicts.md). The runner enforces it:
  // engine::enforce_margin_contract.
  virtual bool strict_margin() const { return true; }
  // Every key this check reads from params, the generator's and the run's (`--param`, a
  // suite's [check.params]); any other key is refused (engine::unknown_param_problem).
  virtual std::vector<std::string> params() const { return {}; }

  // Hooks for `softcert search` (docs/search.md); the defaults suit any check.
  //
  // Which hypotheses hold on `instance`, for those this check decides exactly; a hypothesis
  // absent from the map is undecided. A search moves an instance locally (optimisation,
  // shrinking) only while every hypothesis it keeps is decided true here, so that a
  // counterexample never breaks a kept hypothesis. Default: none decided (a search then
  // changes instances locally only when every hypothesis is dropped). May throw
  // std::invalid_argument for a bad instance.
  virtual std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const;
  // The first hypothesis the claim assumes that fails on `instance`, given the hypotheses the
  // run does not assume; nullopt when none fails or none is decided. Default: in the order of
  // hypotheses(), the first one not in `dropped` that hypotheses_on decides false, with
  // why_hypothesis_fails as its detail — the claim assumes its hypotheses jointly. A check whose
  // claim assumes them otherwise (one of two suffices) overrides it. May throw
  // std::invalid_argument for a bad instance.
  virtual std::optional<HypothesisFailure> failed_hypothesis(const nlohmann::json& instance,
                                                             const std::set<std::string>& dropped) const;
  // What on `instance` makes `hypothesis` fail, in a few words ("u_2(0) = u_5(0)"); "" when the
  // check does not say. Called only for a hypothesis that hypotheses_on decided false.
  virtual std::string why_hypothesis_fails(const std::string& hypothesis, const nlohmann::json& instance) const;
  // Whether a violation certified at a shorter horizon h < H is a violation of the claim at H:
  // true for a claim for all t in [0, H] (a failure before H is a failure on [0, H]) and for a
  // claim about t -> infinity whose horizon only bounds how far the check integrates; false (the
  // default) for a claim at the one time t = H, where another horizon is another claim.
  // `softcert search` shortens the horizon of a counterexample, and searches at a short
  // horizon in the rigorous tier, only when this is true.
  virtual bool shorter_horizon_keeps_claim() const { return false; }
  // Smaller instances to try while shrinking a counterexample, most aggressive first; each
  // strictly smaller than `instance` (search/shrink_candidates.hpp). Default: none, which the
  // search reads as "use search::default_shrink_candidates" (fewer tokens and dimensions for
  // value-softmax instances, shorter decimals for all) — the engine does not depend on the
  // search. Overrides usually add their own index removals to search::shorten_decimal_candidates.
  virtual std::vector<nlohmann::json> shrink_candidates(const nlohmann::json& instance) const;
};

// A proved result whose margin does not back the claim — lower end ≤ 0 for a strict
// claim, < 0 (or no margin end at all) for a non-strict one — is turned into inconclusive with the
// reason saying why (a check's bug must never surface as proved). "inf" ends count as positive.
void enforce_margin_contract(const Check& check, CheckResult& result);

// "" when `hypothesis` is one of check.hypotheses(), else the message: "CHECK has no hypothesis
// 'H' (its hypotheses: a, b)" — or "(it has no hypotheses)". For every place that takes a
// hypothesis name: `check --drop`, `search --drop`, a suite's `drop`, a replayed "dropped".
std::string unknown_hypothesis_problem(const Check& check, const std::string& hypothesis);

// "" when every key of `params` is one `check` reads, else the message: "unknown param 'K'
// for CHECK (known: a, b)" — or "(it takes no params)".
std::string unknown_param_problem(const Check& check, const nlohmann::json& params);

}  // namespace softcert::engine
