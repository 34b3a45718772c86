#pragma once
// The reduced logistic model in τ-time, derived here from the instance by its own formula
// (docs/models.md, "Logistic loss, reduced form" and "Time change"): with u = Vᵀβ*, c = ‖β*‖²,
// s = softmax(a) and ū = sᵀu, the state x = (a, u, t) ∈ R^{2T+1} moves by
//     da_i/dτ = s_i (u_i − ū),   du_i/dτ = c s_i,   dt/dτ = 1 + e^{ū}.
// softmax is taken in its pairwise form s_i = 1 / Σ_j e^{a_j − a_i}, whose interval enclosures
// over a box are the tightest of the usual forms (no shift, no quotient of two sums).
#include <vector>

#include <nlohmann/json.hpp>

#include "arb_types.hpp"

namespace verify {

struct Field {
  slong T = 0;
  Ball c;                  // ‖β*‖²
  std::vector<Ball> x0;    // (a(0), u(0) = Vᵀβ*, t(0) = 0)
  slong n() const { return 2 * T + 1; }
};

// Throws std::invalid_argument for an instance that is not the logistic value-softmax model.
Field field_from_instance(const nlohmann::json& instance);

// Taylor coefficients of the solution through every point of the ball vector `x0`:
// x[k][i] ∋ x_k,i (k ≤ order) and, for k ≤ jac_order, D[k][i·n + j] ∋ ∂x_k,i/∂x0_j (the
// coefficients of the variational equation V' = Df(x)V, V(0) = I). Computed by Picard iteration
// on truncated series: iteration k makes coefficient k exact, since the k-th coefficient of
// x0 + ∫f(x) depends only on coefficients < k of x.
struct Coefficients {
  std::vector<std::vector<Ball>> x;
  std::vector<std::vector<Ball>> D;
};
Coefficients taylor_coefficients(const Field& f, const std::vector<Ball>& x0, slong order, slong jac_order);

}  // namespace verify
