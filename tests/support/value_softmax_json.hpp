#pragma once
// A value-softmax instance as JSON for tests: V given row-major (d rows of T decimal strings),
// a (T strings); the caller adds the loss's own fields (beta, p, ...).
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::testing {

inline nlohmann::json value_softmax_json(std::size_t T, std::size_t d, const std::vector<std::string>& V,
                                         const std::vector<std::string>& a, const std::string& loss,
                                         const std::string& normalization, const std::string& provenance) {
  nlohmann::json j = {{"model", "value_softmax"}, {"T", T}, {"d", d}, {"loss", loss}, {"normalization", normalization},
                      {"provenance", provenance}};
  j["V"] = nlohmann::json::array();
  for (std::size_t i = 0; i < d; ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t k = 0; k < T; ++k) row.push_back(V[i * T + k]);
    j["V"].push_back(row);
  }
  j["a"] = a;
  return j;
}

}  // namespace softcert::testing
