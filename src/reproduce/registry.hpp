#pragma once
// The paper experiments `softcert reproduce` knows, in the order `--list` prints them.
#include <string>
#include <vector>

#include "reproduce/experiment.hpp"

namespace softcert::reproduce {

const std::vector<Experiment>& experiments();
const Experiment* find_experiment(const std::string& name);  // nullptr when unknown

// One per file in src/reproduce/.
Experiment headline_experiment();        // varre2026_headline.cpp
Experiment normalizations_experiment();  // varre2026_normalizations.cpp
Experiment regression_experiment();      // varre2026_regression.cpp
Experiment cost_scaling_experiment();    // sukenik2026_cost_scaling.cpp
std::vector<Experiment> notebook_experiments();  // varre2026_notebook_figures.cpp: one per notebook figure

}  // namespace softcert::reproduce
