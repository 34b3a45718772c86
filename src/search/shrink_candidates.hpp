#pragma once
// Candidates for shrinking a counterexample, as property-based testing tools do: fewer indices,
// then shorter numbers. Every candidate is strictly smaller than the instance it came from
// (one index fewer, or strictly fewer significant digits in total), so a shrinker that only
// accepts candidates ends. A candidate is only a proposal: the shrinker keeps it only if the
// check still finds the property violated on it (and it is well formed).
#include <vector>

#include <nlohmann/json.hpp>

#include "instances/index_axes.hpp"

namespace softcert::search {

using instances::IndexAxis;

// The instance with each single index of `axis` removed, last index first; the size field keeps
// its JSON type. None when the size is absent, not an integer, or already 1.
std::vector<nlohmann::json> remove_index_candidates(const nlohmann::json& instance, const IndexAxis& axis);

// Shorter numbers over decimal_leaves (search/instance_leaves.hpp): first every leaf at once
// set to 0, then rounded to 1, 2, 3 significant digits; then leaf by leaf, 0, 1, 2, 3
// significant digits. Only candidates with strictly fewer significant digits are listed.
std::vector<nlohmann::json> shorten_decimal_candidates(const nlohmann::json& instance);

// Check::shrink_candidates by default: for an instance with "model": "value_softmax", the
// index removals of instances::value_softmax_axes (T first); then, for any instance, the
// shorter numbers.
std::vector<nlohmann::json> default_shrink_candidates(const nlohmann::json& instance);

}  // namespace softcert::search
