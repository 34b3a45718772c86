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

// judged_at_merge: a run holding only part of an entry's instances (a shard) found nothing
// unexpected among them; the expectation over the entry (refuted: at least one violation; the
// max_inconclusive fraction) is judged where all of its instances are present (`merge`).
enum class Outcome { as_expected, unexpected, too_inconclusive, judged_at_merge };
const char* to_string(Outcome o);

// Whether an outcome fails a run (unexpected, too many inconclusive).
inline bool failed(Outcome o) { return o == Outcome::unexpected || o == Outcome::too_inconclusive; }

// `max_inconclusive` is the fraction of instances allowed to be inconclusive (or, for
// `refuted`, the fraction beyond which a missing violation is blamed on inconclusiveness).
// `counts` are all of the entry's instances.
Outcome judge(Expectation e, const VerdictCounts& counts, double max_inconclusive);

// The same for part of an entry's instances (a shard's): only what each instance says on its
// own is judged — an `error`, or a `violated` under `holds`, is unexpected — and anything else
// is judged_at_merge.
Outcome judge_part(Expectation e, const VerdictCounts& counts);

}  // namespace softcert::engine
