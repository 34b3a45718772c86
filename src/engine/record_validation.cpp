#include "engine/record_validation.hpp"

#include <optional>

#include "engine/check.hpp"
#include "engine/registry.hpp"
#include "numerics/quote.hpp"

namespace softcert::engine {
namespace {

// The record's margin, parsed from its text into the type the runner wrote it from (nullopt:
// none recorded), or a problem in `problem`.
std::optional<Margin> margin_of(const nlohmann::json& r, std::string* problem) {
  if (!r.contains("margin") || r["margin"].is_null()) return std::nullopt;
  const auto& m = r["margin"];
  if (!m.is_array() || m.size() != 2 || !m[0].is_string() || !m[1].is_string()) {
    *problem = "\"margin\" is not a pair of decimal strings [lower, upper]";
    return std::nullopt;
  }
  Margin out;
  try {
    out = Margin::parse(m[0].get<std::string>(), m[1].get<std::string>());
  } catch (const std::invalid_argument&) {
    *problem = "\"margin\" " + num::excerpt(m.dump(), 80) + " is not a pair of decimal numbers";
    return std::nullopt;
  }
  if (!out.ordered()) {  // compared exactly, in rationals
    *problem = "\"margin\" " + num::excerpt(m.dump(), 80) + " has its lower end above its upper end";
    return std::nullopt;
  }
  return out;
}

}  // namespace

ClaimKind claim_kind_of(const std::string& check) {
  const Check* c = CheckRegistry::global().find(check);
  if (c == nullptr) return ClaimKind::unknown;
  return c->strict_margin() ? ClaimKind::strict : ClaimKind::non_strict;
}

std::string verdict_evidence_problem(Verdict verdict, const std::optional<Margin>& m, bool has_counterexample,
                                     bool counterexample_is_object, ClaimKind claim, const std::string& shown) {
  const std::string v = to_string(verdict);
  if (verdict == Verdict::proved && !m)
    return "verdict proved without its \"margin\" (a proved record carries the margin that backs it)";
  if (verdict == Verdict::proved && m) {
    // an unknown claim is read as strict: the stronger demand
    const bool non_strict = claim == ClaimKind::non_strict;
    const std::optional<int> s = m->lower_sign();
    if (!s || (non_strict ? *s < 0 : *s <= 0))
      return "verdict proved with margin" + shown + ": proved needs a lower end " + (non_strict ? ">= 0" : "> 0") +
             " (docs/verdicts.md)";
  }
  if (verdict == Verdict::violated) {
    if (m) {
      // a strict claim (margin > 0) is refuted by a margin ≤ 0; otherwise only by one < 0
      const bool strict = claim == ClaimKind::strict;
      const std::optional<int> s = m->upper_sign();
      if (!s || (strict ? *s > 0 : *s >= 0))
        return "verdict violated with margin" + shown + ": violated needs an upper end " +
               (strict ? "<= 0 (the claim is strict: margin > 0)" : "< 0") + " (docs/verdicts.md)";
    }
    if (!has_counterexample || !counterexample_is_object)
      return "verdict violated without its \"counterexample\" (a violation must stay replayable)";
  }
  if (verdict == Verdict::confirmed && m) {
    // an unknown claim is read as strict: the stronger demand
    const bool non_strict = claim == ClaimKind::non_strict;
    const std::optional<int> s = m->upper_sign();
    if (!s || (non_strict ? *s < 0 : *s <= 0))
      return "verdict confirmed with margin" + shown + ": " +
             (non_strict ? "a certainly negative margin contradicts it" : "a margin certainly <= 0 contradicts it");
  }
  if (verdict != Verdict::violated && has_counterexample)
    return "a \"counterexample\" on a " + v + " record (only a violation carries one)";
  return "";
}

std::string record_problem(const nlohmann::json& r) {
  const std::optional<Verdict> verdict = verdict_from_string(r.at("verdict").get<std::string>());
  if (!verdict) return "verdict " + num::quoted(r.at("verdict").get<std::string>()) + " is not one of the five";
  std::string problem;
  const std::optional<Margin> m = margin_of(r, &problem);
  if (!problem.empty()) return problem;
  const bool has_counterexample = r.contains("counterexample") && !r["counterexample"].is_null();
  const std::string shown =
      m ? " [" + num::excerpt(r["margin"][0].get<std::string>(), 40) + ", " + num::excerpt(r["margin"][1].get<std::string>(), 40) + "]"
        : "";
  if (std::string p = verdict_evidence_problem(*verdict, m, has_counterexample,
                                               has_counterexample && r["counterexample"].is_object(),
                                               claim_kind_of(r.at("check").get<std::string>()), shown);
      !p.empty())
    return p;
  // The fast tier's estimates (engine::decide_fast marks them) back only confirmed or
  // inconclusive, and confirmed comes only from them.
  const bool estimate = r.contains("details") && r["details"].is_object() && r["details"].contains("margin_is_estimate") &&
                        r["details"]["margin_is_estimate"] == true;
  if (*verdict == Verdict::proved && estimate)
    return "verdict proved on a margin that is a fast-tier estimate (details.margin_is_estimate): only the "
           "rigorous tier proves";
  if (*verdict == Verdict::confirmed && !estimate)
    return "verdict confirmed without the fast tier's estimates (details.margin_is_estimate)";
  if (*verdict == Verdict::confirmed && r.contains("tier") && r["tier"] != "fast")
    return "verdict confirmed on a " + num::excerpt(r["tier"].dump(), 40) + " record: only the fast tier confirms";
  return "";
}

}  // namespace softcert::engine
