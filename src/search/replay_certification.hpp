#pragma once
// The last word on a counterexample the search found: the record `softcert replay` would read
// (engine/replay.hpp), re-decided exactly the way replay decides it — parsed back from its
// text by read_replay_record, then run in the rigorous tier. Only a `violated` verdict here
// lets the search report a counterexample, so a saved file replays by construction.
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "search/shrinker.hpp"

namespace softcert::search {

// {"check", "counterexample", "horizon", "precision_bits", "params", "dropped"}: the fields
// replay reads. precision_bits is the precision the certifying run used (as results.jsonl
// records it); dropped, the hypotheses the search did not assume (replay assumes the others).
nlohmann::json replay_fields(const std::string& check, const Counterexample& c, const nlohmann::json& params,
                             const std::set<std::string>& dropped);

// The rigorous result of replaying `record` (its JSON text, through read_replay_record), or
// nullopt with *why set when the record or its instance is refused.
std::optional<engine::CheckResult> replay_result(const nlohmann::json& record, std::string* why);

}  // namespace softcert::search
