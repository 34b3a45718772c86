#pragma once
// The sizes of an instance and the arrays each counts: what removing one token or one
// dimension from an instance means, for shrinking counterexamples (search/shrink_candidates.hpp).
#include <string>
#include <utility>
#include <vector>

namespace softcert::instances {

// One size of an instance and the arrays it counts. Removing index k removes entry k of each
// listed array (depth 0) or entry k of each row of it (depth 1), and decrements the size.
struct IndexAxis {
  std::string size_field;                           // top level; a JSON integer or a digit string
  std::vector<std::pair<std::string, int>> arrays;  // (top-level field, depth 0 or 1); absent ones skipped
};

// The value-softmax instance format (docs/instances.md): T counts the columns of V and the
// entries of a; d counts the rows of V and the entries of beta and p, and the columns of X.
inline std::vector<IndexAxis> value_softmax_axes() {
  return {{"T", {{"V", 1}, {"a", 0}}}, {"d", {{"V", 0}, {"beta", 0}, {"p", 0}, {"X", 1}}}};
}

}  // namespace softcert::instances
