#include "engine/check.hpp"

#include "search/shrink_candidates.hpp"

namespace softcert::engine {

std::map<std::string, bool> Check::hypotheses_on(const nlohmann::json&) const { return {}; }

std::vector<nlohmann::json> Check::shrink_candidates(const nlohmann::json& instance) const {
  return search::default_shrink_candidates(instance);
}

}  // namespace softcert::engine
