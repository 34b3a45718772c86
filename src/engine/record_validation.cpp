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

std::string record_problem(const nlohmann::json& r) {
  const std::string verdict = r.at("verdict").get<std::string>();
  std::string problem;
  const std::optional<Margin> m = margin_of(r, &problem);
  if (!problem.empty()) return problem;
  const bool has_counterexample = r.contains("counterexample") && !r["counterexample"].is_null();
  const std::string shown =
      m ? " [" + num::excerpt(r["margin"][0].get<std::string>(), 40) + ", " + num::excerpt(r["margin"][1].get<std::string>(), 40) + "]"
        : "";
  if (verdict == "proved" && m) {
    const Check* check = CheckRegistry::global().find(r.at("check").get<std::string>());
    const bool strict = check == nullptr || check->strict_margin();
    if (strict ? *m->lower_sign() <= 0 : *m->lower_sign() < 0)
      return "verdict proved with margin" + shown + ": proved needs a lower end " + (strict ? "> 0" : ">= 0") +
             " (docs/verdicts.md)";
  }
  if (verdict == "violated") {
    // A strict claim (margin > 0) is refuted by a margin certainly <= 0 (exactly 0 included:
    // varre2026.elementwise_relu's one survivor, a one-hot limit); any other only by one < 0.
    const Check* check = CheckRegistry::global().find(r.at("check").get<std::string>());
    const bool strict = check != nullptr && check->strict_margin();
    if (m && (strict ? *m->upper_sign() > 0 : *m->upper_sign() >= 0))
      return "verdict violated with margin" + shown + ": violated needs an upper end " +
             (strict ? "<= 0 (the claim is strict: margin > 0)" : "< 0") + " (docs/verdicts.md)";
    if (!has_counterexample || !r["counterexample"].is_object())
      return "verdict violated without its \"counterexample\" (a violation must stay replayable)";
  }
  if (verdict == "confirmed" && m && *m->upper_sign() < 0)
    return "verdict confirmed with margin" + shown + ": a certainly negative margin contradicts it";
  if (verdict != "violated" && has_counterexample)
    return "a \"counterexample\" on a " + verdict + " record (only a violation carries one)";
  return "";
}

}  // namespace softcert::engine
