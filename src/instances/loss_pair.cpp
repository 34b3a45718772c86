// A square/logistic pair of instances (instances/loss_pair.hpp).
#include "instances/loss_pair.hpp"

#include <stdexcept>
#include <string>

namespace softcert::instances {

LossPair read_loss_pair(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("square") || !j.contains("logistic"))
    throw std::invalid_argument("square, logistic: a pair needs both instances");
  LossPair p;
  for (const char* side : {"square", "logistic"}) {
    Instance inst;
    try {
      inst = parse_instance(j[side]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(side) + ": " + e.what());
    }
    if (inst.tied()) throw std::invalid_argument(std::string(side) + ": needs model \"value_softmax\"");
    if (to_string(inst.loss) != std::string(side))
      throw std::invalid_argument(std::string(side) + ": needs loss \"" + side + "\"");
    (std::string(side) == "square" ? p.square : p.logistic) = std::move(inst);
  }
  if (p.square.normalization != p.logistic.normalization || p.square.V != p.logistic.V || p.square.a != p.logistic.a ||
      p.square.beta != p.logistic.beta)
    throw std::invalid_argument("logistic: normalization, V, a and beta must equal those of square");
  return p;
}

}  // namespace softcert::instances
