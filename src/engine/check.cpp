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

std::vector<nlohmann::json> Check::shrink_candidates(const nlohmann::json&) const { return {}; }

}  // namespace softcert::engine
