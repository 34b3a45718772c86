// The tied model's generator (instances/tied_generator.hpp).
#include "instances/tied_generator.hpp"

#include <cmath>
#include <vector>

#include "instances/generator.hpp"
#include "instances/instance.hpp"
#include "numerics/decimal.hpp"

namespace softcert::instances {

nlohmann::json generate_tied_instance(std::uint64_t seed, std::size_t D, const std::string& check) {
  NormalSource normal(seed);
  std::vector<double> beta(D), a(D);
  double norm2 = 0;
  for (auto& b : beta) {
    b = normal.normal();
    norm2 += b * b;
  }
  const double norm = std::sqrt(norm2);
  for (auto& b : beta) b /= norm;
  for (auto& x : a) x = 1.0 + 0.1 * normal.normal();
  Instance inst;
  inst.model = "tied_value_softmax";
  inst.T = inst.d = D;
  inst.V.assign(D, DecimalVector(D, "0"));
  for (std::size_t i = 0; i < D; ++i) inst.V[i][i] = "1";
  for (std::size_t i = 0; i < D; ++i) {
    inst.a.push_back(num::decimal_round_trip(a[i]));
    inst.beta.push_back(num::decimal_round_trip(beta[i]));
  }
  inst.id = check + "@" + std::to_string(seed);
  inst.provenance = check + " generator, seed " + std::to_string(seed) +
                    ": U(0) = I, beta* = N/|N|, a = 1 + 0.1 N (the notebook's cell-8 construction, our RNG)";
  return to_json(inst);
}

}  // namespace softcert::instances
