#include "engine/check.hpp"

#include <algorithm>

#include "numerics/quote.hpp"

namespace softcert::engine {

std::string precision_problem(Tier tier, unsigned bits) {
  if (tier == Tier::rigorous && bits > kMaxRigorousPrecision)
    return "the rigorous tier takes at most " + std::to_string(kMaxRigorousPrecision) + " bits, got " +
           std::to_string(bits) + " (its Taylor order and memory grow with the precision; docs/cli.md)";
  return "";
}

std::optional<int> decimal_sign(const std::string& text) {
  std::size_t i = 0;
  int sign = 1;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) sign = text[i++] == '-' ? -1 : 1;
  if (text.compare(i, std::string::npos, "inf") == 0) return sign;
  bool digit = false, nonzero = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] >= '0' && text[i] <= '9') {
      digit = true;
      nonzero |= text[i] != '0';
    } else if (text[i] != '.') {
      return std::nullopt;
    }
  }
  if (!digit) return std::nullopt;
  return nonzero ? sign : 0;
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
  if (r.verdict != Verdict::proved || (r.margin_lower.empty() && r.margin_upper.empty())) return;
  const std::optional<int> s = decimal_sign(r.margin_lower);
  const bool ok = s && (check.strict_margin() ? *s > 0 : *s >= 0);
  if (ok) return;
  r.verdict = Verdict::inconclusive;
  r.reason = std::string("not proved: the margin's lower end ") + (s ? r.margin_lower : "(not a number)") + " is " +
             (check.strict_margin() ? "not > 0, as the strict claim needs" : "negative") + " (was: " + r.reason + ")";
}

std::map<std::string, bool> Check::hypotheses_on(const nlohmann::json&) const { return {}; }

std::vector<nlohmann::json> Check::shrink_candidates(const nlohmann::json&) const { return {}; }

}  // namespace softcert::engine
