#pragma once
// What a result record read back from a journal must satisfy before `merge` or `--resume` trusts
// it (e.g. an edited "verdict":"proved" with a margin of [-5, -4] must not be merged as proved).
// The rules are those of docs/verdicts.md, as the runner writes records:
//
//  1. "margin" is null/absent (no margin), or two decimal strings [lower, upper] ("inf" allowed)
//     with lower ≤ upper.
//  2. proved: a recorded margin is certainly on the claim's side: lower > 0, or lower ≥ 0 for a
//     check registered as non-strict (Check::strict_margin; an unknown check counts as strict).
//     This is the runner's own rule (engine::enforce_margin_contract).
//  3. violated: a recorded margin is certainly on the violation's side (upper < 0), and the record
//     keeps its "counterexample" (an object): a violation must stay replayable.
//  4. confirmed: a recorded margin is not certainly negative (upper ≥ 0): both precisions agreed
//     the property holds.
//  5. Only a violated record carries a "counterexample".
//  (inconclusive and error: no rule beyond 1 — their margin may have any sign.)
//
// A record is not re-computed here: these rules catch an edit that makes a record contradict
// itself (a verdict flipped without its margin, a counterexample dropped), not one that rewrites
// every field consistently — for that the records carry the run identity ("run", run.json).
#include <string>

#include <nlohmann/json.hpp>

namespace softcert::engine {

// "" when `record` satisfies the rules above, else the first one it breaks, in words (the caller
// prefixes the file and line). `record` has passed the journal's shape checks (check, instance
// and verdict are strings; the verdict is one of the five).
std::string record_problem(const nlohmann::json& record);

}  // namespace softcert::engine
