#pragma once
// The five verdicts of docs/verdicts.md. A verdict is a claim about one (check, instance) pair.
#include <optional>
#include <string>

namespace softcert::engine {

enum class Verdict {
  proved,        // rigorous: an enclosure or exact certificate shows the property
  confirmed,     // non-rigorous: two precisions agree that the property holds
  violated,      // a certified counterexample: the violation's margin excludes 0 rigorously
  inconclusive,  // enclosure too wide, budget exhausted, or precisions disagree
  error          // bad input or internal failure
};

const char* to_string(Verdict v);
std::optional<Verdict> verdict_from_string(const std::string& s);

}  // namespace softcert::engine
