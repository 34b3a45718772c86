#pragma once
// What a suite expects of a check over its instances, and whether the run met it.
#include <map>
#include <string>

#include "engine/verdict.hpp"

namespace softcert::engine {

enum class Expectation {
  holds,    // no instance violated and none errored (proved/confirmed/inconclusive allowed)
  refuted,  // at least one certified violation: the reading, as checked, is false
};

const char* to_string(Expectation e);
Expectation expectation_from_string(const std::string& s);  // throws std::invalid_argument

using VerdictCounts = std::map<Verdict, std::size_t>;

enum class Outcome { as_expected, unexpected, too_inconclusive };
const char* to_string(Outcome o);

// `max_inconclusive` is the fraction of instances allowed to be inconclusive (or, for
// `refuted`, the fraction beyond which a missing violation is blamed on inconclusiveness).
Outcome judge(Expectation e, const VerdictCounts& counts, double max_inconclusive);

}  // namespace softcert::engine
