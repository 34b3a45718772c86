#pragma once
// What a result record must satisfy: the runner checks every record it writes with it, and
// `merge` and `--resume` check every record they read back (an edited "verdict":"proved" with a
// margin of [-5, -4] must not be merged as proved). One function for the writer and the reader,
// so the engine never writes a record its own reader refuses. The rules are those of
// docs/verdicts.md:
//
//  1. "margin" is null/absent (no margin), or two decimal strings [lower, upper] ("inf" allowed)
//     with lower ≤ upper.
//  2. proved: the record has a margin, certainly on the claim's side: lower > 0, or lower ≥ 0 for
//     a check registered as non-strict (Check::strict_margin; an unknown check counts as strict).
//     This is also the runner's rule for what it may record as proved
//     (engine::enforce_margin_contract). Its margin is not a fast-tier estimate
//     (details.margin_is_estimate, which engine::decide_fast sets).
//  3. violated: the record keeps its "counterexample" (an object: a violation must stay
//     replayable), and a recorded margin is certainly on the violation's side: upper < 0, or
//     upper ≤ 0 for a strict claim (its claim is margin > 0, so a margin known to be ≤ 0 refutes
//     it: an exact counterexample whose margin is exactly 0, such as a one-hot limit). A check of
//     unknown strictness needs upper < 0.
//  4. confirmed: the fast tier's (tier "fast", details.margin_is_estimate), and a recorded margin
//     is not certainly against the claim: upper > 0 for a strict claim (both fast runs estimated
//     it > 0), upper ≥ 0 for a non-strict one.
//  5. Only a violated record carries a "counterexample".
//  (inconclusive and error: no rule beyond 1 — their margin may have any sign.)
//
// A record is not re-computed here: these rules catch an edit that makes a record contradict
// itself (a verdict flipped without its margin, a counterexample dropped), not one that rewrites
// every field consistently — for that the records carry the run identity ("run", run.json).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "engine/verdict.hpp"

namespace softcert::engine {

// How the claim a margin belongs to reads its sign (Check::strict_margin).
enum class ClaimKind {
  strict,      // holds iff margin > 0
  non_strict,  // holds iff margin ≥ 0
  unknown,     // a check this build does not know: read the least favourably for each verdict
};

// The claim kind of a registered check by name (unknown when none is registered).
ClaimKind claim_kind_of(const std::string& check);

// Rules 2–5 above as far as a verdict, its margin (nullopt: none) and whether a counterexample
// comes with it decide them (not the tier or the estimates): "" when they agree, else why not, in
// words. `margin_text` is how the margin is shown in the message (e.g. " [0, 0]"; may be empty).
std::string verdict_evidence_problem(Verdict verdict, const std::optional<Margin>& margin, bool has_counterexample,
                                     bool counterexample_is_object, ClaimKind claim,
                                     const std::string& margin_text = "");

// "" when `record` satisfies the rules above, else the first one it breaks, in words (the caller
// prefixes the file and line). `record` has passed the journal's shape checks (check, instance
// and verdict are strings; the verdict is one of the five).
std::string record_problem(const nlohmann::json& record);

}  // namespace softcert::engine
