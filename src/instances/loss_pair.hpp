#pragma once
// A pair of value-softmax instances from one start under two losses (square and logistic), as
// the notebook runs each normalization [code, tml-epfl/softmax toy_experiments.ipynb, cells 5–6]
// (docs/theorems/varre2026_normalization_square_weaker.md).
#include <nlohmann/json.hpp>

#include "instances/instance.hpp"

namespace softcert::instances {

struct LossPair {
  Instance square, logistic;
};

// {"square": instance, "logistic": instance}: both "value_softmax", losses as named, and the
// same normalization, V, a and β*; std::invalid_argument naming the side otherwise.
LossPair read_loss_pair(const nlohmann::json& j);

}  // namespace softcert::instances
