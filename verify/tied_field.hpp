#pragma once
// The tied value-softmax model under logistic loss in τ-time (docs/models.md, "The tied model"):
// one square matrix U ∈ R^{D×D} both mixes the scores and holds the values, x = (U row-major, a, t)
// ∈ R^{D²+D+1}, and with the constant g = −β* (dτ = γ dt, γ = 1/(1 + e^m): the t-field is linear
// in g = −γβ*)
//     z = U a,  α = softmax(z),  r = Uᵀg,  ρ = αᵀr,  q = α ⊙ (r − ρ1),
//     dU_ij/dτ = −(g_i α_j + q_i a_j),   da_k/dτ = −Σ_i U_ik q_i,   dt/dτ = 1 + e^m,
// m = ⟨β*, Uα⟩ = −ρ. Softmax in the pairwise form α_i = 1/Σ_j e^{z_j − z_i}.
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "field.hpp"

namespace verify {

// Throws std::invalid_argument unless the instance is the tied model with logistic loss and
// softmax, U of D rows of D entries and a, β* of D entries.
Field tied_field(const nlohmann::json& instance);
std::unique_ptr<SeriesField> evaluate_tied(const Field& f, const std::vector<Poly>& x, slong len);

}  // namespace verify
