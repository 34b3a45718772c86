#pragma once
// The instances of sukenik2026.cost_scaling.soft_attention
// (docs/theorems/sukenik2026_soft_attention.md): file format and generator.
//
// {"check": ..., "embedding": "gaussian" | "orthonormal", "epsilon": decimal in (0, 1/2),
//  "d": n, "T": [T_1 < T_2 < …] (each ≥ 2),
//  "X": (T_max + 1) × d decimals, rows x_0 (the sink) … x_{T_max} (gaussian only; every T
//       uses the prefix x_0..x_T, so the constraints for T contain those for every smaller T);
//  orthonormal: x_s = e_s, needs T_max + 1 ≤ d}
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/operator_norm.hpp"
#include "numerics/kinds.hpp"

namespace softcert::certify {

struct SoftCostInstance {
  bool orthonormal = false;
  std::string epsilon_text;
  IntervalD epsilon{0.1};
  std::size_t d = 0;
  std::vector<std::size_t> ts;
  certify::IMatrix x;  // (T_max + 1) × d enclosures
};

// Parses and validates; std::invalid_argument naming the field otherwise.
SoftCostInstance read_soft_cost_instance(const nlohmann::json& in);

// params: epsilon (default "0.1"), d (default 8), T (list, default [4, 8, 16, 32, 64, 128]),
// embedding (default "gaussian"), min_cosine (gaussian, default "0.2"): x_0 and each x_t a
// normalised Gaussian vector (RandomSource(seed, 0x50f7)), x_t reflected to cos(x_t, x_0) ≥ 0
// and redrawn while cos(x_t, x_0) < min_cosine (the sink's alignment, without which the sink is
// not representable at fixed d once the queries surround the origin), 6 significant digits.
nlohmann::json generate_soft_cost_instance(std::uint64_t seed, const nlohmann::json& params, const std::string& check);

}  // namespace softcert::certify
