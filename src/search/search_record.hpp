#pragma once
// The file `softcert search --out FILE` writes (docs/search.md). Found: the fields `softcert
// replay` reads (replay_certification.hpp) plus the certified verdict, margin and reason, and
// the search facts. Not found: no "counterexample" (so replay refuses it), the search facts,
// and the closest instance with its margin.
#include <string>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "search/search.hpp"

namespace softcert::search {

// The search facts: seed, budget, dropped hypotheses, instances tried, runs, where found,
// shrinking, smallest margin, seconds.
nlohmann::json search_facts(const SearchSettings& settings, const SearchOutcome& outcome);

nlohmann::json search_record(const engine::Check& check, const SearchSettings& settings, const SearchOutcome& outcome);

}  // namespace softcert::search
