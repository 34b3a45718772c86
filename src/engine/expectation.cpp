#include "engine/expectation.hpp"
#include "numerics/quote.hpp"

#include <stdexcept>

namespace softcert::engine {

const char* to_string(Expectation e) { return e == Expectation::holds ? "holds" : "refuted"; }

Expectation expectation_from_string(const std::string& s) {
  if (s == "holds") return Expectation::holds;
  if (s == "refuted") return Expectation::refuted;
  throw std::invalid_argument("expect must be \"holds\" or \"refuted\", not " + num::quoted(s));
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::as_expected: return "as expected";
    case Outcome::unexpected: return "UNEXPECTED";
    case Outcome::too_inconclusive: return "too many inconclusive";
    case Outcome::judged_at_merge: return "judged at merge";
  }
  return "?";
}

Outcome judge_part(Expectation e, const VerdictCounts& counts) {
  const auto has = [&](Verdict v) {
    auto it = counts.find(v);
    return it != counts.end() && it->second > 0;
  };
  if (has(Verdict::error) || (e == Expectation::holds && has(Verdict::violated))) return Outcome::unexpected;
  return Outcome::judged_at_merge;
}

Outcome judge(Expectation e, const VerdictCounts& counts, double max_inconclusive) {
  auto count = [&](Verdict v) {
    auto it = counts.find(v);
    return it == counts.end() ? std::size_t{0} : it->second;
  };
  std::size_t total = 0;
  for (const auto& [v, n] : counts) total += n;
  const bool too_many_inconclusive =
      total > 0 && static_cast<double>(count(Verdict::inconclusive)) > max_inconclusive * static_cast<double>(total);
  if (count(Verdict::error) > 0) return Outcome::unexpected;
  if (e == Expectation::holds) {
    if (count(Verdict::violated) > 0) return Outcome::unexpected;
    return too_many_inconclusive ? Outcome::too_inconclusive : Outcome::as_expected;
  }
  if (count(Verdict::violated) > 0) return Outcome::as_expected;
  return too_many_inconclusive ? Outcome::too_inconclusive : Outcome::unexpected;
}

}  // namespace softcert::engine
