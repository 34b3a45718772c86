#include "search/instance_leaves.hpp"

#include "numerics/decimal.hpp"

namespace softcert::search {

namespace {
void collect(const nlohmann::json& node, const nlohmann::json::json_pointer& at, bool below_array,
             std::vector<nlohmann::json::json_pointer>& out) {
  if (node.is_string()) {
    if (below_array && num::is_decimal_syntax(node.get_ref<const std::string&>())) out.push_back(at);
  } else if (node.is_array()) {
    for (std::size_t k = 0; k < node.size(); ++k) collect(node[k], at / k, true, out);
  } else if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) collect(it.value(), at / it.key(), below_array, out);
  }
}
}  // namespace

std::vector<nlohmann::json::json_pointer> decimal_leaves(const nlohmann::json& instance) {
  std::vector<nlohmann::json::json_pointer> out;
  collect(instance, nlohmann::json::json_pointer(), false, out);
  return out;
}

}  // namespace softcert::search
