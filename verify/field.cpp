#include "field.hpp"

#include <stdexcept>
#include <string>

#include "decimal.hpp"
#include "rational.hpp"
#include "tied_field.hpp"
#include "value_softmax_field.hpp"

namespace verify {

namespace {

// c·V_ri = β*_r u_i for every entry, exactly (u = V(0)ᵀβ*, c = ‖β*‖² in FLINT rationals).
void require_rank_one(const nlohmann::json& inst) {
  const QVec beta = parse_rational_vector(inst.at("beta"), inst.at("beta").size());
  const nlohmann::json& V = inst.at("V");
  if (!V.is_array() || V.size() != beta.size()) throw std::invalid_argument("instance: V must have one row per entry of beta");
  std::vector<QVec> rows;
  for (const auto& row : V) rows.push_back(parse_rational_vector(row, inst.at("a").size()));
  const std::size_t T = inst.at("a").size();
  const Q c = dot(beta, beta);
  for (std::size_t i = 0; i < T; ++i) {
    Q u;
    for (std::size_t r = 0; r < beta.size(); ++r) u = u + rows[r][i] * beta[r];
    for (std::size_t r = 0; r < beta.size(); ++r)
      if (!(c * rows[r][i] == beta[r] * u))
        throw std::invalid_argument("instance: V is not exactly rank one along beta (V[" + std::to_string(r) + "][" +
                                    std::to_string(i) + "])");
  }
}

// The reduced τ-orbit of the instance: logistic loss, or square loss from V(0) exactly rank one
// along β* (V(0) = β* uᵀ/c, checked in rationals below), whose τ-orbit (dτ = ρ dt) is the same
// field in (a, u) (docs/models.md); t is then the logistic orbit's clock, read by no claim.
Field reduced_field(const nlohmann::json& inst, bool rank_one_square) {
  require_field(inst, "model", "value_softmax");
  require_field(inst, "loss", rank_one_square ? "square" : "logistic");
  require_field(inst, "normalization", "softmax");
  if (rank_one_square) require_rank_one(inst);
  Field f;
  f.model = Model::logistic_reduced_tau;
  const std::vector<Ball> a = parse_vector(inst.at("a")), beta = parse_vector(inst.at("beta"));
  const nlohmann::json& V = inst.at("V");  // row i: coordinate i of β*; column j: token j
  f.T = static_cast<slong>(a.size());
  if (f.T < 1 || !V.is_array() || V.size() != beta.size()) throw std::invalid_argument("instance: V must have one row per entry of beta");
  std::vector<Ball> u(f.T);
  for (std::size_t i = 0; i < beta.size(); ++i) {
    const std::vector<Ball> row = parse_vector(V[i]);
    if (static_cast<slong>(row.size()) != f.T) throw std::invalid_argument("instance: each row of V must have T entries");
    for (slong j = 0; j < f.T; ++j) u[j] += row[j] * beta[i];
    f.c += beta[i] * beta[i];
  }
  f.x0 = a;
  f.x0.insert(f.x0.end(), u.begin(), u.end());
  f.x0.push_back(Ball(0));
  return f;
}

// The reduced field on series; s, w = s∘(u − ū) and e^{ū} kept for Df.
class ReducedSeries : public SeriesField {
 public:
  ReducedSeries(const Field& F, const std::vector<Poly>& x, slong len) : F_(F) {
    const slong T = F.T;
    s_.resize(T);
    for (slong i = 0; i < T; ++i) {
      Poly sum(Ball(1));
      for (slong j = 0; j < T; ++j)
        if (j != i) sum = add(sum, exp_series(sub(x[j], x[i]), len));
      s_[i] = inv_series(sum, len);
    }
    Poly ubar;
    for (slong i = 0; i < T; ++i) ubar = add(ubar, mul(s_[i], x[T + i], len));
    e_ = exp_series(ubar, len);
    f_.resize(F.n());
    w_.resize(T);
    for (slong i = 0; i < T; ++i) {
      w_[i] = mul(s_[i], sub(x[T + i], ubar), len);
      f_[i] = w_[i];
      f_[T + i] = scale(s_[i], F.c);
    }
    f_[2 * T] = add(Poly(Ball(1)), e_);
  }
  const std::vector<Poly>& values() const override { return f_; }

  // Df(x)·v for v = (va, vu, vt), from the partial derivatives of the field:
  //   ∂a'/∂a = diag(w) − w sᵀ − s wᵀ,  ∂a'/∂u = diag(s) − s sᵀ,  ∂u'/∂a = c (diag(s) − s sᵀ),
  //   ∂u'/∂u = 0,  ∂t'/∂a = e^{ū} wᵀ,  ∂t'/∂u = e^{ū} sᵀ,  and nothing depends on t.
  std::vector<Poly> derivative(const std::vector<Poly>& v, slong len) const override {
    const slong T = F_.T;
    Poly sa, wa, su;  // sᵀva, wᵀva, sᵀvu
    for (slong k = 0; k < T; ++k) {
      sa = add(sa, mul(s_[k], v[k], len));
      wa = add(wa, mul(w_[k], v[k], len));
      su = add(su, mul(s_[k], v[T + k], len));
    }
    std::vector<Poly> out(F_.n());
    const Poly shift = add(su, wa);
    for (slong i = 0; i < T; ++i) {
      const Poly da = sub(v[i], sa);
      out[i] = add(mul(w_[i], da, len), mul(s_[i], sub(v[T + i], shift), len));
      out[T + i] = scale(mul(s_[i], da, len), F_.c);
    }
    out[2 * T] = mul(e_, add(wa, su), len);
    return out;
  }

 private:
  const Field& F_;
  std::vector<Poly> f_, s_, w_;
  Poly e_;
};

}  // namespace

void require_field(const nlohmann::json& inst, const char* key, const char* value) {
  if (!inst.contains(key) || inst[key] != value)
    throw std::invalid_argument(std::string("instance: \"") + key + "\" must be \"" + value + "\"");
}

Field field_from_instance(const nlohmann::json& instance, const std::string& model) {
  if (model == "logistic_reduced_tau") return reduced_field(instance, false);
  if (model == "rank_one_square_tau") return reduced_field(instance, true);
  if (model == "value_softmax_tau") return value_softmax_field(instance);
  if (model == "tied_value_softmax_tau") return tied_field(instance);
  throw std::invalid_argument("header: the model \"" + model + "\" is not one this verifier knows");
}

std::unique_ptr<SeriesField> evaluate(const Field& f, const std::vector<Poly>& x, slong len) {
  if (f.model == Model::value_softmax_tau) return evaluate_value_softmax(f, x, len);
  if (f.model == Model::tied_value_softmax_tau) return evaluate_tied(f, x, len);
  return std::make_unique<ReducedSeries>(f, x, len);
}

Coefficients taylor_coefficients(const Field& F, const std::vector<Ball>& x0, slong order, slong jac_order) {
  const slong n = F.n();
  std::vector<Poly> x;
  for (const Ball& b : x0) x.emplace_back(b);
  // V as n columns of n series; V(0) = I
  std::vector<std::vector<Poly>> V(jac_order >= 0 ? n : 0, std::vector<Poly>(n));
  for (slong j = 0; j < static_cast<slong>(V.size()); ++j) V[j][j] = Poly(Ball(1));
  for (slong len = 1; len <= order; ++len) {
    const std::unique_ptr<SeriesField> ev = evaluate(F, x, len);
    if (len <= jac_order)
      for (slong j = 0; j < n; ++j) {
        const std::vector<Poly> g = ev->derivative(V[j], len);
        for (slong i = 0; i < n; ++i) V[j][i] = integral_from(Ball(i == j ? 1 : 0), g[i]);
      }
    const std::vector<Poly>& f = ev->values();
    for (slong i = 0; i < n; ++i) x[i] = integral_from(x0[i], f[i]);
  }
  Coefficients out;
  out.x.assign(order + 1, std::vector<Ball>(n));
  for (slong k = 0; k <= order; ++k)
    for (slong i = 0; i < n; ++i) out.x[k][i] = x[i].coeff(k);
  if (jac_order >= 0) {
    out.D.assign(jac_order + 1, std::vector<Ball>(n * n));
    for (slong k = 0; k <= jac_order; ++k)
      for (slong i = 0; i < n; ++i)
        for (slong j = 0; j < n; ++j) out.D[k][i * n + j] = V[j][i].coeff(k);
  }
  return out;
}

}  // namespace verify
