#include "reproduce/registry.hpp"

namespace softcert::reproduce {

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> all = {headline_experiment(), normalizations_experiment(),
                                              regression_experiment(), cost_scaling_experiment()};
  return all;
}

const Experiment* find_experiment(const std::string& name) {
  for (const auto& e : experiments())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace softcert::reproduce
