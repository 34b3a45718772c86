#pragma once
// The instances of sukenik2026.cost_scaling (docs/theorems/sukenik2026_cost_scaling.md): their
// file format and their generator.
//
// {"embedding": "orthonormal" | "gaussian", "tau": "1" | "sqrt-d", "gamma": decimal > 0,
//  "proposal": "closed-form" | "csdp" (gaussian needs "csdp"),
//  "cases": [{"T": n} (orthonormal: d = T+1) or {"T": n, "d": m, "X": (T+1) × d decimals}]}
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/cost_scaling.hpp"
#include "numerics/kinds.hpp"

namespace softcert::certify {

struct CostInstance {
  bool orthonormal = true;
  bool tau_sqrt_d = true;
  IntervalD gamma{1.0};         // an enclosure of the decimal gamma_text
  std::string gamma_text = "1";
  std::string proposal = "closed-form";
  std::vector<certify::CostCase> cases;
};

// Parses and validates an instance; std::invalid_argument naming the field otherwise.
CostInstance read_cost_instance(const nlohmann::json& in);

// The generator's instance for `seed` (without provenance). params: embedding (seed bit 0:
// gaussian, else orthonormal), tau (seed bit 1: "1", else "sqrt-d"), T_max (64 orthonormal, 12
// gaussian), replicates (gaussian, default 2), d_rule ("T+1" or "half"), proposal. Orthonormal
// T = 2, 4, 8, … ≤ T_max; gaussian T from {2, 3, 4, 6, …, 64} ≤ T_max, X = N(0, 1/d) to 6 digits
// (support::RandomSource(seed, 0xc057)).
nlohmann::json generate_cost_instance(std::uint64_t seed, const nlohmann::json& params, const std::string& check);

}  // namespace softcert::certify
