#pragma once
// Candidates for shrinking a counterexample, as property-based testing tools do: fewer indices,
// then shorter numbers. Every candidate is strictly smaller than the instance it came from
// (one index fewer, or strictly fewer significant digits in total), so a shrinker that only
// accepts candidates ends. A candidate is only a proposal: the shrinker keeps it only if the
// check still finds the property violated on it (and it is well formed).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::engine {

// One size of an instance and the arrays it counts. Removing index k removes entry k of each
// listed array (depth 0) or entry k of each row of it (depth 1), and decrements the size.
struct IndexAxis {
  std::string size_field;                           // top level; a JSON integer or a digit string
  std::vector<std::pair<std::string, int>> arrays;  // (top-level field, depth 0 or 1); absent ones skipped
};

// The instance with each single index of `axis` removed, last index first; the size field keeps
// its JSON type. None when the size is absent, not an integer, or already 1.
std::vector<nlohmann::json> remove_index_candidates(const nlohmann::json& instance, const IndexAxis& axis);

// Shorter numbers over decimal_leaves (engine/instance_leaves.hpp): first every leaf at once
// set to 0, then rounded to 1, 2, 3 significant digits; then leaf by leaf, 0, 1, 2, 3
// significant digits. Only candidates with strictly fewer significant digits are listed.
std::vector<nlohmann::json> shorten_decimal_candidates(const nlohmann::json& instance);

// The value-softmax instance format (docs/instances.md): T counts the columns of V and the
// entries of a; d counts the rows of V and the entries of beta and p, and the columns of X.
std::vector<IndexAxis> value_softmax_axes();

// Check::shrink_candidates by default: for an instance with "model": "value_softmax", the
// index removals of value_softmax_axes (T first); then, for any instance, the shorter numbers.
std::vector<nlohmann::json> default_shrink_candidates(const nlohmann::json& instance);

}  // namespace softcert::engine
