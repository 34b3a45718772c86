#pragma once
// The full value-softmax model under logistic loss in τ-time (docs/models.md): x = (V, a, t) with
// V ∈ R^{d×T} row-major, β = Vα(a), m = ⟨β*, β⟩, u = Vᵀβ* (so m = αᵀu), and
//     dV_ik/dτ = β*_i α_k,
//     da_k/dτ = w_k (u_k − αᵀu)   for α_k = f(a_k)/F, F = Σ_j f(a_j), w_k = f'(a_k)/F,
//     da_k/dτ = w_k u_k           for the elementwise sigmoid α_k = σ(a_k), w_k = σ_k(1 − σ_k),
//     dt/dτ = 1 + e^m,
// with f = exp (α = softmax, pairwise form; w = α), x² (w = 2a/F), x (w = 1/F).
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "field.hpp"

namespace verify {

// Throws std::invalid_argument unless the instance is the value-softmax model with logistic loss
// and one of the normalizations above.
Field value_softmax_field(const nlohmann::json& instance);
std::unique_ptr<SeriesField> evaluate_value_softmax(const Field& f, const std::vector<Poly>& x, slong len);

}  // namespace verify
