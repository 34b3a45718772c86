#include "reproduce/registry.hpp"

namespace softcert::reproduce {

const std::vector<Experiment>& experiments() {
  static const std::vector<Experiment> all = [] {
    std::vector<Experiment> v = {headline_experiment(), normalizations_experiment(), regression_experiment()};
    for (auto& e : notebook_experiments()) v.push_back(std::move(e));
    v.push_back(cost_scaling_experiment());
    return v;
  }();
  return all;
}

const Experiment* find_experiment(const std::string& name) {
  for (const auto& e : experiments())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace softcert::reproduce
