#include "engine/check.hpp"

#include <algorithm>

#include "engine/record_validation.hpp"
#include "numerics/quote.hpp"

namespace softcert::engine {

std::string precision_problem(Tier tier, unsigned bits) {
  if (tier == Tier::rigorous && bits > kMaxRigorousPrecision)
    return "the rigorous tier takes at most " + std::to_string(kMaxRigorousPrecision) + " bits, got " +
           std::to_string(bits) + " (its Taylor order and memory grow with the precision; docs/cli.md)";
  return "";
}

std::string unknown_param_problem(const Check& check, const nlohmann::json& params) {
  if (!params.is_object()) return "params must be a table of key = value";
  const std::vector<std::string> known = check.params();
  for (const auto& [key, value] : params.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return "unknown param " + num::quoted(key) + " for " + check.name() +
           (known.empty() ? " (it takes no params)" : " (known: " + list + ")");
  }
  return "";
}

std::string unknown_hypothesis_problem(const Check& check, const std::string& hypothesis) {
  const std::vector<std::string> known = check.hypotheses();
  if (std::find(known.begin(), known.end(), hypothesis) != known.end()) return "";
  std::string list;
  for (const auto& h : known) list += (list.empty() ? "" : ", ") + h;
  return check.name() + " has no hypothesis " + num::quoted(hypothesis) +
         (known.empty() ? " (it has no hypotheses)" : " (its hypotheses: " + list + ")");
}

void enforce_margin_contract(const Check& check, CheckResult& r) {
  if (r.verdict != Verdict::proved || r.margin.empty()) return;
  // the records' own rule for a proved margin (engine/record_validation.hpp)
  if (verdict_evidence_problem(Verdict::proved, r.margin, false, false,
                               check.strict_margin() ? ClaimKind::strict : ClaimKind::non_strict)
          .empty())
    return;
  const std::optional<int> s = r.margin.lower_sign();
  r.verdict = Verdict::inconclusive;
  r.reason = std::string("not proved: the margin's lower end ") + (s ? r.margin.lower_text() : "(not a number)") + " is " +
             (check.strict_margin() ? "not > 0, as the strict claim needs" : "negative") + " (was: " + r.reason + ")";
}

std::map<std::string, bool> Check::hypotheses_on(const nlohmann::json&) const { return {}; }

std::optional<HypothesisFailure> Check::failed_hypothesis(const nlohmann::json& instance,
                                                          const std::set<std::string>& dropped) const {
  const std::vector<std::string> declared = hypotheses();
  if (std::all_of(declared.begin(), declared.end(), [&](const std::string& h) { return dropped.count(h) > 0; }))
    return std::nullopt;  // nothing assumed: hypotheses_on is not even asked
  const std::map<std::string, bool> decided = hypotheses_on(instance);
  for (const auto& h : declared) {
    if (dropped.count(h)) continue;
    const auto it = decided.find(h);
    if (it != decided.end() && !it->second) return HypothesisFailure{h, why_hypothesis_fails(h, instance)};
  }
  return std::nullopt;
}

std::string Check::why_hypothesis_fails(const std::string&, const nlohmann::json&) const { return ""; }

std::vector<nlohmann::json> Check::shrink_candidates(const nlohmann::json&) const { return {}; }

}  // namespace softcert::engine
