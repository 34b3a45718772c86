#pragma once
// The vector fields a flow certificate may carry, derived here from the instance by their own
// formulas (docs/models.md), and the Taylor coefficients of their solutions.
//
// logistic_reduced_tau ("Logistic loss, reduced form" and "Time change"): with u = Vᵀβ*,
// c = ‖β*‖², s = softmax(a) and ū = sᵀu, the state x = (a, u, t) ∈ R^{2T+1} moves by
//     da_i/dτ = s_i (u_i − ū),   du_i/dτ = c s_i,   dt/dτ = 1 + e^{ū}.
// rank_one_square_tau: the same field from a square-loss instance whose V(0) is exactly rank one
// along β* ("Square loss from a rank-one start": in τ = ∫ρ dt the orbit of (a, u) is the one above).
// value_softmax_tau ("The value-softmax flows", "Losses and normalizations", "Time change"): the
// full model under logistic loss, x = (V row-major, a, t) ∈ R^{dT+T+1}, verify/value_softmax_field.hpp.
// tied_value_softmax_tau ("The tied model"): one square U both mixes the scores and holds the
// values, x = (U row-major, a, t) ∈ R^{D²+D+1} (T = d = D), verify/tied_field.hpp.
// softmax is taken in its pairwise form s_i = 1 / Σ_j e^{a_j − a_i}, whose interval enclosures
// over a box are the tightest of the usual forms (no shift, no quotient of two sums).
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arb_types.hpp"

namespace verify {

enum class Model { logistic_reduced_tau, value_softmax_tau, tied_value_softmax_tau };
enum class Normalization { softmax, square, sum, sigmoid };  // value_softmax_tau: α = f(a)/Σf, or σ(a)

struct Field {
  Model model = Model::logistic_reduced_tau;
  slong T = 0;
  slong d = 0;                   // value_softmax_tau: the rows of V; tied: D = T
  Ball c;                        // ‖β*‖²
  std::vector<Ball> beta;        // value_softmax_tau, tied: β*
  Normalization normalization = Normalization::softmax;
  std::vector<Ball> x0;          // the initial state: (a(0), Vᵀβ*, 0), (V(0), a(0), 0) or (U(0), a(0), 0)
  slong n() const { return model == Model::logistic_reduced_tau ? 2 * T + 1 : d * T + T + 1; }
  slong time_index() const { return n() - 1; }
  slong a_offset() const { return model == Model::logistic_reduced_tau ? 0 : d * T; }
};

// Throws std::invalid_argument unless instance[key] is the string `value`.
void require_field(const nlohmann::json& instance, const char* key, const char* value);

// The field a certificate's header names ("model") for its instance. Throws
// std::invalid_argument for a model this verifier does not know, or an instance that is not one
// of it (another loss, normalization or shape).
Field field_from_instance(const nlohmann::json& instance, const std::string& model);

// The field on series x of length len, and its derivative along series directions: what the
// Picard iteration below needs of a model.
class SeriesField {
 public:
  virtual ~SeriesField() = default;
  virtual const std::vector<Poly>& values() const = 0;                                      // f(x)
  virtual std::vector<Poly> derivative(const std::vector<Poly>& v, slong len) const = 0;    // Df(x)·v
};
std::unique_ptr<SeriesField> evaluate(const Field& f, const std::vector<Poly>& x, slong len);

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
