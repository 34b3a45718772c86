#pragma once
// A generic view of an instance's numbers: the decimal-string leaves that sit inside arrays
// (vectors, matrices, lists of cases). Scalars at the top level — sizes such as "T": "3",
// names, provenance — are not leaves, so moving or rounding leaves never changes an
// instance's shape. `search` optimises over these leaves and shrinking shortens them.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::search {

// The JSON pointers of every string leaf below an array whose text is a decimal number, in
// document order (object keys sorted, as nlohmann::json keeps them): the same list for the
// same instance on every platform.
std::vector<nlohmann::json::json_pointer> decimal_leaves(const nlohmann::json& instance);

}  // namespace softcert::search
