#include "tied_field.hpp"

#include <stdexcept>
#include <string>

#include "decimal.hpp"

namespace verify {

Field tied_field(const nlohmann::json& inst) {
  require_field(inst, "model", "tied_value_softmax");
  require_field(inst, "loss", "logistic");
  require_field(inst, "normalization", "softmax");
  Field f;
  f.model = Model::tied_value_softmax_tau;
  const std::vector<Ball> a = parse_vector(inst.at("a"));
  f.beta = parse_vector(inst.at("beta"));
  const slong D = static_cast<slong>(a.size());
  if (D < 1 || static_cast<slong>(f.beta.size()) != D) throw std::invalid_argument("instance: a and beta must have one length D ≥ 1");
  const nlohmann::json& U = inst.at("U");
  if (!U.is_array() || static_cast<slong>(U.size()) != D) throw std::invalid_argument("instance: U must have D rows (D = the length of a)");
  for (const auto& row : U) {
    const std::vector<Ball> r = parse_vector(row);
    if (static_cast<slong>(r.size()) != D) throw std::invalid_argument("instance: each row of U must have D entries");
    f.x0.insert(f.x0.end(), r.begin(), r.end());
  }
  f.T = f.d = D;
  f.x0.insert(f.x0.end(), a.begin(), a.end());
  f.x0.push_back(Ball(0));
  return f;
}

namespace {

// The field on series, with what Df needs: U, a, α, r, ρ, q and e^m.
class TiedSeries : public SeriesField {
 public:
  TiedSeries(const Field& F, const std::vector<Poly>& x, slong len) : F_(F), x_(x) {
    const slong D = F.T, A = F.a_offset();
    std::vector<Poly> z(D);
    for (slong i = 0; i < D; ++i)
      for (slong j = 0; j < D; ++j) z[i] = add(z[i], mul(x[i * D + j], x[A + j], len));
    alpha_.resize(D);
    r_.resize(D);
    q_.resize(D);
    for (slong i = 0; i < D; ++i) {
      Poly sum(Ball(1));
      for (slong j = 0; j < D; ++j)
        if (j != i) sum = add(sum, exp_series(sub(z[j], z[i]), len));
      alpha_[i] = inv_series(sum, len);
      for (slong l = 0; l < D; ++l) r_[i] = sub(r_[i], scale(x[l * D + i], F.beta[l]));  // r_i = Σ_l U_li g_l
    }
    for (slong j = 0; j < D; ++j) rho_ = add(rho_, mul(alpha_[j], r_[j], len));
    for (slong i = 0; i < D; ++i) q_[i] = mul(alpha_[i], sub(r_[i], rho_), len);
    e_ = exp_series(sub(Poly(), rho_), len);  // e^m, m = −ρ
    f_.resize(F.n());
    for (slong i = 0; i < D; ++i)
      for (slong j = 0; j < D; ++j) f_[i * D + j] = sub(scale(alpha_[j], F.beta[i]), mul(q_[i], x[A + j], len));
    for (slong k = 0; k < D; ++k) {
      Poly s;
      for (slong i = 0; i < D; ++i) s = add(s, mul(x[i * D + k], q_[i], len));
      f_[A + k] = sub(Poly(), s);
    }
    f_[F.time_index()] = add(Poly(Ball(1)), e_);
  }
  const std::vector<Poly>& values() const override { return f_; }

  // Df(x)·v for v = (dU, da, dt), differentiating each formula above:
  //   dz = dU a + U da,  dα_i = α_i Σ_{j≠i} α_j (dz_i − dz_j),  dr = dUᵀg,  dρ = dαᵀr + αᵀdr,
  //   dq = dα ⊙ (r − ρ1) + α ⊙ (dr − dρ1),
  //   d(dU_ij/dτ) = −(g_i dα_j + dq_i a_j + q_i da_j),  d(da_k/dτ) = −Σ_i (dU_ik q_i + U_ik dq_i),
  //   d(dt/dτ) = e^m dm with dm = ⟨β*, dU α + U dα⟩ = −dρ; nothing depends on t.
  // dα in the pairwise form (= α ⊙ (dz − αᵀdz), as softmax is unchanged by a common shift of z):
  // on the variational series over a box, dz has a large part common to all i that the
  // differences dz_i − dz_j cancel exactly, while in α ⊙ (dz − αᵀdz) it stays, multiplied by the
  // widths of α, and its width then grows with the order k (on the quick suite's D = 3
  // certificate at τ ≈ 4.87 the mean-value matrix's rows came out 10⁶–10⁸ times wider than in the
  // pairwise form, and wider than softcert's own, which differentiates the pairwise softmax).
  std::vector<Poly> derivative(const std::vector<Poly>& v, slong len) const override {
    const slong D = F_.T, A = F_.a_offset();
    const std::vector<Poly>& x = x_;
    std::vector<Poly> dz(D), dalpha(D), dr(D), dq(D);
    Poly drho;
    for (slong i = 0; i < D; ++i) {
      for (slong j = 0; j < D; ++j) dz[i] = add(dz[i], add(mul(v[i * D + j], x[A + j], len), mul(x[i * D + j], v[A + j], len)));
      for (slong l = 0; l < D; ++l) dr[i] = sub(dr[i], scale(v[l * D + i], F_.beta[l]));
    }
    for (slong i = 0; i < D; ++i) {
      Poly s;
      for (slong j = 0; j < D; ++j)
        if (j != i) s = add(s, mul(alpha_[j], sub(dz[i], dz[j]), len));
      dalpha[i] = mul(alpha_[i], s, len);
      drho = add(drho, add(mul(dalpha[i], r_[i], len), mul(alpha_[i], dr[i], len)));
    }
    for (slong i = 0; i < D; ++i)
      dq[i] = add(mul(dalpha[i], sub(r_[i], rho_), len), mul(alpha_[i], sub(dr[i], drho), len));
    std::vector<Poly> out(F_.n());
    for (slong i = 0; i < D; ++i)
      for (slong j = 0; j < D; ++j)
        out[i * D + j] = sub(scale(dalpha[j], F_.beta[i]), add(mul(dq[i], x[A + j], len), mul(q_[i], v[A + j], len)));
    for (slong k = 0; k < D; ++k) {
      Poly s;
      for (slong i = 0; i < D; ++i) s = add(s, add(mul(v[i * D + k], q_[i], len), mul(x[i * D + k], dq[i], len)));
      out[A + k] = sub(Poly(), s);
    }
    out[F_.time_index()] = sub(Poly(), mul(e_, drho, len));
    return out;
  }

 private:
  const Field& F_;
  std::vector<Poly> x_, f_, alpha_, r_, q_;
  Poly rho_, e_;
};

}  // namespace

std::unique_ptr<SeriesField> evaluate_tied(const Field& f, const std::vector<Poly>& x, slong len) {
  return std::make_unique<TiedSeries>(f, x, len);
}

}  // namespace verify
