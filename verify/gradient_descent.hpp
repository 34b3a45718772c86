#pragma once
// Enclosed gradient-descent iterates (softcert.gd.v1; varre2026.gd.order_preservation): exact
// real gradient descent x_{k+1} = F(x_k) = x_k + lr·f(x_k) on the reduced logistic model in t-time,
// x = (a, u) ∈ R^{2T}, f the field da_i/dt = γ s_i(u_i − ū), du_i/dt = γ c s_i, γ = 1/(1 + e^{ū}),
// taken here as the τ-field of field.hpp divided by its own dt/dτ = 1 + e^{ū} (docs/models.md,
// "Logistic loss, reduced form"). The lines are the doubletons X_k = {c + B r} of iterates 0 … N.
// Checked: X_0 holds the instance's initial state; for every k < N, F(X_k) ⊆ X_{k+1} by the mean
// value form F(x) ∈ F(c) + J·B·[r], J ⊇ I + lr·Df over the hull of X_k (convex, holding c and
// every x), shown as B'⁻¹(F(c) − c') + (B'⁻¹J B)·[r] ⊆ [r']; and the claim on X_1 … X_N: with the
// tokens ordered by u(0) (distinct, certainly), every adjacent gap a_i − a_j and u_i − u_j is
// positive (every other pair's gap is a sum of adjacent ones).
#include <vector>

#include <nlohmann/json.hpp>

#include "certificate.hpp"

namespace verify {

FileVerdict check_gradient_descent(const std::vector<nlohmann::json>& lines);

}  // namespace verify
