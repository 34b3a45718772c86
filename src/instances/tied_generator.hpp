#pragma once
// The tied model's instances (Varre, Rofin, Flammarion 2026; docs/theorems/varre2026_tied.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace softcert::instances {

// The authors' construction [code, tml-epfl/softmax toy_experiments.ipynb, cell 8] with our
// generator: U(0) = I (D × D), β* = N/‖N‖, then a = 1 + 0.1·N (D normals each, in that order,
// from instances::NormalSource(seed); the notebook's unused D² draws are not replayed). A
// "tied_value_softmax" instance as JSON, id "<check>@<seed>"; decimals are the shortest that
// read back as the generator's doubles.
nlohmann::json generate_tied_instance(std::uint64_t seed, std::size_t D, const std::string& check);

}  // namespace softcert::instances
